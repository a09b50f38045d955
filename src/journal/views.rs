//! What the journal answers with: sessions, calls and audit entries, with external IDs.

use crate::ids::{self, Kind};
use chrono::{DateTime, Utc};
use serde::Serialize;
use uuid::Uuid;

#[derive(Debug, Clone, Serialize)]
pub struct Session {
    pub id: String,
    /// `explicit` (opened with a goal) or `implicit` (issued for calls made without a session).
    pub kind: String,
    /// `open` or `closed`.
    pub status: &'static str,
    pub assistant: String,
    pub account_id: String,
    pub key_id: String,
    pub organization_id: Option<String>,
    pub repository: Option<String>,
    /// The scopes the credential held; only credentials holding all of them can read this session.
    pub scopes: Vec<String>,
    pub goal: Option<String>,
    pub outcome: Option<String>,
    pub started_at: DateTime<Utc>,
    pub last_activity_at: DateTime<Utc>,
    pub ended_at: Option<DateTime<Utc>>,
    /// `ended` (closed by its assistant), `quiet` (closed by the sweep) or `retired`.
    pub end_reason: Option<String>,
    pub call_count: i32,
    pub write_count: i32,
    /// The stored summary, once the session has closed and its summary job has run.
    pub summary: Option<crate::summarize::Summary>,
    /// `gemini-…`, the proxy model, or `code`.
    pub summary_model: Option<String>,
    /// Exact decimal (as a string), summed over every model call the summary made.
    pub summary_cost_usd: Option<String>,
    pub summary_input_tokens: Option<i64>,
    pub summary_output_tokens: Option<i64>,
    /// Why a code summary was written instead (e.g. the monthly budget is spent).
    pub summary_note: Option<String>,
    /// For sessions without a stored summary: a compact account of their calls, computed now.
    pub provisional: Option<Provisional>,
}

/// What an open (or not yet summarised) session has done so far, computed at read time.
#[derive(Debug, Clone, Serialize)]
pub struct Provisional {
    pub calls: i32,
    pub writes: i32,
    /// The most recent purposes, newest first.
    pub recent_purposes: Vec<String>,
}

#[derive(sqlx::FromRow)]
pub(crate) struct SessionRow {
    pub account_id: Uuid,
    pub session_id: Uuid,
    pub credential_id: Uuid,
    pub kind: String,
    pub assistant: String,
    pub organization_id: Option<Uuid>,
    pub repository: Option<String>,
    pub scopes: Vec<String>,
    pub goal: Option<String>,
    pub outcome: Option<String>,
    pub started_at: DateTime<Utc>,
    pub last_activity_at: DateTime<Utc>,
    pub ended_at: Option<DateTime<Utc>>,
    pub end_reason: Option<String>,
    pub call_count: i32,
    pub write_count: i32,
    pub summary: Option<serde_json::Value>,
    pub summary_model: Option<String>,
    pub summary_cost_usd: Option<rust_decimal::Decimal>,
    pub summary_input_tokens: Option<i64>,
    pub summary_output_tokens: Option<i64>,
    pub summary_note: Option<String>,
    pub recent_purposes: Vec<String>,
}

/// The session columns, plus the newest purposes for the provisional account (only computed for
/// sessions without a summary).
pub(crate) const SESSION_COLUMNS: &str = "account_id, session_id, credential_id, kind, assistant, \
    organization_id, repository, scopes, goal, outcome, started_at, last_activity_at, ended_at, \
    end_reason, call_count, write_count, summary, summary_model, summary_cost_usd, \
    summary_input_tokens, summary_output_tokens, summary_note, \
    CASE WHEN summary IS NULL THEN ARRAY(SELECT c.purpose FROM journal_calls c \
        WHERE c.account_id = journal_sessions.account_id AND c.session_id = journal_sessions.session_id \
          AND c.purpose IS NOT NULL ORDER BY c.created_at DESC, c.call_id DESC LIMIT 5) \
    ELSE ARRAY[]::text[] END AS recent_purposes";

impl From<SessionRow> for Session {
    fn from(r: SessionRow) -> Self {
        Session {
            id: ids::format(Kind::Session, r.session_id),
            kind: r.kind,
            status: if r.ended_at.is_some() {
                "closed"
            } else {
                "open"
            },
            assistant: r.assistant,
            account_id: ids::format(Kind::Account, r.account_id),
            key_id: ids::format(Kind::Key, r.credential_id),
            organization_id: r
                .organization_id
                .map(|o| ids::format(Kind::Organization, o)),
            repository: r.repository,
            scopes: r.scopes,
            goal: r.goal,
            outcome: r.outcome,
            started_at: r.started_at,
            last_activity_at: r.last_activity_at,
            ended_at: r.ended_at,
            end_reason: r.end_reason,
            call_count: r.call_count,
            write_count: r.write_count,
            provisional: r.summary.is_none().then_some(Provisional {
                calls: r.call_count,
                writes: r.write_count,
                recent_purposes: r.recent_purposes,
            }),
            summary: r.summary.and_then(|s| serde_json::from_value(s).ok()),
            summary_model: r.summary_model,
            summary_cost_usd: r.summary_cost_usd.map(|c| c.normalize().to_string()),
            summary_input_tokens: r.summary_input_tokens,
            summary_output_tokens: r.summary_output_tokens,
            summary_note: r.summary_note,
        }
    }
}

/// One call made in a session: what, why, on what, how it went, and the shape of its input.
#[derive(Debug, Clone, Serialize)]
pub struct Call {
    pub id: String,
    pub session_id: String,
    pub operation: String,
    pub purpose: Option<String>,
    pub target_ids: Vec<String>,
    pub status: i32,
    /// `ok` or `error`.
    pub outcome: &'static str,
    pub input_shape: Option<serde_json::Value>,
    pub result_ids: Vec<String>,
    pub result_count: Option<i32>,
    pub wrote: bool,
    pub journal_read: bool,
    pub duration_ms: i32,
    pub at: DateTime<Utc>,
    pub audit_id: Option<String>,
    /// Where the audit entry written for the same request can be read.
    pub audit_url: Option<String>,
}

#[derive(sqlx::FromRow)]
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
    pub created_at: DateTime<Utc>,
}

pub(crate) const CALL_COLUMNS: &str = "call_id, session_id, operation, purpose, target_ids, status, \
    ok, input_shape, result_ids, result_count, wrote, journal_read, duration_ms, audit_id, created_at";

impl From<CallRow> for Call {
    fn from(r: CallRow) -> Self {
        let audit_id = r.audit_id.map(|a| ids::format(Kind::Audit, a));
        Call {
            id: ids::format(Kind::Call, r.call_id),
            session_id: ids::format(Kind::Session, r.session_id),
            operation: r.operation,
            purpose: r.purpose,
            target_ids: r.target_ids,
            status: r.status,
            outcome: if r.ok { "ok" } else { "error" },
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

/// An entry of the account's audit log.
#[derive(Debug, Clone, Serialize)]
pub struct AuditEntry {
    pub id: String,
    pub method: String,
    pub path: String,
    pub status: i32,
    pub key_id: Option<String>,
    pub request_id: String,
    pub at: DateTime<Utc>,
}

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
            id: ids::format(Kind::Audit, r.audit_id),
            method: r.method,
            path: r.path,
            status: r.status,
            key_id: r.credential_id.map(|c| ids::format(Kind::Key, c)),
            request_id: r.request_id,
            at: r.created_at,
        }
    }
}
