//! SCRAM-SHA-256 verifiers, computed here so a role's password never travels in a statement:
//! `CREATE ROLE … PASSWORD '<verifier>'` stores the verifier as given (PostgreSQL recognises
//! the format and does not hash it again), and whoever reads the statement (a log line, the
//! server's `log_statement`) holds nothing to log in with.
//!
//! The format is PostgreSQL's `pg_authid.rolpassword` (RFC 5802 and 7677):
//! `SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>`, base64. HMAC and the one block
//! of PBKDF2 SCRAM needs are written out over `sha2` (the crate already used), as RFC 2104
//! and RFC 8018 give them; the tests check them against the RFCs' vectors.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use sha2::{Digest, Sha256};

/// PostgreSQL's default (`scram_iterations`).
const ITERATIONS: u32 = 4096;

/// The verifier of `password` under a fresh random salt. `password` must need no SASLprep
/// normalisation (ASCII without control characters, as the derived passwords are hex).
pub fn verifier(password: &str) -> String {
    verifier_with(password, &rand::random::<[u8; 16]>(), ITERATIONS)
}

fn verifier_with(password: &str, salt: &[u8], iterations: u32) -> String {
    let salted = hi(password.as_bytes(), salt, iterations);
    let client_key = hmac(&salted, b"Client Key");
    let stored_key: [u8; 32] = Sha256::digest(client_key).into();
    let server_key = hmac(&salted, b"Server Key");
    format!(
        "SCRAM-SHA-256${iterations}:{}${}:{}",
        BASE64.encode(salt),
        BASE64.encode(stored_key),
        BASE64.encode(server_key)
    )
}

/// HMAC-SHA-256 (RFC 2104; SHA-256's block is 64 bytes).
fn hmac(key: &[u8], message: &[u8]) -> [u8; 32] {
    let mut block = [0u8; 64];
    if key.len() > 64 {
        block[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let mut inner = Sha256::new();
    inner.update(block.map(|b| b ^ 0x36));
    inner.update(message);
    let mut outer = Sha256::new();
    outer.update(block.map(|b| b ^ 0x5c));
    outer.update(inner.finalize());
    outer.finalize().into()
}

/// SCRAM's `Hi`: PBKDF2-HMAC-SHA-256's first (and, for a 32-byte key, only) block.
fn hi(password: &[u8], salt: &[u8], iterations: u32) -> [u8; 32] {
    let mut u = hmac(password, &[salt, &1u32.to_be_bytes()].concat());
    let mut out = u;
    for _ in 1..iterations {
        u = hmac(password, &u);
        out.iter_mut().zip(u).for_each(|(o, x)| *o ^= x);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_matches_rfc_4231() {
        // Test cases 1 and 6 (a key longer than the block).
        assert_eq!(
            hex::encode(hmac(&[0x0b; 20], b"Hi There")),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        );
        assert_eq!(
            hex::encode(hmac(
                &[0xaa; 131],
                b"Test Using Larger Than Block-Size Key - Hash Key First"
            )),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        );
    }

    #[test]
    fn hi_matches_pbkdf2_hmac_sha256() {
        // RFC 7914 section 11's PBKDF2-HMAC-SHA-256 vector, first 32 bytes.
        assert_eq!(
            hex::encode(hi(b"passwd", b"salt", 1)),
            "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
        );
    }

    #[test]
    fn the_verifier_has_postgresqls_format() {
        // Whether PostgreSQL accepts it is shown by logging in with it (tests/api/roles.rs).
        let salt = BASE64.decode("W22ZaJ0SNY7soEsUEjb6gQ==").unwrap();
        let verifier = verifier_with("pencil", &salt, 4096);
        let (head, keys) = verifier.rsplit_once('$').unwrap();
        assert_eq!(head, "SCRAM-SHA-256$4096:W22ZaJ0SNY7soEsUEjb6gQ==");
        let (stored_key, server_key) = keys.split_once(':').unwrap();
        assert_eq!(BASE64.decode(stored_key).unwrap().len(), 32);
        assert_eq!(BASE64.decode(server_key).unwrap().len(), 32);
        assert_ne!(
            verifier,
            super::verifier("pencil"),
            "a fresh salt each time"
        );
        assert!(!verifier.contains("pencil"));
    }
}
