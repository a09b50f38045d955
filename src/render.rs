//! The journal rendered for reading: the session-start window (markdown an assistant's context
//! opens with) and the export (every session, call, item and digest of an account, as JSON
//! lines or markdown, page by page).

pub mod export;
pub mod window;
