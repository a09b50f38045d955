//! What a call says about itself: its purpose, the assistant making it, and the shape (never
//! the values) of its input. Parsed once at the edge.

use crate::scrub::{clean_text, scrub};
use serde_json::{Map, Value};

pub const MAX_PURPOSE_CHARS: usize = 500;
pub const MAX_ASSISTANT_CHARS: usize = 100;
pub const MAX_TEXT_CHARS: usize = 2000;

/// Why a call was made, from `X-Purpose` or the MCP `purpose` argument; scrubbed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Purpose(String);

impl Purpose {
    /// `Ok(None)` for an absent or blank purpose; `Err` says what is wrong with a bad one.
    pub fn parse(raw: Option<&str>) -> Result<Option<Self>, String> {
        let Some(raw) = raw.map(str::trim).filter(|r| !r.is_empty()) else {
            return Ok(None);
        };
        let text = single_line(raw, MAX_PURPOSE_CHARS, "the purpose")?;
        Ok(Some(Purpose(text)))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The conversation's session (`X-Session-Id` or the MCP `session` argument): blank means
/// none; anything else must have the shape of a session id. Whether it is the caller's own,
/// open session is checked later, in the tenant transaction.
pub fn session_arg(raw: Option<&str>) -> Result<Option<&str>, String> {
    match raw.map(str::trim).filter(|s| !s.is_empty()) {
        Some(s) if crate::ids::parse(crate::ids::Kind::Session, s).is_none() => Err(format!(
            "{s:?} is not a session id (ses_…); omit it to let the service pick one"
        )),
        other => Ok(other),
    }
}

/// A goal or outcome: up to 2,000 characters, newlines allowed, credentials scrubbed.
pub fn parse_text(raw: Option<&str>, what: &str) -> Result<Option<String>, String> {
    let Some(raw) = raw.map(str::trim).filter(|r| !r.is_empty()) else {
        return Ok(None);
    };
    if raw.chars().count() > MAX_TEXT_CHARS {
        return Err(format!(
            "{what} must be at most {MAX_TEXT_CHARS} characters"
        ));
    }
    if raw
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
    {
        return Err(format!("{what} must not contain control characters"));
    }
    Ok(Some(clean_text(raw)))
}

fn single_line(raw: &str, max: usize, what: &str) -> Result<String, String> {
    if raw.chars().count() > max {
        return Err(format!("{what} must be at most {max} characters"));
    }
    if raw.chars().any(char::is_control) {
        return Err(format!(
            "{what} must be one line without control characters"
        ));
    }
    Ok(clean_text(raw))
}

/// The assistant: `X-Assistant` when given, else the `User-Agent`, else `unknown`.
pub fn assistant(x_assistant: Option<&str>, user_agent: Option<&str>) -> String {
    let pick = x_assistant
        .or(user_agent)
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .unwrap_or("unknown");
    // Scrubbed whole, then cut: a token cut first would no longer be recognised.
    let visible: String = pick.chars().filter(|c| !c.is_control()).collect();
    clean_text(&visible)
        .chars()
        .take(MAX_ASSISTANT_CHARS)
        .collect()
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
            assistant(Some("Claude Code"), Some("curl/8")),
            "Claude Code"
        );
        assert_eq!(assistant(None, Some("curl/8")), "curl/8");
        assert_eq!(assistant(None, None), "unknown");
    }
}
