//! API keys: `n8v_sk_` + 43 base64url characters (256 random bits). The prefix lets secret
//! scanners and our own scrubber recognise them; only the SHA-256 of the token is stored
//! (the token is high-entropy, so a slow hash buys nothing).

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::RngCore;
use sha2::{Digest, Sha256};

pub const KEY_PREFIX: &str = "n8v_sk_";

pub fn generate() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    format!("{KEY_PREFIX}{}", URL_SAFE_NO_PAD.encode(bytes))
}

pub fn hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// Cheap shape check before any database work.
pub fn looks_like_key(token: &str) -> bool {
    token.strip_prefix(KEY_PREFIX).is_some_and(|rest| {
        rest.len() == 43
            && rest
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_keys_have_the_shape_and_differ() {
        let a = generate();
        let b = generate();
        assert!(looks_like_key(&a) && looks_like_key(&b));
        assert_ne!(a, b);
        assert_ne!(hash(&a), hash(&b));
        assert!(!looks_like_key("n8v_sk_short"));
    }
}
