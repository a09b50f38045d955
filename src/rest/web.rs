//! `GET /journal.md`: the recent window as markdown, for session-start hooks. Same bearer
//! credentials as the API (chats:read); recorded as a journal read.

use crate::http::ApiQuery;
use crate::http::call::ApiCall;
use crate::http::openapi::JournalHeaders;
use crate::ops::journal::ReadMarkdown;
use crate::ops::{Op, Services};
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
    operation_id = ReadMarkdown::SPEC.id,
    tag = "journal",
    params(ReadMarkdown, JournalHeaders),
    responses(
        (status = "2XX", description = "The recent sessions as markdown", body = String,
            content_type = "text/markdown"),
    ),
    security(("bearer" = []))
)]
pub async fn journal_md(
    State(state): State<Services>,
    call: ApiCall,
    ApiQuery(input): ApiQuery<ReadMarkdown>,
) -> Response {
    call.reply(&state, input).await.render(|markdown| {
        (
            [(header::CONTENT_TYPE, "text/markdown; charset=utf-8")],
            markdown,
        )
            .into_response()
    })
}
