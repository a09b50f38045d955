//! A database out of reach is a `503` with `Retry-After` that clients may retry, never a `500`
//! (issue 25, goal 4): a database that answers no connection, and a connection lost in the
//! middle of a request, over REST and MCP alike.

use crate::common;

use crate::common::{TestApp, mcp};
use n8v_journal::clock::ManualClock;
use n8v_journal::config::Config;
use n8v_journal::db::Db;
use n8v_journal::ops::Services;
use reqwest::Method;
use serde_json::{Value, json};
use sqlx::Connection;
use std::sync::Arc;
use std::time::Duration;

use crate::common::JOURNAL_SCOPES as SCOPES;

/// Asserts the database-unavailable problem: 503, `Retry-After`, problem+json.
async fn assert_unavailable(response: reqwest::Response) -> Value {
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let body: Value = response.json().await.unwrap_or(Value::Null);
    assert_eq!(status, 503, "{body:#}");
    assert_eq!(
        headers["content-type"], "application/problem+json",
        "{body:#}"
    );
    let retry: u64 = headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!(retry >= 1, "Retry-After: {retry}");
    assert_eq!(
        body["type"],
        "https://n8v-journal.dev/problems/database-unavailable"
    );
    assert!(
        body["detail"].as_str().unwrap().contains("safe to retry"),
        "{body:#}"
    );
    body
}

/// The same service in front of a port where no database listens: every connection attempt
/// fails until the pool's (short) acquire timeout.
async fn app_without_database() -> String {
    let url = "postgres://postgres@127.0.0.1:1/postgres";
    let db = Db::connect_lazy(url, None, 2, Duration::from_millis(300)).unwrap();
    let clock = Arc::new(ManualClock::new(chrono::Utc::now()));
    common::serve(Services::new(db, Config::for_database(url), clock)).await
}

#[tokio::test]
async fn a_database_that_cannot_be_reached_answers_503_with_retry_after_on_rest_and_mcp() {
    // A real key (its format passes the parser), presented to a service without its database.
    let real = common::spawn_app().await;
    let account = real.account("a", SCOPES).await;
    let base = app_without_database().await;
    let http = reqwest::Client::new();

    let response = http
        .get(format!("{base}/api/v1/journal/sessions"))
        .bearer_auth(&account.token)
        .send()
        .await
        .unwrap();
    assert_unavailable(response).await;

    // MCP authenticates like REST, before any JSON-RPC: the same problem.
    let response = http
        .post(format!("{base}/mcp"))
        .bearer_auth(&account.token)
        .header("accept", "application/json, text/event-stream")
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
        .send()
        .await
        .unwrap();
    assert_unavailable(response).await;
}

/// Holds `table` locked on a connection of its own until the returned connection rolls back,
/// so the service's next statement on it waits; then terminates the service's waiting backend,
/// as a database restart does.
struct Blocker {
    conn: sqlx::PgConnection,
}

impl Blocker {
    async fn lock(app: &TestApp, table: &str) -> Self {
        let mut conn = sqlx::PgConnection::connect(&app.db_url).await.unwrap();
        sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
            "BEGIN; LOCK TABLE {table} IN ACCESS EXCLUSIVE MODE"
        )))
        .execute(&mut conn)
        .await
        .unwrap();
        Self { conn }
    }

    /// Terminates the backend that waits on the lock (once one does).
    async fn terminate_waiter(&mut self) {
        for _ in 0..200 {
            let killed: i64 = sqlx::query_scalar(
                "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                  WHERE datname = current_database() AND pid <> pg_backend_pid() \
                    AND wait_event_type = 'Lock') t",
            )
            .fetch_one(&mut self.conn)
            .await
            .unwrap();
            if killed > 0 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("no request waited on the lock");
    }

    async fn release(mut self) {
        sqlx::raw_sql("ROLLBACK")
            .execute(&mut self.conn)
            .await
            .unwrap();
    }
}

#[tokio::test]
async fn a_connection_lost_in_the_middle_of_a_request_answers_503_and_stores_nothing() {
    let app = common::spawn_app().await;
    let account = app.account("a", SCOPES).await;
    app.journal_on(account.id).await;
    let record = app.first_record(&account.token).await;

    // REST: an append whose connection is terminated while it waits to write.
    let mut blocker = Blocker::lock(&app, "record_entries").await;
    let append = app
        .call(Method::POST, &format!("/api/v1/records/{record}/entries"))
        .token(&account.token)
        .purpose("put it on record")
        .json(json!({ "line": "written during the outage" }))
        .send();
    let (response, ()) = tokio::join!(append, blocker.terminate_waiter());
    assert_unavailable(response).await;
    blocker.release().await;
    let stored: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM record_entries WHERE line = 'written during the outage'",
    )
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(stored, 0, "a refused request stores nothing");
    // Retried, it goes through (the pool replaces the lost connection).
    app.append(
        &account.token,
        &record,
        None,
        Some("put it on record"),
        "written during the outage",
    )
    .await;

    // MCP: a tool whose connection is lost answers a tool error with the same meaning.
    let client = mcp::connect(&app, &account.token).await;
    let mut blocker = Blocker::lock(&app, "journal_sessions").await;
    let call = mcp::call(
        &client,
        "journal_sessions",
        json!({ "purpose": "catch up" }),
    );
    let (result, ()) = tokio::join!(call, blocker.terminate_waiter());
    blocker.release().await;
    assert_eq!(result.is_error, Some(true), "{result:?}");
    let error = result.structured_content.clone().unwrap();
    assert_eq!(error["status"], 503, "{error:#}");
    assert_eq!(error["retry_after"], 2, "{error:#}");
    assert_eq!(
        error["type"],
        "https://n8v-journal.dev/problems/database-unavailable"
    );
    assert!(
        mcp::error_text(&result).contains("safe to retry"),
        "{result:?}"
    );
}
