//! The caller's context: what a call says about itself (its purpose, its session, the
//! assistant making it) and the request it came in, built once from what an adapter read —
//! REST headers, MCP arguments or a page request — and checked, typed and scrubbed here.

use crate::ids::SessionId;
use crate::journal::exposures::{Exposed, Field};
use crate::journal::meta::{self, Purpose};
use std::fmt;

/// The adapter the call came through.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Via {
    #[default]
    Rest,
    Mcp,
}

/// What the caller said about the call, from headers or tool arguments, already validated.
#[derive(Debug, Default, Clone)]
pub struct CallContext {
    pub via: Via,
    pub purpose: Option<Purpose>,
    pub session: Option<SessionId>,
    pub assistant: String,
    pub targets: Vec<String>,
    pub input_shape: Option<serde_json::Value>,
    pub request_id: String,
    pub method: String,
    pub path: String,
    /// Credentials scrubbed from the purpose and the targets: the call keeps those texts
    /// whether its operation succeeds or fails.
    pub exposed: Vec<Exposed>,
    /// The journal's own traffic (its pages): every call is kept as a journal read, so the
    /// session holding them stays out of the session list, the timeline and the brief, as the
    /// importer's does, and the reads are still recorded.
    pub own: bool,
}

/// What an adapter read of a call, as the text arrived: nothing checked yet.
#[derive(Debug, Default)]
pub struct RawContext<'a> {
    pub via: Via,
    /// `X-Purpose` or the `purpose` argument.
    pub purpose: Option<&'a str>,
    /// `X-Session-Id` or the `session` argument.
    pub session: Option<&'a str>,
    /// `X-Assistant`.
    pub assistant: Option<&'a str>,
    /// `User-Agent`: the assistant when `X-Assistant` is absent.
    pub user_agent: Option<&'a str>,
    /// The shape of the input (keys and types, never values), built by the adapter.
    pub input_shape: Option<serde_json::Value>,
    /// `X-Request-Id` (`-` when absent).
    pub request_id: Option<&'a str>,
    pub method: &'a str,
    /// The path as requested; stored as the audit log keeps paths.
    pub path: &'a str,
    /// See [`CallContext::own`].
    pub own: bool,
}

/// The part of a caller's context that was refused, and why; each adapter words the answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ContextError {
    Purpose(String),
    Session(String),
    Assistant(String),
}

impl fmt::Display for ContextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ContextError::Purpose(e) | ContextError::Session(e) | ContextError::Assistant(e) => {
                f.write_str(e)
            }
        }
    }
}

impl CallContext {
    /// Checks the purpose, then the session argument, then the assistant, and keeps the request
    /// as the audit log does. The targets are the operation's own (see `ops::run`).
    pub fn new(raw: RawContext<'_>) -> Result<Self, ContextError> {
        let purpose = Purpose::parse(raw.purpose).map_err(ContextError::Purpose)?;
        let session = meta::session_arg(raw.session).map_err(ContextError::Session)?;
        let assistant =
            meta::assistant(raw.assistant, raw.user_agent).map_err(ContextError::Assistant)?;
        let exposed = purpose
            .iter()
            .flat_map(|p| Exposed::each(Field::Purpose, p.found()))
            .collect();
        Ok(CallContext {
            via: raw.via,
            exposed,
            purpose,
            session,
            assistant,
            targets: Vec::new(),
            input_shape: raw.input_shape,
            request_id: raw.request_id.unwrap_or("-").to_owned(),
            method: raw.method.to_owned(),
            path: crate::scrub::audit_path(raw.path),
            own: raw.own,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_part_is_checked_in_turn() {
        let raw = |purpose, session, assistant| RawContext {
            purpose,
            session,
            assistant,
            method: "GET",
            path: "/api/v1/records",
            ..RawContext::default()
        };
        let context = CallContext::new(raw(Some(" Fix it "), None, None)).unwrap();
        assert_eq!(context.purpose.unwrap().as_str(), "Fix it");
        assert_eq!(context.assistant, "unknown");
        assert_eq!(context.request_id, "-");
        assert!(matches!(
            CallContext::new(raw(Some("a\nb"), Some("nope"), None)),
            Err(ContextError::Purpose(_))
        ));
        assert!(matches!(
            CallContext::new(raw(None, Some("nope"), Some("<b>"))),
            Err(ContextError::Session(_))
        ));
        assert!(matches!(
            CallContext::new(raw(None, None, Some("<b>"))),
            Err(ContextError::Assistant(_))
        ));
    }
}
