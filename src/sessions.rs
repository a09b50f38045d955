//! Opening, joining and closing sessions. A session belongs to the credential that opened it:
//! the policies let only that credential write it, and these queries look only at its own.

use crate::config::SessionRules;
use crate::db::TenantTx;
use crate::error::{Error, Remedy, Result};
use crate::ids::{self, OrganizationId, SessionId};
use crate::journal::handoff::Handoff;
use crate::journal::session_reads::{self, ACTIVITY_SLACK};
use crate::journal::views::Session;
use crate::webhooks::payloads::{SessionEnded, SummaryState};
use chrono::{DateTime, Utc};
use close::{closed, closing};
use uuid::Uuid;

pub mod calls;
mod close;
pub use calls::{AuditRecord, CallRecord, record};
pub use close::settled_part;

// Every statement that closes a session (or moves its stored last activity, see [`touch`])
// folds its calls into its counts and folded purposes: the row is written anyway. What the
// fold stores is `n8v_session_fold` (migration 0025), with the fold's lag.

/// Writes a session's row for a call recorded in it (`calls::record` says when it is due: its
/// stored last activity is more than [`ACTIVITY_SLACK`] behind, or its `journal_only` mark must
/// flip): moves the stored last activity up to the call's time, keeps the mark only while every
/// call reads the journal, and folds the calls made until 30 s earlier into its counts and folded
/// purposes (`n8v_session_fold`). The condition is checked again here: a concurrent call's touch
/// may have written the row meanwhile.
#[tracing::instrument(skip_all, err)]
pub async fn touch(
    tx: &mut TenantTx,
    id: SessionId,
    at: DateTime<Utc>,
    journal_read: bool,
) -> Result<()> {
    sqlx::query!(
        "UPDATE journal_sessions SET last_activity_at = GREATEST(last_activity_at, $2),
             journal_only = journal_only AND $3,
             (counted_calls, counted_writes, counted_through, folded_purposes, folded_marked) =
                 (SELECT * FROM n8v_session_fold(journal_sessions, $2))
         WHERE account_id = n8v_account() AND session_id = $1
           AND (last_activity_at < $4 OR (journal_only AND NOT $3))",
        id.0,
        at,
        journal_read,
        at - ACTIVITY_SLACK
    )
    .execute(tx.conn())
    .await?;
    Ok(())
}

/// Where a new session is being opened, as far as the caller knows it.
#[derive(Debug, Default, Clone)]
pub struct Opening {
    pub assistant: String,
    pub goal: Option<String>,
    pub organization: Option<OrganizationId>,
    pub repository: Option<String>,
}

/// Whether a session of this very credential exists, and if so when it ended (`None`: open).
#[tracing::instrument(skip_all, err)]
async fn own_session_end(
    tx: &mut TenantTx,
    id: SessionId,
) -> Result<Option<Option<DateTime<Utc>>>> {
    Ok(sqlx::query_scalar!(
        "SELECT ended_at FROM journal_sessions
         WHERE account_id = n8v_account() AND credential_id = n8v_credential() AND session_id = $1",
        id.0
    )
    .fetch_optional(tx.conn())
    .await?)
}

/// The answer to a call naming a session that is not (or no longer) one of this credential's.
pub fn not_own(id: SessionId) -> Error {
    Error::NotFound(format!(
        "no session {id} belongs to this credential (sessions cannot be shared across \
         credentials)"
    ))
    .with_remedy(Remedy::StartSession)
}

/// Locks one of the caller's sessions against deletion until the transaction ends (`FOR KEY
/// SHARE`, the lock a row referencing it takes); false when it is gone. For an operation that
/// goes on to lock what deleting sessions locks after them (items, exposures), so that every
/// transaction takes sessions first (migration 0020).
#[tracing::instrument(skip_all, err)]
pub async fn hold(tx: &mut TenantTx, id: SessionId) -> Result<bool> {
    Ok(sqlx::query_scalar!(
        "SELECT session_id FROM journal_sessions
          WHERE account_id = n8v_account() AND session_id = $1
            FOR KEY SHARE",
        id.0
    )
    .fetch_optional(tx.conn())
    .await?
    .is_some())
}

