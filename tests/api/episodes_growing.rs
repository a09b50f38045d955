//! Episodes that grow (issue 33, part 1): a conversation posted after every turn, in the real
//! transcript formats of Claude Code and Codex read by `n8v-journal import`, ends with one entry
//! per part holding all its turns and one draft per part; the same turns again change nothing
//! and call no model; `ended` drafts at once; a rewritten conversation follows the README's rule.

use crate::common::{self, TestApp};
use chrono::Duration;
use n8v_journal::clock::Clock;
use n8v_journal::journal::Session;
use n8v_journal::ops::episodes::{EpisodeEntry, EpisodePosted};
use reqwest::Method;
use serde_json::{Value, json};
use std::path::Path;

use crate::common::JOURNAL_SCOPES as ALL;

type Seen = common::model::Model;

async fn spawn(configure: impl FnOnce(&mut n8v_journal::config::Config)) -> (TestApp, Seen) {
    let summary = json!({"summary": "Fixed the login with the person.", "decisions": [],
        "work_started": [], "work_finished": ["Login fixed"], "open_questions": []});
    let (url, seen) = common::model::gemini(summary, true).await;
    let app = common::spawn_app_configured(|c| {
        common::use_gemini(c, &url);
        configure(c);
    })
    .await;
    (app, seen)
}

fn calls(seen: &Seen) -> Vec<String> {
    seen.requests().iter().map(ToString::to_string).collect()
}

/// The fixture's lines, then eight long turns (about 40,000 characters in all, so two parts)
/// and a last reply that marks a decision and a TODO, in the harness's own format; each line's
/// times are filled in as it is written.
fn transcript(harness: &str) -> Vec<Value> {
    let dir = format!("{}/tests/fixtures/import", env!("CARGO_MANIFEST_DIR"));
    let fixture = match harness {
        "claude-code" => format!(
            "{dir}/claude-code/-home-ada-acme-web/5f1c2a7e-0b1d-4a9e-9c3e-2f7a1b6d8e01.jsonl"
        ),
        _ => format!(
            "{dir}/codex/2026/11/10/rollout-2026-11-10T10-00-00-0c9d7e3a-2b4f-4c1d-8e5a-6f7b8c9d0e1f.jsonl"
        ),
    };
    let mut lines: Vec<Value> = std::fs::read_to_string(fixture)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut said: Vec<(bool, String)> = (0..8)
        .map(|i| {
            (
                i % 2 == 0,
                format!("TURN-{i} {}", "lorem ipsum ".repeat(420)),
            )
        })
        .collect();
    said.push((
        false,
        "LAST-TURN done. Decided: keep SameSite=Lax. TODO: remove the old login route".into(),
    ));
    for (n, (from_user, text)) in said.into_iter().enumerate() {
        let role = if from_user { "user" } else { "assistant" };
        lines.push(match harness {
            "claude-code" => json!({
                "parentUuid": null, "isSidechain": false, "cwd": "/home/ada/acme/web",
                "sessionId": "5f1c2a7e-0b1d-4a9e-9c3e-2f7a1b6d8e01", "type": role,
                "message": {"role": role, "content": [{"type": "text", "text": text}]},
                "uuid": format!("grown-{n}"), "timestamp": ""
            }),
            _ => json!({
                "timestamp": "", "type": "response_item",
                "payload": {"type": "message", "role": role, "content": [{
                    "type": if from_user { "input_text" } else { "output_text" }, "text": text
                }]}
            }),
        });
    }
    lines
}

