//! What a model may say of decisions (issue 46, item 1's last clause): where a model drafts a
//! summary (a session's, a conversation's), it is shown the current decisions the session's
//! credential can read, and may say which of them its session replaced. That is its reading:
//! kept in the summary, shown under the session's decision with `stated: false`, and never
//! applied, so the earlier decision stays current until the assistant or the person replaces
//! it. Ids it was not shown, and decisions it does not state, are dropped.

use crate::common;

use crate::common::TestApp;
use crate::common::journal::texts;
use crate::common::model::Model;
use crate::decisions::{ALL, LOCKS, SKIP, decision, decision_id, opened, window};
use chrono::Duration;
use n8v_journal::clock::Clock;
use n8v_journal::ids::SessionId;
use n8v_journal::jobs;
use reqwest::Method;
use serde_json::{Value, json};

const NARROW: &str = "Keep the web app's sessions in cookies";
const OTHER: &str = "Bill the other account monthly";

/// A session of `assistant` ended with `end`: its id.
async fn ended(app: &TestApp, token: &str, assistant: &str, end: Value) -> String {
    let id = opened(app, token, assistant).await;
    app.end_session(token, &id, end).ok(200).await;
    id
}

/// A decision of `assistant`'s ended session (stated): its id.
async fn decided(app: &TestApp, token: &str, assistant: &str, text: &str) -> String {
    let end = json!({"outcome": format!("Settled: {text}"), "decisions": [text]});
    ended(app, token, assistant, end).await;
    decision_id(&app.brief(token, None).await, text)
}

/// The model's answer: `SKIP` decided, saying it replaced each of `replaces` (decision, id).
fn answer(replaces: &[(&str, &str)]) -> Value {
    json!({
        "summary": "Reworked the job queue.",
        "decisions": [SKIP],
        "work_started": [],
        "work_finished": ["Queue reworked"],
        "open_questions": [],
        "replaces": replaces.iter().map(|(d, id)| json!({"decision": d, "replaces": id}))
            .collect::<Vec<_>>(),
    })
}

