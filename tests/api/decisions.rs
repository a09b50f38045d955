//! Decisions as items (issue 46, part 1): each decision a session hands on has an id, and a
//! later decision can replace it — by `session_end`'s `replaces` (REST and MCP), by a line
//! marked `Replaces itm_…:` in text, or by the replace operation. A replaced decision is never
//! presented as current: the brief lists it once, under its replacement; `/journal.md` says
//! "replaces: …"; the export keeps it with its state. Only a credential that can read a
//! decision replaces it. Webhooks hear `decision.replaced`.

use crate::common;

use crate::common::TestApp;
use crate::common::journal::texts;
use crate::common::mcp::{call, connect, structured};
use crate::common::receiver::{Receiver, verified};
use chrono::Duration;
use n8v_journal::brief::{CatchUp, Item};
use n8v_journal::clock::Clock;
use n8v_journal::jobs;
use n8v_journal::jobs::sweep;
use n8v_journal::loops::Loop;
use reqwest::Method;
use serde_json::{Value, json};

pub(crate) use crate::common::CUSTOMER_SCOPES as ALL;
pub(crate) const LOCKS: &str = "Use PostgreSQL advisory locks for the job queue";
pub(crate) const SKIP: &str = "Replace the advisory locks with SELECT FOR UPDATE SKIP LOCKED";

pub(crate) async fn opened(app: &TestApp, token: &str, assistant: &str) -> String {
    app.clock.advance(Duration::minutes(10));
    app.call(Method::POST, "/api/v1/journal/sessions")
        .token(token)
        .header("x-assistant", assistant)
        .json(json!({"goal": "Work on the job queue"}))
        .ok(201)
        .await["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

async fn ended(app: &TestApp, token: &str, assistant: &str, end: Value) -> Value {
    let id = opened(app, token, assistant).await;
    app.end_session(token, &id, end).ok(200).await
}

/// The current decision `text` in the brief.
pub(crate) fn decision<'a>(brief: &'a CatchUp, text: &str) -> &'a Item {
    let found = brief.decisions.iter().find(|d| d.text == text);
    found.unwrap_or_else(|| panic!("{text} is current in {brief:?}"))
}

/// The id of the decision `text` in the brief.
pub(crate) fn decision_id(brief: &CatchUp, text: &str) -> String {
    let id = decision(brief, text).id;
    id.unwrap_or_else(|| panic!("an id on {text} in {brief:?}"))
        .to_string()
}

pub(crate) async fn window(app: &TestApp, token: &str) -> String {
    let md = app.get(token, "/journal.md?max_chars=20000").await;
    assert_eq!(md.status(), 200);
    md.text().await.unwrap()
}

/// A replaced decision is nowhere current: the brief, `/journal.md`, the MCP catch-up and
/// the export.
async fn replaced_everywhere(app: &TestApp, token: &str, old: &str, new: &str) {
    let now = app.brief(token, None).await;
    assert_eq!(texts(&now.decisions), [new], "{now:?}");
    let replaced: Vec<&str> = now.decisions[0]
        .replaces
        .iter()
        .map(|r| r.text.as_str())
        .collect();
    assert_eq!(replaced, [old], "{now:?}");
    let md = window(app, token).await;
    assert!(
        !md.contains(&format!("- Decided: {old}\n")),
        "the old decision reads as current:\n{md}"
    );
    // The current decisions lead the window; the old one is named only as what was replaced.
    assert!(
        md.contains(&format!(
            "## Decided (current)\n- Decided: {new} (replaces: {old})"
        )),
        "{md}"
    );
    assert_eq!(
        md.matches(old).count(),
        md.matches(&format!("replaces: {old}")).count(),
        "only under its replacement:\n{md}"
    );

    let client = connect(app, token).await;
    let caught = call(&client, "journal_catch_up", json!({"purpose": "Catch up"})).await;
    let caught: CatchUp = common::decode(structured(&caught));
    assert_eq!(texts(&caught.decisions), [new], "{caught:?}");
    client.cancel().await.unwrap();

    let export = app.get(token, "/api/v1/journal/export").await;
    assert_eq!(export.status(), 200);
    let lines = export.text().await.unwrap();
    let states: Vec<(String, String)> = lines
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|l| l["type"] == "loop" && l["kind"] == "decision")
        .map(|l| {
            let field = |name: &str| l[name].as_str().unwrap().to_owned();
            (field("text"), field("state"))
        })
        .collect();
    assert!(
        states.contains(&(old.to_owned(), "replaced".to_owned()))
            && states.contains(&(new.to_owned(), "current".to_owned())),
        "{states:?}"
    );
}

