//! Issue 44, finding 2: replicas started together. Every `serve` migrates first; on one
//! database they did so at the same moment, and one of them exited (`applying migrations: …
//! tuple concurrently updated`, from the application role's grants).

use crate::common::{self, replicas::Replica};

/// Several `migrate`s of one database at once, as replicas starting together run them, round
/// after round: every one succeeds, on a database never migrated (they race to make the schema
/// and the roles) and on one up to date (they race to check it), and each migration is
/// applied once.
#[tokio::test]
async fn migrations_run_at_once_all_succeed() {
    let migrations = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/migrations"))
        .unwrap()
        .filter(|f| f.as_ref().unwrap().path().extension() == Some("sql".as_ref()))
        .count() as i64;
    for round in 0..6 {
        let url = if round % 2 == 0 {
            common::empty_database().await
        } else {
            common::fresh_database().await
        };
        let runs = (0..4).map(|_| n8v_journal::db::migrate(&url, None));
        for (i, result) in futures::future::join_all(runs)
            .await
            .into_iter()
            .enumerate()
        {
            if let Err(e) = result {
                panic!("round {round}, migrator {i}: {e:#}");
            }
        }
        let pool = sqlx::PgPool::connect(&url).await.unwrap();
        let applied: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM _sqlx_migrations WHERE success AND version < 1000000",
        )
        .fetch_one(&pool)
        .await
        .unwrap();
        assert_eq!(applied, migrations, "round {round}: migrations applied");
        pool.close().await;
    }
}

/// A migration of a database that is up to date writes nothing to the catalog: the grants are
/// read, found exact, and left alone (each rewrite was a chance to race another replica).
#[tokio::test]
async fn an_up_to_date_database_is_migrated_without_writing_grants() {
    let url = common::fresh_database().await;
    let owner = sqlx::PgPool::connect(&url).await.unwrap();
    let versions = || async {
        sqlx::query_as::<_, (String, String)>(
            "SELECT (SELECT xmin::text FROM pg_class WHERE oid = 'journal_sessions'::regclass), \
                    (SELECT xmin::text FROM pg_proc WHERE proname = 'n8v_begin')",
        )
        .fetch_one(&owner)
        .await
        .unwrap()
    };
    let before = versions().await;
    n8v_journal::db::migrate(&url, None).await.unwrap();
    assert_eq!(versions().await, before, "the grants' rows were rewritten");

    // A grant taken away by hand is given back by the next migration.
    let role = n8v_journal::db::app_role::resolve(&owner, None)
        .await
        .unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "REVOKE SELECT ON journal_sessions FROM \"{role}\""
    )))
    .execute(&owner)
    .await
    .unwrap();
    n8v_journal::db::migrate(&url, None).await.unwrap();
    let restored: bool =
        sqlx::query_scalar("SELECT has_table_privilege($1, 'journal_sessions', 'SELECT')")
            .bind(&role)
            .fetch_one(&owner)
            .await
            .unwrap();
    assert!(restored, "the revoked grant is back");
}

/// Three `serve` processes started in the same moment on one migrated database, several
/// times: each becomes ready.
#[tokio::test]
async fn replicas_started_together_all_become_ready() {
    let url = common::fresh_database().await;
    for _round in 0..3 {
        let mut replicas: Vec<Replica> = (0..3).map(|_| Replica::start(&url, None, &[])).collect();
        for replica in &mut replicas {
            replica.ready().await;
        }
    }
}
