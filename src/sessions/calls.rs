//! Recording a call: the audit entry and the call in one statement, inside the operation's own
//! transaction, so a call exists exactly when its operation happened or failed.

use crate::config::SessionRules;
use crate::db::TenantTx;
use crate::error::{Error, OnConstraint, Result};
use crate::ids::{self, AuditId, OrganizationId, SessionId};
use crate::journal::session_reads;
use crate::sessions;
use chrono::{DateTime, Utc};

/// What the journal keeps of one request. Never a body, a payload or a transcript.
#[derive(Debug, Clone)]
pub struct CallRecord {
    /// The session the call belongs to; `None`: the caller's fresh session, which [`record`]
    /// finds itself (see [`sessions::join_or_issue`] for the rules).
    pub session_id: Option<SessionId>,
    /// Who made it (`X-Assistant`, else the user agent): a call that names no session joins
    /// only a session of the same assistant (migration 0017).
    pub assistant: String,
    pub operation: &'static str,
    /// The organization whose Record the call acted on: that organization's activity.
    pub organization: Option<OrganizationId>,
    pub purpose: Option<String>,
    pub target_ids: Vec<String>,
    pub status: u16,
    pub input_shape: Option<serde_json::Value>,
    pub result_ids: Vec<String>,
    pub result_count: Option<i32>,
    /// For a read that hands the journal to a conversation (the brief, `/journal.md`): how many
    /// characters it answered. With `result_ids`, the receipt of what it was told
    /// (migration 0033).
    pub result_chars: Option<i32>,
    pub wrote: bool,
    /// Reads of the journal itself; sessions holding only these stay out of the list.
    pub journal_read: bool,
    pub duration_ms: i32,
    pub at: DateTime<Utc>,
}

/// The audit entry of the request (always written, journal on or off).
pub struct AuditRecord<'a> {
    pub id: AuditId,
    pub request_id: &'a str,
    pub method: &'a str,
    pub path: &'a str,
    pub status: u16,
    pub at: DateTime<Utc>,
}

/// The foreign key from a call to its session: a session deleted (and committed) while the
/// call was being recorded in it fails the insert with it.
const SESSION_REFERENCE: &str = "journal_calls_account_id_session_id_fkey";

/// The call's session went while it was recorded: a race lost, which `ops::run` runs again (a
/// session the caller named is answered as gone by `Operation::finish`).
fn gone(session: Option<SessionId>) -> Error {
    match session {
        Some(id) => Error::SessionDeleted(id),
        None => Error::Contended(
            "the session the call joined was deleted while it was recorded in it".into(),
        ),
    }
}

/// The times a call's session is judged by, at the call's time `at` (see [`record`]).
#[derive(Debug, Clone, Copy)]
pub struct Windows {
    /// A session active since is fresh.
    pub fresh_after: DateTime<Utc>,
    /// A session whose stored last activity is older than this is not fresh (the stored one
    /// lags the exact one by at most [`session_reads::ACTIVITY_SLACK`]).
    pub slack_after: DateTime<Utc>,
    /// An implicit session started before this is too old to join.
    pub born_after: DateTime<Utc>,
    /// A session whose stored last activity is older than this is due to be written.
    pub due_before: DateTime<Utc>,
}

impl Windows {
    pub fn at(at: DateTime<Utc>, rules: SessionRules) -> Self {
        let fresh_after = at - rules.quiet;
        Self {
            fresh_after,
            slack_after: fresh_after - session_reads::ACTIVITY_SLACK,
            born_after: at - rules.max_age,
            due_before: at - session_reads::ACTIVITY_SLACK,
        }
    }
}

