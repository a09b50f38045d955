//! Week and month digests: their boundaries, every decision kept, no double digest, a failed
//! digest retried, month digests outliving their sessions, and reading them over REST, MCP and
//! the markdown window.

use crate::common;
use n8v_journal::ops::digests::DigestList;
use n8v_journal::summaries::digests::Digest;

use crate::common::TestApp;
use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc};
use n8v_journal::clock::Clock;
use n8v_journal::jobs::{self, WorkerState};
use reqwest::Method;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use uuid::Uuid;

use crate::common::JOURNAL_SCOPES as ALL;

fn workers(app: &TestApp, gemini: Option<&str>) -> WorkerState {
    app.workers(|c| {
        if let Some(url) = gemini {
            common::use_gemini(c, url)
        }
    })
}

/// A closed session with a stored summary, started at `at`.
async fn summarised(app: &TestApp, account: Uuid, key: Uuid, at: DateTime<Utc>, summary: Value) {
    sqlx::query(
        "INSERT INTO journal_sessions (account_id, session_id, credential_id, kind, assistant, \
             scopes, goal, started_at, last_activity_at, ended_at, end_reason, journal_only, \
             summary, summary_model) \
         VALUES ($1, $2, $3, 'explicit', 'Claude', '{chats:read}', 'a goal', $4, $4, $4, \
             'ended', false, $5, 'code')",
    )
    .bind(account)
    .bind(Uuid::now_v7())
    .bind(key)
    .bind(at)
    .bind(summary)
    .execute(&app.owner)
    .await
    .unwrap();
}

fn entry(text: &str, decisions: &[&str], open: &[&str]) -> Value {
    json!({
        "summary": text, "decisions": decisions, "work_started": [],
        "work_finished": [format!("{text} done")], "open_questions": open,
    })
}

/// The Monday `weeks` weeks before this week's, at 10:00 UTC.
fn monday(now: DateTime<Utc>, weeks: i64) -> DateTime<Utc> {
    let today = now.date_naive();
    let this_monday = today - Duration::days(today.weekday().num_days_from_monday() as i64);
    (this_monday - Duration::weeks(weeks))
        .and_hms_opt(10, 0, 0)
        .unwrap()
        .and_utc()
}

async fn digests(app: &TestApp, token: &str, query: &str) -> Vec<Digest> {
    let path = format!("/api/v1/journal/digests{query}");
    let listed = app.get_typed::<DigestList>(token, &path).await.digests;
    listed.into_iter().map(|d| d.digest).collect()
}

