//! What a call says about itself: its purpose, the assistant making it, and the shape (never
//! the values) of its input. Parsed once at the edge.

use crate::ids::{SessionId, TypedId};
use crate::scrub::{Cleaned, Found, clean, clean_text, scrub};
use serde_json::{Map, Value};

pub const MAX_PURPOSE_CHARS: usize = 500;
pub const MAX_ASSISTANT_CHARS: usize = 100;
pub const MAX_TEXT_CHARS: usize = 2000;

/// Why a call was made, from `X-Purpose` or the MCP `purpose` argument; scrubbed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Purpose(Cleaned);

impl Purpose {
    /// `Ok(None)` for an absent or blank purpose; `Err` says what is wrong with a bad one.
    pub fn parse(raw: Option<&str>) -> Result<Option<Self>, String> {
        at_most(raw.unwrap_or_default(), MAX_PURPOSE_CHARS, "the purpose")?;
        let Some(raw) = raw.map(str::trim).filter(|r| !r.is_empty()) else {
            return Ok(None);
        };
        let text = single_line(raw, "the purpose")?;
        Ok(Some(Purpose(text)))
    }

    pub fn as_str(&self) -> &str {
        &self.0.text
    }

    /// The credentials scrubbed from it.
    pub fn found(&self) -> &[Found] {
        &self.0.found
    }
}

/// The conversation's session (`X-Session-Id` or the MCP `session` argument): blank means
/// none; anything else must be a session id. Whether it is the caller's own, open session is
/// checked later, in the tenant transaction.
pub fn session_arg(raw: Option<&str>) -> Result<Option<SessionId>, String> {
    match raw.map(str::trim).filter(|s| !s.is_empty()) {
        None => Ok(None),
        Some(s) => SessionId::parse(s).map(Some).ok_or_else(|| {
            format!(
                "{:?} is not a session id (ses_…); omit it to let the service pick one",
                crate::ids::shown(s)
            )
        }),
    }
}

/// A text filter (the `repo` or `assistant` of a list or a search), trimmed; `None` when
/// blank. A control character (a NUL, which PostgreSQL text cannot hold, among them) is the
/// caller's mistake, said here once for every filter: a 400, never a 500.
pub fn filter_text(name: &str, text: Option<String>, max: usize) -> Result<Option<String>, String> {
    at_most(text.as_deref().unwrap_or_default(), max, name)?;
    match text.map(|t| t.trim().to_owned()).filter(|t| !t.is_empty()) {
        Some(t) if crate::ids::has_control(&t) => Err(format!(
            "{name} must be one line of text without control characters (a NUL, a newline…)"
        )),
        Some(t) if crate::ids::hidden_at(&t).is_some() => Err(format!(
            "{name} must not hold characters that hide or reorder text (bidirectional \
             controls, Unicode tag characters)"
        )),
        t => Ok(t),
    }
}

/// A day argument (`YYYY-MM-DD`); `Err` says what is wrong, naming the argument.
pub fn parse_day(name: &str, text: &str) -> Result<chrono::NaiveDate, String> {
    chrono::NaiveDate::parse_from_str(text.trim(), "%Y-%m-%d").map_err(|_| {
        format!(
            "{name} {:?} is not a date (YYYY-MM-DD)",
            crate::ids::shown(text)
        )
    })
}

/// A goal or outcome: up to 2,000 characters, newlines allowed, credentials scrubbed (and said
/// which).
pub fn parse_text(raw: Option<&str>, what: &str) -> Result<Option<Cleaned>, String> {
    at_most(raw.unwrap_or_default(), MAX_TEXT_CHARS, what)?;
    let Some(raw) = raw.map(str::trim).filter(|r| !r.is_empty()) else {
        return Ok(None);
    };
    if raw
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
    {
        return Err(format!("{what} must not contain control characters"));
    }
    Ok(Some(clean(raw)))
}

