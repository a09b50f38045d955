//! The secrets of the flow: authorization codes and refresh tokens (opaque, 256 random bits,
//! stored only as SHA-256 like API keys), the PKCE check, and the access token (a JWT the
//! resource server checks without a lookup beyond the credential's, as for minted tokens).

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::RngCore;
use sha2::{Digest, Sha256};

/// An authorization code's prefix (scanners and the scrubber can recognise it).
pub const CODE_PREFIX: &str = "n8v_ac_";
/// A refresh token's prefix.
pub const REFRESH_PREFIX: &str = "n8v_rt_";

/// A new opaque secret with `prefix`.
pub fn generate(prefix: &str) -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    format!("{prefix}{}", URL_SAFE_NO_PAD.encode(bytes))
}

/// What is stored of a secret.
pub fn hash(secret: &str) -> Vec<u8> {
    Sha256::digest(secret.as_bytes()).to_vec()
}

/// Whether `verifier` is the PKCE S256 verifier of `challenge` (RFC 7636 §4.6): 43 to 128
/// unreserved characters whose SHA-256, base64url without padding, is the challenge.
pub fn pkce_matches(verifier: &str, challenge: &str) -> bool {
    let well_formed = (43..=128).contains(&verifier.len())
        && verifier
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~".contains(&b));
    if !well_formed {
        return false;
    }
    let computed = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
    // Both are public-length strings; compared in constant time anyway.
    computed.len() == challenge.len()
        && computed
            .bytes()
            .zip(challenge.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

/// Whether `challenge` can be an S256 challenge (43 base64url characters).
pub fn challenge_well_formed(challenge: &str) -> bool {
    challenge.len() == 43
        && challenge
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rfc_7636_example_verifies() {
        // RFC 7636, appendix B.
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
        assert!(challenge_well_formed(challenge));
        assert!(pkce_matches(verifier, challenge));
        assert!(!pkce_matches(
            "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXX",
            challenge
        ));
        assert!(!pkce_matches("short", challenge));
    }

    #[test]
    fn secrets_differ_and_hash_apart() {
        let a = generate(CODE_PREFIX);
        let b = generate(CODE_PREFIX);
        assert!(a.starts_with(CODE_PREFIX) && a.len() == CODE_PREFIX.len() + 43);
        assert_ne!(a, b);
        assert_ne!(hash(&a), hash(&b));
    }
}
