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
    Digest,
    Item,
    Exposure,
    Webhook,
    Event,
    Delivery,
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
            Kind::Digest => "dig",
            Kind::Item => "itm",
            Kind::Exposure => "exp",
            Kind::Webhook => "whk",
            Kind::Event => "evt",
            Kind::Delivery => "dlv",
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
            Kind::Digest => "digest",
            Kind::Item => "item",
            Kind::Exposure => "exposure",
            Kind::Webhook => "webhook endpoint",
            Kind::Event => "webhook event",
            Kind::Delivery => "webhook delivery",
        }
    }

    /// The noun with its article, as a message names it: `an account`, `a session`.
    pub fn a_noun(self) -> String {
        let noun = self.noun();
        let vowel = noun.starts_with(['a', 'e', 'i', 'o', 'u', 'A', 'E', 'I', 'O', 'U']);
        format!("{} {noun}", if vowel { "an" } else { "a" })
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

/// Caller text as it may be shown back (in an error) or kept (as a refused target): each
/// control character replaced by `�` (PostgreSQL text cannot hold a NUL, and what is kept is
/// one line), credentials scrubbed, then its first 40 characters, `…` when cut. Never the whole
/// of an oversized argument, and never the start of a credential too long to be recognised
/// once cut.
pub fn shown(text: &str) -> String {
    shown_found(text).0
}

/// Whether caller text holds a control character (a NUL, a newline, an escape…) or another
/// character that breaks a line ([`breaks_line`]): never part of an id, a filter or a one-line
/// text, so a 400 wherever one is parsed.
pub fn has_control(text: &str) -> bool {
    text.chars().any(breaks_line)
}

/// A character that hides or reorders text for the person who reads it: a Unicode tag
/// character (U+E0000–U+E007F, invisible, able to spell a whole instruction), or a
/// bidirectional embedding, override or isolate (U+202A–U+202E, U+2066–U+2069). Left-to-right
/// and right-to-left marks (U+200E, U+200F) and the joiners (U+200C, U+200D) are ordinary in
/// Persian, emoji and right-to-left text, and are not among them.
pub fn hides_text(c: char) -> bool {
    matches!(c, '\u{E0000}'..='\u{E007F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// The first character of `text` that [`hides_text`], with its position (1 for the first
/// character, counted in characters).
pub fn hidden_at(text: &str) -> Option<(usize, char)> {
    text.chars()
        .enumerate()
        .find(|(_, c)| hides_text(*c))
        .map(|(i, c)| (i + 1, c))
}

/// What a character that [`hides_text`] is, for an error message.
pub fn hidden_kind(c: char) -> &'static str {
    match c {
        '\u{E0000}'..='\u{E007F}' => "a Unicode tag character",
        '\u{2066}'..='\u{2069}' => "a bidirectional isolate",
        '\u{202D}' | '\u{202E}' => "a bidirectional override",
        _ => "a bidirectional embedding",
    }
}

/// A control character, or Unicode's line or paragraph separator (U+2028, U+2029), which split
/// a line in markdown and in most editors as a newline does.
pub fn breaks_line(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
}

/// [`shown`], with the credentials the scrub removed.
fn shown_found(text: &str) -> (String, Vec<crate::scrub::Found>) {
    const SHOWN: usize = 40;
    // Control characters replaced, not removed: what is shown keeps the shape of what was
    // sent, and no two pieces of it are joined into something that was not. Then normalized
    // (format characters out), then scrubbed, then cut: a zero-width space inside a token
    // would otherwise hide it from the rules and be removed later, where the text is stored,
    // putting the token back together.
    let line: std::borrow::Cow<str> = if has_control(text) {
        text.chars()
            .map(|c| if c.is_control() { '\u{FFFD}' } else { c })
            .collect::<String>()
            .into()
    } else {
        text.into()
    };
    let scrubbed = crate::scrub::clean(&line);
    let mut shown: String = scrubbed.text.chars().take(SHOWN).collect();
    if scrubbed.text.chars().count() > SHOWN {
        shown.push('…');
    }
    (shown, scrubbed.found)
}

/// An id the caller named that is not one of ours: kept short, never stored in full.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadId {
    kind: Kind,
    shown: String,
    found: Vec<crate::scrub::Found>,
    control: bool,
}

impl BadId {
    fn new(kind: Kind, text: &str) -> Self {
        let (shown, found) = shown_found(text);
        Self {
            kind,
            shown,
            found,
            control: has_control(text),
        }
    }

    /// What was sent holds a control character: malformed (a 400), not merely no id of ours
    /// (a 404).
    pub fn malformed(&self) -> bool {
        self.control
    }

    /// What the journal keeps as the call's target: the shortened text.
    pub fn shown(&self) -> &str {
        &self.shown
    }

    /// The credentials scrubbed from what was sent.
    pub fn found(&self) -> &[crate::scrub::Found] {
        &self.found
    }

    /// The kind of id that was expected.
    pub fn kind(&self) -> Kind {
        self.kind
    }
}

/// An id argument as the caller sent it: ours, or not (then a 404 once the operation runs, so
/// the refused call is journalled like any other).
pub type IdArg<T> = Result<T, BadId>;

/// A typed external id: a `Uuid` inside, `prefix_BASE32` outside (in JSON, the OpenAPI
/// document and the journal).
pub trait TypedId: Copy + Sized {
    const KIND: Kind;
    fn from_uuid(id: Uuid) -> Self;
    fn uuid(self) -> Uuid;

    fn parse(text: &str) -> Option<Self> {
        parse(Self::KIND, text.trim()).map(Self::from_uuid)
    }

    /// The argument form: `Err` keeps a shortened copy for the journal and the 404.
    fn arg(text: &str) -> IdArg<Self> {
        Self::parse(text).ok_or_else(|| BadId::new(Self::KIND, text))
    }
}

macro_rules! typed_id {
    ($(#[$doc:meta])* $name:ident, $kind:expr, $example:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, sqlx::Type)]
        #[sqlx(transparent)]
        pub struct $name(pub Uuid);

        impl TypedId for $name {
            const KIND: Kind = $kind;
            fn from_uuid(id: Uuid) -> Self {
                Self(id)
            }
            fn uuid(self) -> Uuid {
                self.0
            }
        }

        impl From<Uuid> for $name {
            fn from(id: Uuid) -> Self {
                Self(id)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&format($kind, self.0))
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&self.to_string())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
                <$name as TypedId>::parse(&text).ok_or_else(|| {
                    serde::de::Error::custom(format!(
                        "not {} id ({}_…)",
                        $kind.a_noun(),
                        $kind.prefix()
                    ))
                })
            }
        }

        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                utoipa::openapi::ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::Type::String)
                    .description(Some(concat!(
                        "`",
                        $example,
                        "_` followed by 26 Crockford base32 characters (a UUIDv7)."
                    )))
                    .pattern(Some(concat!("^", $example, "_[0-7][0-9A-HJKMNP-TV-Z]{25}$")))
                    .max_length(Some($example.len() + 27))
                    .into()
            }
        }

        impl utoipa::ToSchema for $name {}

        /// The same string schema for MCP tool arguments and operation inputs
        /// (`#[schemars(with = "…")]` on a `String` field read by the operation).
        impl schemars::JsonSchema for $name {
            fn inline_schema() -> bool {
                true
            }
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }
            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!({
                    "type": "string",
                    "pattern": concat!("^", $example, "_[0-7][0-9A-HJKMNP-TV-Z]{25}$"),
                    "maxLength": $example.len() + 27,
                })
            }
        }
    };
}

