//! Records over REST. Ordinary public operations, journalled like every other.

use crate::error::Problem;
use crate::http::call::{ApiCall, Reply};
use crate::http::openapi::{AccessProblems, BadHeaders, JournalHeaders, SessionEnded};
use crate::http::{ApiJson, ApiQuery};
use crate::ids::RecordId;
use crate::ops::Services;
use crate::ops::records::{AppendEntry, EntryList, ListEntries, ListRecords, RecordList};
use crate::records::Entry;
use axum::extract::{Path, State};

/// List the Records you can open.
///
/// Your account's own Record, and those of organizations where your account is a member with
/// the read permission. Needs `records:read`.
#[utoipa::path(
    get,
    path = "/api/v1/records",
    operation_id = "listRecords",
    tag = "records",
    params(JournalHeaders),
    responses(
        (status = 200, description = "The Records you can open", body = RecordList),
        BadHeaders,
        (status = 403, description = "The credential lacks `records:read` (`missing-scope`) or \
            is an operator credential (`forbidden`)", body = Problem,
            content_type = "application/problem+json"),
        (status = 404, description = "`X-Session-Id` names no session of this credential \
            (`not-found`)", body = Problem, content_type = "application/problem+json"),
        SessionEnded,
        AccessProblems,
    ),
    security(("bearer" = []))
)]
pub async fn list(State(state): State<Services>, call: ApiCall) -> Reply<RecordList> {
    Reply(call.run(&state, ListRecords).await)
}

/// List a Record's entries.
///
/// The lines put on record, newest first; use `next_cursor` for the next page. Needs
/// `records:read`.
#[utoipa::path(
    get,
    path = "/api/v1/records/{id}/entries",
    operation_id = "listRecordEntries",
    tag = "records",
    params(
        ("id" = RecordId, Path, description = "The Record (`rec_…`)",
            example = "rec_01KYP3WV40ER08K6AGV0VFCXEC"),
        ListEntries,
        JournalHeaders,
    ),
    responses(
        (status = 200, description = "A page of entries, newest first", body = EntryList),
        (status = 400, description = "A bad `limit` or `cursor`, an unknown query parameter, or \
            a bad `X-Purpose` or `X-Session-Id` (`bad-request`)", body = Problem,
            content_type = "application/problem+json"),
        (status = 403, description = "The credential lacks `records:read` (`missing-scope`) or \
            is an operator credential (`forbidden`)", body = Problem,
            content_type = "application/problem+json"),
        (status = 404, description = "No Record with this id is visible to this credential, or \
            `X-Session-Id` names no session of this credential (`not-found`)", body = Problem,
            content_type = "application/problem+json"),
        SessionEnded,
        AccessProblems,
    ),
    security(("bearer" = []))
)]
pub async fn entries(
    State(state): State<Services>,
    call: ApiCall,
    Path(id): Path<String>,
    ApiQuery(query): ApiQuery<ListEntries>,
) -> Reply<EntryList> {
    let input = ListEntries {
        record: id,
        ..query
    };
    Reply(call.run(&state, input).await)
}

/// Put a line on record.
///
/// Appends one line to a Record you can open; entries are never changed or removed. Needs
/// `records:write`.
#[utoipa::path(
    post,
    path = "/api/v1/records/{id}/entries",
    operation_id = "appendRecordEntry",
    tag = "records",
    params(
        ("id" = RecordId, Path, description = "The Record (`rec_…`)",
            example = "rec_01KYP3WV40ER08K6AGV0VFCXEC"),
        JournalHeaders,
    ),
    request_body(content = AppendEntry, content_type = "application/json",
        description = "The line to put on record"),
    responses(
        (status = 201, description = "The line is on record", body = Entry),
        (status = 400, description = "Malformed JSON, a line that is empty, too long or has \
            control characters, or a bad `X-Purpose` or `X-Session-Id` (`bad-request`)",
            body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The credential lacks `records:write` (`missing-scope`) or \
            is an operator credential (`forbidden`)", body = Problem,
            content_type = "application/problem+json"),
        (status = 404, description = "No Record with this id is visible to this credential, or \
            `X-Session-Id` names no session of this credential (`not-found`)", body = Problem,
            content_type = "application/problem+json"),
        SessionEnded,
        (status = 413, description = "The body is larger than the server accepts \
            (`payload-too-large`)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not sent with `Content-Type: application/json` \
            (`unsupported-media-type`)", body = Problem,
            content_type = "application/problem+json"),
        (status = 422, description = "JSON of the wrong shape: `line` missing or not a string, \
            or unknown fields (`invalid-body`)", body = Problem,
            content_type = "application/problem+json"),
        AccessProblems,
    ),
    security(("bearer" = []))
)]
pub async fn append(
    State(state): State<Services>,
    call: ApiCall,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<AppendEntry>,
) -> Reply<Entry> {
    let input = AppendEntry { record: id, ..body };
    Reply(call.body(&input).run(&state, input.clone()).await)
}