#[tokio::test]
async fn a_later_session_end_replaces_a_decision_and_the_brief_lists_only_the_current_one() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    ended(
        &app,
        &a.token,
        "Claude Code",
        json!({"outcome": "Queue designed", "decisions": [LOCKS]}),
    )
    .await;
    let before = app.brief(&a.token, None).await;
    assert_eq!(texts(&before.decisions), [LOCKS], "{before:?}");
    let locks = decision_id(&before, LOCKS);
    assert!(locks.starts_with("itm_"), "{locks}");

    // A decision is no loop: it is not listed, closed or resolved as one.
    let listed = app
        .call(Method::GET, "/api/v1/journal/loops?state=all")
        .token(&a.token)
        .ok(200)
        .await;
    assert_eq!(listed["loops"], json!([]), "{listed}");
    let closing = app
        .call(
            Method::POST,
            &format!("/api/v1/journal/loops/{locks}/close"),
        )
        .token(&a.token)
        .json(json!({"state": "done"}))
        .send()
        .await;
    common::expect_problem(closing, 409, "conflict").await;

    // Replacing needs a decision to replace it with: without one, nothing is replaced.
    let bare = opened(&app, &a.token, "Codex").await;
    let answer = app
        .end_session(
            &a.token,
            &bare,
            json!({"outcome": "x", "replaces": [locks]}),
        )
        .ok(200)
        .await;
    assert_eq!(answer["not_replaced"], json!([locks]), "{answer}");
    assert_eq!(texts(&app.brief(&a.token, None).await.decisions), [LOCKS]);
    let id = opened(&app, &a.token, "Codex").await;
    let ended = app
        .end_session(
            &a.token,
            &id,
            json!({"outcome": "Queue reworked", "decisions": [SKIP], "replaces": [locks]}),
        )
        .ok(200)
        .await;
    assert_eq!(ended["not_replaced"], json!([]), "{ended}");
    assert_eq!(
        ended["handoff"]["replaces"],
        json!([{"decision": SKIP, "replaces": locks}]),
        "{ended}"
    );
    replaced_everywhere(&app, &a.token, LOCKS, SKIP).await;
}

#[tokio::test]
async fn a_marked_line_replaces_through_mcp_and_the_quiet_sweep() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let client = connect(&app, &a.token).await;
    let started = call(
        &client,
        "session_start",
        json!({"purpose": "Start", "goal": "Design the queue"}),
    )
    .await;
    let session = structured(&started)["id"].as_str().unwrap().to_owned();
    let end = call(
        &client,
        "session_end",
        json!({"purpose": "Hand off", "session": session, "outcome": "Designed",
               "decisions": [LOCKS]}),
    )
    .await;
    assert_ne!(end.is_error, Some(true), "{end:?}");
    let locks = decision_id(&app.brief(&a.token, None).await, LOCKS);

    // An implicit session whose purpose (a tool call's, over MCP) marks the replacement,
    // closed by the quiet sweep.
    app.clock.advance(Duration::minutes(10));
    let listed = call(
        &client,
        "record_list",
        json!({"purpose": format!("Replaces {locks}: {SKIP}")}),
    )
    .await;
    assert_ne!(listed.is_error, Some(true), "{listed:?}");
    app.clock.advance(Duration::hours(3));
    let closed = sweep::close_quiet_sessions(&app.db, app.clock.now(), Duration::hours(2))
        .await
        .unwrap();
    assert!(closed >= 1);
    replaced_everywhere(&app, &a.token, LOCKS, SKIP).await;
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn the_replace_operation_needs_a_decision_the_credential_can_read() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    // A key without records scopes cannot read the first session, nor replace its decision.
    let (_, narrow) = app.key(a.id, "chats:read", None).await;
    ended(
        &app,
        &a.token,
        "Claude Code",
        json!({"outcome": "Designed", "decisions": [LOCKS]}),
    )
    .await;
    ended(
        &app,
        &narrow,
        "Codex",
        json!({"outcome": "Reworked", "decisions": [SKIP]}),
    )
    .await;
    let both = app.brief(&a.token, None).await;
    let (locks, skip) = (decision_id(&both, LOCKS), decision_id(&both, SKIP));
    let replace = |token: &str, id: &str, by: &str| {
        app.call(
            Method::POST,
            &format!("/api/v1/journal/decisions/{id}/replace"),
        )
        .token(token)
        .json(json!({ "by": by }))
    };
    let unreadable = replace(&narrow, &locks, &skip).send().await;
    common::expect_problem(unreadable, 404, "not-found").await;
    let itself = replace(&a.token, &locks, &locks).send().await;
    common::expect_problem(itself, 409, "conflict").await;

    let replaced: Loop = replace(&a.token, &locks, &skip).typed(200).await;
    let by = replaced.replaced_by.map(|i| i.to_string());
    assert_eq!(
        (replaced.state.as_str(), by),
        ("replaced", Some(skip.clone())),
        "{replaced:?}"
    );
    let again = replace(&a.token, &locks, &skip).send().await;
    common::expect_problem(again, 409, "conflict").await;
    replaced_everywhere(&app, &a.token, LOCKS, SKIP).await;
}

