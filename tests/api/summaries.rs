//! Summaries of closed sessions: enqueued with the close, stored once per snapshot, priced
//! exactly, the budget switch, the quiet sweep; and the catch-up brief and markdown window
//! built from them.

use crate::common;
use crate::common::journal::texts;
use n8v_journal::brief::CatchUp;

use crate::common::model::Model;
use crate::common::{TestApp, expect_problem};
use chrono::Duration;
use n8v_journal::clock::Clock;
use n8v_journal::jobs::{WorkerState, summary, sweep};
use n8v_journal::queue::SummarizeSession;
use serde_json::{Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};
use uuid::Uuid;

use crate::common::JOURNAL_SCOPES as ALL;

/// A local Gemini-speaking server answering the same structured summary with 500 prompt and
/// 100 candidate tokens, its gate open or shut (see `common::model`).
async fn fake_gemini(open: bool) -> (String, Model) {
    let summary = json!({
        "summary": "Prepared the login fix for review.",
        "decisions": ["Keep the session cookie."],
        "work_started": ["Login fix."],
        "work_finished": ["Login fix merged."],
        "open_questions": ["Who reviews it?"]
    });
    common::model::gemini(summary, open).await
}

/// How many requests the model received, each checked to ask for JSON.
fn model_calls(model: &Model) -> usize {
    let requests = model.requests();
    for body in &requests {
        assert_eq!(
            body["generationConfig"]["responseMimeType"], "application/json",
            "{body}"
        );
    }
    requests.len()
}

fn workers(app: &TestApp, gemini: Option<String>) -> WorkerState {
    app.workers(|c| {
        if let Some(url) = gemini {
            common::use_gemini(c, &url)
        }
    })
}

/// Opens a session, appends a line in it, ends it; returns its id.
async fn worked_session(app: &TestApp, token: &str, record: &str, goal: &str) -> String {
    let started = app.start_session(token, None, json!({"goal": goal})).await;
    let id = started.id.to_string();
    app.append(
        token,
        record,
        Some(&id),
        Some("Put the fix on record"),
        "Login fix merged",
    )
    .await;
    let ended = app
        .end_session(token, &id, json!({"outcome": "Fix ready for review"}))
        .send()
        .await;
    assert_eq!(ended.status(), 200);
    id
}

/// The summary jobs waiting in the queue, decoded.
fn uuid_of(session: &str) -> Uuid {
    n8v_journal::ids::parse(n8v_journal::ids::Kind::Session, session).unwrap()
}

#[tokio::test]
async fn closing_a_session_enqueues_its_summary_in_the_same_transaction() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let record = app.record_of(a.id).await;

    // A close that fails after its summary was enqueued (a deferred check raising at commit,
    // the last thing the close's transaction does) leaves the session open and no job behind.
    let started = app
        .start_session(&a.token, None, json!({"goal": "Get the login fix ready"}))
        .await;
    let doomed = started.id.to_string();
    for sql in [
        "CREATE FUNCTION fail_close() RETURNS trigger LANGUAGE plpgsql AS \
         $$ BEGIN RAISE EXCEPTION 'the close fails at commit'; END $$",
        "CREATE CONSTRAINT TRIGGER fail_close AFTER UPDATE ON journal_sessions \
         DEFERRABLE INITIALLY DEFERRED FOR EACH ROW \
         WHEN (OLD.ended_at IS NULL AND NEW.ended_at IS NOT NULL) EXECUTE FUNCTION fail_close()",
    ] {
        sqlx::query(sql).execute(&app.owner).await.unwrap();
    }
    let failed = app.end_session(&a.token, &doomed, json!({})).send().await;
    expect_problem(failed, 500, "internal").await;
    sqlx::query("DROP TRIGGER fail_close ON journal_sessions")
        .execute(&app.owner)
        .await
        .unwrap();
    let open: bool =
        sqlx::query_scalar("SELECT ended_at IS NULL FROM journal_sessions WHERE session_id = $1")
            .bind(uuid_of(&doomed))
            .fetch_one(&app.owner)
            .await
            .unwrap();
    assert!(open, "the failed close changed nothing");
    assert_eq!(
        app.queued_summaries().await,
        [],
        "the failed close's job went with it"
    );
    app.end_session(&a.token, &doomed, json!({})).ok(200).await;
    assert_eq!(app.queued_summaries().await.len(), 1);
    sqlx::query("DELETE FROM apalis.jobs")
        .execute(&app.owner)
        .await
        .unwrap();

    let id = worked_session(&app, &a.token, &record, "Get the login fix ready").await;
    let jobs = app.queued_summaries().await;
    assert_eq!(
        jobs,
        [SummarizeSession {
            account_id: a.id,
            session_id: uuid_of(&id),
            snapshot: 2
        }]
    );
    // A refused close (already ended) enqueues nothing.
    let again = app.end_session(&a.token, &id, json!({})).send().await;
    expect_problem(again, 409, "conflict").await;
    assert_eq!(app.queued_summaries().await.len(), 1);
    // Retiring an implicit session enqueues too.
    app.get(&a.token, "/api/v1/records").await;
    app.clock.advance(Duration::hours(1));
    app.get(&a.token, "/api/v1/records").await;
    assert_eq!(app.queued_summaries().await.len(), 2);
}

