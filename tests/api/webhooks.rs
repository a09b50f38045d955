//! Webhooks (issue 36): every delivery a local receiver gets is verified with the Standard
//! Webhooks reference library (`common::receiver`). Each event fires once per cause; a
//! receiver that was down gets every event when it comes back; private addresses are refused;
//! another account's events never reach an endpoint. The faults (a worker killed mid-delivery,
//! a PostgreSQL restart) are in `webhook_faults`.

use crate::common::receiver::{Receiver, verified};
use crate::common::{self, TestApp};
use chrono::Duration;
use n8v_journal::jobs::{self, WorkerState};
use reqwest::Method;
use serde_json::{Value, json};
use uuid::Uuid;

pub use crate::common::WEBHOOK_SCOPES as SCOPES;
pub const ALL_EVENTS: [&str; 7] = [
    "session.ended",
    "summary.ready",
    "loop.opened",
    "loop.closed",
    "exposure.seen",
    "digest.ready",
    "endpoint.disabled",
];

/// The app and its workers, with webhooks allowed to reach the local receivers.
pub async fn private_app() -> TestApp {
    common::spawn_app_configured(|c| c.webhooks.allow_private = true).await
}

pub fn workers(app: &TestApp) -> WorkerState {
    app.workers(|c| c.webhooks.allow_private = true)
}

/// Makes an endpoint for `url` wanting `events`; its id and secret.
pub async fn endpoint(app: &TestApp, token: &str, url: &str, events: &[&str]) -> (String, String) {
    let made = app
        .call(Method::POST, "/api/v1/webhooks")
        .token(token)
        .json(json!({"url": url, "events": events, "description": "test receiver"}))
        .ok(201)
        .await;
    let id = made["id"].as_str().unwrap().to_owned();
    assert!(id.starts_with("whk_"), "{made}");
    let secret = made["secret"].as_str().unwrap().to_owned();
    assert!(secret.starts_with("whsec_"), "{made}");
    (id, secret)
}

/// Starts and ends a session with a hand-off; its id.
pub async fn ended_session(app: &TestApp, token: &str, handoff: Value) -> String {
    let session = app
        .start_session(token, None, json!({"goal": "Tidy the retry code"}))
        .await;
    let id = session.id.to_string();
    let mut body = json!({"outcome": "Tidied it"});
    body.as_object_mut()
        .unwrap()
        .extend(handoff.as_object().unwrap().clone());
    app.end_session(token, &id, body).ok(200).await;
    id
}

/// The event types of `payloads`, sorted.
fn types(payloads: &[Value]) -> Vec<String> {
    let mut t: Vec<String> = payloads
        .iter()
        .map(|p| p["type"].as_str().unwrap().to_owned())
        .collect();
    t.sort();
    t
}

async fn summarize_queued(app: &TestApp, state: &WorkerState) {
    for job in app.queued_summaries().await {
        jobs::summary::summarize_session(state, &job).await.unwrap();
    }
}