#[tokio::test]
async fn a_replacement_is_told_as_decision_replaced() {
    let app = crate::webhooks::private_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let receiver = Receiver::start().await;
    let (_, secret) =
        crate::webhooks::endpoint(&app, &a.token, &receiver.url(), &["decision.replaced"]).await;
    ended(
        &app,
        &a.token,
        "Claude Code",
        json!({"outcome": "Designed", "decisions": [LOCKS]}),
    )
    .await;
    let locks = decision_id(&app.brief(&a.token, None).await, LOCKS);
    ended(
        &app,
        &a.token,
        "Codex",
        json!({"outcome": "Reworked", "decisions": [SKIP], "replaces": [locks]}),
    )
    .await;
    let state = crate::webhooks::workers(&app);
    let counts = jobs::webhooks::deliver_due(&state).await.unwrap();
    assert_eq!(counts.delivered, 1, "{counts:?}");
    let payloads = verified(&secret, &receiver.received());
    assert_eq!(payloads.len(), 1, "{payloads:?}");
    assert_eq!(payloads[0]["type"], "decision.replaced");
    let data = &payloads[0]["data"];
    assert_eq!(
        (&data["item"], &data["text"], &data["replaced_by_text"]),
        (&json!(locks), &json!(LOCKS), &json!(SKIP)),
        "{data}"
    );
}

/// A model's summary speaks for a session in its own words, or restates what was replaced: the
/// session's current decision, marked in its outcome, stays current all the same, and the
/// replaced one is not brought back (found by bench/continuity).
#[tokio::test]
async fn a_summary_restating_the_old_decision_neither_revives_it_nor_hides_the_new_one() {
    let summary = json!({
        "summary": "Worked on the queue.",
        "decisions": [LOCKS],
        "work_started": [],
        "work_finished": ["Queue reworked"],
        "open_questions": []
    });
    let (gemini, _) = common::model::gemini(summary, true).await;
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    ended(
        &app,
        &a.token,
        "Claude Code",
        json!({"outcome": "Designed", "decisions": [LOCKS]}),
    )
    .await;
    let locks = decision_id(&app.brief(&a.token, None).await, LOCKS);
    ended(
        &app,
        &a.token,
        "Codex",
        json!({"outcome": format!("The locks serialised the workers. Replaces {locks}: {SKIP}.")}),
    )
    .await;
    let state = app.workers(|c| common::use_gemini(c, &gemini));
    for job in app.queued_summaries().await {
        jobs::summary::summarize_session(&state, &job)
            .await
            .unwrap();
    }
    let now = app.brief(&a.token, None).await;
    let summarised = now
        .sessions
        .iter()
        .filter(|s| s.summary_model.as_deref() == Some("gemini-3.1-flash-lite"))
        .count();
    assert_eq!(summarised, 2, "{now:?}");
    assert_eq!(texts(&now.decisions), [SKIP], "{now:?}");
    assert_eq!(now.decisions[0].replaces[0].text, LOCKS, "{now:?}");
}
