//! Recording a call: the audit entry, the call and the session's counters in one statement,
//! inside the operation's own transaction, so a call exists exactly when its operation
//! happened or failed.

use crate::db::TenantTx;
use crate::error::{Error, Result};
use crate::ids::{self, AuditId, CallId, OrganizationId, SessionId};
use chrono::{DateTime, Utc};

/// What the journal keeps of one request. Never a body, a payload or a transcript.
#[derive(Debug, Clone)]
pub struct CallRecord {
    pub session_id: SessionId,
    pub operation: &'static str,
    /// The organization whose Record the call acted on: that organization's activity.
    pub organization: Option<OrganizationId>,
    pub purpose: Option<String>,
    pub target_ids: Vec<String>,
    pub status: u16,
    pub input_shape: Option<serde_json::Value>,
    pub result_ids: Vec<String>,
    pub result_count: Option<i32>,
    pub wrote: bool,
    /// Reads of the journal itself; sessions holding only these stay out of the list.
    pub journal_read: bool,
    pub duration_ms: i32,
    pub at: DateTime<Utc>,
}

/// The audit entry of the request (always written, journal on or off).
pub struct AuditRecord<'a> {
    pub request_id: &'a str,
    pub method: &'a str,
    pub path: &'a str,
    pub status: u16,
    pub at: DateTime<Utc>,
}

pub async fn record_audit(tx: &mut TenantTx, audit: &AuditRecord<'_>) -> Result<AuditId> {
    let id = AuditId(ids::new_id());
    sqlx::query(
        "INSERT INTO audit_log (account_id, audit_id, credential_id, request_id, method, path, status, created_at) \
         VALUES (n8v_account(), $1, n8v_credential(), $2, $3, $4, $5, $6)",
    )
    .bind(id)
    .bind(audit.request_id)
    .bind(audit.method)
    .bind(audit.path)
    .bind(i32::from(audit.status))
    .bind(audit.at)
    .execute(tx.conn())
    .await?;
    Ok(id)
}

/// Records the call and bumps its session; returns the call id. A session stays
/// `journal_only` (out of the list, never sent to a paid model) while every call in it reads
/// the journal; opening or closing it is a hand-off, not a read.
pub async fn record_call(
    tx: &mut TenantTx,
    call: &CallRecord,
    audit_id: AuditId,
) -> Result<CallId> {
    let id = CallId(ids::new_id());
    let updated: Option<SessionId> = sqlx::query_scalar(
        "WITH call AS ( \
           INSERT INTO journal_calls (account_id, call_id, session_id, credential_id, operation, \
               purpose, target_ids, status, ok, input_shape, result_ids, result_count, wrote, \
               journal_read, duration_ms, audit_id, created_at, organization_id, scopes) \
           VALUES (n8v_account(), $1, $2, n8v_credential(), $3, $4, $5, $6, $7, $8, $9, $10, $11, \
               $12, $13, $14, $15, $16, CASE WHEN $16::uuid IS NULL THEN NULL ELSE n8v_scopes() END) \
           RETURNING session_id) \
         UPDATE journal_sessions s SET last_activity_at = GREATEST(s.last_activity_at, $15), \
             call_count = s.call_count + 1, \
             write_count = s.write_count + CASE WHEN $11 THEN 1 ELSE 0 END, \
             journal_only = s.journal_only AND $12 \
         FROM call WHERE s.account_id = n8v_account() AND s.session_id = call.session_id \
         RETURNING s.session_id",
    )
    .bind(id)
    .bind(call.session_id)
    .bind(call.operation)
    .bind(&call.purpose)
    .bind(&call.target_ids)
    .bind(i32::from(call.status))
    .bind(call.status < 400)
    .bind(&call.input_shape)
    .bind(&call.result_ids)
    .bind(call.result_count)
    .bind(call.wrote)
    .bind(call.journal_read)
    .bind(call.duration_ms)
    .bind(audit_id)
    .bind(call.at)
    .bind(call.organization)
    .fetch_optional(tx.conn())
    .await?;
    match updated {
        Some(_) => Ok(id),
        None => Err(Error::Internal(anyhow::anyhow!(
            "session of call {id} could not be updated"
        ))),
    }
}
