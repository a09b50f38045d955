//! Reading the journal. Visibility is entirely the policies' business: a session or call the
//! caller may not see is simply not found, exactly like one that does not exist.

use super::session_reads::{self, COLUMNS as SESSION_COLUMNS, SessionRow};
use super::sql::{conditions, escape_like, visible_sessions};
use super::views::{AuditEntry, Call, Session};
use crate::cursor::Cursor;
use crate::db::TenantTx;
use crate::error::{Error, Result};
use crate::ids::{AuditId, CallId, ItemId, KeyId, Kind, OrganizationId, SessionId, TypedId};
use chrono::{DateTime, Utc};
use std::collections::HashSet;
use uuid::Uuid;

pub const MAX_SESSIONS_PAGE: i64 = 100;
pub const MAX_ACTIONS_PAGE: i64 = 300;

#[derive(Debug, Default, Clone)]
pub struct SessionFilter {
    /// Case-insensitive substring of the assistant name.
    pub assistant: Option<String>,
    pub key: Option<KeyId>,
    pub organization: Option<OrganizationId>,
    pub repository: Option<String>,
    /// Sessions started at or after.
    pub from: Option<DateTime<Utc>>,
    /// Sessions started before.
    pub to: Option<DateTime<Utc>>,
}

pub struct Page<T> {
    pub items: Vec<T>,
    pub next_cursor: Option<String>,
}

/// Sessions newest first, leaving out those that only read the journal.
#[tracing::instrument(skip_all, err)]
pub async fn list_sessions(
    tx: &mut TenantTx,
    filter: &SessionFilter,
    limit: i64,
    cursor: Option<Cursor>,
) -> Result<Page<Session>> {
    let rows: Vec<SessionRow> = sqlx::query_as(sqlx::AssertSqlSafe(list_sessions_sql(
        filter,
        cursor.is_some(),
    )))
    .bind(filter.assistant.as_deref().map(escape_like))
    .bind(filter.key)
    .bind(filter.organization)
    .bind(&filter.repository)
    .bind(filter.from)
    .bind(filter.to)
    .bind(cursor.map(|c| c.at))
    .bind(cursor.map(|c| c.id))
    .bind(limit + 1)
    .fetch_all(tx.conn())
    .await?;
    Ok(paginate(rows, limit, |r| {
        Cursor {
            at: r.started_at,
            id: r.session_id,
        }
        .encode()
    }))
}

/// The session list's SQL for these filters: `$1` assistant, `$2` key, `$3` organization, `$4`
/// repository, `$5`/`$6` from/to, `$7`/`$8` the cursor, `$9` the limit. Only the filters given
/// become conditions (see `visible_sessions`); every value is still bound at its place, so each
/// combination is one prepared statement. The sessions are the read model's
/// (`journal_session_reads`). Public for the plan tests (`tests/api/plans.rs`).
pub fn list_sessions_sql(filter: &SessionFilter, has_cursor: bool) -> String {
    let conds = conditions(
        &["NOT journal_only"],
        &[
            (
                filter.assistant.is_some(),
                "assistant ILIKE '%' || $1 || '%'",
            ),
            (filter.key.is_some(), "credential_id = $2"),
            (filter.organization.is_some(), "organization_id = $3"),
            (filter.repository.is_some(), "repository = $4"),
            (filter.from.is_some(), "started_at >= $5"),
            (filter.to.is_some(), "started_at < $6"),
            (has_cursor, "(started_at, session_id) < ($7, $8)"),
        ],
    );
    let order = "started_at DESC, session_id DESC LIMIT $9";
    let from = visible_sessions("journal_session_reads", &conds, Some(order));
    format!("SELECT {SESSION_COLUMNS} FROM {from} journal_sessions ORDER BY {order}")
}

/// A page of `limit` of `rows` (read with one more than `limit`, to know whether a next page
/// exists), with the encoded cursor of its last row when one does.
pub(crate) fn paginate<R, T: From<R>>(
    mut rows: Vec<R>,
    limit: i64,
    cursor_of: impl Fn(&R) -> String,
) -> Page<T> {
    let next_cursor = if rows.len() as i64 > limit {
        rows.truncate(limit as usize);
        rows.last().map(cursor_of)
    } else {
        None
    };
    Page {
        items: rows.into_iter().map(T::from).collect(),
        next_cursor,
    }
}

/// Of the ids a call returned (`result_ids`), those the caller may be shown: a session
/// (`ses_…`) or an item (`itm_…`) only when the caller can read it (an organization's owner
/// reads a member's call, but not what it handed over from the member's own journal); every
/// other id as it is. Two statements, read as the caller.
pub(crate) async fn readable(tx: &mut TenantTx, ids: &[String]) -> Result<HashSet<String>> {
    let (mut sessions, mut items, mut shown) = (Vec::new(), Vec::new(), HashSet::new());
    for id in ids {
        if let Some(session) = SessionId::parse(id) {
            sessions.push(session.0);
        } else if let Some(item) = ItemId::parse(id) {
            items.push(item.0);
        } else {
            shown.insert(id.clone());
        }
    }
    if !sessions.is_empty() {
        let seen = sqlx::query_scalar!(
            "SELECT session_id FROM journal_sessions WHERE session_id = ANY ($1)",
            &sessions
        )
        .fetch_all(tx.conn())
        .await?;
        shown.extend(seen.into_iter().map(|s| SessionId(s).to_string()));
    }
    if !items.is_empty() {
        let seen = sqlx::query_scalar!(
            "SELECT loop_id FROM journal_loops WHERE loop_id = ANY ($1)",
            &items
        )
        .fetch_all(tx.conn())
        .await?;
        shown.extend(seen.into_iter().map(|i| ItemId(i).to_string()));
    }
    Ok(shown)
}

