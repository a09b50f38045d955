//! Webhook deliveries survive their faults: a worker killed while its request is in flight,
//! and PostgreSQL restarted under a delivery, lose no event; the receiver gets each one again
//! under the same `webhook-id`, and every delivery ends `delivered`.

use crate::common::cluster::Cluster;
use crate::common::receiver::{Answer, Receiver, verified};
use crate::common::{self, TestApp};
use crate::webhooks::{SCOPES, ended_session, endpoint, private_app, workers};
use chrono::Duration;
use n8v_journal::clock::ManualClock;
use n8v_journal::config::Config;
use n8v_journal::db::Db;
use n8v_journal::jobs;
use n8v_journal::ops::Services;
use reqwest::Method;
use serde_json::json;
use std::collections::HashSet;
use std::sync::Arc;

/// The distinct webhook-ids of what `receiver` got, and of what it acknowledged.
fn ids(receiver: &Receiver) -> (HashSet<String>, HashSet<String>) {
    let received = receiver.received();
    let id = |r: &crate::common::receiver::Received| {
        r.headers["webhook-id"].as_str().unwrap().to_owned()
    };
    let all = received.iter().map(id).collect();
    let acked = received.iter().filter(|r| r.acked).map(id).collect();
    (all, acked)
}

#[tokio::test]
async fn a_worker_killed_mid_delivery_loses_nothing_and_the_retry_keeps_the_webhook_id() {
    let app = private_app().await;
    let a = app.account("A", SCOPES).await;
    app.journal_on(a.id).await;
    let receiver = Receiver::start().await;
    let (webhook, secret) = endpoint(&app, &a.token, &receiver.url(), &["session.ended"]).await;
    ended_session(&app, &a.token, json!({})).await;
    receiver.answer(Answer::Hold);
    let state = workers(&app);
    let worker = tokio::spawn({
        let state = state.clone();
        async move { jobs::webhooks::deliver_due(&state).await }
    });
    receiver.arrived().await;
    // Killed with its request in flight: its connections and its claim's lease are dropped.
    worker.abort();
    assert!(worker.await.unwrap_err().is_cancelled());
    receiver.answer(Answer::Ok);
    receiver.release();
    // Leased: no other worker sends it while the dead one's lease lasts…
    assert_eq!(
        jobs::webhooks::deliver_due(&state).await.unwrap(),
        Default::default()
    );
    // …and once it has run out, the next worker does.
    app.clock.advance(Duration::minutes(2));
    let counts = jobs::webhooks::deliver_due(&state).await.unwrap();
    assert_eq!(counts.delivered, 1, "{counts:?}");
    let received = receiver.received();
    assert_eq!(received.len(), 2);
    verified(&secret, &received);
    let (all, acked) = ids(&receiver);
    assert_eq!(
        (all.len(), acked.len()),
        (1, 1),
        "one event, one webhook-id, acknowledged"
    );
    let path = format!("/api/v1/webhooks/{webhook}/deliveries");
    let page = app.call(Method::GET, &path).token(&a.token).ok(200).await;
    let delivery = &page["deliveries"][0];
    assert_eq!(
        (&delivery["status"], &delivery["attempts"]),
        (&json!("delivered"), &json!(2))
    );
}

/// The app on a deployment of `cluster` (a PostgreSQL of the test's own, restartable).
async fn app_on(cluster: &Cluster) -> TestApp {
    let deployment = cluster.owner("hooks").await;
    n8v_journal::db::migrate(&deployment.url, None)
        .await
        .unwrap();
    let mut config = Config::for_database(&deployment.url);
    config.webhooks.allow_private = true;
    config.rate_limit_per_minute = 10_000;
    let db = Db::connect(&deployment.url, None, 5).await.unwrap();
    let clock = Arc::new(ManualClock::new(chrono::Utc::now()));
    let base = common::serve(Services::new(db.clone(), config, clock.clone())).await;
    let owner = sqlx::postgres::PgPoolOptions::new()
        .max_connections(2)
        .connect(&deployment.url)
        .await
        .unwrap();
    TestApp {
        base,
        db_url: deployment.url,
        owner,
        db,
        clock,
        http: reqwest::Client::new(),
    }
}

#[tokio::test]
async fn a_postgresql_restart_under_deliveries_loses_nothing() {
    let cluster = Cluster::start().await;
    let app = app_on(&cluster).await;
    let a = app.account("A", SCOPES).await;
    app.journal_on(a.id).await;
    let receiver = Receiver::start().await;
    let (_, secret) = endpoint(&app, &a.token, &receiver.url(), &["session.ended"]).await;
    for _ in 0..3 {
        ended_session(&app, &a.token, json!({})).await;
    }
    receiver.answer(Answer::Hold);
    let state = workers(&app);
    let worker = tokio::spawn({
        let state = state.clone();
        async move { jobs::webhooks::deliver_due(&state).await }
    });
    receiver.arrived().await;
    // PostgreSQL goes away and comes back while the requests are in flight: the worker cannot
    // record what the receiver answered.
    cluster.restart().await;
    receiver.answer(Answer::Ok);
    receiver.release();
    // Its settle met the restart (an error), or a pool that had reconnected already.
    let mut delivered = worker.await.unwrap().map_or(0, |c| c.delivered);
    app.clock.advance(Duration::minutes(2));
    for _ in 0..5 {
        // The pools reconnect; a pass that still meets a dead connection is simply run again.
        if let Ok(counts) = jobs::webhooks::deliver_due(&state).await {
            delivered += counts.delivered;
            if delivered == 3 {
                break;
            }
        }
    }
    assert_eq!(delivered, 3);
    verified(&secret, &receiver.received());
    let (all, acked) = ids(&receiver);
    assert_eq!(
        (all.len(), acked.len()),
        (3, 3),
        "every event delivered, none lost"
    );
}