#[tokio::test]
async fn each_event_fires_once_per_cause_signed_so_the_reference_library_verifies_it() {
    let app = private_app().await;
    let a = app.account("A", SCOPES).await;
    app.journal_on(a.id).await;
    let receiver = Receiver::start().await;
    let (_, secret) = endpoint(&app, &a.token, &receiver.url(), &ALL_EVENTS).await;
    let state = workers(&app);

    let token = format!("ghp_{}Zq9X", Uuid::new_v4().simple());
    let session = app
        .start_session(
            &a.token,
            Some(&format!("Use {token} to push")),
            json!({"goal": "Ship"}),
        )
        .await;
    let id = session.id.to_string();
    let handoff = json!({"outcome": "Shipped", "open_questions": ["Keep the old flag?"]});
    app.end_session(&a.token, &id, handoff).ok(200).await;
    summarize_queued(&app, &state).await;
    let item = app
        .call(Method::GET, "/api/v1/journal/loops?state=open")
        .token(&a.token)
        .ok(200)
        .await["loops"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    app.call(Method::POST, &format!("/api/v1/journal/loops/{item}/close"))
        .token(&a.token)
        .json(json!({"state": "answered"}))
        .ok(200)
        .await;

    let counts = jobs::webhooks::deliver_due(&state).await.unwrap();
    assert_eq!(counts.delivered, 5, "{counts:?}");
    // A second pass, and a second summary run, send nothing again.
    summarize_queued(&app, &state).await;
    assert_eq!(
        jobs::webhooks::deliver_due(&state).await.unwrap().delivered,
        0
    );
    let received = receiver.received();
    let payloads = verified(&secret, &received);
    assert_eq!(
        types(&payloads),
        [
            "exposure.seen",
            "loop.closed",
            "loop.opened",
            "session.ended",
            "summary.ready"
        ]
    );
    let ids: std::collections::HashSet<&str> = received
        .iter()
        .map(|r| r.headers["webhook-id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), 5, "every event its own webhook-id");
    assert!(ids.iter().all(|i| i.starts_with("evt_")));
    let by_type = |t: &str| payloads.iter().find(|p| p["type"] == t).unwrap()["data"].clone();
    let ended = by_type("session.ended");
    assert_eq!(
        (&ended["session"], &ended["end_reason"]),
        (&json!(id), &json!("ended"))
    );
    assert_eq!(
        ended["handoff"]["open_questions"][0], "Keep the old flag?",
        "{ended}"
    );
    // The counts are the session's at its close as every read answers them (the read model),
    // not the stored fold, which lags the newest calls by 30 seconds: the start call. The
    // closing call is recorded after the close (as the summary's snapshot counts), so the
    // session read afterwards shows one more.
    let read = app
        .call(Method::GET, &format!("/api/v1/journal/sessions/{id}"))
        .token(&a.token)
        .ok(200)
        .await;
    assert_eq!(
        (&ended["call_count"], &ended["write_count"]),
        (&json!(1), &json!(0)),
        "{ended}"
    );
    assert_eq!(read["session"]["call_count"], 2, "{read}");
    assert_eq!(by_type("loop.opened")["item"], json!(item));
    assert_eq!(by_type("loop.closed")["state"], "answered");
    assert_eq!(by_type("summary.ready")["session"], json!(id));
    let exposure = by_type("exposure.seen");
    assert_eq!(exposure["rule"], "github-pat", "{exposure}");
    let text = serde_json::to_string(&payloads).unwrap();
    assert!(
        !text.contains(&token),
        "the credential never leaves the journal"
    );
}

#[tokio::test]
async fn a_receiver_that_is_down_then_back_gets_every_event_and_the_deliveries_say_so() {
    let app = private_app().await;
    let a = app.account("A", SCOPES).await;
    app.journal_on(a.id).await;
    let mut receiver = Receiver::start().await;
    let (webhook, secret) = endpoint(&app, &a.token, &receiver.url(), &["session.ended"]).await;
    let state = workers(&app);
    receiver.stop().await;
    let mut sessions = Vec::new();
    for _ in 0..3 {
        sessions.push(ended_session(&app, &a.token, json!({})).await);
    }
    let down = jobs::webhooks::deliver_due(&state).await.unwrap();
    assert_eq!((down.delivered, down.retried_or_failed), (0, 3));
    let path = format!("/api/v1/webhooks/{webhook}/deliveries?limit=2");
    let page = app.call(Method::GET, &path).token(&a.token).ok(200).await;
    let first = &page["deliveries"][0];
    assert_eq!(
        (&first["status"], &first["attempts"]),
        (&json!("pending"), &json!(1))
    );
    assert!(
        first["next_attempt_at"].is_string() && first["last_status"].is_null(),
        "{page}"
    );
    assert!(page["next_cursor"].is_string(), "paged: {page}");
    // Not yet due: nothing is sent before the backoff's wait.
    assert_eq!(
        jobs::webhooks::deliver_due(&state).await.unwrap(),
        Default::default()
    );

    receiver.restart().await;
    app.clock.advance(Duration::minutes(5));
    let up = jobs::webhooks::deliver_due(&state).await.unwrap();
    assert_eq!(up.delivered, 3, "{up:?}");
    let payloads = verified(&secret, &receiver.received());
    let mut got: Vec<&str> = payloads
        .iter()
        .map(|p| p["data"]["session"].as_str().unwrap())
        .collect();
    got.sort();
    sessions.sort();
    assert_eq!(got, sessions);
    let ids = app
        .paged_ids(
            &a.token,
            &format!("/api/v1/webhooks/{webhook}/deliveries"),
            2,
            "deliveries",
        )
        .await;
    assert_eq!(ids.len(), 3);
    let page = app.call(Method::GET, &path).token(&a.token).ok(200).await;
    let first = &page["deliveries"][0];
    assert_eq!(
        (&first["status"], &first["attempts"]),
        (&json!("delivered"), &json!(2))
    );
    assert_eq!(first["last_status"], 200);
    // Delivered events (which hold a session's words) go after 30 days, with their deliveries.
    app.clock.advance(Duration::days(31));
    assert_eq!(jobs::webhooks::deliver_due(&state).await.unwrap().pruned, 3);
    let page = app.call(Method::GET, &path).token(&a.token).ok(200).await;
    assert_eq!(page["deliveries"], json!([]));
}

#[tokio::test]
async fn private_loopback_and_link_local_addresses_and_plain_http_are_refused() {
    let app = common::spawn_app().await;
    let a = app.account("A", SCOPES).await;
    for url in [
        "http://hooks.example.com/in",
        "https://127.0.0.1/in",
        "https://localhost:8443/in",
        "https://[::1]/in",
        "https://169.254.169.254/latest",
        "https://10.1.2.3/in",
        "https://192.168.0.10/in",
        "ftp://hooks.example.com/in",
    ] {
        let problem = app
            .call(Method::POST, "/api/v1/webhooks")
            .token(&a.token)
            .json(json!({"url": url, "events": ["session.ended"]}))
            .problem(400, "bad-request")
            .await;
        assert!(
            problem["detail"].as_str().unwrap().contains("url"),
            "{url}: {problem}"
        );
    }
    let listed = app
        .call(Method::GET, "/api/v1/webhooks")
        .token(&a.token)
        .ok(200)
        .await;
    assert_eq!(listed["webhooks"], json!([]));

    // Made where private addresses were allowed, refused at delivery by a worker that does not
    // allow them (checked on the resolved address, every time).
    let lax = private_app().await;
    let b = lax.account("B", SCOPES).await;
    lax.journal_on(b.id).await;
    let receiver = Receiver::start().await;
    let (webhook, _) = endpoint(&lax, &b.token, &receiver.url(), &["session.ended"]).await;
    ended_session(&lax, &b.token, json!({})).await;
    let strict = lax.workers(|_| {});
    let counts = jobs::webhooks::deliver_due(&strict).await.unwrap();
    assert_eq!((counts.delivered, counts.retried_or_failed), (0, 1));
    assert!(
        receiver.received().is_empty(),
        "nothing reached the private address"
    );
    let path = format!("/api/v1/webhooks/{webhook}/deliveries");
    let page = lax.call(Method::GET, &path).token(&b.token).ok(200).await;
    let excerpt = page["deliveries"][0]["last_excerpt"].as_str().unwrap();
    assert!(excerpt.starts_with("refused:"), "{excerpt}");
}

#[tokio::test]
async fn bad_input_is_a_clear_4xx_and_the_scope_is_needed() {
    let app = private_app().await;
    let a = app.account("A", SCOPES).await;
    let reader = app.account("R", "chats:read").await;
    let post = |token: &str, body: Value| {
        app.call(Method::POST, "/api/v1/webhooks")
            .token(token)
            .json(body)
    };
    let url = "http://127.0.0.1:9/in";
    post(
        &reader.token,
        json!({"url": url, "events": ["session.ended"]}),
    )
    .problem(403, "missing-scope")
    .await;
    let unknown = post(&a.token, json!({"url": url, "events": ["session.started"]}))
        .problem(400, "bad-request")
        .await;
    assert!(
        unknown["detail"]
            .as_str()
            .unwrap()
            .contains("session.started"),
        "{unknown}"
    );
    post(&a.token, json!({"url": url, "events": []}))
        .problem(400, "bad-request")
        .await;
    post(
        &a.token,
        json!({"url": url, "events": ["session.ended"], "secret": "mine"}),
    )
    .problem(422, "invalid-body")
    .await;
    app.call(Method::GET, "/api/v1/webhooks/whk_nope")
        .token(&a.token)
        .problem(404, "not-found")
        .await;
    let (id, _) = endpoint(&app, &a.token, url, &["session.ended"]).await;
    let path = format!("/api/v1/webhooks/{id}/deliveries?cursor=zzz");
    app.call(Method::GET, &path)
        .token(&a.token)
        .problem(400, "bad-request")
        .await;
    let path = format!("/api/v1/webhooks/{id}/deliveries?limit=0");
    app.call(Method::GET, &path)
        .token(&a.token)
        .problem(400, "bad-request")
        .await;
    let changed = app
        .call(Method::PATCH, &format!("/api/v1/webhooks/{id}"))
        .token(&a.token)
        .json(json!({"events": ["loop.opened", "session.ended"], "description": ""}))
        .ok(200)
        .await;
    assert_eq!(changed["events"], json!(["session.ended", "loop.opened"]));
    assert!(
        changed["description"].is_null() && changed.get("secret").is_none(),
        "{changed}"
    );
    let gone = app
        .call(Method::DELETE, &format!("/api/v1/webhooks/{id}"))
        .token(&a.token)
        .ok(200)
        .await;
    assert_eq!(gone["deleted"], json!(id));
    app.call(Method::GET, &format!("/api/v1/webhooks/{id}"))
        .token(&a.token)
        .problem(404, "not-found")
        .await;
}

#[tokio::test]
async fn a_posted_conversation_ends_once_when_it_settles_and_again_only_when_it_grew() {
    let app = private_app().await;
    let a = app.account("A", SCOPES).await;
    app.journal_on(a.id).await;
    let receiver = Receiver::start().await;
    let (_, secret) = endpoint(&app, &a.token, &receiver.url(), &["session.ended"]).await;
    let state = workers(&app);
    let now = n8v_journal::clock::Clock::now(&*app.clock);
    let episode = |turns: &[&str], ended: bool| {
        json!({
            "episode_id": "ep-hook", "harness": "claude-code",
            "started_at": (now - Duration::minutes(5)).to_rfc3339(), "ended_at": now.to_rfc3339(),
            "turns": turns.iter().enumerate().map(|(i, text)| json!({
                "role": if i % 2 == 0 { "user" } else { "assistant" }, "text": text
            })).collect::<Vec<_>>(),
            "ended": ended,
        })
    };
    let post = |body: Value| {
        app.call(Method::POST, "/api/v1/journal/episodes")
            .token(&a.token)
            .json(body)
            .ok(201)
    };
    let two = [
        "Add a health check.",
        "Added /healthz. Decided: keep it unauthenticated.",
    ];
    // Per-turn posts of a conversation still going say nothing; its end does, once.
    post(episode(&two[..1], false)).await;
    assert_eq!(
        jobs::webhooks::deliver_due(&state).await.unwrap().delivered,
        0
    );
    post(episode(&two, true)).await;
    post(episode(&two, true)).await;
    assert_eq!(
        jobs::webhooks::deliver_due(&state).await.unwrap().delivered,
        1
    );
    let payloads = verified(&secret, &receiver.received());
    let ended = &payloads[0]["data"];
    assert_eq!(
        (&ended["kind"], &ended["summary_state"]),
        (&json!("episode"), &json!("written")),
        "{ended}"
    );
    assert!(
        ended["handoff"]["decisions"][0]
            .as_str()
            .is_some_and(|d| d.contains("unauthenticated")),
        "the marked line is the hand-off: {ended}"
    );
    // Resumed and ended again: a second end.
    let more = [two[0], two[1], "And a readiness check?", "Added /readyz."];
    post(episode(&more, true)).await;
    assert_eq!(
        jobs::webhooks::deliver_due(&state).await.unwrap().delivered,
        1
    );
}
