//! Records over REST. Ordinary public operations, journalled like every other.

use crate::error::Problem;
use crate::http::call::{ApiCall, Reply};
use crate::http::openapi::{AccessProblems, JournalHeaders, SessionEnded};
use crate::http::{ApiJson, ApiQuery, AppState};
use crate::ids::{RecordId, TypedId};
use crate::ops::records::{AppendEntry, EntryList, ListEntries, ListRecords, RecordList};
use crate::records::Entry;
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};

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
        (status = 400, description = "A bad `X-Purpose` or `X-Session-Id` (`bad-request`)",
            body = Problem, content_type = "application/problem+json"),
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
pub async fn list(State(state): State<AppState>, call: ApiCall) -> Reply<RecordList> {
    Reply(call.run(&state, ListRecords).await)
}

#[derive(Deserialize, Serialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct EntriesQuery {
    /// How many entries to return, from 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200, example = 50)]
    pub limit: Option<i64>,
    /// The `next_cursor` of the previous page.
    #[param(example = "ent_01M72ECX80E7HAP3AMKDQG6STT")]
    pub cursor: Option<String>,
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
        ("id" = String, Path, description = "The Record (`rec_…`)",
            example = "rec_01KYP3WV40ER08K6AGV0VFCXEC"),
        EntriesQuery,
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
    State(state): State<AppState>,
    call: ApiCall,
    Path(id): Path<String>,
    ApiQuery(q): ApiQuery<EntriesQuery>,
) -> Reply<EntryList> {
    let input = ListEntries {
        record: RecordId::arg(&id),
        limit: q.limit,
        cursor: q.cursor,
    };
    Reply(call.run(&state, input).await)
}

/// A line to put on record.
#[derive(Deserialize, Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"line": "Fix ready for review; tests passed"}))]
pub struct AppendRequest {
    /// One line of text, 1 to 4,000 characters, no control characters; credentials in it are
    /// scrubbed.
    #[schema(min_length = 1, max_length = 4000)]
    pub line: String,
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
        ("id" = String, Path, description = "The Record (`rec_…`)",
            example = "rec_01KYP3WV40ER08K6AGV0VFCXEC"),
        JournalHeaders,
    ),
    request_body(content = AppendRequest, content_type = "application/json",
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
    State(state): State<AppState>,
    call: ApiCall,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<AppendRequest>,
) -> Reply<Entry> {
    let input = AppendEntry {
        record: RecordId::arg(&id),
        line: body.line.clone(),
    };
    Reply(call.body(&body).run(&state, input).await)
}
