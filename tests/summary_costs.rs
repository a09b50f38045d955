//! What summaries may spend: a snapshot is claimed before any model is paid, sessions that
//! only read the journal never reach a paid model, every model call reserves its cost from the
//! monthly budget first, and a session sends at most `max_parts` parts to the model. Each test
//! counts the requests a local Gemini-speaking server received.

mod common;

use axum::Json;
use axum::extract::State;
use chrono::Duration;
use common::{TestApp, session_of};
use n8v_journal::config::Config;
use n8v_journal::jobs::{WorkerState, summary};
use n8v_journal::queue::SummarizeSession;
use reqwest::Method;
use rust_decimal::Decimal;
use serde_json::{Value, json};
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

const ALL: &str = "chats:read,records:read,records:write";

#[derive(Clone)]
struct Fake {
    calls: Arc<AtomicUsize>,
    delay: std::time::Duration,
}

/// A local server speaking Gemini's generateContent; each answer takes `delay` and reports
/// 500 prompt and 100 candidate tokens.
async fn fake_gemini(delay: std::time::Duration) -> (String, Arc<AtomicUsize>) {
    async fn generate(State(fake): State<Fake>, Json(body): Json<Value>) -> Json<Value> {
        fake.calls.fetch_add(1, Ordering::SeqCst);
        assert_eq!(
            body["generationConfig"]["maxOutputTokens"], 4096,
            "every request caps its output"
        );
        tokio::time::sleep(fake.delay).await;
        let summary = json!({
            "summary": "Worked on the login fix.",
            "decisions": [],
            "work_started": [],
            "work_finished": ["Login fix merged."],
            "open_questions": []
        });
        Json(json!({
            "candidates": [{"content": {"role": "model", "parts": [{"text": summary.to_string()}]}, "finishReason": "STOP"}],
            "usageMetadata": {"promptTokenCount": 500, "candidatesTokenCount": 100}
        }))
    }
    let calls = Arc::new(AtomicUsize::new(0));
    let fake = Fake {
        calls: calls.clone(),
        delay,
    };
    let app = axum::Router::new()
        .route("/v1beta/models/{call}", axum::routing::post(generate))
        .with_state(fake);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url, calls)
}

fn workers(app: &TestApp, gemini: &str, configure: impl FnOnce(&mut Config)) -> WorkerState {
    app.workers(|c| {
        common::use_gemini(c, gemini);
        configure(c);
    })
}

/// Opens a session, makes `calls` appends in it with the purpose given, ends it; returns the
/// session id.
async fn worked(app: &TestApp, token: &str, calls: usize, purpose: &str) -> String {
    let record = app.record_of(app_account(app, token).await).await;
    let started = app
        .call(Method::POST, "/api/v1/journal/sessions")
        .token(token)
        .json(json!({"goal": "Get the login fix ready"}))
        .ok(201)
        .await;
    let id = started["id"].as_str().unwrap().to_owned();
    for _ in 0..calls {
        app.call(Method::POST, &format!("/api/v1/records/{record}/entries"))
            .token(token)
            .purpose(purpose)
            .session(Some(&id))
            .json(json!({"line": "Login fix merged"}))
            .ok(201)
            .await;
    }
    app.call(Method::POST, &format!("/api/v1/journal/sessions/{id}/end"))
        .token(token)
        .json(json!({"outcome": "Fix ready for review"}))
        .ok(200)
        .await;
    id
}

async fn app_account(app: &TestApp, token: &str) -> uuid::Uuid {
    let records = app
        .call(Method::GET, "/api/v1/records")
        .token(token)
        .ok(200)
        .await;
    let account = records["records"][0]["id"].as_str().unwrap().to_owned();
    let record = n8v_journal::ids::parse(n8v_journal::ids::Kind::Record, &account).unwrap();
    sqlx::query_scalar("SELECT account_id FROM records WHERE record_id = $1")
        .bind(record)
        .fetch_one(&app.owner)
        .await
        .unwrap()
}