#[tokio::test]
async fn a_snapshot_is_summarised_once_even_when_the_job_runs_twice_at_once() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let record = app.record_of(a.id).await;
    let id = worked_session(&app, &a.token, &record, "Get the login fix ready").await;
    let job = app.queued_summaries().await.remove(0);
    let (url, model) = fake_gemini(false).await;
    let state = workers(&app, Some(url));
    // The model holds its answer until one run is at the model and the other has found the
    // lease taken (or, were there no lease, is at the model too), then a moment more.
    let done = AtomicUsize::new(0);
    let run = || async {
        let stored = summary::summarize_session(&state, &job).await;
        done.fetch_add(1, Ordering::SeqCst);
        stored
    };
    let (first, second, ()) = tokio::join!(run(), run(), async {
        common::race::wait_until("one run at the model", || async {
            model.count() + done.load(Ordering::SeqCst) >= 1
        })
        .await;
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        model.open();
    });
    assert_eq!(
        u8::from(first.unwrap()) + u8::from(second.unwrap()),
        1,
        "exactly one run stores it"
    );
    assert!(
        !summary::summarize_session(&state, &job).await.unwrap(),
        "a third run stores nothing"
    );
    let stored: i64 = sqlx::query_scalar("SELECT count(*) FROM session_summaries")
        .fetch_one(&app.owner)
        .await
        .unwrap();
    assert_eq!(stored, 1);
    assert_eq!(model_calls(&model), 2, "one draft and one edit");

    let session = app.session_detail(&a.token, &id).await.session;
    let model = session.summary_model.as_deref();
    assert_eq!(model, Some("gemini-3.1-flash-lite"));
    // Draft and edit: 2 calls × (500 in, 100 out) = 1,000 in and 200 out → exactly $0.00055.
    let tokens = (session.summary_input_tokens, session.summary_output_tokens);
    assert_eq!(tokens, (Some(1000), Some(200)));
    assert_eq!(session.summary_cost_usd.as_deref(), Some("0.00055"));
    let summary = session.summary.as_ref().unwrap();
    assert_eq!(summary.decisions, ["Keep the session cookie."]);
    assert!(session.provisional.is_none());
}

#[tokio::test]
async fn without_a_provider_or_budget_the_summary_is_written_by_code_at_zero_cost() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let record = app.record_of(a.id).await;
    let id = worked_session(&app, &a.token, &record, "Get the login fix ready").await;
    let job = app.queued_summaries().await.remove(0);
    assert!(
        summary::summarize_session(&workers(&app, None), &job)
            .await
            .unwrap()
    );
    let read = app.session_detail(&a.token, &id).await.session;
    assert_eq!(read.summary_model.as_deref(), Some("code"));
    assert_eq!(read.summary_cost_usd.as_deref(), Some("0"));
    let started = &read.summary.as_ref().unwrap().work_started;
    assert!(
        started
            .iter()
            .any(|w| w.contains("Get the login fix ready")),
        "{started:?}"
    );

    // Spend the month's budget; the next summary is written by code and says so.
    sqlx::query(
        "INSERT INTO summary_budget (account_id, month, spent_usd) \
         VALUES ($1, date_trunc('month', now() AT TIME ZONE 'UTC')::date, 5)",
    )
    .bind(a.id)
    .execute(&app.owner)
    .await
    .unwrap();
    let second = worked_session(&app, &a.token, &record, "Second task").await;
    let job = app
        .queued_summaries()
        .await
        .into_iter()
        .find(|j| j.session_id == uuid_of(&second))
        .unwrap();
    let (url, model) = fake_gemini(true).await;
    assert!(
        summary::summarize_session(&workers(&app, Some(url)), &job)
            .await
            .unwrap()
    );
    assert_eq!(
        model_calls(&model),
        0,
        "no model call once the budget is spent"
    );
    let read = app.session_detail(&a.token, &second).await.session;
    assert_eq!(read.summary_model.as_deref(), Some("code"));
    assert_eq!(read.summary_note.as_deref(), Some(summary::BUDGET_NOTE));
}