typed_id!(
    /// An account (`acc_…`).
    AccountId, Kind::Account, "acc"
);
typed_id!(
    /// An organization (`org_…`).
    OrganizationId, Kind::Organization, "org"
);
typed_id!(
    /// An API key (`key_…`); tokens minted from it carry it too.
    KeyId, Kind::Key, "key"
);
typed_id!(
    /// A journal session (`ses_…`).
    SessionId, Kind::Session, "ses"
);
typed_id!(
    /// A journal entry: one call (`call_…`).
    CallId, Kind::Call, "call"
);
typed_id!(
    /// A Record (`rec_…`).
    RecordId, Kind::Record, "rec"
);
typed_id!(
    /// A line put on record (`ent_…`).
    EntryId, Kind::Entry, "ent"
);
typed_id!(
    /// An audit log entry (`aud_…`).
    AuditId, Kind::Audit, "aud"
);
typed_id!(
    /// A week or month digest (`dig_…`).
    DigestId, Kind::Digest, "dig"
);
typed_id!(
    /// An open loop: an open question or next step a session handed on (`itm_…`).
    ItemId, Kind::Item, "itm"
);
typed_id!(
    /// A credential scrubbed from the journal's text, and where it was seen (`exp_…`).
    ExposureId, Kind::Exposure, "exp"
);
typed_id!(
    /// A webhook endpoint: where an account's events are sent (`whk_…`).
    WebhookId, Kind::Webhook, "whk"
);
typed_id!(
    /// A webhook event (`evt_…`): the `webhook-id` every delivery of it carries.
    EventId, Kind::Event, "evt"
);
typed_id!(
    /// One event's delivery to one endpoint (`dlv_…`).
    DeliveryId, Kind::Delivery, "dlv"
);

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
    fn typed_ids_serialise_with_their_prefix_and_refuse_other_kinds() {
        let id = SessionId(new_id());
        let json = serde_json::to_value(id).unwrap();
        assert_eq!(json, serde_json::Value::String(format(Kind::Session, id.0)));
        assert_eq!(
            serde_json::from_value::<SessionId>(json.clone()).unwrap(),
            id
        );
        assert!(serde_json::from_value::<CallId>(json).is_err());
        let long = format!("ses_{}", "x".repeat(5000));
        let bad = SessionId::arg(&long).unwrap_err();
        assert!(bad.shown().chars().count() <= 41, "{}", bad.shown());
        assert_eq!(SessionId::arg(&id.to_string()), Ok(id));
    }

    #[test]
    fn a_control_character_makes_an_id_malformed_and_is_never_kept() {
        for text in ["ses_01\0X", "ses_\n", "\u{1b}[31m", "ses_ab\u{7f}"] {
            let bad = SessionId::arg(text).unwrap_err();
            assert!(bad.malformed(), "{text:?}");
            assert!(!has_control(bad.shown()), "{:?}", bad.shown());
            assert!(bad.shown().contains('\u{FFFD}'), "{:?}", bad.shown());
        }
        let plain = SessionId::arg("ses_nope").unwrap_err();
        assert!(!plain.malformed());
        assert_eq!(plain.shown(), "ses_nope");
        assert_eq!(shown("a\0b"), "a\u{FFFD}b");
    }

    #[test]
    fn a_format_character_inside_a_token_hides_it_from_no_scrub() {
        let token = format!("ghp_{}", "a1B2c3D4e5F6".repeat(3));
        let split = format!("{}\u{200B}{}", &token[..5], &token[5..]);
        let bad = SessionId::arg(&split).unwrap_err();
        assert_eq!(bad.shown(), "[REDACTED:github-pat]");
        assert_eq!(bad.found().len(), 1);
    }

    #[test]
    fn a_bad_id_is_named_with_its_article() {
        assert_eq!(Kind::Account.a_noun(), "an account");
        assert_eq!(Kind::Item.a_noun(), "an item");
        assert_eq!(Kind::Session.a_noun(), "a session");
        let bad = serde_json::from_value::<AccountId>(serde_json::json!("ses_nope"));
        assert_eq!(bad.unwrap_err().to_string(), "not an account id (acc_…)");
    }

    #[test]
    fn ids_sort_by_creation_time() {
        let a = format(Kind::Call, new_id());
        std::thread::sleep(std::time::Duration::from_millis(2));
        let b = format(Kind::Call, new_id());
        assert!(a < b);
    }
}