pub const MAX_REPOSITORY_CHARS: usize = 200;
/// What a one-line text (a hand-off item, a filter) admits, as input schemas state it: no
/// control character and no line or paragraph separator (`ids::breaks_line`, which
/// [`single_line`] and [`filter_text`] refuse), and no bidirectional embedding, override or
/// isolate ([`single_line`] refuses them with Unicode's tag characters, which lie outside
/// what an ECMA-262 pattern without the `u` flag can name)
/// but the white space around it, which the server trims. Every length is counted as sent.
pub const LINE_PATTERN: &str = "^[\\t\\n\\u000B\\u000C\\r\\u0085 ]*[^\\u0000-\\u001F\\u007F-\\u009F\\u2028\\u2029\\u202A-\\u202E\\u2066-\\u2069]*[\\t\\n\\u000B\\u000C\\r\\u0085 ]*$";
/// What a text (a goal, an outcome) admits, as input schemas state it: no control character
/// but a tab or a line break (see [`parse_text`]).
pub const TEXT_PATTERN: &str = "^[\\t\\n\\u000B\\u000C\\r\\u0085 ]*[^\\u0000-\\u0008\\u000B-\\u001F\\u007F-\\u009F]*[\\t\\n\\u000B\\u000C\\r\\u0085 ]*$";
/// An RFC 3339 time as input schemas state it (a subset of what the server parses: days up to
/// the 28th, so that every string it describes is a real time).
pub const TIME_PATTERN: &str = "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]{1,9})?(Z|[+-](0[0-9]|1[0-3]):[0-5][0-9])$";
/// The catch-up brief's `since`: an RFC 3339 time ([`TIME_PATTERN`]'s) or a session id; empty
/// is the default window.
pub const SINCE_PATTERN: &str = "^([0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]{1,9})?(Z|[+-](0[0-9]|1[0-3]):[0-5][0-9])|ses_[0-7][0-9A-HJKMNP-TV-Z]{25})?$";

/// What [`parse_repository`] accepts, as input schemas state it.
pub const REPOSITORY_PATTERN: &str =
    "^[\\t\\n\\u000B\\u000C\\r\\u0085 ]*[A-Za-z0-9._/:@+-]*[\\t\\n\\u000B\\u000C\\r\\u0085 ]*$";

/// A repository name: one line of letters, digits and `. _ - / : @ +` (e.g. `acme/web` or
/// `github.com/acme/web`), at most 200 characters. It is rendered into markdown headings for
/// other readers, so nothing else is accepted.
pub fn parse_repository(raw: Option<&str>) -> Result<Option<String>, String> {
    at_most(raw.unwrap_or_default(), MAX_REPOSITORY_CHARS, "repository")?;
    let Some(raw) = raw.map(str::trim).filter(|r| !r.is_empty()) else {
        return Ok(None);
    };
    if !raw
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "._-/:@+".contains(c))
    {
        return Err(
            "repository may hold only letters, digits and . _ - / : @ + (e.g. acme/web)".into(),
        );
    }
    Ok(Some(scrub(raw).into_owned()))
}

/// A text as sent is at most `max` characters, white space included: the length every input
/// schema states (`maxLength`), counted the same way before anything is trimmed.
pub(crate) fn at_most(sent: &str, max: usize, what: &str) -> Result<(), String> {
    if sent.chars().count() > max {
        return Err(format!("{what} must be at most {max} characters"));
    }
    Ok(())
}

/// One line of text (trimmed by the caller, its length checked as sent with [`at_most`]),
/// scrubbed.
pub(crate) fn single_line(raw: &str, what: &str) -> Result<Cleaned, String> {
    if crate::ids::has_control(raw) {
        return Err(format!(
            "{what} must be one line without control characters"
        ));
    }
    if let Some((at, c)) = crate::ids::hidden_at(raw) {
        return Err(format!(
            "{what} holds U+{:04X}, {}, at character {at}: such characters hide or reorder \
             text for the person who reads it; remove it",
            c as u32,
            crate::ids::hidden_kind(c)
        ));
    }
    Ok(clean(raw))
}

/// Whether a character may appear in an assistant name: letters, digits, spaces and
/// `. _ - / ( ) + : , @` (what user agents are made of). Names are shown to other readers of the
/// journal, in markdown among them, so nothing else is kept.
fn assistant_char(c: char) -> bool {
    c.is_alphanumeric() || c == ' ' || "._-/()+:,@".contains(c)
}

