//! Races that really happen: a test holds a lock (or a fake provider holds its answers) until
//! every contender has reached the contended step, then lets them go. A test written this way
//! fails when the guard it names is missing, where `tokio::join!` alone passes on a serialized
//! run too. Waits are for a condition, never for a fixed time; the deadline only turns a hang
//! into a failure.

use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// Long enough that only a hang reaches it on a loaded machine.
const DEADLINE: Duration = Duration::from_secs(60);

/// Waits until `condition` holds; panics naming `what` if it never does.
pub async fn wait_until<F, Fut>(what: &str, mut condition: F)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = bool>,
{
    let waited = tokio::time::timeout(DEADLINE, async {
        while !condition().await {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await;
    assert!(waited.is_ok(), "waited {DEADLINE:?} for {what}");
}

/// Runs `work`, counting it in `done` when it finishes.
pub async fn counted<T>(done: &AtomicUsize, work: impl Future<Output = T>) -> T {
    let out = work.await;
    done.fetch_add(1, Ordering::SeqCst);
    out
}

/// How many sessions of this database wait for a lock right now (row locks, advisory locks,
/// a transaction's id: anything PostgreSQL reports as `Lock`).
pub async fn lock_waiters(db_url: &str) -> i64 {
    let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(db_url)
        .await
        .unwrap();
    let n = sqlx::query_scalar(
        "SELECT count(*) FROM pg_stat_activity \
         WHERE datname = current_database() AND wait_event_type = 'Lock'",
    )
    .fetch_one(&mut conn)
    .await
    .unwrap();
    let _ = sqlx::Connection::close(conn).await;
    n
}

/// A transaction of the test's own, on the owner's connection, holding whatever locks it took
/// (a row `FOR UPDATE`, or a row it inserted that others must wait to conflict with) until it is
/// released; it is rolled back then, so it leaves nothing behind.
pub struct Hold {
    conn: sqlx::PgConnection,
}

impl Hold {
    /// Begins a transaction and runs `sql` in it (say `SELECT … FOR UPDATE`, or an `INSERT …
    /// RETURNING`), keeping its locks; `$1` is `bind`.
    pub async fn take(db_url: &str, sql: &str, bind: uuid::Uuid) -> Self {
        let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(db_url)
            .await
            .unwrap();
        sqlx::query("BEGIN").execute(&mut conn).await.unwrap();
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql.to_owned()))
            .bind(bind)
            .fetch_all(&mut conn)
            .await
            .unwrap();
        assert!(!rows.is_empty(), "the hold locked nothing: {sql}");
        Self { conn }
    }

    /// Releases once each of `contenders` either waits for a lock in this database or is
    /// `done` (a broken guard may let one through without waiting).
    pub async fn release_when(mut self, db_url: &str, contenders: usize, done: &AtomicUsize) {
        wait_until("every contender at the held lock", || async {
            lock_waiters(db_url).await as usize + done.load(Ordering::SeqCst) >= contenders
        })
        .await;
        sqlx::query("ROLLBACK")
            .execute(&mut self.conn)
            .await
            .unwrap();
    }
}

/// A tenant's transaction of the test's own, as the application role with the account and
/// scopes set (as `TenantTx` sets them): it deletes sessions, by any of the paths' one
/// statement, and holds what that locked until `commit`.
pub struct Deleting {
    conn: sqlx::PgConnection,
}

impl Deleting {
    pub async fn begin(db_url: &str, account: uuid::Uuid, scopes: &str) -> Self {
        let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(db_url)
            .await
            .unwrap();
        sqlx::query("BEGIN").execute(&mut conn).await.unwrap();
        sqlx::query(
            "SELECT set_config('role', $3, true), \
                    set_config('app.account_id', $1::text, true), \
                    set_config('app.scopes', $2, true)",
        )
        .bind(account.to_string())
        .bind(scopes)
        .bind(n8v_journal::db::app_role::default_for_url(db_url).unwrap())
        .execute(&mut conn)
        .await
        .unwrap();
        Self { conn }
    }

    /// Deletes one session of the account (as `DELETE /api/v1/journal/sessions/{id}` does).
    pub async fn session(&mut self, session: uuid::Uuid) {
        let gone = sqlx::query(
            "DELETE FROM journal_sessions WHERE account_id = n8v_account() AND session_id = $1",
        )
        .bind(session)
        .execute(&mut self.conn)
        .await
        .unwrap();
        assert_eq!(gone.rows_affected(), 1, "the session to delete");
    }

    pub async fn commit(mut self) {
        sqlx::query("COMMIT").execute(&mut self.conn).await.unwrap();
    }
}

/// Deletes two sessions of `account` in two transactions at once, the race made certain: the
/// first deletes its session and stays open; the second deletes its own meanwhile (so each
/// statement runs while the other's deletion is not committed); the first commits once the
/// second waits for a lock it holds (or is done, when nothing made it wait); then the second.
pub async fn delete_concurrently(
    db_url: &str,
    account: uuid::Uuid,
    scopes: &str,
    sessions: [uuid::Uuid; 2],
) {
    let mut first = Deleting::begin(db_url, account, scopes).await;
    first.session(sessions[0]).await;
    let mut second = Deleting::begin(db_url, account, scopes).await;
    let done = AtomicUsize::new(0);
    let release = async {
        wait_until("the second deletion to wait or finish", || async {
            lock_waiters(db_url).await as usize + done.load(Ordering::SeqCst) >= 1
        })
        .await;
        first.commit().await;
    };
    tokio::join!(counted(&done, second.session(sessions[1])), release);
    second.commit().await;
}