#[tokio::test]
async fn the_sweep_closes_sessions_quiet_for_two_hours_and_enqueues_their_summaries() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let b = app.account("B", ALL).await;
    app.journal_on(b.id).await;
    let old = app
        .start_session(&a.token, None, json!({"goal": "left open"}))
        .await;
    let other = app
        .start_session(&b.token, None, json!({"goal": "also left open"}))
        .await;
    app.clock.advance(Duration::minutes(119));
    let fresh = app
        .start_session(&a.token, None, json!({"goal": "recent"}))
        .await;
    app.clock.advance(Duration::minutes(2));
    let now = app.clock.now();
    let closed = sweep::close_quiet_sessions(&app.db, now, Duration::hours(2))
        .await
        .unwrap();
    assert_eq!(
        closed, 2,
        "both accounts' quiet sessions, not the recent one"
    );
    assert_eq!(
        sweep::close_quiet_sessions(&app.db, now, Duration::hours(2))
            .await
            .unwrap(),
        0,
        "idempotent"
    );
    let read = app.session_detail(&a.token, &old.id.to_string()).await;
    assert_eq!(read.session.end_reason.as_deref(), Some("quiet"));
    let recent = app.session_detail(&a.token, &fresh.id.to_string()).await;
    assert_eq!(recent.session.status, "open");
    let sessions: Vec<Uuid> = app
        .queued_summaries()
        .await
        .iter()
        .map(|j| j.session_id)
        .collect();
    assert!(sessions.contains(&uuid_of(&old.id.to_string())));
    assert!(sessions.contains(&uuid_of(&other.id.to_string())));
}

#[tokio::test]
async fn catch_up_reads_summaries_records_and_more_since_a_time_or_a_session() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let record = app.record_of(a.id).await;
    let first = worked_session(&app, &a.token, &record, "First task").await;
    let job = app.queued_summaries().await.remove(0);
    let (url, model) = fake_gemini(true).await;
    summary::summarize_session(&workers(&app, Some(url)), &job)
        .await
        .unwrap();
    assert_eq!(model_calls(&model), 2);
    app.clock.advance(Duration::hours(1));
    let second = worked_session(&app, &a.token, &record, "Second task").await;

    let all = app.brief(&a.token, None).await;
    assert_eq!(all.decisions.len(), 1, "{all:?}");
    let decision = &all.decisions[0];
    assert_eq!(decision.text, "Keep the session cookie.");
    assert_eq!(decision.session_id.to_string(), first);
    assert_eq!((decision.stated, decision.own), (false, true));
    assert!(decision.id.is_none() && decision.written_by.is_none() && decision.replaces.is_empty());
    assert_eq!(texts(&all.open_questions), ["Who reviews it?"]);
    assert_eq!(
        texts(&all.work_finished),
        ["Fix ready for review", "Login fix merged."],
        "newest session first"
    );
    assert_eq!(all.records[0].record_id.to_string(), record);
    assert_eq!(all.records[0].count, 2);
    assert!(!all.more);

    // Since the second session started: only it.
    let since_session: CatchUp = app
        .get_typed(
            &a.token,
            &format!("/api/v1/journal/catch-up?since={second}"),
        )
        .await;
    let ids = |brief: &CatchUp| -> Vec<String> {
        brief.sessions.iter().map(|s| s.id.to_string()).collect()
    };
    assert_eq!(ids(&since_session), std::slice::from_ref(&second));
    assert_eq!(since_session.records[0].count, 1);
    let at = since_session
        .since
        .to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true);
    let since_time: CatchUp = app
        .get_typed(&a.token, &format!("/api/v1/journal/catch-up?since={at}"))
        .await;
    assert_eq!(ids(&since_time), ids(&since_session));
    expect_problem(
        app.get(&a.token, "/api/v1/journal/catch-up?since=yesterday")
            .await,
        400,
        "bad-request",
    )
    .await;

    // More than the brief holds: `more` says older sessions were left out.
    for i in 0..21 {
        app.clock.advance(Duration::minutes(1));
        worked_session(&app, &a.token, &record, &format!("task {i}")).await;
    }
    let full = app.brief(&a.token, None).await;
    assert!(full.more);
    assert_eq!(full.sessions.len(), 20);
}