/// The user text of every draft the model was sent (the edits are sent the draft's JSON).
fn drafts(model: &Model) -> Vec<String> {
    model
        .requests()
        .iter()
        .map(|b| {
            b["contents"][0]["parts"][0]["text"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .filter(|t| !t.starts_with('{'))
        .collect()
}

/// The one draft whose prompt holds `marker`.
fn draft_with(model: &Model, marker: &str) -> String {
    let found: Vec<String> = drafts(model)
        .into_iter()
        .filter(|t| t.contains(marker))
        .collect();
    assert_eq!(found.len(), 1, "one draft holds {marker:?}: {found:#?}");
    found[0].clone()
}

/// The brief shows `SKIP` current with `LOCKS` under it as a summary's reading (not applied),
/// and `LOCKS` still current; `/journal.md` says both and that the replacement is not applied.
async fn said_not_applied(app: &TestApp, token: &str, locks: &str) {
    let now = app.brief(token, None).await;
    let (skip, current) = (decision(&now, SKIP), decision(&now, LOCKS));
    let said: Vec<(String, &str, SessionId, bool)> = skip
        .replaces
        .iter()
        .map(|r| (r.id.to_string(), r.text.as_str(), r.session_id, r.stated))
        .collect();
    assert_eq!(
        said,
        [(locks.to_owned(), LOCKS, current.session_id, false)],
        "{now:?}"
    );
    let current_id = current.id.map(|i| i.to_string());
    assert_eq!(current_id.as_deref(), Some(locks), "still current: {now:?}");
    assert!(current.replaces.is_empty(), "{now:?}");
    let md = window(app, token).await;
    assert!(
        md.contains(&format!(
            "Decided: {SKIP} (its summary says it replaces, not applied: {LOCKS})"
        )),
        "{md}"
    );
    assert!(
        md.contains(&format!("- Decided: {LOCKS} · {locks} · ")),
        "{md}"
    );
}

#[tokio::test]
async fn a_session_summary_may_say_which_decision_it_replaced_and_it_is_never_applied() {
    let (gemini, model) = common::model::gemini(answer(&[]), true).await;
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let b = app.account("B", ALL).await;
    app.journal_on(b.id).await;
    let other = decided(&app, &b.token, "Claude Code", OTHER).await;
    let locks = decided(&app, &a.token, "Claude Code", LOCKS).await;
    // A key of A's restricted to one repository reads only its own sessions.
    let (_, narrow) = app.key(a.id, ALL, Some("acme/web")).await;
    let end = json!({"outcome": "Narrow work", "decisions": [NARROW]});
    ended(&app, &narrow, "Cursor", end).await;
    let narrow_id = decision_id(&app.brief(&narrow, None).await, NARROW);
    // Codex decides anew and names nothing it replaces.
    let end = json!({"outcome": "The locks serialised the workers", "decisions": [SKIP]});
    let codex = ended(&app, &a.token, "Codex", end).await;

    // The model says SKIP replaced LOCKS; also an id it was not shown (another account's)
    // and a replacement by a decision it does not state.
    model.answer(answer(&[
        (SKIP, &locks),
        (SKIP, &other),
        ("Something it never decided", &locks),
    ]));
    let state = app.workers(|c| common::use_gemini(c, &gemini));
    let (_logs_guard, logs) = common::logs::capture_on_this_thread();
    for job in app.queued_summaries().await {
        jobs::summary::summarize_session(&state, &job)
            .await
            .unwrap();
    }
    // The jobs logged, but neither the model's key nor what it was shown.
    let logged = common::logs::text(&logs);
    assert!(!logged.is_empty());
    for secret in ["test-key", LOCKS, NARROW] {
        assert!(!logged.contains(secret), "{secret} was logged");
    }

    // What each draft was shown: the decisions in force its credential can read, never its own.
    let shown = draft_with(&model, "The locks serialised the workers");
    assert!(shown.contains("Decisions in force"), "{shown}");
    for (id, text) in [(&locks, LOCKS), (&narrow_id, NARROW)] {
        assert!(
            shown.contains(&format!("{id} {text:?}")),
            "{id} {text}: {shown}"
        );
    }
    assert!(!shown.contains(&other) && !shown.contains(OTHER), "{shown}");
    assert!(
        !shown.contains(SKIP),
        "its own decision is no decision in force: {shown}"
    );
    let restricted = draft_with(&model, "Narrow work");
    assert!(!restricted.contains(&locks), "{restricted}");
    let first = draft_with(&model, &format!("Settled: {LOCKS}"));
    assert!(!first.contains("Decisions in force"), "{first}");

    // The summary keeps only the replacement it may say; nothing is applied.
    let detail = app.session_detail(&a.token, &codex).await;
    let summary = detail.session.summary.as_ref().expect("a summary");
    assert_eq!(
        serde_json::to_value(&summary.replaces).unwrap(),
        json!([{"decision": SKIP, "replaces": locks}]),
        "{detail:?}"
    );
    said_not_applied(&app, &a.token, &locks).await;
    let caught = app.brief(&a.token, None).await;
    assert!(!common::json_text(&caught).contains(&other), "{caught:?}");

    // The person confirms it: now it is replaced, and shows once, stated.
    let skip = decision_id(&caught, SKIP);
    app.call(
        Method::POST,
        &format!("/api/v1/journal/decisions/{locks}/replace"),
    )
    .token(&a.token)
    .json(json!({"by": skip}))
    .ok(200)
    .await;
    let now = app.brief(&a.token, None).await;
    assert!(!texts(&now.decisions).contains(&LOCKS), "{now:?}");
    let replaces = &decision(&now, SKIP).replaces;
    assert_eq!(replaces.len(), 1, "{now:?}");
    assert_eq!(
        (replaces[0].id.to_string(), replaces[0].stated),
        (locks.clone(), true),
        "{now:?}"
    );
}

#[tokio::test]
async fn a_conversation_draft_is_shown_the_decisions_in_force_too() {
    let (gemini, model) = common::model::gemini(answer(&[]), true).await;
    let app = common::spawn_app_configured(|c| common::use_gemini(c, &gemini)).await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let locks = decided(&app, &a.token, "Claude Code", LOCKS).await;
    model.answer(answer(&[(SKIP, &locks)]));

    app.clock.advance(Duration::minutes(10));
    let now = app.clock.now();
    let episode = json!({
        "episode_id": "ep-queue", "harness": "codex", "project": "acme/api",
        "started_at": (now - Duration::minutes(10)).to_rfc3339(), "ended_at": now.to_rfc3339(),
        "turns": [
            {"role": "user", "text": "The advisory locks serialise the workers; swap them."},
            {"role": "assistant", "text": "Swapped them for SELECT FOR UPDATE SKIP LOCKED."}
        ],
        "ended": true,
    });
    app.call(Method::POST, "/api/v1/journal/episodes")
        .token(&a.token)
        .json(episode)
        .ok(201)
        .await;
    let shown = draft_with(&model, "swap them");
    assert!(shown.contains(&format!("{locks} {LOCKS:?}")), "{shown}");
    said_not_applied(&app, &a.token, &locks).await;
}