#[tokio::test]
async fn digests_roll_up_at_their_boundaries_keep_every_decision_once_and_outlive_their_sessions() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let now = app.clock.now();
    // A week ~60 weeks ago (its month long past 90 days; its sessions past 400 days), a week
    // three weeks ago (past 14 days), and this week's (not yet).
    let old = monday(now, 60);
    let recent = monday(now, 3);
    summarised(
        &app,
        a.id,
        a.key_id,
        old,
        entry("Old work", &["Use Postgres"], &["Who owns it?"]),
    )
    .await;
    summarised(
        &app,
        a.id,
        a.key_id,
        old + Duration::days(2),
        entry("More old work", &["Keep RLS"], &[]),
    )
    .await;
    summarised(
        &app,
        a.id,
        a.key_id,
        recent,
        entry("Recent work", &["Ship Friday"], &[]),
    )
    .await;
    summarised(
        &app,
        a.id,
        a.key_id,
        now - Duration::days(2),
        entry("This week", &["Not yet"], &[]),
    )
    .await;

    let state = workers(&app, None);
    // The test claims the oldest week itself, uncommitted, until both passes wait for it (or
    // one is through without waiting): both found it due before either made it.
    let hold = common::race::Hold::take(
        &app.db_url,
        &format!(
            "INSERT INTO journal_digests (account_id, digest_id, period, period_start, \
                 period_end, scopes, session_count, summary, model, created_at) \
             VALUES ($1, gen_random_uuid(), 'week', '{}', '{}', '{{}}', 0, '{{}}', '', now()) \
             RETURNING digest_id",
            old.date_naive(),
            old.date_naive() + Duration::days(7)
        ),
        a.id,
    )
    .await;
    let done = AtomicUsize::new(0);
    let (x, y, ()) = tokio::join!(
        common::race::counted(&done, jobs::digests::roll_up(&state)),
        common::race::counted(&done, jobs::digests::roll_up(&state)),
        hold.release_when(&app.db_url, 2, &done)
    );
    let (x, y) = (x.unwrap(), y.unwrap());
    assert_eq!(x.week_digests + y.week_digests, 2, "{x:?} {y:?}");
    assert_eq!(x.month_digests + y.month_digests, 1, "{x:?} {y:?}");
    let again = jobs::digests::roll_up(&state).await.unwrap();
    assert_eq!((again.week_digests, again.month_digests), (0, 0));

    let weeks = digests(&app, &a.token, "?period=week").await;
    assert_eq!(weeks.len(), 2, "{weeks:?}");
    assert_eq!(weeks[0].period_start, recent.date_naive());
    assert_eq!(weeks[1].period_start, old.date_naive());
    assert_eq!(weeks[1].session_count, 2);
    assert_eq!(weeks[1].summary.decisions, ["Use Postgres", "Keep RLS"]);
    assert_eq!(weeks[1].summary.open_questions, ["Who owns it?"]);
    assert!(!common::json_text(&weeks).contains("Not yet"));
    let months = digests(&app, &a.token, "?period=month").await;
    assert_eq!(months.len(), 1);
    let month_start = NaiveDate::from_ymd_opt(old.year(), old.month(), 1).unwrap();
    assert_eq!(months[0].period_start, month_start);
    assert_eq!(months[0].summary.decisions, ["Use Postgres", "Keep RLS"]);

    // The sessions expire; the digests stay.
    let counts = jobs::retention(&state).await.unwrap();
    assert_eq!(counts.sessions_deleted, 2, "{counts:?}");
    assert_eq!(digests(&app, &a.token, "").await.len(), 3);

    // MCP and the markdown window read them too.
    let client = common::mcp::connect(&app, &a.token).await;
    let listed = common::mcp::structured(
        &common::mcp::call(&client, "journal_digests", json!({"period": "month"})).await,
    );
    assert_eq!(listed["digests"].as_array().unwrap().len(), 1);
    let markdown = app
        .call(Method::GET, "/journal.md")
        .token(&a.token)
        .send()
        .await
        .text()
        .await
        .unwrap();
    assert!(
        markdown.contains(&format!("## Week of {}", recent.date_naive())),
        "{markdown}"
    );
    assert!(markdown.contains("Decided: Ship Friday"), "{markdown}");
    app.call(Method::GET, "/api/v1/journal/digests?period=year")
        .token(&a.token)
        .problem(400, "bad-request")
        .await;

    // Deleting one on purpose needs chats:delete; then no one reads it.
    let id = &months[0].id.to_string();
    app.call(Method::DELETE, &format!("/api/v1/journal/digests/{id}"))
        .token(&a.token)
        .problem(403, "missing-scope")
        .await;
    let (_, deleter) = app.key(a.id, "chats:read,chats:delete", None).await;
    app.call(Method::DELETE, &format!("/api/v1/journal/digests/{id}"))
        .token(&deleter)
        .ok(200)
        .await;
    assert!(digests(&app, &a.token, "?period=month").await.is_empty());
}

/// A local Gemini-speaking server (`common::model`) answering with 1,000 prompt and 200
/// candidate tokens, or failing every request.
async fn fake_gemini(fail: bool) -> (String, common::model::Model) {
    // The model drops one decision: the digest must keep it anyway.
    let summary = json!({
        "summary": "A week on the login fix.",
        "decisions": ["Keep the cookie"],
        "work_started": [], "work_finished": ["Login fix"], "open_questions": []
    });
    common::model::gemini_as(summary, true, (1000, 200), fail).await
}

