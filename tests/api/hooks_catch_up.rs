//! Every conversation gets its draft (issue 45, item 5): a conversation whose last post came
//! right after its last turn (Codex's per-turn `Stop`, which is all Codex has) is drafted once
//! at the next session start, by the real binary's `hook session-start` reading a fake HOME's
//! transcripts against the spawned server; a conversation never posted is never sent; posting
//! the same transcript marked ended again drafts nothing more.

use crate::common::hook::{hook, input};
use crate::common::{self, TestApp};
use n8v_journal::clock::Clock;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// A Codex rollout under `home`, in Codex's own layout and format, its turns a minute apart
/// ending at the server's now; its file last modified `quiet` ago.
fn rollout(home: &Path, id: &str, words: &str, now: chrono::DateTime<chrono::Utc>) -> PathBuf {
    let dir = home.join(".codex/sessions/2026/12/04");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("rollout-2026-12-04T10-00-00-{id}.jsonl"));
    let at = |m: i64| (now - chrono::Duration::minutes(m)).to_rfc3339();
    let line = |at: String, kind: &str, payload: Value| {
        json!({"timestamp": at, "type": kind, "payload": payload}).to_string() + "\n"
    };
    let message = |role: &str, part: &str, text: &str| json!({"type": "message", "role": role, "content": [{"type": part, "text": text}]});
    let text = line(
        at(3),
        "session_meta",
        json!({"id": id, "cwd": "/home/ada/acme/api", "originator": "codex_cli_rs"}),
    ) + &line(
        at(2),
        "response_item",
        message("user", "input_text", &format!("Ask: {words}")),
    ) + &line(
        at(0),
        "response_item",
        message("assistant", "output_text", &format!("Done: {words}")),
    );
    std::fs::write(&file, text).unwrap();
    file
}

/// Sets `file`'s modification time to `ago` before now (a conversation left a while ago).
fn modified_ago(file: &Path, ago: Duration) {
    let f = std::fs::File::options().write(true).open(file).unwrap();
    f.set_modified(SystemTime::now() - ago).unwrap();
}

/// The episode entries of `id`: (open, model).
async fn entries(app: &TestApp, id: &str) -> Vec<(bool, Option<String>)> {
    sqlx::query_as(
        "SELECT episode_open, summary_model FROM journal_sessions \
         WHERE kind = 'episode' AND episode_id = $1 ORDER BY episode_part",
    )
    .bind(id)
    .fetch_all(&app.owner)
    .await
    .unwrap()
}

/// How many calls of `method` on `path` the service recorded.
async fn calls(app: &TestApp, method: &str, path: &str) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM audit_log WHERE method = $1 AND path = $2")
        .bind(method)
        .bind(path)
        .fetch_one(&app.owner)
        .await
        .unwrap()
}