/// Checks that an explicit `X-Session-Id` names an open session of this very credential.
pub async fn check_explicit(tx: &mut TenantTx, id: SessionId) -> Result<SessionId> {
    match own_session_end(tx, id).await? {
        None => Err(not_own(id)),
        Some(Some(_)) => Err(Error::Conflict(format!(
            "session {id} has ended; start a new one or omit X-Session-Id"
        ))),
        Some(None) => Ok(id),
    }
}

/// Retires the caller's stale implicit sessions of `assistant` with these scopes: those whose
/// exact last activity (the read model's) is past the quiet time, or that are too old. Each
/// closes as every session closes (the close step: its event, its summary job, its items).
async fn retire_stale(
    tx: &mut TenantTx,
    scopes: &[String],
    assistant: &str,
    now: DateTime<Utc>,
    rules: SessionRules,
) -> Result<()> {
    let (fresh_after, born_after) = (now - rules.quiet, now - rules.max_age);
    let retired = closing!(
        [
            r#"UPDATE journal_sessions SET ended_at = $4, end_reason = 'retired',
               (counted_calls, counted_writes, counted_through, folded_purposes, folded_marked) =
                   (SELECT * FROM n8v_session_fold(journal_sessions, $4))
           WHERE account_id = n8v_account() AND credential_id = n8v_credential()
             AND kind = 'implicit' AND ended_at IS NULL AND scopes = $1 AND agent = n8v_agent($5)
             AND (started_at <= $3
                  OR (SELECT r.last_activity_at FROM journal_session_reads r
                       WHERE r.account_id = journal_sessions.account_id
                         AND r.session_id = journal_sessions.session_id) <= $2)"#
        ],
        scopes,
        fresh_after,
        born_after,
        now,
        assistant
    )
    .fetch_all(tx.conn())
    .await?;
    crate::telemetry::sessions_closed("retired", retired.len() as u64);
    closed(tx, retired, SummaryState::Pending, None, now).await?;
    Ok(())
}

/// The session a call that names none joins: the same caller's (its credential's and its
/// assistant's, see migration 0017) most recently active open session — an explicit one while it
/// is open, an implicit one while it is fresh (quiet for less than 30 minutes, younger than 12
/// hours) — or a new implicit one. The assistant's stale implicit sessions are retired on the
/// way. A unique index (one open implicit session per credential, scope set and assistant) makes
/// concurrent first calls agree on one session. Only sessions recorded with the caller's
/// exact scopes are joined, so a session never holds calls it would hide from their maker.
#[tracing::instrument(skip_all, err)]
pub async fn join_or_issue(
    tx: &mut TenantTx,
    opening: &Opening,
    now: DateTime<Utc>,
    rules: SessionRules,
) -> Result<SessionId> {
    let scopes = tx.tenant().scopes.names();
    let fresh_after = now - rules.quiet;
    let born_after = now - rules.max_age;
    let open = sqlx::query_scalar!(
        r#"SELECT session_id AS "session_id!: SessionId" FROM journal_session_reads
           WHERE account_id = n8v_account() AND credential_id = n8v_credential()
             AND ended_at IS NULL AND scopes = $1 AND agent = n8v_agent($5)
             AND (kind = 'explicit' OR (started_at > $3 AND (activity_bound > $2
                  OR (activity_bound > $4 AND last_activity_at > $2))))
           ORDER BY last_activity_at DESC, session_id DESC LIMIT 1"#,
        &scopes,
        fresh_after,
        born_after,
        fresh_after - ACTIVITY_SLACK,
        &opening.assistant
    )
    .fetch_optional(tx.conn())
    .await?;
    if let Some(id) = open {
        return Ok(id);
    }
    retire_stale(tx, &scopes, &opening.assistant, now, rules).await?;
    let inserted = sqlx::query_scalar!(
        r#"INSERT INTO journal_sessions (account_id, session_id, credential_id, kind, assistant,
               repository, scopes, started_at, last_activity_at)
           VALUES (n8v_account(), $1, n8v_credential(), 'implicit', $2, $3, $4, $5, $5)
           ON CONFLICT (account_id, credential_id, scopes, agent)
               WHERE kind = 'implicit' AND ended_at IS NULL
           DO NOTHING RETURNING session_id AS "session_id: SessionId""#,
        ids::new_id(),
        &opening.assistant,
        opening.repository.as_deref(),
        &scopes,
        now
    )
    .fetch_optional(tx.conn())
    .await?;
    if let Some(id) = inserted {
        crate::telemetry::sessions_opened("implicit", 1);
        return Ok(id);
    }
    // A concurrent request issued it first; join that one.
    let theirs = sqlx::query_scalar!(
        r#"SELECT session_id AS "session_id: SessionId" FROM journal_sessions
           WHERE account_id = n8v_account() AND credential_id = n8v_credential()
             AND kind = 'implicit' AND ended_at IS NULL AND scopes = $1
             AND agent = n8v_agent($2)"#,
        &scopes,
        &opening.assistant
    )
    .fetch_one(tx.conn())
    .await?;
    Ok(theirs)
}

