//! `GET /journal.md`: the recent window as markdown, for session-start hooks. Same bearer
//! credentials as the API (chats:read); recorded as a journal read.

use super::call::{ApiCall, Reply};
use super::openapi::{
    AccessProblems, JournalHeaders, JournalOffOrNoSession, NeedsChatsRead, SessionEnded,
};
use super::{ApiQuery, AppState};
use crate::error::Problem;
use crate::ops::journal::ReadMarkdown;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

#[derive(Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct WindowQuery {
    /// The most characters to answer with: 1,000 to 400,000 (default `N8V_JOURNAL_MD_MAX_CHARS`,
    /// 9,500).
    #[param(minimum = 1000, maximum = 400000, example = 9500)]
    pub max_chars: Option<usize>,
}

/// Read the recent journal as markdown.
///
/// The last 14 days of sessions as a short work log, newest kept within the character budget,
/// for session-start hooks. Needs `chats:read`. Recorded as a journal read.
#[utoipa::path(
    get,
    path = "/journal.md",
    operation_id = "getJournalMarkdown",
    tag = "journal",
    params(WindowQuery, JournalHeaders),
    responses(
        (status = 200, description = "The recent sessions as markdown", body = String,
            content_type = "text/markdown"),
        (status = 400, description = "`max_chars` out of range, an unknown query parameter, or \
            a bad `X-Purpose` or `X-Session-Id` (`bad-request`)", body = Problem,
            content_type = "application/problem+json"),
        NeedsChatsRead,
        JournalOffOrNoSession,
        SessionEnded,
        AccessProblems,
    ),
    security(("bearer" = []))
)]
pub async fn journal_md(
    State(state): State<AppState>,
    call: ApiCall,
    ApiQuery(query): ApiQuery<WindowQuery>,
) -> Response {
    let input = ReadMarkdown {
        max_chars: query.max_chars,
    };
    Reply(call.run(&state, input).await).render(|markdown| {
        (
            [(header::CONTENT_TYPE, "text/markdown; charset=utf-8")],
            markdown,
        )
            .into_response()
    })
}