/// Waits (at most a minute) until `done` holds.
async fn until<F: std::future::Future<Output = bool>>(what: &str, mut done: impl FnMut() -> F) {
    for _ in 0..600 {
        if done().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("gave up waiting for {what}");
}

const EPISODES: &str = "/api/v1/journal/episodes";

/// Whether a `hook flush` against `base` is running: the catch-up `hook session-start` leaves
/// in the background, found by its command line (the test server's URL is its own).
fn flushing(base: &str) -> bool {
    std::fs::read_dir("/proc").unwrap().flatten().any(|p| {
        std::fs::read(p.path().join("cmdline")).is_ok_and(|c| {
            let args: Vec<&[u8]> = c.split(|b| *b == 0).collect();
            args.contains(&b"flush".as_slice()) && args.contains(&base.as_bytes())
        })
    })
}

/// Waits until the background catch-up against `base` has finished: what it posts is then
/// all posted, and what the test counts next cannot race it.
async fn caught_up(base: &str) {
    until("the background catch-up to finish", || async {
        !flushing(base)
    })
    .await;
}

/// Runs the real binary's `hook session-start` as Codex does, with `home` as HOME.
async fn session_start(base: &str, token: &str, home: &str, input: &str) {
    let env = [("N8V_URL", base), ("N8V_TOKEN", token), ("HOME", home)];
    let args = ["hook", "session-start", "--harness", "codex"];
    let ran = common::hook::run(common::hook::BIN, &args, &env, input).await;
    let window = ran.quiet();
    assert!(window.starts_with("# Assistant journal"), "{window}");
}

#[tokio::test]
async fn a_conversation_whose_last_post_was_unsettled_is_drafted_once_at_the_next_session_start() {
    let summary = json!({"summary": "Added the health check.", "decisions": [],
        "work_started": [], "work_finished": ["Health check"], "open_questions": []});
    let (model, seen) = common::model::gemini(summary, true).await;
    let app = common::spawn_app_configured(|c| common::use_gemini(c, &model)).await;
    let a = app.account("A", "chats:read").await;
    app.journal_on(a.id).await;
    let token = Some(a.token.as_str());
    let home = std::env::temp_dir().join(format!("n8v-catch-up-{}", uuid::Uuid::new_v4()));
    let home_text = home.to_str().unwrap().to_owned();
    let now = app.clock.now();

    // The last turn posted by Codex's Stop hook, right after it: code's entry, waiting.
    let last = rollout(&home, "0c9d7e3a-last", "add a health check", now);
    let stop = input("Stop", last.to_str().unwrap());
    hook(&["stop", "--harness", "codex"], &app.base, token, &stop)
        .await
        .quiet();
    assert_eq!(
        entries(&app, "0c9d7e3a-last").await,
        [(true, Some("code".into()))]
    );
    // A conversation the hooks never posted (the journal was off where it ran).
    let never = rollout(&home, "0c9d7e3a-never", "NEVER-SENT", now);
    // Both left a while ago; the conversation starting now is another.
    modified_ago(&last, Duration::from_secs(3600));
    modified_ago(&never, Duration::from_secs(3600));
    let starting = rollout(&home, "0c9d7e3a-now", "just started", now);
    let start = json!({"session_id": "0c9d7e3a-now", "transcript_path": starting,
        "cwd": "/home/ada/acme/api", "hook_event_name": "SessionStart", "source": "startup",
        "model": "gpt-5-codex"})
    .to_string();
    session_start(&app.base, &a.token, &home_text, &start).await;
    until("the first catch-up's draft", || async {
        entries(&app, "0c9d7e3a-last").await == [(false, Some("gemini-3.1-flash-lite".into()))]
    })
    .await;
    caught_up(&app.base).await;
    let drafted = seen.requests().len();
    assert_eq!(drafted, 2, "one draft and its edit");
    session_start(&app.base, &a.token, &home_text, &start).await;
    caught_up(&app.base).await;
    assert_eq!(
        calls(&app, "GET", EPISODES).await,
        2,
        "the second catch-up asked"
    );
    assert_eq!(
        calls(&app, "POST", EPISODES).await,
        2,
        "the second catch-up posted nothing"
    );
    // Posting the same transcript marked ended once more (a SessionEnd, another catch-up)
    // changes nothing either.
    let end = input("SessionEnd", last.to_str().unwrap());
    hook(
        &["session-end", "--harness", "codex"],
        &app.base,
        token,
        &end,
    )
    .await
    .quiet();
    assert_eq!(
        entries(&app, "0c9d7e3a-last").await,
        [(false, Some("gemini-3.1-flash-lite".into()))]
    );
    assert_eq!(seen.requests().len(), drafted, "drafted exactly once");
    assert_eq!(
        calls(&app, "POST", EPISODES).await,
        3,
        "stop, catch-up, end"
    );
    assert!(entries(&app, "0c9d7e3a-never").await.is_empty());
    assert!(entries(&app, "0c9d7e3a-now").await.is_empty());
    assert!(
        seen.requests()
            .iter()
            .all(|r| !r.to_string().contains("NEVER-SENT"))
    );

    // `hook flush` (for cron) says what it did: nothing waits any more.
    let env = [
        ("N8V_URL", app.base.as_str()),
        ("N8V_TOKEN", a.token.as_str()),
        ("HOME", home_text.as_str()),
    ];
    let args = ["hook", "flush", "--harness", "codex"];
    let ran = common::hook::run(common::hook::BIN, &args, &env, "").await;
    let flushed: Value = serde_json::from_str(ran.quiet()).unwrap();
    assert_eq!(flushed, json!({"open": 0, "posted": 0, "failed": 0}));
    std::fs::remove_dir_all(home).unwrap();
}

#[tokio::test]
async fn the_open_episodes_are_the_keys_own_and_say_which_wait() {
    let app = common::spawn_app().await;
    let a = app.account("A", "chats:read").await;
    app.journal_on(a.id).await;
    let b = app.account("B", "chats:read").await;
    app.journal_on(b.id).await;
    let now = app.clock.now();
    let post = |id: &str, ended: bool, token: &str| {
        let body = json!({"episode_id": id, "harness": "codex", "started_at": now.to_rfc3339(),
            "ended_at": now.to_rfc3339(), "ended": ended, "turns": [
                {"role": "user", "text": "Fix it"}, {"role": "assistant", "text": "Fixed"}]});
        let call = app
            .call(reqwest::Method::POST, EPISODES)
            .token(token)
            .json(body);
        async move { call.ok(201).await }
    };
    post("waiting", false, &a.token).await;
    post("ended", true, &a.token).await;
    post("theirs", false, &b.token).await;
    let open = app
        .call(
            reqwest::Method::GET,
            "/api/v1/journal/episodes?harness=codex",
        )
        .token(&a.token)
        .ok(200)
        .await;
    let ids: Vec<&str> = open["episodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["episode_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["waiting"], "{open}");
    assert_eq!(open["episodes"][0]["open_parts"], 1);
    let other = app
        .call(
            reqwest::Method::GET,
            "/api/v1/journal/episodes?harness=claude-code",
        )
        .token(&a.token)
        .ok(200)
        .await;
    assert_eq!(other["episodes"], json!([]));
    app.call(
        reqwest::Method::GET,
        "/api/v1/journal/episodes?harness=no%20such",
    )
    .token(&a.token)
    .ok(400)
    .await;
}
