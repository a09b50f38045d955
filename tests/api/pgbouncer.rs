//! The journal behind PgBouncer in transaction mode (`N8V_DATABASE_POOLER=transaction`): tenant
//! transactions go through the pooler, several client connections taking turns on fewer server
//! connections; the job queue, the workers' passes and the cache listener go straight to the
//! server. The core journeys pass: a session started, calls journalled in it from many
//! requests at once, ended, summarised by the real worker, caught up on, searched, expired by
//! retention, and a revoked key refused on its next request; MCP answers through it too.

use crate::common::journal::texts;
use crate::common::{self, TestApp, mcp, pgbouncer::PgBouncer};
use chrono::Duration;
use n8v_journal::jobs;
use n8v_journal::journal::Session;
use n8v_journal::journal::search::SearchHit;
use n8v_journal::ops::journal::SessionDetail;
use n8v_journal::ops::search::SearchResults;
use reqwest::Method;
use serde_json::json;

use crate::common::JOURNAL_SCOPES as ALL;

/// Appends `count` lines to `record` in `session`, all at once (more requests in flight than
/// the pooler has server connections).
async fn append_at_once(app: &TestApp, token: &str, record: &str, session: &str, count: usize) {
    let lines: Vec<String> = (0..count).map(|i| format!("Line {i}")).collect();
    let appends = lines.iter().map(|line| {
        app.append(
            token,
            record,
            Some(session),
            Some("Note the redirect fix"),
            line,
        )
    });
    futures::future::join_all(appends).await;
}

fn ids(hits: &[SearchHit]) -> Vec<&str> {
    hits.iter().map(|h| h.id.as_str()).collect()
}

/// Runs the real workers (apalis on the direct connection) until the session has a summary.
async fn summarised_by_the_worker(app: &TestApp, token: &str, session: &str) -> Session {
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let workers = tokio::spawn(jobs::run(app.workers(|_| {}), async move {
        let mut stopped = stopped;
        let _ = stopped.wait_for(|s| *s).await;
    }));
    let mut read = app.session_detail(token, session).await.session;
    for _ in 0..150 {
        if read.summary.is_some() {
            break;
        }
        read = app.session_detail(token, session).await.session;
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let _ = stop.send(true);
    workers.await.unwrap().unwrap();
    read
}

#[tokio::test]
async fn the_core_journeys_pass_through_pgbouncer_in_transaction_mode() {
    let bouncer = PgBouncer::start(&common::server_url().await, 2).await;
    let app = common::spawn_app_through(&bouncer).await;
    let a = app.account("Ada", ALL).await;
    app.journal_on(a.id).await;
    let b = app.account("Bob", ALL).await;
    app.journal_on(b.id).await;
    let record = app.first_record(&a.token).await;
    let b_record = app.first_record(&b.token).await;

    let session = app
        .start_session(
            &a.token,
            Some("Start the redirect work"),
            json!({"goal": "Fix the login redirect loop", "repository": "acme/web"}),
        )
        .await
        .id
        .to_string();
    // Two accounts at once: each sees only its own, whichever server connection it was given.
    let b_session = app
        .start_session(&b.token, None, json!({"goal": "Tidy the docs"}))
        .await
        .id
        .to_string();
    tokio::join!(
        append_at_once(&app, &a.token, &record, &session, 24),
        append_at_once(&app, &b.token, &b_record, &b_session, 24),
    );
    let read: SessionDetail = app
        .get_session(&a.token, &session)
        .header("x-purpose", "Check the calls")
        .typed(200)
        .await;
    assert_eq!(read.session.call_count, 24 + 1, "{read:?}");
    app.get_session(&a.token, &b_session)
        .problem(404, "not-found")
        .await;

    app.end_session(
        &a.token,
        &session,
        json!({"outcome": "Fixed the redirect loop", "decisions": ["Keep the cookie path"]}),
    )
    .ok(200)
    .await;
    let read = summarised_by_the_worker(&app, &a.token, &session).await;
    assert_eq!(read.summary_model.as_deref(), Some("code"), "{read:?}");

    let brief = app.brief(&a.token, None).await;
    assert!(
        texts(&brief.decisions)
            .iter()
            .any(|d| d.contains("Keep the cookie path")),
        "{brief:?}"
    );
    let found = app.search(&a.token, "q=redirect").await;
    assert!(
        found
            .iter()
            .any(|h| h.session_id.is_some_and(|s| s.to_string() == session)),
        "{found:?}"
    );
    // The export pages through one snapshot transaction of its own.
    let export = app
        .call(Method::GET, "/api/v1/journal/export")
        .token(&a.token)
        .send()
        .await;
    assert_eq!(export.status(), 200);
    let export = export.text().await.unwrap();
    assert!(
        export
            .lines()
            .any(|l| l.contains("\"type\":\"session\"") && l.contains(&session)),
        "{export}"
    );
    // MCP runs the same tenant transactions.
    let client = mcp::connect(&app, &a.token).await;
    let tool: SearchResults = common::decode(mcp::structured(
        &mcp::call(&client, "journal_search", json!({"q": "redirect"})).await,
    ));
    assert_eq!(ids(&tool.hits), ids(&found), "{tool:?}");

    // Past the calls' 90 days, retention (a worker pass, through the pooler) expires them.
    let calls = |account| {
        sqlx::query_scalar::<_, i64>("SELECT count(*) FROM journal_calls WHERE account_id = $1")
            .bind(account)
            .fetch_one(&app.owner)
    };
    let before = calls(a.id).await.unwrap();
    assert!(before >= 25, "{before}");
    app.clock.advance(Duration::days(91));
    let counts = jobs::retention(&app.workers(|_| {})).await.unwrap();
    assert!(counts.calls_deleted >= before as u64, "{counts:?}");
    assert_eq!(calls(a.id).await.unwrap(), 0);

    // A revoked key is refused on its next request (the cache listener and the check at BEGIN).
    app.get(&a.token, "/api/v1/records").await;
    n8v_journal::admin::revoke_key(&app.owner, a.key_id)
        .await
        .unwrap();
    let body = common::expect_problem(
        app.get(&a.token, "/api/v1/records").await,
        401,
        "unauthorized",
    )
    .await;
    assert!(
        body["detail"].as_str().unwrap().contains("revoked"),
        "{body}"
    );
    assert_eq!(app.get(&b.token, "/api/v1/records").await.status(), 200);
    assert!(
        !bouncer.log().contains("ERROR"),
        "pgbouncer logged errors:\n{}",
        bouncer.log()
    );
}
