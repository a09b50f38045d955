//! What summaries may spend: a snapshot is claimed before any model is paid, sessions that
//! only read the journal never reach a paid model, every model call reserves its cost from the
//! monthly budget first, and a session sends at most `max_parts` parts to the model. Each test
//! counts the requests a local Gemini-speaking server received.

use crate::common;

use crate::common::{TestApp, session_of};
use chrono::Duration;
use n8v_journal::config::Config;
use n8v_journal::jobs::{WorkerState, summary};
use n8v_journal::queue::SummarizeSession;
use reqwest::Method;
use rust_decimal::Decimal;
use serde_json::json;
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::common::JOURNAL_SCOPES as ALL;

/// The local Gemini-speaking server (500 prompt and 100 candidate tokens an answer), its gate
/// open or shut (see `common::model`).
async fn fake_gemini(open: bool) -> (String, Fake) {
    let summary = json!({
        "summary": "Worked on the login fix.",
        "decisions": [],
        "work_started": [],
        "work_finished": ["Login fix merged."],
        "open_questions": []
    });
    let (url, model) = common::model::gemini(summary, open).await;
    (url, Fake(model))
}

struct Fake(common::model::Model);

impl Fake {
    /// The requests received so far, each checked to cap its output.
    fn calls(&self) -> usize {
        let requests = self.0.requests();
        for body in &requests {
            assert_eq!(
                body["generationConfig"]["maxOutputTokens"], 4096,
                "every request caps its output: {body}"
            );
        }
        requests.len()
    }

    fn open(&self) {
        self.0.open();
    }
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

#[tokio::test]
async fn a_snapshot_claimed_by_one_job_is_never_paid_for_twice() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let id = worked(&app, &a.token, 1, "Put the fix on record").await;
    let job = job_for(&app, &id).await;
    let (gemini, fake) = fake_gemini(false).await;
    let state = workers(&app, &gemini, |_| {});

    // The model holds its answer until one job is at the model and the other has found the
    // lease taken (or, without the lease, is at the model too); then a moment more.
    let done = AtomicUsize::new(0);
    let (first, second, ()) = tokio::join!(
        common::race::counted(&done, summary::summarize_session(&state, &job)),
        common::race::counted(&done, summary::summarize_session(&state, &job)),
        async {
            common::race::wait_until("one job at the model", || async {
                fake.calls() + done.load(Ordering::SeqCst) >= 1
            })
            .await;
            tokio::time::sleep(std::time::Duration::from_millis(300)).await;
            fake.open();
        }
    );
    assert_eq!(u8::from(first.unwrap()) + u8::from(second.unwrap()), 1);
    assert!(!summary::summarize_session(&state, &job).await.unwrap());
    assert_eq!(
        fake.calls(),
        2,
        "one draft and one edit, whichever job ran them"
    );
    let session = app.session_detail(&a.token, &id).await.session;
    assert_eq!(
        session.summary_model.as_deref(),
        Some("gemini-3.1-flash-lite")
    );
    assert_eq!(session.summary_cost_usd.as_deref(), Some("0.00055"));
}

