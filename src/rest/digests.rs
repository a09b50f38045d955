//! Week and month digests over REST: list them, delete one.

use crate::error::Problem;
use crate::http::ApiQuery;
use crate::http::call::{ApiCall, Reply};
use crate::http::openapi::{
    AccessProblems, BadHeaders, JournalHeaders, JournalOffOrNoSession, NeedsChatsDelete,
    NeedsChatsRead, SessionEnded,
};
use crate::ids::DigestId;
use crate::ops::Services;
use crate::ops::digests::{DeleteDigest, DeletedDigest, DigestList, ListDigests};
use axum::extract::{Path, State};

/// List digests.
///
/// Sessions older than 14 days are rolled into one digest per ISO week, and weeks older than
/// 90 days into one digest per month, each keeping every decision and open question. Month
/// digests are kept indefinitely. Newest first, at most 120. Needs `chats:read` and every scope
/// the digested sessions recorded.
#[utoipa::path(
    get,
    path = "/api/v1/journal/digests",
    operation_id = "listDigests",
    tag = "journal",
    params(ListDigests, JournalHeaders),
    responses(
        (status = 200, description = "The digests, newest first", body = DigestList),
        (status = 400, description = "A bad `period`, `from` or `to`, an unknown query \
            parameter, or a bad `X-Purpose` or `X-Session-Id` (`bad-request`)",
            body = Problem, content_type = "application/problem+json"),
        NeedsChatsRead,
        JournalOffOrNoSession,
        SessionEnded,
        AccessProblems,
    ),
    security(("bearer" = []))
)]
pub async fn list(
    State(state): State<Services>,
    call: ApiCall,
    ApiQuery(input): ApiQuery<ListDigests>,
) -> Reply<DigestList> {
    Reply(call.run(&state, input).await)
}

/// Delete a digest.
///
/// Deletes one week or month digest for good. Needs `chats:read` and `chats:delete`.
#[utoipa::path(
    delete,
    path = "/api/v1/journal/digests/{id}",
    operation_id = "deleteDigest",
    tag = "journal",
    params(
        ("id" = DigestId, Path, description = "The digest (`dig_…`)",
            example = "dig_01M6ZRJAM0EEP8Y8EXPSPATJH6"),
        JournalHeaders,
    ),
    responses(
        (status = 200, description = "The digest is gone", body = DeletedDigest),
        BadHeaders,
        NeedsChatsDelete,
        (status = 404, description = "The assistant journal is off for this account \
            (`journal-off`), or no digest with this id that this credential may delete \
            (`not-found`)", body = Problem, content_type = "application/problem+json"),
        SessionEnded,
        AccessProblems,
    ),
    security(("bearer" = []))
)]
pub async fn delete(
    State(state): State<Services>,
    call: ApiCall,
    Path(id): Path<String>,
) -> Reply<DeletedDigest> {
    let input = DeleteDigest { digest: id };
    Reply(call.run(&state, input).await)
}
