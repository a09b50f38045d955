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

/// Hands [`RECORD`]'s text to a macro, after the tokens given with it (`sqlx::query_scalar!`
/// checks it against the schema at compile time, which needs the literal itself, not a
/// constant).
macro_rules! record_statement {
    ($($then:ident)::+ ! ($($before:tt)*) $(, $arg:expr)* $(,)?) => {
        $($then)::+!(
            $($before)*
            "WITH audit AS ( \
       INSERT INTO audit_log (account_id, audit_id, credential_id, request_id, method, path, \
           status, created_at) \
       SELECT n8v_account(), $2, n8v_credential(), $3, $4, $5, $6, $7 WHERE $1), \
     target AS ( \
       SELECT s.session_id, s.last_activity_at, s.journal_only FROM journal_sessions s \
        WHERE $8 AND s.account_id = n8v_account() AND s.session_id = $9::uuid \
       UNION ALL \
       (SELECT f.session_id, f.last_activity_at, f.journal_only FROM ( \
          SELECT s.session_id, s.last_activity_at, s.journal_only, count(*) OVER () AS fresh \
            FROM journal_sessions s \
           WHERE $8 AND $9::uuid IS NULL \
             AND s.account_id = n8v_account() AND s.credential_id = n8v_credential() \
             AND s.ended_at IS NULL AND s.scopes = $10 AND s.agent = n8v_agent($28) \
             AND (s.kind = 'explicit' OR (s.started_at > $13 AND (s.last_activity_at > $11 \
                  OR (s.last_activity_at > $12 \
                      AND n8v_own_last_activity(s.session_id, s.last_activity_at) > $11))))) f \
         ORDER BY CASE WHEN f.fresh > 1 \
                       THEN n8v_own_last_activity(f.session_id, f.last_activity_at) END DESC, \
                  f.session_id DESC \
         LIMIT 1)), \
     call AS ( \
       INSERT INTO journal_calls (account_id, call_id, session_id, credential_id, operation, \
           purpose, target_ids, status, ok, input_shape, result_ids, result_count, wrote, \
           journal_read, duration_ms, audit_id, created_at, organization_id, scopes, \
           result_chars) \
       SELECT n8v_account(), $14, t.session_id, n8v_credential(), $15, $16, $17, $18, $18 < 400, \
           $19, $20, $21, $22, $23, $24, $2, $25, $26, \
           CASE WHEN $26::uuid IS NULL THEN NULL ELSE n8v_scopes() END, $29 \
         FROM target t) \
     SELECT session_id AS \"session_id!: SessionId\", \
            last_activity_at < $27 OR (journal_only AND NOT $23) AS \"due!\" FROM target" $(, $arg)*
        )
    };
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

/// The statement [`record`] runs (public for the plan test, `tests/api/plans.rs`). Every table it
/// names brings its policies into the plan, built afresh on each run: it reads only the caller's
/// own rows, and the exact last activity through `n8v_own_last_activity` (migration 0012), which
/// it asks only to choose among two or more fresh sessions (a call to it cost about a fifth of
/// the whole transaction, `bench/RESULTS.md`; nearly every call has one candidate). It says
/// whether the session's row is due to be written ([`sessions::touch`]), which it leaves to a statement of
/// its own: that update, with its policies, cost every append about a sixth of its time when it
/// sat in this statement, though it runs at most once a minute per session.
pub const RECORD: &str = record_statement!(std::concat!());

/// The request's writes in one statement: the audit entry (when given), then the call (when
/// given) in its session, which is the named one or else the caller's fresh session; then, at
/// most once a minute per session, the session's row ([`sessions::touch`]). No session counter
/// is touched on each call (the counts are derived from the calls); the session's stored last
/// activity moves only when it is more than [`session_reads::ACTIVITY_SLACK`] behind, and its
/// `journal_only` mark only flips once, so concurrent calls in one session do not queue on its
/// row. A session stays `journal_only` (out of the list, never sent to a paid model) while
/// every call in it reads the journal; opening or closing it is a hand-off, not a read.
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
    let fresh_after = at - rules.quiet;
    let recorded = record_statement!(
        sqlx::query!(),
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
        fresh_after,
        fresh_after - session_reads::ACTIVITY_SLACK,
        at - rules.max_age,
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
        at - session_reads::ACTIVITY_SLACK,
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