async fn job_for(app: &TestApp, session: &str) -> SummarizeSession {
    let id = n8v_journal::ids::parse(n8v_journal::ids::Kind::Session, session).unwrap();
    let payloads: Vec<Vec<u8>> = sqlx::query_scalar("SELECT job FROM apalis.jobs")
        .fetch_all(&app.owner)
        .await
        .unwrap();
    payloads
        .iter()
        .map(|p| serde_json::from_slice::<SummarizeSession>(p).unwrap())
        .find(|j| j.session_id == id)
        .expect("a summary job for the session")
}

async fn read_session(app: &TestApp, token: &str, id: &str) -> Value {
    app.call(Method::GET, &format!("/api/v1/journal/sessions/{id}"))
        .token(token)
        .ok(200)
        .await["session"]
        .clone()
}

#[tokio::test]
async fn a_snapshot_claimed_by_one_job_is_never_paid_for_twice() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let id = worked(&app, &a.token, 1, "Put the fix on record").await;
    let job = job_for(&app, &id).await;
    let (gemini, calls) = fake_gemini(std::time::Duration::from_millis(300)).await;
    let state = workers(&app, &gemini, |_| {});

    let (first, second) = tokio::join!(
        summary::summarize_session(&state, &job),
        summary::summarize_session(&state, &job)
    );
    assert_eq!(u8::from(first.unwrap()) + u8::from(second.unwrap()), 1);
    assert!(!summary::summarize_session(&state, &job).await.unwrap());
    assert_eq!(
        calls.load(Ordering::SeqCst),
        2,
        "one draft and one edit, whichever job ran them"
    );
    let session = read_session(&app, &a.token, &id).await;
    assert_eq!(session["summary_model"], "gemini-3.1-flash-lite");
    assert_eq!(session["summary_cost_usd"], "0.00055");
}

#[tokio::test]
async fn a_job_killed_mid_call_leaves_no_claim_and_its_retry_does_the_work() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let id = worked(&app, &a.token, 1, "Put the fix on record").await;
    let job = job_for(&app, &id).await;
    let (gemini, calls) = fake_gemini(std::time::Duration::from_secs(5)).await;
    let state = workers(&app, &gemini, |_| {});
    // The first run is dropped while the model is working (a killed worker).
    let killed = tokio::time::timeout(
        std::time::Duration::from_millis(500),
        summary::summarize_session(&state, &job),
    )
    .await;
    assert!(
        killed.is_err(),
        "the first run was still waiting on the model"
    );
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    let (quick, calls) = fake_gemini(std::time::Duration::ZERO).await;
    let retry = workers(&app, &quick, |_| {});
    assert!(summary::summarize_session(&retry, &job).await.unwrap());
    assert_eq!(calls.load(Ordering::SeqCst), 2);
    assert_eq!(
        read_session(&app, &a.token, &id).await["summary_model"],
        "gemini-3.1-flash-lite"
    );
}

#[tokio::test]
async fn a_session_that_only_read_the_journal_never_reaches_a_paid_model() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let read = app
        .call(Method::GET, "/api/v1/journal/catch-up")
        .token(&a.token)
        .send()
        .await;
    let id = session_of(&read).unwrap();
    app.call(Method::GET, "/api/v1/journal/sessions")
        .token(&a.token)
        .ok(200)
        .await;
    // Quiet past the implicit rules: the next call retires it, which enqueues its summary.
    app.clock.advance(Duration::hours(1));
    app.call(Method::GET, "/api/v1/records")
        .token(&a.token)
        .ok(200)
        .await;
    let job = job_for(&app, &id).await;
    let (gemini, calls) = fake_gemini(std::time::Duration::ZERO).await;
    assert!(
        summary::summarize_session(&workers(&app, &gemini, |_| {}), &job)
            .await
            .unwrap()
    );
    assert_eq!(calls.load(Ordering::SeqCst), 0, "no paid model call");
    let (model, cost, note): (String, Decimal, Option<String>) = sqlx::query_as(
        "SELECT summary_model, summary_cost_usd, summary_note FROM journal_sessions \
         WHERE session_id = $1",
    )
    .bind(job.session_id)
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(model, "code");
    assert_eq!(cost, Decimal::ZERO);
    assert!(note.unwrap().contains("only read the journal"));
}

