//! Records over REST. Ordinary public operations, journalled like every other.

use crate::http::call::handler;
use crate::http::openapi::JournalHeaders;
use crate::http::{ApiJson, ApiQuery};
use crate::ids::RecordId;
use crate::ops::Op;
use crate::ops::records::{AppendEntry, EntryList, ListEntries, ListRecords, RecordList};
use crate::records::Entry;
use axum::extract::Path;

handler! {
    /// List the Records you can open.
    ///
    /// Your account's own Record, and those of organizations where your account is a member with
    /// the read permission. Needs `records:read`.
    #[utoipa::path(
        get,
        path = "/api/v1/records",
        operation_id = ListRecords::SPEC.id,
        tag = "records",
        params(JournalHeaders),
        responses(
            (status = "2XX", description = "The Records you can open", body = RecordList),
        ),
        security(("bearer" = []))
    )]
    pub fn list() -> RecordList
        = reply(ListRecords)
}

handler! {
    /// List a Record's entries.
    ///
    /// The lines put on record, newest first; use `next_cursor` for the next page. Needs
    /// `records:read`.
    #[utoipa::path(
        get,
        path = "/api/v1/records/{id}/entries",
        operation_id = ListEntries::SPEC.id,
        tag = "records",
        params(
            ("id" = RecordId, Path, description = "The Record (`rec_…`)",
                example = "rec_01KYP3WV40ER08K6AGV0VFCXEC"),
            ListEntries,
            JournalHeaders,
        ),
        responses(
            (status = "2XX", description = "A page of entries, newest first", body = EntryList),
        ),
        security(("bearer" = []))
    )]
    pub fn entries(id: Path<String>, query: ApiQuery<ListEntries>) -> EntryList
        = reply(ListEntries { record: id, ..query })
}

handler! {
    /// Put a line on record.
    ///
    /// Appends one line to a Record you can open; entries are never changed or removed. Needs
    /// `records:write`.
    #[utoipa::path(
        post,
        path = "/api/v1/records/{id}/entries",
        operation_id = AppendEntry::SPEC.id,
        tag = "records",
        params(
            ("id" = RecordId, Path, description = "The Record (`rec_…`)",
                example = "rec_01KYP3WV40ER08K6AGV0VFCXEC"),
            JournalHeaders,
        ),
        request_body(content = AppendEntry, content_type = "application/json",
            description = "The line to put on record"),
        responses(
            (status = "2XX", description = "The line is on record", body = Entry),
        ),
        security(("bearer" = []))
    )]
    pub fn append(id: Path<String>, body: ApiJson<AppendEntry>) -> Entry
        = reply_body(AppendEntry { record: id, ..body })
}
