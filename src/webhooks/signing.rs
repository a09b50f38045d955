//! Standard Webhooks signing: a secret is `whsec_` and the base64 of 24 random bytes; a
//! delivery is signed with HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`, and the
//! `webhook-signature` header carries `v1,<base64>` for each secret still signing (the newest
//! first), separated by spaces, as the specification allows during a rotation.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;

const PREFIX: &str = "whsec_";
const SECRET_BYTES: usize = 24;

/// A fresh secret, `whsec_<base64>`.
pub fn generate() -> String {
    let bytes: [u8; SECRET_BYTES] = rand::random();
    format!("{PREFIX}{}", STANDARD.encode(bytes))
}

/// The key a secret stands for: the bytes after `whsec_`. `None` for a secret not written so.
fn key(secret: &str) -> Option<Vec<u8>> {
    STANDARD.decode(secret.strip_prefix(PREFIX)?).ok()
}

/// One `v1,<base64>` signature of `body` under `secret`.
pub fn signature(secret: &str, id: &str, timestamp: i64, body: &[u8]) -> Option<String> {
    let key = key(secret)?;
    let mut message = Vec::with_capacity(body.len() + id.len() + 24);
    message.extend_from_slice(id.as_bytes());
    message.push(b'.');
    message.extend_from_slice(timestamp.to_string().as_bytes());
    message.push(b'.');
    message.extend_from_slice(body);
    let mac = crate::crypto::hmac_sha256(&key, &message);
    Some(format!("v1,{}", STANDARD.encode(mac)))
}

/// The `webhook-signature` header: a signature under each of `secrets`, space-separated.
pub fn header<'a>(
    secrets: impl IntoIterator<Item = &'a str>,
    id: &str,
    timestamp: i64,
    body: &[u8],
) -> String {
    secrets
        .into_iter()
        .filter_map(|s| signature(s, id, timestamp, body))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example of the Standard Webhooks reference libraries' tests.
    #[test]
    fn signs_as_the_reference_libraries_do() {
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        let body = br#"{"test": 2432232314}"#;
        let signed = signature(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body);
        assert_eq!(
            signed.as_deref(),
            Some("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        );
    }

    #[test]
    fn secrets_are_prefixed_base64_and_differ() {
        let (a, b) = (generate(), generate());
        assert_ne!(a, b);
        assert_eq!(key(&a).map(|k| k.len()), Some(SECRET_BYTES));
        let both = header([a.as_str(), b.as_str()], "evt_1", 1, b"{}");
        assert_eq!(both.split(' ').count(), 2);
        assert!(both.split(' ').all(|s| s.starts_with("v1,")));
    }
}