#[tokio::test]
async fn concurrent_jobs_reserve_each_model_call_and_cannot_overspend_the_budget_together() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let mut sessions = Vec::new();
    for _ in 0..4 {
        sessions.push(worked(&app, &a.token, 1, "Put the fix on record").await);
    }
    let mut jobs = Vec::new();
    for s in &sessions {
        jobs.push(job_for(&app, s).await);
    }
    let (gemini, calls) = fake_gemini(std::time::Duration::from_millis(400)).await;
    // Output at $1 per million tokens, input free: a call may cost at most 3 attempts ×
    // 4,096 tokens = $0.012288 and really costs 100 tokens = $0.0001. The budget fits two
    // reservations at once, never three.
    let budget = Decimal::from_str("0.025").unwrap();
    let state = workers(&app, &gemini, |c| {
        c.summaries.rates.input_usd_per_mtok = Decimal::ZERO;
        c.summaries.rates.output_usd_per_mtok = Decimal::ONE;
        c.summaries.monthly_budget_usd = budget;
    });
    let runs =
        futures::future::join_all(jobs.iter().map(|j| summary::summarize_session(&state, j))).await;
    assert!(
        runs.into_iter().all(|r| r.unwrap()),
        "every job stores a summary"
    );

    let (reserved, spent, model_calls): (Decimal, Decimal, i32) = sqlx::query_as(
        "SELECT reserved_usd, spent_usd, model_calls FROM summary_budget WHERE account_id = $1",
    )
    .bind(a.id)
    .fetch_one(&app.owner)
    .await
    .unwrap();
    let made = calls.load(Ordering::SeqCst);
    assert_eq!(
        model_calls as usize, made,
        "every model call was reserved first"
    );
    assert_eq!(reserved, Decimal::ZERO, "every reservation was settled");
    assert_eq!(
        spent,
        Decimal::from_str("0.0001").unwrap() * Decimal::from(made)
    );
    assert!(spent <= budget);
    assert!(
        (2..8).contains(&made),
        "two drafts fit at once, not four: {made} calls"
    );
    let notes: Vec<Option<String>> =
        sqlx::query_scalar("SELECT summary_note FROM journal_sessions WHERE account_id = $1")
            .bind(a.id)
            .fetch_all(&app.owner)
            .await
            .unwrap();
    assert!(
        notes
            .iter()
            .flatten()
            .any(|n| n.contains("budget is spent")),
        "{notes:?}"
    );
}

#[tokio::test]
async fn a_long_session_sends_at_most_max_parts_to_the_model_and_code_summarises_the_rest() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    // About 560 characters a call: three parts of 30,000 characters need ~110 calls.
    let purpose = format!("Check {}", "the build once more ".repeat(24));
    let id = worked(&app, &a.token, 120, purpose.trim()).await;
    let job = job_for(&app, &id).await;
    let (gemini, calls) = fake_gemini(std::time::Duration::ZERO).await;
    let state = workers(&app, &gemini, |c| c.summaries.max_parts = 2);
    assert!(summary::summarize_session(&state, &job).await.unwrap());
    assert_eq!(
        calls.load(Ordering::SeqCst),
        4,
        "two parts, each a draft and an edit"
    );
    let session = read_session(&app, &a.token, &id).await;
    assert_eq!(session["summary_model"], "gemini-3.1-flash-lite");
    assert!(
        session["summary"]["summary"]
            .as_str()
            .unwrap()
            .contains("summarised by code"),
        "{session}"
    );
}
