//! Week and month digests over REST: list them, delete one.

use crate::http::ApiQuery;
use crate::http::call::handler;
use crate::http::openapi::JournalHeaders;
use crate::ids::DigestId;
use crate::ops::Op;
use crate::ops::digests::{DeleteDigest, DeletedDigest, DigestList, ListDigests};
use axum::extract::Path;

handler! {
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
    pub fn list(input: ApiQuery<ListDigests>) -> DigestList
        = reply(input)
}

handler! {
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
    pub fn delete(id: Path<String>) -> DeletedDigest
        = reply(DeleteDigest { digest: id })
}