/// Opens an explicit session.
#[tracing::instrument(skip_all, err(level = "info"))]
pub async fn start(tx: &mut TenantTx, opening: &Opening, now: DateTime<Utc>) -> Result<Session> {
    if let Some(org) = opening.organization {
        // Visible to the caller (owner or member) under the organizations policy, or unknown.
        let visible = sqlx::query_scalar!(
            "SELECT organization_id FROM organizations WHERE organization_id = $1 LIMIT 1",
            org.0
        )
        .fetch_optional(tx.conn())
        .await?;
        if visible.is_none() {
            return Err(Error::not_found(ids::Kind::Organization, &org.to_string()));
        }
    }
    let scopes = tx.tenant().scopes.names();
    let id = sqlx::query_scalar!(
        r#"INSERT INTO journal_sessions (account_id, session_id, credential_id, kind, assistant,
               organization_id, repository, scopes, goal, started_at, last_activity_at)
           VALUES (n8v_account(), $1, n8v_credential(), 'explicit', $2, $3, $4, $5, $6, $7, $7)
           RETURNING session_id AS "session_id: SessionId""#,
        ids::new_id(),
        &opening.assistant,
        opening.organization.map(|o| o.0),
        opening.repository.as_deref(),
        &scopes,
        opening.goal.as_deref(),
        now
    )
    .fetch_one(tx.conn())
    .await?;
    crate::telemetry::sessions_opened("explicit", 1);
    written(tx, id).await
}

/// Closes one of the caller's own open sessions with its outcome, exactly once: the update
/// only matches an open session, so of two concurrent ends (or an end racing the quiet sweep)
/// one closes it (through the close step, [`close`]: its event, its summary job and its items;
/// `purpose` is the end call's own, not recorded yet), and the other is told it has ended (409).
#[tracing::instrument(skip_all, err(level = "info"))]
pub async fn end(
    tx: &mut TenantTx,
    id: SessionId,
    outcome: Option<&str>,
    handoff: Option<&Handoff>,
    purpose: Option<&str>,
    now: DateTime<Utc>,
) -> Result<Session> {
    let handoff = handoff
        .map(serde_json::to_value)
        .transpose()
        .map_err(|e| Error::Internal(e.into()))?;
    let ended = closing!(
        [
            r#"UPDATE journal_sessions SET ended_at = $2, end_reason = 'ended', outcome = $3,
               handoff = $4, last_activity_at = GREATEST(last_activity_at, $2),
               (counted_calls, counted_writes, counted_through, folded_purposes, folded_marked) =
                   (SELECT * FROM n8v_session_fold(journal_sessions, $2))
           WHERE account_id = n8v_account() AND credential_id = n8v_credential()
             AND session_id = $1 AND ended_at IS NULL"#
        ],
        id.0,
        now,
        outcome,
        handoff
    )
    .fetch_optional(tx.conn())
    .await?;
    let Some(row) = ended else {
        // Not one of ours (404), or closed already (409). The id came in the path, so the
        // answer speaks of that, not of the X-Session-Id header the caller may never have sent.
        return Err(match own_session_end(tx, id).await? {
            None => Error::NotFound(format!(
                "no session {id} belongs to this credential (a session is ended by the \
                 credential that opened it)"
            )),
            Some(_) => Error::Conflict(format!("session {id} has ended already"))
                .with_remedy(Remedy::StartNewSession),
        });
    };
    let session = written(tx, id).await?;
    closed(tx, vec![row], SummaryState::Pending, purpose, now).await?;
    crate::telemetry::sessions_closed("ended", 1);
    Ok(session)
}

