//! `GET /journal.md`: the recent window as markdown, for session-start hooks. Same bearer
//! credentials as the API (chats:read); recorded as a journal read.

use crate::error::Problem;
use crate::http::ApiQuery;
use crate::http::call::{ApiCall, Reply};
use crate::http::openapi::{
    AccessProblems, JournalHeaders, JournalOffOrNoSession, NeedsChatsRead, SessionEnded,
};
use crate::ops::Services;
use crate::ops::journal::ReadMarkdown;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};

/// Read the recent journal as markdown.
///
/// The last 14 days of sessions as a short work log, newest kept within the character budget,
/// for session-start hooks. Needs `chats:read`. Recorded as a journal read.
#[utoipa::path(
    get,
    path = "/journal.md",
    operation_id = "getJournalMarkdown",
    tag = "journal",
    params(ReadMarkdown, JournalHeaders),
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
    State(state): State<Services>,
    call: ApiCall,
    ApiQuery(input): ApiQuery<ReadMarkdown>,
) -> Response {
    Reply(call.run(&state, input).await).render(|markdown| {
        (
            [(header::CONTENT_TYPE, "text/markdown; charset=utf-8")],
            markdown,
        )
            .into_response()
    })
}
