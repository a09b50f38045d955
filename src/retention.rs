//! Retention and caps: calls expire after 90 days, sessions after 400 (a session's summary goes
//! with it), and each account keeps at most 100,000 calls and 20,000 sessions, the oldest
//! removed first. The audit log has its own retention and is never touched by the journal's.
//!
//! Every deletion runs in batches of at most `batch` rows of one account, each its own short
//! transaction as the service for that account, so locks are brief and a pass killed half-way
//! loses nothing: the next pass deletes what is left. Two passes at once never count a row
//! twice, because a row is deleted (and counted) by exactly one `DELETE`.

use crate::db::{Db, Tenant, TenantTx};
use chrono::{DateTime, Duration, Utc};
use serde::Serialize;
use sqlx::Postgres;
use sqlx::postgres::PgArguments;
use sqlx::query::Query;
use uuid::Uuid;

/// How long the journal keeps things, and how much of them: settings, kept with the others.
pub use crate::config::RetentionRules as Rules;

/// What one pass deleted.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub accounts: u64,
    pub calls_deleted: u64,
    pub sessions_deleted: u64,
    /// Calls removed because the account was over the calls cap (or in sessions over the
    /// sessions cap), beyond those that had expired.
    pub calls_capped: u64,
    pub sessions_capped: u64,
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, o: Self) {
        self.accounts += o.accounts;
        self.calls_deleted += o.calls_deleted;
        self.sessions_deleted += o.sessions_deleted;
        self.calls_capped += o.calls_capped;
        self.sessions_capped += o.sessions_capped;
    }
}

/// Every account, a page at a time (ids only, through the owner's function).
#[tracing::instrument(skip_all, err)]
pub async fn account_ids(db: &Db, after: Option<Uuid>, limit: i32) -> sqlx::Result<Vec<Uuid>> {
    sqlx::query_scalar!(
        r#"SELECT account_id AS "account_id!" FROM n8v_account_ids($1, $2)"#,
        after,
        limit
    )
    .fetch_all(db.pool())
    .await
}

/// Every account's id (a page of ids at a time; ids are all a pass keeps in memory).
pub async fn all_accounts(db: &Db) -> sqlx::Result<Vec<Uuid>> {
    let mut all = Vec::new();
    loop {
        let page = account_ids(db, all.last().copied(), 1_000).await?;
        let full = page.len() == 1_000;
        all.extend(page);
        if !full {
            return Ok(all);
        }
    }
}

/// One batch of a deletion: rows older than `before`, at most `batch` of them.
type Batch = fn(DateTime<Utc>, i64) -> Query<'static, Postgres, PgArguments>;

/// Runs `statement` batch after batch, each in its own transaction for the account, until one
/// deletes nothing; returns the rows deleted. Each batch holds the account's advisory lock, so
/// passes running at once take turns batch by batch and never pick the same rows.
#[tracing::instrument(skip_all, err, fields(statement = name))]
async fn drain(
    db: &Db,
    account: Uuid,
    (name, statement): (&'static str, Batch),
    before: DateTime<Utc>,
    batch: i64,
) -> sqlx::Result<u64> {
    let mut total = 0;
    loop {
        let mut tx = TenantTx::begin(db, &Tenant::service(account)).await?;
        lock_account(&mut tx).await?;
        let done = statement(before, batch)
            .execute(tx.conn())
            .await?
            .rows_affected();
        tx.commit().await?;
        if done == 0 {
            return Ok(total);
        }
        total += done;
    }
}

const EXPIRED_CALLS: (&str, Batch) = ("expired calls", |before, batch| {
    sqlx::query!(
        "DELETE FROM journal_calls WHERE account_id = n8v_account()
           AND call_id IN (SELECT call_id FROM journal_calls
               WHERE account_id = n8v_account() AND created_at < $1 ORDER BY created_at LIMIT $2)",
        before,
        batch
    )
});

const EXPIRED_SESSIONS: (&str, Batch) = ("expired sessions", |before, batch| {
    sqlx::query!(
        "DELETE FROM journal_sessions WHERE account_id = n8v_account()
           AND session_id = ANY ((SELECT n8v_lock_for_deletion(ARRAY(
               SELECT session_id FROM journal_session_reads
               WHERE account_id = n8v_account() AND activity_bound < $1 AND last_activity_at < $1
               ORDER BY activity_bound LIMIT $2)))::uuid[])",
        before,
        batch
    )
});

const EXPIRED_AUDIT: (&str, Batch) = ("expired audit entries", |before, batch| {
    sqlx::query!(
        "DELETE FROM audit_log WHERE account_id = n8v_account()
           AND audit_id IN (SELECT audit_id FROM audit_log
               WHERE account_id = n8v_account() AND created_at < $1 ORDER BY created_at LIMIT $2)",
        before,
        batch
    )
});

/// The account's retention lock, until the transaction ends.
#[tracing::instrument(skip_all, err)]
async fn lock_account(tx: &mut TenantTx) -> sqlx::Result<()> {
    sqlx::query!(
        "SELECT pg_advisory_xact_lock(hashtextextended('n8v-retention:' || n8v_account()::text, 0))"
    )
    .execute(tx.conn())
    .await?;
    Ok(())
}

/// Caps pick what is over them in one statement: the rows beyond the newest `cap`, the oldest
/// `batch` of them. Deleting the oldest rows never pushes another row past the cap, so a row one
/// pass sees beyond it is beyond it for every pass, and two passes at once cannot together
/// remove more than the excess (a count read before another pass commits, then a pick read
/// after, could). Each pass counts only the rows its own `DELETE`s removed. A batch at a time,
/// until nothing is over.
/// The oldest sessions over the cap go with their calls (and summaries), a batch at a time.
#[tracing::instrument(skip_all, err)]
async fn cap_sessions(db: &Db, account: Uuid, rules: &Rules) -> sqlx::Result<(u64, u64)> {
    let (mut sessions, mut calls) = (0, 0);
    loop {
        let mut tx = TenantTx::begin(db, &Tenant::service(account)).await?;
        let doomed = sqlx::query_scalar!(
            r#"SELECT session_id AS "session_id!" FROM (
                   SELECT session_id, last_activity_at FROM journal_sessions
                   WHERE account_id = n8v_account()
                   ORDER BY last_activity_at DESC, session_id DESC OFFSET $1) AS beyond
               ORDER BY last_activity_at, session_id LIMIT $2"#,
            rules.cap_sessions,
            rules.batch
        )
        .fetch_all(tx.conn())
        .await?;
        if doomed.is_empty() {
            tx.commit().await?;
            return Ok((sessions, calls));
        }
        calls += sqlx::query!(
            "DELETE FROM journal_calls WHERE account_id = n8v_account() AND session_id = ANY($1)",
            &doomed
        )
        .execute(tx.conn())
        .await?
        .rows_affected();
        sessions += sqlx::query!(
            "DELETE FROM journal_sessions WHERE account_id = n8v_account()
               AND session_id = ANY ((SELECT n8v_lock_for_deletion($1))::uuid[])",
            &doomed
        )
        .execute(tx.conn())
        .await?
        .rows_affected();
        tx.commit().await?;
    }
}

