//! CSRF tokens: an HMAC-SHA256 of the cookie the form is posted with, under a key derived from
//! `N8V_JWT_SECRET` (random per process without one, like the tokens). A page embeds the token
//! in every state-changing form; a post whose token does not match its own cookie is refused.
//! Another site can neither read the token nor (`SameSite=Strict`) send the cookie.

use crate::config::Config;
use crate::crypto::hmac_sha256;
use sha2::{Digest, Sha256};
use std::sync::Arc;

#[derive(Clone)]
pub struct CsrfKey(Arc<[u8; 32]>);

impl CsrfKey {
    pub fn from_config(config: &Config) -> Self {
        let secret = match &config.jwt_secret {
            Some(s) => s.expose().as_bytes().to_vec(),
            None => crate::auth::keys::generate().into_bytes(),
        };
        let mut hasher = Sha256::new();
        hasher.update(b"n8v-journal csrf\0");
        hasher.update(&secret);
        Self(Arc::new(hasher.finalize().into()))
    }

    /// The token for forms posted with this cookie value.
    pub fn token(&self, anchor: &str) -> String {
        hex::encode(hmac_sha256(&self.0[..], anchor.as_bytes()))
    }

    /// Whether `token` is this cookie's token (compared in constant time).
    pub fn verify(&self, anchor: &str, token: &str) -> bool {
        let expected = self.token(anchor);
        expected.len() == token.len()
            && expected
                .bytes()
                .zip(token.bytes())
                .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_verifies_only_for_its_own_cookie() {
        let key = CsrfKey(Arc::new([7; 32]));
        let token = key.token("cookie-a");
        assert!(key.verify("cookie-a", &token));
        assert!(!key.verify("cookie-b", &token));
        assert!(!key.verify("cookie-a", ""));
    }
}
