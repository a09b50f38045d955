//! Summaries that survive real models (issue 52, item 1): a model that takes seconds a call,
//! times out, or is left waiting by a worker that dies. No transaction is held while it works,
//! each part is stored as it arrives, a retry pays only for the parts missing, the ledger says
//! what was paid and the summary what it holds. The stand-in speaks Gemini's wire format
//! (`common::model`).

use crate::common;

use crate::common::model::Script;
use crate::common::{JOURNAL_SCOPES as ALL, TestApp};
use chrono::Duration;
use n8v_journal::clock::Clock;
use n8v_journal::config::Config;
use n8v_journal::jobs::{WorkerState, summary};
use n8v_journal::queue::SummarizeSession;
use reqwest::Method;
use rust_decimal::Decimal;
use serde_json::json;
use std::str::FromStr;
use std::time::Duration as StdDuration;

fn answer() -> serde_json::Value {
    json!({
        "summary": "Worked on the login fix.",
        "decisions": [], "work_started": [],
        "work_finished": ["Login fix merged."], "open_questions": []
    })
}

fn workers(app: &TestApp, gemini: &str, configure: impl FnOnce(&mut Config)) -> WorkerState {
    app.workers(|c| {
        common::use_gemini(c, gemini);
        configure(c);
    })
}

/// A closed session of `calls` appends, each with a purpose of about 250 characters (so 900
/// calls make more than 8 parts, and 300 more than 3); its summary job.
async fn session_of(app: &TestApp, calls: usize) -> (common::Account, String, SummarizeSession) {
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let record = app.record_of(a.id).await;
    let started = app
        .call(Method::POST, "/api/v1/journal/sessions")
        .token(&a.token)
        .json(json!({"goal": "Get the login fix ready"}))
        .ok(201)
        .await;
    let id = started["id"].as_str().unwrap().to_owned();
    let filler = "checking the redirect loop against the session cookie rules ".repeat(4);
    for n in 0..calls {
        app.call(Method::POST, &format!("/api/v1/records/{record}/entries"))
            .token(&a.token)
            .purpose(&format!("Step {n}: {filler}"))
            .session(Some(&id))
            .json(json!({"line": "Login fix merged"}))
            .ok(201)
            .await;
    }
    app.call(Method::POST, &format!("/api/v1/journal/sessions/{id}/end"))
        .token(&a.token)
        .json(json!({"outcome": "Fix ready for review"}))
        .ok(200)
        .await;
    let session = n8v_journal::ids::parse(n8v_journal::ids::Kind::Session, &id).unwrap();
    let job = app
        .queued_summaries()
        .await
        .into_iter()
        .find(|j| j.session_id == session)
        .expect("a summary job for the session");
    (a, id, job)
}

/// The month's ledger of the account: model calls, reserved and spent.
async fn ledger(app: &TestApp, account: uuid::Uuid) -> (i32, Decimal, Decimal) {
    sqlx::query_as(
        "SELECT model_calls, reserved_usd, spent_usd FROM summary_budget WHERE account_id = $1",
    )
    .bind(account)
    .fetch_one(&app.owner)
    .await
    .unwrap()
}

/// What the session's stored summary holds: model, cost, note.
async fn stored(app: &TestApp, account: uuid::Uuid) -> (String, Decimal, Option<String>) {
    sqlx::query_as("SELECT model, cost_usd, note FROM session_summaries WHERE account_id = $1")
        .bind(account)
        .fetch_one(&app.owner)
        .await
        .unwrap()
}

/// 500 prompt and 100 candidate tokens at $0.25 and $1.50 a million.
fn one_call() -> Decimal {
    Decimal::from_str("0.000275").unwrap()
}