#[tokio::test]
async fn a_failed_digest_leaves_its_inputs_and_the_next_pass_makes_it() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let week = monday(app.clock.now(), 3);
    summarised(
        &app,
        a.id,
        a.key_id,
        week,
        entry("Login", &["Keep the cookie"], &["Who reviews?"]),
    )
    .await;
    summarised(
        &app,
        a.id,
        a.key_id,
        week + Duration::days(1),
        entry("Tests", &["Run them nightly"], &[]),
    )
    .await;

    let (down, tried) = fake_gemini(true).await;
    let failed = jobs::digests::roll_up(&workers(&app, Some(&down)))
        .await
        .unwrap();
    assert_eq!((failed.week_digests, failed.failed), (0, 1), "{failed:?}");
    assert!(tried.count() >= 1);
    assert!(
        digests(&app, &a.token, "").await.is_empty(),
        "nothing stored"
    );
    let sessions: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM journal_sessions WHERE account_id = $1 AND kind = 'explicit'",
    )
    .bind(a.id)
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(sessions, 2, "its inputs are as they were");

    let (up, calls) = fake_gemini(false).await;
    let made = jobs::digests::roll_up(&workers(&app, Some(&up)))
        .await
        .unwrap();
    assert_eq!(made.week_digests, 1, "{made:?}");
    assert_eq!(calls.count(), 1, "one model call per digest");
    let week = &digests(&app, &a.token, "").await[0];
    assert_eq!(
        (week.model.as_str(), week.cost_usd.as_str()),
        ("gemini-3.1-flash-lite", "0.00055")
    );
    assert_eq!(
        week.summary.decisions,
        ["Keep the cookie", "Run them nightly"],
        "every decision kept, the model's dropped one added back"
    );
    assert_eq!(week.summary.open_questions, ["Who reviews?"]);
}

fn at(app: &TestApp, gemini: Option<&str>, now: DateTime<Utc>) -> WorkerState {
    WorkerState {
        clock: Arc::new(n8v_journal::clock::ManualClock::new(now)),
        ..workers(app, gemini)
    }
}

#[tokio::test]
async fn a_week_is_digested_14_days_after_it_ends_and_a_month_90_days_after() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    let week = monday(app.clock.now(), 20);
    summarised(
        &app,
        a.id,
        a.key_id,
        week + Duration::days(6),
        entry("Sunday work", &["Decided it"], &[]),
    )
    .await;
    let week_end = week + Duration::days(7) - Duration::hours(10); // the next Monday, 00:00
    let day = Duration::days(1);

    let early = jobs::digests::roll_up(&at(&app, None, week_end + Duration::days(14) - day)).await;
    assert_eq!(
        early.unwrap().week_digests,
        0,
        "13 days after the week ended"
    );
    let due = jobs::digests::roll_up(&at(&app, None, week_end + Duration::days(14))).await;
    assert_eq!(due.unwrap().week_digests, 1, "14 days after");

    let month = NaiveDate::from_ymd_opt(week.year(), week.month(), 1).unwrap();
    let month_end = (month + chrono::Months::new(1))
        .and_hms_opt(0, 0, 0)
        .unwrap()
        .and_utc();
    let early = jobs::digests::roll_up(&at(&app, None, month_end + Duration::days(89))).await;
    assert_eq!(
        early.unwrap().month_digests,
        0,
        "89 days after the month ended"
    );
    let due = jobs::digests::roll_up(&at(&app, None, month_end + Duration::days(90))).await;
    assert_eq!(due.unwrap().month_digests, 1, "90 days after");
}

