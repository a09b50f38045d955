//! What a caller can do about a refusal, worded by each door in its own terms: the domain says
//! which remedy applies ([`Remedy`]), never a REST endpoint or a tool name, and REST
//! ([`Remedy::rest`]) and MCP ([`Remedy::tools`]) say how to take it.

use crate::ids::ItemId;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Remedy {
    /// Start a session (or let the call join or open one).
    StartSession,
    /// Start a new session (the one named has ended).
    StartNewSession,
    /// Close this item of the caller's own instead (a dismissal is for others' items).
    CloseItem(ItemId),
    /// Dismiss this item from the caller's own view (it may not close another's).
    DismissItem(ItemId),
}

impl Remedy {
    /// The step in the REST API's words.
    pub fn rest(self) -> String {
        match self {
            Self::StartSession => {
                "start one with POST /api/v1/journal/sessions, or omit X-Session-Id to join \
                 your recent open session"
                    .into()
            }
            Self::StartNewSession => "start a new one with POST /api/v1/journal/sessions".into(),
            Self::CloseItem(id) => {
                format!(
                    "close it with POST /api/v1/journal/loops/{id}/close rather than dismiss it"
                )
            }
            Self::DismissItem(id) => {
                format!(
                    "it may dismiss it from its own view: POST /api/v1/journal/loops/{id}/dismiss"
                )
            }
        }
    }

    /// The step in the MCP tools' words.
    pub fn tools(self) -> String {
        match self {
            Self::StartSession => {
                "start one with session_start, or omit `session` to join your recent open \
                 session"
                    .into()
            }
            Self::StartNewSession => "start a new one with session_start".into(),
            Self::CloseItem(id) => {
                format!(
                    "close it by listing {id} in session_end's `resolved` rather than dismiss it"
                )
            }
            Self::DismissItem(_) => {
                "it may dismiss it from its own view on the journal page (/journal) \
                 or over the REST API"
                    .into()
            }
        }
    }
}
