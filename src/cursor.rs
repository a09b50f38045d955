//! Opaque paging cursors: a timestamp and an id, base64url-encoded. Clients pass back the
//! `next_cursor` they were given and never build one.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::{DateTime, Utc};
use uuid::Uuid;

/// The longest cursor an input schema admits: far above any `next_cursor` (about 70
/// characters), so a client passing one back is never refused by its length.
pub const MAX_CHARS: usize = 200;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cursor {
    pub at: DateTime<Utc>,
    pub id: Uuid,
}

impl Cursor {
    pub fn encode(&self) -> String {
        URL_SAFE_NO_PAD.encode(format!(
            "{}:{}",
            self.at.timestamp_micros(),
            self.id.simple()
        ))
    }

    pub fn decode(text: &str) -> Result<Self, String> {
        let bad = || format!("cursor {text:?} is not a next_cursor this endpoint returned");
        let raw = URL_SAFE_NO_PAD.decode(text).map_err(|_| bad())?;
        let raw = String::from_utf8(raw).map_err(|_| bad())?;
        let (micros, id) = raw.split_once(':').ok_or_else(bad)?;
        let at = micros
            .parse()
            .ok()
            .and_then(DateTime::from_timestamp_micros)
            .ok_or_else(bad)?;
        let id = Uuid::parse_str(id).map_err(|_| bad())?;
        Ok(Cursor { at, id })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_rejects_garbage() {
        let c = Cursor {
            at: DateTime::from_timestamp_micros(1_780_000_000_123_456).unwrap(),
            id: Uuid::now_v7(),
        };
        assert_eq!(Cursor::decode(&c.encode()), Ok(c));
        assert!(Cursor::decode("zzz").is_err());
        assert!(Cursor::decode(&URL_SAFE_NO_PAD.encode("1:nope")).is_err());
    }
}