#[tokio::test]
async fn the_markdown_window_is_bounded_and_ordered() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let record = app.record_of(a.id).await;
    for i in 0..40 {
        worked_session(
            &app,
            &a.token,
            &record,
            &format!("Goal number {i:02} {}", "words ".repeat(20)),
        )
        .await;
        app.clock.advance(Duration::minutes(10));
    }
    let md = app.get(&a.token, "/journal.md?max_chars=1000").await;
    assert_eq!(md.status(), 200);
    assert!(
        md.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/markdown")
    );
    let text = md.text().await.unwrap();
    assert!(text.chars().count() <= 1000, "{}", text.chars().count());
    assert!(
        text.contains("Goal number 39") && !text.contains("Goal number 00"),
        "newest kept"
    );
    assert!(
        text.trim_end()
            .ends_with("(or GET /api/v1/journal/sessions)."),
        "{text}"
    );
    let full = app
        .get(&a.token, "/journal.md?max_chars=400000")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        full.find("Goal number 00").unwrap() < full.find("Goal number 39").unwrap(),
        "oldest first"
    );
    // The default budget (9,500 characters) must cut this window: the whole is longer.
    assert!(full.chars().count() > 9_500, "{}", full.chars().count());
    let default = app.get(&a.token, "/journal.md").await.text().await.unwrap();
    let kept = default.chars().count();
    assert!(kept <= 9_500 && kept > 8_000, "{kept}");
    assert!(default.contains("Goal number 39") && !default.contains("Goal number 00"));
    assert!(
        default.contains("older sessions were left out"),
        "{default}"
    );
    for bad in ["999", "400001", "lots"] {
        expect_problem(
            app.get(&a.token, &format!("/journal.md?max_chars={bad}"))
                .await,
            400,
            "bad-request",
        )
        .await;
    }
    let b = app.account("B", "records:read").await;
    app.journal_on(b.id).await;
    expect_problem(app.get(&b.token, "/journal.md").await, 403, "missing-scope").await;
    let c = app.account("C", ALL).await;
    expect_problem(app.get(&c.token, "/journal.md").await, 404, "journal-off").await;
}

#[tokio::test]
async fn catch_up_shows_organization_activity_to_its_owner_only_with_orgs_read() {
    let app = common::spawn_app().await;
    let owner = app
        .account("Owner", crate::common::JOURNAL_AND_ORG_SCOPES)
        .await;
    let member = app.account("Member", ALL).await;
    app.journal_on(owner.id).await;
    app.journal_on(member.id).await;
    let org = app
        .organization_with_reader(owner.id, "Acme", member.id)
        .await;
    let org_id = n8v_journal::ids::format(n8v_journal::ids::Kind::Organization, org);
    let org_record: Value = app
        .get(&member.token, "/api/v1/records")
        .await
        .json()
        .await
        .unwrap();
    let org_record = org_record["records"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["organization_id"] == org_id.as_str())
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let started = app
        .start_session(
            &member.token,
            None,
            json!({"goal": "Ship the Acme report", "organization": org_id}),
        )
        .await;
    let session = started.id.to_string();
    app.append(
        &member.token,
        &org_record,
        Some(&session),
        None,
        "Acme report shipped",
    )
    .await;

    let brief = app.brief(&owner.token, None).await;
    assert!(
        brief.sessions.iter().any(|s| s.id.to_string() == session),
        "{brief:?}"
    );
    assert_eq!(brief.work_started[0].text, "Ship the Acme report");
    assert_eq!(brief.records[0].record_id.to_string(), org_record);
    assert_eq!(brief.records[0].newest_lines, ["Acme report shipped"]);

    // Without orgs:read the owner's key sees the org's Record (its own) but not the member's session.
    let (_, plain) = app.key(owner.id, ALL, None).await;
    let brief = app.brief(&plain, None).await;
    assert!(!common::json_text(&brief).contains(&session), "{brief:?}");
    assert_eq!(brief.records[0].count, 1);
}