/// Closes a session the sweep found quiet (unless a call came in meanwhile or it was closed
/// already), through the close step ([`close`]); returns whether it closed it.
#[tracing::instrument(skip_all, err)]
pub async fn close_quiet(
    tx: &mut TenantTx,
    session: Uuid,
    cutoff: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Result<bool> {
    // The candidate's stored bound is past the cutoff; its exact last activity decides. A
    // session still active gets its stored bound brought up to date instead, so the sweep does
    // not find it again.
    let row = closing!(
        [
            r#"WITH exact AS (SELECT last_activity_at AS at FROM journal_session_reads
               WHERE account_id = n8v_account() AND session_id = $1)
           UPDATE journal_sessions SET last_activity_at = exact.at,
               ended_at = CASE WHEN exact.at <= $2 THEN $3::timestamptz END,
               end_reason = CASE WHEN exact.at <= $2 THEN 'quiet' END,
               (counted_calls, counted_writes, counted_through, folded_purposes, folded_marked) =
                   (SELECT * FROM n8v_session_fold(journal_sessions, $3))
           FROM exact
           WHERE account_id = n8v_account() AND session_id = $1 AND ended_at IS NULL
             AND last_activity_at <= $2"#
        ],
        session,
        cutoff,
        now
    )
    .fetch_optional(tx.conn())
    .await?;
    let Some(row) = row.filter(|r| r.ended_at.is_some()) else {
        return Ok(false);
    };
    closed(tx, vec![row], SummaryState::Pending, None, now).await?;
    Ok(true)
}

/// Open sessions quiet since before `cutoff`, across accounts (ids only), oldest first. The
/// owner's SECURITY DEFINER function reads across accounts; only ids leave it.
#[tracing::instrument(skip_all, err)]
pub async fn quiet(
    db: &crate::db::Db,
    cutoff: DateTime<Utc>,
    limit: i32,
) -> sqlx::Result<Vec<(Uuid, Uuid)>> {
    let rows = sqlx::query!(
        r#"SELECT account_id AS "account_id!", session_id AS "session_id!"
             FROM n8v_quiet_sessions($1, $2)"#,
        cutoff,
        limit
    )
    .fetch_all(db.pool())
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| (r.account_id, r.session_id))
        .collect())
}

/// A session the caller just wrote, as the reads answer it.
async fn written(tx: &mut TenantTx, id: SessionId) -> Result<Session> {
    session_reads::one(tx, id)
        .await?
        .ok_or_else(|| Error::not_found(ids::Kind::Session, &id.to_string()))
}

/// Deletes one session on purpose (with its calls and summaries); 404 unless the caller may
/// (the delete policy: its own account's, readable, with `chats:delete`). Like every deletion
/// of sessions, it first locks them, then their items and exposures, in one order
/// (`n8v_lock_for_deletion`, migration 0020), and deletes only what it locked.
#[tracing::instrument(skip_all, err(level = "info"))]
pub async fn delete(tx: &mut TenantTx, id: SessionId) -> Result<SessionId> {
    let gone = sqlx::query_scalar!(
        r#"DELETE FROM journal_sessions WHERE account_id = n8v_account() AND session_id = $1
             AND session_id = ANY ((SELECT n8v_lock_for_deletion(ARRAY(
                   SELECT session_id FROM journal_sessions
                    WHERE account_id = n8v_account() AND session_id = $1)))::uuid[])
           RETURNING session_id AS "session_id: SessionId""#,
        id.0
    )
    .fetch_optional(tx.conn())
    .await?;
    gone.ok_or_else(|| Error::not_found(ids::Kind::Session, &id.to_string()))
}

/// Deletes every session of the caller's account that started in `[from, to)` and that the
/// caller may delete; returns them.
#[tracing::instrument(skip_all, err)]
pub async fn delete_started_between(
    tx: &mut TenantTx,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
) -> Result<Vec<SessionId>> {
    Ok(sqlx::query_scalar!(
        r#"DELETE FROM journal_sessions WHERE account_id = n8v_account()
             AND started_at >= $1 AND started_at < $2
             AND session_id = ANY ((SELECT n8v_lock_for_deletion(ARRAY(
                   SELECT session_id FROM journal_sessions
                    WHERE account_id = n8v_account() AND started_at >= $1 AND started_at < $2)))::uuid[])
           RETURNING session_id AS "session_id: SessionId""#,
        from,
        to
    )
    .fetch_all(tx.conn())
    .await?)
}
