//! External identifiers: a short prefix naming the kind, then the UUIDv7 in Crockford base32
//! (26 characters), e.g. `ses_01J9ZQ3K8X7M2N4P5R6S7T8V9W`. Inside, everything is a `Uuid`.

use uuid::Uuid;

const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Account,
    Organization,
    Key,
    Session,
    Call,
    Record,
    Entry,
    Audit,
}

impl Kind {
    pub const fn prefix(self) -> &'static str {
        match self {
            Kind::Account => "acc",
            Kind::Organization => "org",
            Kind::Key => "key",
            Kind::Session => "ses",
            Kind::Call => "call",
            Kind::Record => "rec",
            Kind::Entry => "ent",
            Kind::Audit => "aud",
        }
    }

    pub const fn noun(self) -> &'static str {
        match self {
            Kind::Account => "account",
            Kind::Organization => "organization",
            Kind::Key => "key",
            Kind::Session => "session",
            Kind::Call => "journal entry",
            Kind::Record => "Record",
            Kind::Entry => "Record entry",
            Kind::Audit => "audit entry",
        }
    }
}

pub fn new_id() -> Uuid {
    Uuid::now_v7()
}

pub fn format(kind: Kind, id: Uuid) -> String {
    let mut n = id.as_u128();
    let mut out = [0u8; 26];
    for slot in out.iter_mut().rev() {
        *slot = ALPHABET[(n & 31) as usize];
        n >>= 5;
    }
    let body = std::str::from_utf8(&out).expect("alphabet is ASCII");
    format!("{}_{body}", kind.prefix())
}

/// Parses `prefix_BASE32` of the given kind; `None` for anything else.
pub fn parse(kind: Kind, text: &str) -> Option<Uuid> {
    let body = text.strip_prefix(kind.prefix())?.strip_prefix('_')?;
    if body.len() != 26 {
        return None;
    }
    let mut n: u128 = 0;
    for (i, c) in body.bytes().enumerate() {
        let v = decode_char(c)? as u128;
        if i == 0 && v > 7 {
            return None; // 26 chars carry 130 bits; the first may use only 3
        }
        n = (n << 5) | v;
    }
    Some(Uuid::from_u128(n))
}

fn decode_char(c: u8) -> Option<u8> {
    let c = c.to_ascii_uppercase();
    let c = match c {
        b'O' => b'0',
        b'I' | b'L' => b'1',
        other => other,
    };
    ALPHABET.iter().position(|&a| a == c).map(|p| p as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_rejects_other_kinds() {
        for _ in 0..100 {
            let id = new_id();
            let text = format(Kind::Session, id);
            assert!(text.starts_with("ses_") && text.len() == 30, "{text}");
            assert_eq!(parse(Kind::Session, &text), Some(id));
            assert_eq!(parse(Kind::Call, &text), None);
        }
        assert_eq!(parse(Kind::Session, "ses_"), None);
        assert_eq!(parse(Kind::Session, "ses_ZZZZZZZZZZZZZZZZZZZZZZZZZZ"), None);
        assert_eq!(parse(Kind::Session, "ses_01J9ZQ3K8X7M2N4P5R6S7T8V9U"), None);
    }

    #[test]
    fn ids_sort_by_creation_time() {
        let a = format(Kind::Call, new_id());
        std::thread::sleep(std::time::Duration::from_millis(2));
        let b = format(Kind::Call, new_id());
        assert!(a < b);
    }
}
