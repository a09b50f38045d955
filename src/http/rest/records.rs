//! Records over REST. Ordinary public operations, journalled like every other.

use crate::auth::Scope;
use crate::error::{Error, Result};
use crate::http::call::{ApiCall, respond};
use crate::http::{ApiJson, ApiQuery, AppState};
use crate::operation::{JournalUse, Operation, Spec};
use crate::records::{self, Entry, Record};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::{Deserialize, Serialize};

const LIST: Spec = Spec {
    id: "listRecords",
    journal: JournalUse::None,
};
const ENTRIES: Spec = Spec {
    id: "listRecordEntries",
    journal: JournalUse::None,
};
const APPEND: Spec = Spec {
    id: "appendRecordEntry",
    journal: JournalUse::None,
};

#[derive(Serialize)]
pub struct RecordList {
    pub records: Vec<Record>,
}

pub async fn list(State(state): State<AppState>, call: ApiCall) -> Result<Response> {
    let mut op = call.begin(&state, LIST).await?;
    let result = list_in(&mut op).await;
    Ok(respond(op, result).await)
}

pub(crate) async fn list_in(op: &mut Operation) -> Result<ApiJson<RecordList>> {
    op.require(Scope::RecordsRead)?;
    let records = records::list(op.tx()).await?;
    op.results(records.iter().map(|r| r.id.clone()), Some(records.len()));
    Ok(ApiJson(RecordList { records }))
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct EntriesQuery {
    pub limit: Option<i64>,
    pub cursor: Option<String>,
}

#[derive(Serialize)]
pub struct EntryList {
    pub entries: Vec<Entry>,
    pub next_cursor: Option<String>,
}

pub async fn entries(
    State(state): State<AppState>,
    call: ApiCall,
    Path(id): Path<String>,
    ApiQuery(query): ApiQuery<EntriesQuery>,
) -> Result<Response> {
    let mut op = call.begin(&state, ENTRIES).await?;
    let result = entries_in(&mut op, &id, query).await;
    Ok(respond(op, result).await)
}

pub(crate) async fn entries_in(
    op: &mut Operation,
    id: &str,
    query: EntriesQuery,
) -> Result<ApiJson<EntryList>> {
    op.require(Scope::RecordsRead)?;
    let limit = query.limit.unwrap_or(50);
    if !(1..=records::MAX_PAGE).contains(&limit) {
        return Err(Error::BadRequest(format!(
            "limit must be between 1 and {}",
            records::MAX_PAGE
        )));
    }
    let page = records::entries(op.tx(), id, limit, query.cursor.as_deref()).await?;
    op.results(
        page.entries.iter().map(|e| e.id.clone()),
        Some(page.entries.len()),
    );
    Ok(ApiJson(EntryList {
        entries: page.entries,
        next_cursor: page.next_cursor,
    }))
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AppendRequest {
    pub line: String,
}

pub async fn append(
    State(state): State<AppState>,
    call: ApiCall,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<AppendRequest>,
) -> Result<Response> {
    let mut op = call.begin(&state, APPEND).await?;
    op.set_input_shape(crate::journal::meta::shape(
        &serde_json::to_value(&body).unwrap_or_default(),
    ));
    let result = append_in(&mut op, &id, &body.line).await;
    Ok(respond(op, result).await)
}

pub(crate) async fn append_in(
    op: &mut Operation,
    id: &str,
    line: &str,
) -> Result<(StatusCode, ApiJson<Entry>)> {
    op.require(Scope::RecordsWrite)?;
    let line = records::parse_line(line)?;
    let now = op.now();
    let entry = records::append(op.tx(), id, &line, now).await?;
    op.results([entry.id.clone()], None);
    op.wrote();
    Ok((StatusCode::CREATED, ApiJson(entry)))
}