/// The oldest calls over the cap, a batch at a time.
#[tracing::instrument(skip_all, err)]
async fn cap_calls(db: &Db, account: Uuid, rules: &Rules) -> sqlx::Result<u64> {
    let mut calls = 0;
    loop {
        let mut tx = TenantTx::begin(db, &Tenant::service(account)).await?;
        let doomed = sqlx::query_scalar!(
            r#"SELECT call_id AS "call_id!" FROM (
                   SELECT call_id, created_at FROM journal_calls WHERE account_id = n8v_account()
                   ORDER BY created_at DESC, call_id DESC OFFSET $1) AS beyond
               ORDER BY created_at, call_id LIMIT $2"#,
            rules.cap_calls,
            rules.batch
        )
        .fetch_all(tx.conn())
        .await?;
        if doomed.is_empty() {
            tx.commit().await?;
            return Ok(calls);
        }
        calls += sqlx::query!(
            "DELETE FROM journal_calls WHERE account_id = n8v_account() AND call_id = ANY($1)",
            &doomed
        )
        .execute(tx.conn())
        .await?
        .rows_affected();
        tx.commit().await?;
    }
}

/// One account's retention: expired calls, expired sessions, then the caps.
pub async fn expire_account(
    db: &Db,
    account: Uuid,
    now: DateTime<Utc>,
    rules: &Rules,
) -> sqlx::Result<Counts> {
    let calls_before = now - rules.calls;
    let sessions_before = now - rules.sessions;
    let batch = rules.batch;
    let mut counts = Counts {
        accounts: 1,
        ..Counts::default()
    };
    counts.calls_deleted = drain(db, account, EXPIRED_CALLS, calls_before, batch).await?;
    counts.sessions_deleted = drain(db, account, EXPIRED_SESSIONS, sessions_before, batch).await?;
    let (sessions, calls) = cap_sessions(db, account, rules).await?;
    counts.sessions_capped = sessions;
    counts.calls_capped = calls + cap_calls(db, account, rules).await?;
    Ok(counts)
}

/// A retention pass over every account.
#[tracing::instrument(skip_all)]
pub async fn expire(db: &Db, now: DateTime<Utc>, rules: &Rules) -> sqlx::Result<Counts> {
    let mut total = Counts::default();
    for account in all_accounts(db).await? {
        total += expire_account(db, account, now, rules).await?;
    }
    Ok(total)
}

/// What an audit retention pass deleted.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct AuditCounts {
    pub accounts: u64,
    pub audit_entries_deleted: u64,
}

/// Deletes audit entries older than `keep`, for every account. Independent of the journal: a
/// call whose audit entry expired keeps its `audit_id`; the entry itself is then a 404.
#[tracing::instrument(skip_all)]
pub async fn expire_audit(
    db: &Db,
    now: DateTime<Utc>,
    keep: Duration,
    batch: i64,
) -> sqlx::Result<AuditCounts> {
    let before = now - keep;
    let mut total = AuditCounts::default();
    for account in all_accounts(db).await? {
        total.accounts += 1;
        total.audit_entries_deleted += drain(db, account, EXPIRED_AUDIT, before, batch).await?;
    }
    Ok(total)
}