/// The request's writes in one statement: the audit entry (when given), then the call (when
/// given) in its session, which is the named one or else the caller's fresh session; then, at
/// most once a minute per session, the session's row ([`sessions::touch`]). No session counter
/// is touched on each call (the counts are derived from the calls); the session's stored last
/// activity moves only when it is more than [`session_reads::ACTIVITY_SLACK`] behind, and its
/// `journal_only` mark only flips once, so concurrent calls in one session do not queue on its
/// row. A session stays `journal_only` (out of the list, never sent to a paid model) while
/// every call in it reads the journal; opening or closing it is a hand-off, not a read.
///
/// The statement (`n8v_record_call`, migration 0039) reads only the caller's own rows, and the
/// exact last activity through `n8v_own_last_activity` (migration 0012) only to choose among
/// two or more fresh sessions (a call to it cost about a fifth of the whole transaction,
/// `bench/RESULTS.md`; nearly every call has one candidate). It says whether the session's row
/// is due to be written, and leaves that to a statement of its own: the update, with its
/// policies, cost every append about a sixth of its time when it sat in this statement.
///
/// Returns the session the call was recorded in; `None` when there was no call to record, or
/// when it named no session and the caller had no fresh one (then the caller issues one with
/// [`sessions::join_or_issue`] and records the call again, without the audit entry).
#[tracing::instrument(skip_all, err)]
pub async fn record(
    tx: &mut TenantTx,
    audit: Option<&AuditRecord<'_>>,
    audit_id: AuditId,
    call: Option<&CallRecord>,
    rules: SessionRules,
) -> Result<Option<SessionId>> {
    let scopes = tx.tenant().scopes.names();
    let at = call
        .map(|c| c.at)
        .or(audit.map(|a| a.at))
        .unwrap_or_default();
    let w = Windows::at(at, rules);
    // The statement is `n8v_record_call` (migration 0039), which the one-statement append
    // runs too: every table it names brings its policies into the plan.
    let recorded = sqlx::query!(
        r#"SELECT session_id AS "session_id!: SessionId", due AS "due!"
             FROM n8v_record_call($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14,
                  $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29)"#,
        audit.is_some(),
        audit_id.0,
        audit.map(|a| a.request_id),
        audit.map(|a| a.method),
        audit.map(|a| a.path),
        audit.map(|a| i32::from(a.status)),
        audit.map(|a| a.at),
        call.is_some(),
        call.and_then(|c| c.session_id).map(|s| s.0),
        &scopes,
        w.fresh_after,
        w.slack_after,
        w.born_after,
        ids::new_id(),
        call.map(|c| c.operation),
        call.and_then(|c| c.purpose.as_deref()),
        call.map(|c| c.target_ids.as_slice()),
        call.map(|c| i32::from(c.status)),
        call.and_then(|c| c.input_shape.as_ref()),
        call.map(|c| c.result_ids.as_slice()),
        call.and_then(|c| c.result_count),
        call.is_some_and(|c| c.wrote),
        call.is_some_and(|c| c.journal_read),
        call.map(|c| c.duration_ms),
        at,
        call.and_then(|c| c.organization).map(|o| o.0),
        w.due_before,
        call.map(|c| c.assistant.as_str()),
        call.and_then(|c| c.result_chars)
    )
    .fetch_optional(tx.conn())
    .await
    .on_constraint(SESSION_REFERENCE, || gone(call.and_then(|c| c.session_id)))?;
    let Some(recorded) = recorded else {
        // The operation began by checking the session it names (or joined or issued it), and
        // it is the caller's: it was deleted since, by another transaction.
        if let Some(named) = call.and_then(|c| c.session_id) {
            return Err(gone(Some(named)));
        }
        return Ok(None);
    };
    if recorded.due {
        let journal_read = call.is_some_and(|c| c.journal_read);
        sessions::touch(tx, recorded.session_id, at, journal_read).await?;
    }
    Ok(Some(recorded.session_id))
}

/// Whether this credential made a call of `operation` naming `target` since `since` (the
/// harness hooks' answers: a conversation is given the journal once).
#[tracing::instrument(name = "db.calls.named_before", skip_all, err)]
pub async fn named_before(
    tx: &mut TenantTx,
    operation: &str,
    target: &str,
    since: DateTime<Utc>,
) -> Result<bool> {
    let named = sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM journal_calls
                           WHERE account_id = n8v_account() AND credential_id = n8v_credential()
                             AND created_at >= $3 AND operation = $1 AND $2 = ANY(target_ids))
                  AS "named!""#,
        operation,
        target,
        since
    )
    .fetch_one(tx.conn())
    .await?;
    Ok(named)
}