#[tokio::test]
async fn a_model_at_six_seconds_a_call_gets_a_long_session_summarised_at_the_default_settings() {
    let app = common::spawn_app().await;
    let (a, _, job) = session_of(&app, 900).await;
    let script = Script {
        delay: StdDuration::from_secs(6),
        ..Script::default()
    };
    let (gemini, model) = common::model::gemini_scripted(answer(), script).await;
    // The defaults: a 60-second idle-in-transaction limit, a 30-second timeout, 8 parts.
    let state = workers(&app, &gemini, |_| {});
    assert_eq!(state.config.summaries.max_parts, 8);
    let started = std::time::Instant::now();
    assert!(summary::summarize_session(&state, &job).await.unwrap());
    let took = started.elapsed();

    assert_eq!(model.count(), 16, "8 parts, a draft and an edit each, once");
    assert!(
        took < StdDuration::from_secs(16 * 6),
        "parts are drafted side by side: {took:?} for 96 s of model time"
    );
    let (model_name, cost, note) = stored(&app, a.id).await;
    assert_eq!(model_name, "gemini-3.1-flash-lite");
    assert_eq!(cost, one_call() * Decimal::from(16));
    assert_eq!(note, None, "it holds every call paid");
    let (calls, reserved, spent) = ledger(&app, a.id).await;
    assert_eq!((calls, reserved, spent), (16, Decimal::ZERO, cost));
    let leftovers: i64 = sqlx::query_scalar(
        "SELECT (SELECT count(*) FROM summary_parts) + (SELECT count(*) FROM model_leases)",
    )
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(
        leftovers, 0,
        "its parts and lease go with the stored summary"
    );
}

#[tokio::test]
async fn a_call_that_times_out_twice_then_answers_is_held_once_and_counted_at_its_reservation() {
    let app = common::spawn_app().await;
    let (a, _, job) = session_of(&app, 3).await;
    let script = Script {
        stalls: 2,
        ..Script::default()
    };
    let (gemini, model) = common::model::gemini_scripted(answer(), script).await;
    // A one-second timeout and a two-second idle-in-transaction limit: the draft's answer
    // comes after the limit, which no transaction may wait across.
    let state = WorkerState {
        db: app
            .db
            .clone()
            .with_idle_in_transaction(StdDuration::from_secs(2)),
        ..workers(&app, &gemini, |c| {
            c.summaries.timeout = StdDuration::from_secs(1)
        })
    };
    assert!(summary::summarize_session(&state, &job).await.unwrap());
    assert!(!summary::summarize_session(&state, &job).await.unwrap());

    assert_eq!(model.count(), 4, "the draft's three attempts and the edit");
    let (model_name, cost, note) = stored(&app, a.id).await;
    assert_eq!(model_name, "gemini-3.1-flash-lite");
    assert_eq!(
        cost,
        one_call() * Decimal::from(2),
        "it holds the draft and the edit"
    );
    let note = note.expect("the note names the call that timed out");
    assert!(note.contains("1 model call(s) timed out"), "{note}");
    let (calls, reserved, spent) = ledger(&app, a.id).await;
    assert_eq!(
        (calls, reserved),
        (2, Decimal::ZERO),
        "two calls, both settled"
    );
    assert!(
        spent > cost,
        "the call that timed out is counted at its reservation: {spent} against {cost}"
    );
    assert!(note.contains(&format!("${}", spent.normalize())), "{note}");
}

#[tokio::test]
async fn a_run_killed_mid_call_is_resumed_after_its_lease_and_pays_only_for_the_parts_missing() {
    let app = common::spawn_app().await;
    let (a, _, job) = session_of(&app, 300).await;
    // Answers the three parts' drafts and one edit, and holds the other edits: a worker that
    // dies while two edits are out.
    let script = Script {
        edits: Some(1),
        ..Script::default()
    };
    let (held, first) = common::model::gemini_scripted(answer(), script).await;
    let three = |c: &mut Config| c.summaries.max_parts = 3;
    let state = workers(&app, &held, three);
    let parts = || async {
        sqlx::query_scalar::<_, i64>("SELECT count(*) FROM summary_parts")
            .fetch_one(&app.owner)
            .await
            .unwrap()
    };
    tokio::select! {
        _ = summary::summarize_session(&state, &job) => panic!("the model held its answers"),
        () = common::race::wait_until("one part stored, two edits out", || async {
            first.count() == 6 && parts().await == 1
        }) => {}
    }

    // A retry while the lease lasts waits; after it, takes the work over.
    let (quick, second) = common::model::gemini_scripted(answer(), Script::default()).await;
    let retry = workers(&app, &quick, three);
    let waiting = tokio::time::timeout(
        StdDuration::from_millis(1500),
        summary::summarize_session(&retry, &job),
    )
    .await;
    assert!(
        waiting.is_err(),
        "the lease is the dead run's until it expires"
    );
    assert_eq!(second.count(), 0);
    app.clock.advance(Duration::minutes(5));
    assert!(summary::summarize_session(&retry, &job).await.unwrap());

    assert_eq!(
        second.count(),
        4,
        "the two parts missing, a draft and an edit each"
    );
    let (model_name, cost, note) = stored(&app, a.id).await;
    assert_eq!(model_name, "gemini-3.1-flash-lite");
    assert_eq!(
        cost,
        one_call() * Decimal::from(6),
        "three parts, two calls each"
    );
    let note = note.expect("the note names the answers lost");
    assert!(
        note.contains("2 model call(s) whose answers were lost"),
        "{note}"
    );
    let (calls, reserved, spent) = ledger(&app, a.id).await;
    assert_eq!(calls, 10, "every call paid is in the ledger");
    assert!(
        reserved > Decimal::ZERO,
        "the lost calls keep their reservations"
    );
    assert_eq!(spent, one_call() * Decimal::from(8));
}