/// `calls` with only the returned ids the caller may be shown ([`readable`]).
pub(crate) async fn shown_results(tx: &mut TenantTx, mut calls: Vec<Call>) -> Result<Vec<Call>> {
    let ids: Vec<String> = calls.iter().flat_map(|c| c.result_ids.clone()).collect();
    if ids.is_empty() {
        return Ok(calls);
    }
    let shown = readable(tx, &ids).await?;
    for call in &mut calls {
        call.result_ids.retain(|i| shown.contains(i));
    }
    Ok(calls)
}

#[tracing::instrument(skip_all, err(level = "info"))]
pub async fn session(tx: &mut TenantTx, id: SessionId) -> Result<Session> {
    session_reads::one(tx, id)
        .await?
        .ok_or_else(|| Error::not_found(Kind::Session, &id.to_string()))
}

/// A session's calls in the order they were made; `writes_only` keeps the write calls.
#[tracing::instrument(skip_all, err)]
pub async fn actions(
    tx: &mut TenantTx,
    session: &Session,
    limit: i64,
    cursor: Option<Cursor>,
    writes_only: bool,
) -> Result<Page<Call>> {
    let rows = sqlx::query_as!(
        CallRow,
        "SELECT call_id, session_id, operation, purpose, target_ids, status, ok, input_shape,
                result_ids, result_count, wrote, journal_read, duration_ms, audit_id,
                organization_id, created_at
           FROM journal_calls
          WHERE account_id = $1 AND session_id = $2 AND (NOT $3 OR wrote)
            AND ($4::timestamptz IS NULL OR (created_at, call_id) > ($4, $5))
          ORDER BY created_at, call_id LIMIT $6",
        session.account_id.0,
        session.id.0,
        writes_only,
        cursor.map(|c| c.at),
        cursor.map(|c| c.id),
        limit + 1
    )
    .fetch_all(tx.conn())
    .await?;
    let mut page: Page<Call> = paginate(rows, limit, |r| {
        Cursor {
            at: r.created_at,
            id: r.call_id,
        }
        .encode()
    });
    page.items = shown_results(tx, page.items).await?;
    Ok(page)
}

#[tracing::instrument(skip_all, err(level = "info"))]
pub async fn call(tx: &mut TenantTx, id: CallId) -> Result<Call> {
    let row = sqlx::query_as!(
        CallRow,
        "SELECT call_id, session_id, operation, purpose, target_ids, status, ok, input_shape,
                result_ids, result_count, wrote, journal_read, duration_ms, audit_id,
                organization_id, created_at
           FROM journal_calls WHERE call_id = $1",
        id.0
    )
    .fetch_optional(tx.conn())
    .await?;
    let call = row
        .map(Call::from)
        .ok_or_else(|| Error::not_found(Kind::Call, &id.to_string()))?;
    let mut shown = shown_results(tx, vec![call]).await?;
    Ok(shown.remove(0))
}

#[tracing::instrument(skip_all, err(level = "info"))]
pub async fn audit(tx: &mut TenantTx, id: AuditId) -> Result<AuditEntry> {
    let row = sqlx::query_as!(
        AuditRow,
        "SELECT audit_id, method, path, status, credential_id, request_id, created_at
         FROM audit_log WHERE account_id = n8v_account() AND audit_id = $1",
        id.0
    )
    .fetch_optional(tx.conn())
    .await?;
    row.map(AuditEntry::from)
        .ok_or_else(|| Error::not_found(Kind::Audit, &id.to_string()))
}

/// A `journal_calls` row, as the reads of calls take it (here and in the export).
pub(crate) struct CallRow {
    pub call_id: Uuid,
    pub session_id: Uuid,
    pub operation: String,
    pub purpose: Option<String>,
    pub target_ids: Vec<String>,
    pub status: i32,
    pub ok: bool,
    pub input_shape: Option<serde_json::Value>,
    pub result_ids: Vec<String>,
    pub result_count: Option<i32>,
    pub wrote: bool,
    pub journal_read: bool,
    pub duration_ms: i32,
    pub audit_id: Option<Uuid>,
    pub organization_id: Option<Uuid>,
    pub created_at: DateTime<Utc>,
}

impl From<CallRow> for Call {
    fn from(r: CallRow) -> Self {
        let audit_id = r.audit_id.map(AuditId);
        Call {
            id: CallId(r.call_id),
            session_id: SessionId(r.session_id),
            organization_id: r.organization_id.map(OrganizationId),
            operation: r.operation,
            purpose: r.purpose,
            target_ids: r.target_ids,
            status: r.status,
            outcome: if r.ok { "ok" } else { "error" }.into(),
            input_shape: r.input_shape,
            result_ids: r.result_ids,
            result_count: r.result_count,
            wrote: r.wrote,
            journal_read: r.journal_read,
            duration_ms: r.duration_ms,
            at: r.created_at,
            audit_url: audit_id.as_ref().map(|a| format!("/api/v1/audit/{a}")),
            audit_id,
        }
    }
}

/// An `audit_log` row, as [`audit`] reads it.
#[derive(sqlx::FromRow)]
pub(crate) struct AuditRow {
    pub audit_id: Uuid,
    pub method: String,
    pub path: String,
    pub status: i32,
    pub credential_id: Option<Uuid>,
    pub request_id: String,
    pub created_at: DateTime<Utc>,
}

impl From<AuditRow> for AuditEntry {
    fn from(r: AuditRow) -> Self {
        AuditEntry {
            id: AuditId(r.audit_id),
            method: r.method,
            path: r.path,
            status: r.status,
            key_id: r.credential_id.map(KeyId),
            request_id: r.request_id,
            at: r.created_at,
        }
    }
}