/// Runs the installed binary's importer on one transcript file.
async fn import(app: &TestApp, token: &str, harness: &str, file: &Path) {
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_n8v-journal"))
        .args(["import", "--harness", harness])
        .arg(file)
        .env("N8V_URL", &app.base)
        .env("N8V_TOKEN", token)
        .output()
        .await
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The episode's entries, by part: (session, model, open).
async fn entries(app: &TestApp, harness: &str) -> Vec<(uuid::Uuid, Option<String>, bool)> {
    sqlx::query_as(
        "SELECT session_id, summary_model, episode_open FROM journal_sessions \
         WHERE kind = 'episode' AND assistant = $1 ORDER BY episode_part",
    )
    .bind(harness)
    .fetch_all(&app.owner)
    .await
    .unwrap()
}

async fn posted_after_each_turn(harness: &str) {
    let (app, seen) = spawn(|_| {}).await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let dir = std::env::temp_dir().join(format!("n8v-growing-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("conversation.jsonl");
    let mut written = String::new();
    let mut first_part = None;
    for mut line in transcript(harness) {
        // A turn a minute, posted as it is written (a per-turn hook).
        app.clock.advance(Duration::minutes(1));
        let at = app.clock.now().to_rfc3339();
        line["timestamp"] = json!(at);
        if line["payload"]["timestamp"].is_string() {
            line["payload"]["timestamp"] = json!(at);
        }
        written.push_str(&format!("{line}\n"));
        std::fs::write(&file, &written).unwrap();
        import(&app, &a.token, harness, &file).await;
        let now = entries(&app, harness).await;
        if let Some((first, _, _)) = now.first() {
            assert_eq!(
                *first_part.get_or_insert(*first),
                *first,
                "part 0 keeps its id"
            );
        }
        assert!(now.iter().all(|(_, _, open)| *open), "{now:?}");
        assert!(calls(&seen).is_empty(), "no model while it grows");
    }
    let grown = entries(&app, harness).await;
    assert_eq!(grown.len(), 2, "two parts: {grown:?}");

    // The open episode reads as an open session in the brief.
    let brief = app.brief(&a.token, None).await;
    let shown: Vec<&Session> = brief
        .sessions
        .iter()
        .filter(|s| s.kind == "episode")
        .map(|s| &**s)
        .collect();
    assert_eq!(shown.len(), 2, "{brief:?}");
    assert!(
        shown
            .iter()
            .all(|s| s.status == "open" && s.ended_at.is_none())
    );

    // Quiet for the settle time, the next post (here the importer again) drafts each part once.
    app.clock.advance(Duration::minutes(31));
    import(&app, &a.token, harness, &file).await;
    let drafted = calls(&seen);
    assert_eq!(drafted.len(), 4, "a draft and its edit per part");
    let first_request = match harness {
        "claude-code" => "The login page redirects forever",
        _ => "Add a health check endpoint",
    };
    let holding = |needle: &str| drafted.iter().filter(|r| r.contains(needle)).count();
    assert_eq!(holding(first_request), 1, "part 1 starts at the first turn");
    assert_eq!(holding("LAST-TURN"), 1, "the last part holds the last turn");
    assert_eq!(holding("TURN-7"), 1);
    for never in ["SECRET-THOUGHT", "TOOL-RESULT", "SIDECHAIN"] {
        assert_eq!(holding(never), 0, "{never} reached the model");
    }
    let settled = entries(&app, harness).await;
    assert_eq!(settled[0].0, grown[0].0);
    assert_eq!(settled[1].0, grown[1].0);
    assert!(
        settled
            .iter()
            .all(|(_, model, open)| !open && model.as_deref() == Some("gemini-3.1-flash-lite")),
        "{settled:?}"
    );
    let last = n8v_journal::ids::format(n8v_journal::ids::Kind::Session, settled[1].0);
    let detail = app.session_detail(&a.token, &last).await.session;
    assert_eq!(detail.status, "closed", "{detail:?}");
    assert_eq!(
        detail.handoff.as_ref().map(|h| h.decisions.clone()),
        Some(vec!["keep SameSite=Lax".to_owned()]),
        "{detail:?}"
    );

    // The same turns again: nothing changes, no model is called.
    app.clock.advance(Duration::minutes(5));
    import(&app, &a.token, harness, &file).await;
    assert_eq!(calls(&seen).len(), 4);
    assert_eq!(entries(&app, harness).await, settled);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn a_claude_code_conversation_posted_after_each_turn_gets_one_draft_per_part() {
    posted_after_each_turn("claude-code").await;
}

#[tokio::test]
async fn a_codex_conversation_posted_after_each_turn_gets_one_draft_per_part() {
    posted_after_each_turn("codex").await;
}

fn episode(app: &TestApp, turns: &[(&str, &str)], ended: bool) -> Value {
    let now = app.clock.now();
    json!({
        "episode_id": "ep-grow", "harness": "codex", "project": "acme/api",
        "started_at": (now - Duration::minutes(10)).to_rfc3339(), "ended_at": now.to_rfc3339(),
        "turns": turns.iter().map(|(role, text)| json!({"role": role, "text": text}))
            .collect::<Vec<_>>(),
        "ended": ended,
    })
}

async fn post(app: &TestApp, token: &str, body: Value) -> EpisodePosted {
    app.call(Method::POST, "/api/v1/journal/episodes")
        .token(token)
        .json(body)
        .typed(201)
        .await
}

/// An entry's (`created`, `updated`, `open`).
fn made(entry: &EpisodeEntry) -> (bool, bool, bool) {
    (entry.created, entry.updated, entry.open)
}

#[tokio::test]
async fn ended_drafts_at_once_and_a_rewritten_conversation_is_drafted_again() {
    let (app, seen) = spawn(|_| {}).await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let two = [
        ("user", "Add a health check."),
        ("assistant", "Added /healthz."),
    ];

    let first = post(&app, &a.token, episode(&app, &two, false)).await;
    assert!(!first.settled, "{first:?}");
    assert_eq!(made(&first.entries[0]), (true, false, true), "{first:?}");
    assert!(calls(&seen).is_empty());

    // The harness says it ended: drafted now, once.
    let ended = post(&app, &a.token, episode(&app, &two, true)).await;
    let entry = &ended.entries[0];
    assert_eq!(made(entry), (false, false, false), "{ended:?}");
    assert_eq!(entry.session_id, first.entries[0].session_id);
    assert_eq!(calls(&seen).len(), 2);
    let again = post(&app, &a.token, episode(&app, &two, true)).await;
    assert!(!again.entries[0].updated, "{again:?}");
    assert_eq!(calls(&seen).len(), 2, "the same turns call no model");

    // Resumed: it grows again, waits again, and its entry is code's meanwhile.
    app.clock.advance(Duration::minutes(2));
    let three = [two[0], two[1], ("user", "Now document it.")];
    let resumed = post(&app, &a.token, episode(&app, &three, false)).await;
    let part = &resumed.entries[0];
    assert!(part.updated && part.open, "{resumed:?}");
    let id = &part.session_id.to_string();
    let detail = app.session_detail(&a.token, id).await.session;
    assert_eq!(detail.summary_model.as_deref(), Some("code"), "{detail:?}");
    assert_eq!(detail.status, "open", "{detail:?}");
    assert_eq!(calls(&seen).len(), 2);

    // Rewritten (a compaction, a branch): part 0 holds other turns; it is drafted again.
    let other = [
        ("user", "Start over: add /readyz."),
        ("assistant", "Added /readyz."),
    ];
    let rewritten = post(&app, &a.token, episode(&app, &other, true)).await;
    let part = &rewritten.entries[0];
    assert_eq!(&part.session_id.to_string(), id, "{rewritten:?}");
    assert!(part.updated, "{rewritten:?}");
    assert_eq!(calls(&seen).len(), 4);
    assert!(calls(&seen)[2].contains("Start over"));
}

#[tokio::test]
async fn with_a_settle_time_of_zero_every_changing_post_drafts() {
    let (app, seen) = spawn(|c| c.summaries.episode_settle = Duration::zero()).await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let two = [
        ("user", "Add a health check."),
        ("assistant", "Added /healthz."),
    ];
    let first = post(&app, &a.token, episode(&app, &two, false)).await;
    assert!(first.settled && !first.entries[0].open, "{first:?}");
    assert_eq!(calls(&seen).len(), 2);
    post(&app, &a.token, episode(&app, &two, false)).await;
    assert_eq!(calls(&seen).len(), 2, "the same turns call no model");
    let three = [two[0], two[1], ("assistant", "And its test.")];
    post(&app, &a.token, episode(&app, &three, false)).await;
    assert_eq!(calls(&seen).len(), 4);
}

#[tokio::test]
async fn with_the_budget_spent_code_writes_the_entry_and_hands_on_the_marked_lines() {
    let (app, seen) = spawn(|c| c.summaries.monthly_budget_usd = rust_decimal::Decimal::ZERO).await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let turns = [
        ("user", "Add a health check."),
        (
            "assistant",
            "Added /healthz. Decided: no auth on /healthz. TODO: add /readyz",
        ),
    ];
    let posted = post(&app, &a.token, episode(&app, &turns, true)).await;
    assert!(!posted.entries[0].open, "{posted:?}");
    assert!(calls(&seen).is_empty(), "the budget refused the model");
    let id = &posted.entries[0].session_id.to_string();
    let entry = app.session_detail(&a.token, id).await.session;
    assert_eq!(entry.summary_model.as_deref(), Some("code"), "{entry:?}");
    assert!(
        entry.summary.as_ref().is_some_and(|s| s
            .summary
            .contains("asked \u{201c}Add a health check.\u{201d}")),
        "{entry:?}"
    );
    let handoff = entry.handoff.unwrap_or_default();
    assert_eq!(handoff.decisions, ["no auth on /healthz"]);
    assert_eq!(handoff.open_questions, ["TODO: add /readyz"]);
}
