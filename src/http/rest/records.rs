//! Records over REST.

use crate::auth::{Principal, Scope};
use crate::db::TenantTx;
use crate::error::{Error, Result};
use crate::http::{ApiJson, ApiQuery, AppState};
use crate::records::{self, Entry, Record};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};

#[derive(Serialize)]
pub struct RecordList {
    pub records: Vec<Record>,
}

pub async fn list(
    State(state): State<AppState>,
    principal: Principal,
) -> Result<ApiJson<RecordList>> {
    principal.require(Scope::RecordsRead)?;
    let mut tx = TenantTx::begin(&state.db, &principal.tenant).await?;
    let records = records::list(&mut tx).await?;
    tx.commit().await?;
    Ok(ApiJson(RecordList { records }))
}

#[derive(Deserialize)]
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
    principal: Principal,
    Path(id): Path<String>,
    ApiQuery(query): ApiQuery<EntriesQuery>,
) -> Result<ApiJson<EntryList>> {
    principal.require(Scope::RecordsRead)?;
    let limit = query.limit.unwrap_or(50);
    if !(1..=records::MAX_PAGE).contains(&limit) {
        return Err(Error::BadRequest(format!(
            "limit must be between 1 and {}",
            records::MAX_PAGE
        )));
    }
    let mut tx = TenantTx::begin(&state.db, &principal.tenant).await?;
    let page = records::entries(&mut tx, &id, limit, query.cursor.as_deref()).await?;
    tx.commit().await?;
    Ok(ApiJson(EntryList {
        entries: page.entries,
        next_cursor: page.next_cursor,
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AppendRequest {
    pub line: String,
}

pub async fn append(
    State(state): State<AppState>,
    principal: Principal,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<AppendRequest>,
) -> Result<(StatusCode, ApiJson<Entry>)> {
    principal.require(Scope::RecordsWrite)?;
    let line = records::parse_line(&body.line)?;
    let mut tx = TenantTx::begin(&state.db, &principal.tenant).await?;
    let entry = records::append(&mut tx, &id, &line, state.clock.now()).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, ApiJson(entry)))
}
