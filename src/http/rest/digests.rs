//! Week and month digests over REST: list them, delete one.

use crate::http::ApiQuery;
use crate::http::call::{ApiCall, Reply};
use crate::http::openapi::JournalHeaders;
use crate::ids::DigestId;
use crate::ops::digests::{DeleteDigest, DeletedDigest, DigestList, ListDigests};
use crate::ops::{Op, Services};
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
    operation_id = ListDigests::SPEC.id,
    tag = "journal",
    params(ListDigests, JournalHeaders),
    responses(
        (status = "2XX", description = "The digests, newest first", body = DigestList),
    ),
    security(("bearer" = []))
)]
pub async fn list(
    State(state): State<Services>,
    call: ApiCall,
    ApiQuery(input): ApiQuery<ListDigests>,
) -> Reply<DigestList> {
    call.reply(&state, input).await
}

/// Delete a digest.
///
/// Deletes one week or month digest for good. Needs `chats:read` and `chats:delete`.
#[utoipa::path(
    delete,
    path = "/api/v1/journal/digests/{id}",
    operation_id = DeleteDigest::SPEC.id,
    tag = "journal",
    params(
        ("id" = DigestId, Path, description = "The digest (`dig_…`)",
            example = "dig_01M6ZRJAM0EEP8Y8EXPSPATJH6"),
        JournalHeaders,
    ),
    responses(
        (status = "2XX", description = "The digest is gone", body = DeletedDigest),
    ),
    security(("bearer" = []))
)]
pub async fn delete(
    State(state): State<Services>,
    call: ApiCall,
    Path(id): Path<String>,
) -> Reply<DeletedDigest> {
    let input = DeleteDigest { digest: id };
    call.reply(&state, input).await
}