#[tokio::test]
async fn a_job_killed_mid_call_leaves_its_lease_to_expire_and_the_retry_then_does_the_work() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let id = worked(&app, &a.token, 1, "Put the fix on record").await;
    let job = job_for(&app, &id).await;
    let (gemini, held) = fake_gemini(false).await;
    let state = workers(&app, &gemini, |_| {});
    // The first run is dropped while the model holds its answer (a killed worker).
    tokio::select! {
        _ = summary::summarize_session(&state, &job) => panic!("the model never answered"),
        () = common::race::wait_until("the first run at the model", || async { held.calls() == 1 }) => {}
    }
    let (quick, fake) = fake_gemini(true).await;
    let retry = workers(&app, &quick, |_| {});
    // The lease (4 minutes at the default timeout) outlives the run that took it.
    app.clock.advance(Duration::minutes(5));
    assert!(summary::summarize_session(&retry, &job).await.unwrap());
    assert_eq!(fake.calls(), 2);
    assert_eq!(held.calls(), 1);
    assert_eq!(
        app.session_detail(&a.token, &id)
            .await
            .session
            .summary_model
            .as_deref(),
        Some("gemini-3.1-flash-lite")
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
    let (gemini, fake) = fake_gemini(true).await;
    assert!(
        summary::summarize_session(&workers(&app, &gemini, |_| {}), &job)
            .await
            .unwrap()
    );
    assert_eq!(fake.calls(), 0, "no paid model call");
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
    let (gemini, fake) = fake_gemini(false).await;
    // Output at $1 per million tokens, input free: a call may cost at most 3 attempts ×
    // 4,096 tokens = $0.012288 and really costs 100 tokens = $0.0001. The budget fits two
    // reservations at once, never three; it is what binds here.
    let budget = Decimal::from_str("0.025").unwrap();
    let state = workers(&app, &gemini, |c| {
        c.summaries.rates.input_usd_per_mtok = Decimal::ZERO;
        c.summaries.rates.output_usd_per_mtok = Decimal::ONE;
        c.summaries.monthly_budget_usd = budget;
    });
    // The model holds every answer until each job has either reached it (its reservation
    // held) or been refused (and finished with the code summary): all four reserve at once.
    let done = AtomicUsize::new(0);
    let at_once = AtomicUsize::new(0);
    let (runs, ()) = tokio::join!(
        futures::future::join_all(
            jobs.iter()
                .map(|j| common::race::counted(&done, summary::summarize_session(&state, j)))
        ),
        async {
            common::race::wait_until("every job at the model or refused", || async {
                fake.calls() + done.load(Ordering::SeqCst) == jobs.len()
            })
            .await;
            at_once.store(fake.calls(), Ordering::SeqCst);
            fake.open();
        }
    );
    assert!(
        runs.into_iter().all(|r| r.unwrap()),
        "every job stores a summary"
    );
    assert_eq!(
        at_once.load(Ordering::SeqCst),
        2,
        "two reservations fit the budget at once, never three"
    );

    let (reserved, spent, model_calls): (Decimal, Decimal, i32) = sqlx::query_as(
        "SELECT reserved_usd, spent_usd, model_calls FROM summary_budget WHERE account_id = $1",
    )
    .bind(a.id)
    .fetch_one(&app.owner)
    .await
    .unwrap();
    // Once the two drafts settle ($0.0001 each), each edit's reservation fits beside the
    // other's: two drafts and two edits, and nothing else.
    let made = fake.calls();
    assert_eq!(made, 4, "two drafts and their edits");
    assert_eq!(model_calls, 4, "every model call was reserved first");
    assert_eq!(reserved, Decimal::ZERO, "every reservation was settled");
    assert_eq!(spent, Decimal::from_str("0.0004").unwrap());
    let notes: Vec<Option<String>> =
        sqlx::query_scalar("SELECT summary_note FROM journal_sessions WHERE account_id = $1")
            .bind(a.id)
            .fetch_all(&app.owner)
            .await
            .unwrap();
    assert_eq!(
        notes
            .iter()
            .flatten()
            .filter(|n| n.contains("budget is spent"))
            .count(),
        2,
        "the two refused jobs, and only they, wrote code summaries: {notes:?}"
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
    let (gemini, fake) = fake_gemini(true).await;
    let state = workers(&app, &gemini, |c| c.summaries.max_parts = 2);
    assert!(summary::summarize_session(&state, &job).await.unwrap());
    assert_eq!(fake.calls(), 4, "two parts, each a draft and an edit");
    let session = app.session_detail(&a.token, &id).await.session;
    assert_eq!(
        session.summary_model.as_deref(),
        Some("gemini-3.1-flash-lite")
    );
    let summary = session.summary.as_ref().map(|s| s.summary.as_str());
    assert!(
        summary.is_some_and(|s| s.contains("summarised by code")),
        "{session:?}"
    );
}