#[tokio::test]
async fn after_three_runs_died_the_fourth_stores_code_without_calling_a_model() {
    let app = common::spawn_app().await;
    let (a, id, job) = session_of(&app, 2).await;
    let script = Script {
        stalls: usize::MAX,
        ..Script::default()
    };
    let (hung, model) = common::model::gemini_scripted(answer(), script).await;
    let state = workers(&app, &hung, |_| {});
    for run in 1..=3 {
        tokio::select! {
            _ = summary::summarize_session(&state, &job) => panic!("the model never answers"),
            () = common::race::wait_until("the run at the model", || async { model.count() == run }) => {}
        }
        app.clock.advance(Duration::minutes(5));
    }
    assert!(summary::summarize_session(&state, &job).await.unwrap());

    assert_eq!(
        model.count(),
        3,
        "one draft a run, and none after the third"
    );
    let (model_name, cost, note) = stored(&app, a.id).await;
    assert_eq!((model_name.as_str(), cost), ("code", Decimal::ZERO));
    let note = note.unwrap();
    assert!(note.contains("claimed 4 times"), "{note}");
    assert!(
        note.contains("3 model call(s) whose answers were lost"),
        "{note}"
    );
    let read = app.session_detail(&a.token, &id).await.session;
    assert_eq!(read.summary_model.as_deref(), Some("code"));
}

#[tokio::test]
async fn a_settled_conversation_is_drafted_after_its_post_commits_with_nothing_held() {
    let script = Script {
        delay: StdDuration::from_secs(3),
        ..Script::default()
    };
    let (gemini, model) = common::model::gemini_scripted(answer(), script).await;
    // A two-second idle-in-transaction limit: the draft comes after it.
    let app = common::spawn_app_configured(|c| {
        common::use_gemini(c, &gemini);
        c.db_idle_in_transaction = StdDuration::from_secs(2);
    })
    .await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let now = app.clock.now();
    let posted: n8v_journal::ops::episodes::EpisodePosted = app
        .call(Method::POST, "/api/v1/journal/episodes")
        .token(&a.token)
        .json(json!({
            "episode_id": "ep-slow", "harness": "codex",
            "started_at": (now - Duration::minutes(10)).to_rfc3339(), "ended_at": now.to_rfc3339(),
            "turns": [{"role": "user", "text": "Fix the login redirect."},
                      {"role": "assistant", "text": "Fixed it and merged the change."}],
            "ended": true,
        }))
        .typed(201)
        .await;
    assert_eq!(model.count(), 2, "a draft and an edit");
    let session = posted.entries[0].session_id.to_string();
    let read = app.session_detail(&a.token, &session).await.session;
    assert_eq!(read.summary_model.as_deref(), Some("gemini-3.1-flash-lite"));
    assert_eq!(read.summary_note, None);
    let (calls, reserved, spent) = ledger(&app, a.id).await;
    assert_eq!((calls, reserved), (2, Decimal::ZERO));
    assert_eq!(spent, one_call() * Decimal::from(2));
}