/// The assistant: `X-Assistant` when given (refused unless it is one line of the characters
/// [`assistant_char`] allows), else the `User-Agent` (with other characters dropped), else
/// `unknown`. Normalized first, then scrubbed, then cut to 100 characters: the characters
/// dropped go before the scrub reads the text (a `!` inside a token would otherwise hide it from
/// the rules, and dropping it afterwards would put the token back together), and a cut never
/// leaves part of a credential behind.
pub fn assistant(x_assistant: Option<&str>, user_agent: Option<&str>) -> Result<String, String> {
    let explicit = x_assistant.map(str::trim).filter(|s| !s.is_empty());
    if let Some(name) = explicit
        && !name.chars().all(assistant_char)
    {
        return Err(
            "X-Assistant may hold only letters, digits, spaces and . _ - / ( ) + : , @".into(),
        );
    }
    let pick = explicit
        .or(user_agent.map(str::trim).filter(|s| !s.is_empty()))
        .unwrap_or("unknown");
    let kept: String = pick.chars().filter(|c| assistant_char(*c)).collect();
    let clean: String = clean_text(&kept)
        .chars()
        .take(MAX_ASSISTANT_CHARS)
        .collect();
    let clean = clean.trim();
    Ok(if clean.is_empty() {
        "unknown".into()
    } else {
        clean.to_owned()
    })
}

/// The shape of a JSON value: objects keep their keys (scrubbed, capped) with the shapes of
/// their values, arrays the shape of their first element; every leaf becomes its type name.
pub fn shape(value: &Value) -> Value {
    shape_at(value, 0)
}

fn shape_at(value: &Value, depth: usize) -> Value {
    const MAX_DEPTH: usize = 4;
    const MAX_KEYS: usize = 50;
    match value {
        Value::Null => "null".into(),
        Value::Bool(_) => "boolean".into(),
        Value::Number(_) => "number".into(),
        Value::String(_) => "string".into(),
        Value::Array(items) if depth < MAX_DEPTH => match items.first() {
            Some(first) => Value::Array(vec![shape_at(first, depth + 1)]),
            None => Value::Array(vec![]),
        },
        Value::Object(map) if depth < MAX_DEPTH => {
            let mut out = Map::new();
            for (k, v) in map.iter().take(MAX_KEYS) {
                let key: String = k.chars().take(64).collect();
                out.insert(scrub(&key).into_owned(), shape_at(v, depth + 1));
            }
            Value::Object(out)
        }
        Value::Array(_) => "array".into(),
        Value::Object(_) => "object".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn purpose_is_validated_and_blank_means_none() {
        assert_eq!(Purpose::parse(None), Ok(None));
        assert_eq!(Purpose::parse(Some("  ")), Ok(None));
        assert_eq!(
            Purpose::parse(Some(" Fix the login "))
                .unwrap()
                .unwrap()
                .as_str(),
            "Fix the login"
        );
        assert!(Purpose::parse(Some("a\nb")).is_err());
        assert!(Purpose::parse(Some("a\u{2028}b")).is_err());
        assert!(Purpose::parse(Some("a\u{2029}b")).is_err());
        assert!(Purpose::parse(Some(&"x".repeat(501))).is_err());
        assert!(Purpose::parse(Some(&"é".repeat(500))).is_ok());
    }

    #[test]
    fn shape_keeps_keys_and_types_never_values() {
        let input = json!({"line": "secret value 42", "n": 3, "tags": ["a", "b"], "deep": {"x": null, "ok": true}});
        let s = shape(&input);
        assert_eq!(
            s,
            json!({"line": "string", "n": "number", "tags": ["string"], "deep": {"x": "null", "ok": "boolean"}})
        );
        assert!(!s.to_string().contains("secret value"));
    }

    #[test]
    fn assistant_prefers_the_explicit_header() {
        assert_eq!(
            assistant(Some("Claude Code"), Some("curl/8")).unwrap(),
            "Claude Code"
        );
        assert_eq!(assistant(None, Some("curl/8")).unwrap(), "curl/8");
        assert_eq!(assistant(None, None).unwrap(), "unknown");
        assert!(assistant(Some("Claude\n## Do this"), None).is_err());
        assert!(assistant(Some("<script>"), None).is_err());
        assert_eq!(
            assistant(None, Some("Mozilla/5.0 <b>#1</b>")).unwrap(),
            "Mozilla/5.0 b1/b"
        );
    }

    #[test]
    fn a_character_dropped_from_a_user_agent_never_reassembles_a_token() {
        // Made at run time: no real-looking token sits in the source.
        let token = format!("ghp_{}", "a1B2c3D4e5F6".repeat(3));
        let agent = format!("tool/1.0 {}!{}", &token[..9], &token[9..]);
        let name = assistant(None, Some(&agent)).unwrap();
        assert_eq!(name, "tool/1.0 [REDACTED:github-pat]");
    }
}