#[tokio::test]
async fn a_digest_pass_killed_while_the_model_works_leaves_nothing_and_the_next_makes_it_once() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    let week = monday(app.clock.now(), 3);
    summarised(
        &app,
        a.id,
        a.key_id,
        week,
        entry("Login", &["Keep the cookie"], &[]),
    )
    .await;

    // A model that never answers in time, and a worker process killed while it waits.
    let hung = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let hung_url = format!("http://{}", hung.local_addr().unwrap());
    let accepted = Arc::new(AtomicUsize::new(0));
    let seen = accepted.clone();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = hung.accept().await {
            seen.fetch_add(1, Ordering::SeqCst);
            held.push(socket);
        }
    });
    let mut worker = std::process::Command::new(env!("CARGO_BIN_EXE_n8v-journal"))
        .args(["admin", "run", "digests"])
        .env("DATABASE_URL", &app.db_url)
        .env("N8V_GEMINI_API_KEY", "test-key")
        .env("N8V_GEMINI_BASE_URL", &hung_url)
        .env_remove("N8V_MIGRATION_DATABASE_URL")
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while accepted.load(Ordering::SeqCst) == 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "the pass never called the model"
        );
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    worker.kill().unwrap(); // SIGKILL
    worker.wait().unwrap();

    let stored: i64 = sqlx::query_scalar("SELECT count(*) FROM journal_digests")
        .fetch_one(&app.owner)
        .await
        .unwrap();
    assert_eq!(stored, 0, "nothing was stored by the process");
    let (up, calls) = fake_gemini(false).await;
    // While the dead process's lease lasts, a pass leaves the digest to it; once it expired,
    // the next pass makes it.
    let soon = jobs::digests::roll_up(&workers(&app, Some(&up)))
        .await
        .unwrap();
    assert_eq!((soon.week_digests, calls.count()), (0, 0));
    let later = app.clock.now() + Duration::minutes(5);
    let made = jobs::digests::roll_up(&at(&app, Some(&up), later))
        .await
        .unwrap();
    assert_eq!(made.week_digests, 1);
    assert_eq!(calls.count(), 1);
    let again = jobs::digests::roll_up(&at(&app, Some(&up), later))
        .await
        .unwrap();
    assert_eq!(again.week_digests, 0);
    let stored: i64 = sqlx::query_scalar("SELECT count(*) FROM journal_digests")
        .fetch_one(&app.owner)
        .await
        .unwrap();
    assert_eq!(stored, 1);
}

#[tokio::test]
async fn a_digest_model_at_three_seconds_is_called_with_nothing_held() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let week = monday(app.clock.now(), 3);
    summarised(
        &app,
        a.id,
        a.key_id,
        week,
        entry("Login", &["Keep the cookie"], &[]),
    )
    .await;
    let script = common::model::Script {
        delay: std::time::Duration::from_secs(3),
        ..Default::default()
    };
    let summary = json!({"summary": "A week on the login fix.", "decisions": [],
        "work_started": [], "work_finished": [], "open_questions": []});
    let (slow, model) = common::model::gemini_scripted(summary, script).await;
    // A two-second idle-in-transaction limit: the answer comes after it.
    let state = WorkerState {
        db: app
            .db
            .clone()
            .with_idle_in_transaction(std::time::Duration::from_secs(2)),
        ..workers(&app, Some(&slow))
    };
    let made = jobs::digests::roll_up(&state).await.unwrap();
    assert_eq!((made.week_digests, made.failed), (1, 0), "{made:?}");
    assert_eq!(model.count(), 1);
    let week = &digests(&app, &a.token, "").await[0];
    assert_eq!(week.model, "gemini-3.1-flash-lite");
}

#[tokio::test]
async fn a_digest_whose_model_keeps_failing_is_written_by_code_on_its_third_pass() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let week = monday(app.clock.now(), 3);
    summarised(
        &app,
        a.id,
        a.key_id,
        week,
        entry("Login", &["Keep the cookie"], &[]),
    )
    .await;
    let (down, tried) = fake_gemini(true).await;
    let state = workers(&app, Some(&down));
    for pass in 1..=2 {
        let failed = jobs::digests::roll_up(&state).await.unwrap();
        assert_eq!((failed.week_digests, failed.failed), (0, 1), "pass {pass}");
    }
    let last = jobs::digests::roll_up(&state).await.unwrap();
    assert_eq!((last.week_digests, last.failed), (1, 0), "{last:?}");
    assert_eq!(
        tried.count(),
        9,
        "three passes of one call, three attempts each"
    );
    let (model, note): (String, Option<String>) =
        sqlx::query_as("SELECT model, note FROM journal_digests WHERE account_id = $1")
            .bind(a.id)
            .fetch_one(&app.owner)
            .await
            .unwrap();
    assert_eq!(model, "code");
    let note = note.unwrap();
    assert!(note.contains("the model failed 3 times"), "{note}");
    let week = &digests(&app, &a.token, "").await[0];
    assert_eq!(
        week.summary.decisions,
        ["Keep the cookie"],
        "code keeps every decision"
    );
}
