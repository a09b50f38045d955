//! `n8v-journal hook …` against a live test server and a fake one, with the real transcript
//! formats of Claude Code and Codex: each hook posts or loads what it should, exits 0 whatever
//! happened, and when it did nothing says why in exactly one line on stderr.

use crate::common;
use crate::common::hook::{
    CLAUDE_CODE, CLAUDE_CODE_COMPACTED, CLAUDE_CODE_NO_REPLY, CODEX, Fake, closed_port,
    fake_service, fixture, hook, input,
};
use serde_json::json;

async fn fake_gemini() -> String {
    let summary = json!({"summary": "Hooked work.", "decisions": [],
        "work_started": [], "work_finished": ["Hooked"], "open_questions": []});
    common::model::gemini(summary, true).await.0
}

/// The episode entries and the posts the service received.
async fn posted(app: &common::TestApp) -> (i64, i64) {
    sqlx::query_as(
        "SELECT (SELECT count(*) FROM journal_sessions WHERE kind = 'episode'), \
                (SELECT count(*) FROM audit_log \
                  WHERE method = 'POST' AND path = '/api/v1/journal/episodes')",
    )
    .fetch_one(&app.owner)
    .await
    .unwrap()
}

#[tokio::test]
async fn each_posting_hook_posts_its_transcript_quietly_and_session_start_loads_the_window() {
    let gemini = fake_gemini().await;
    let app = common::spawn_app_configured(|c| common::use_gemini(c, &gemini)).await;
    let a = app.account("A", "chats:read").await;
    app.journal_on(a.id).await;
    let token = Some(a.token.as_str());

    let end = input("SessionEnd", &fixture(CLAUDE_CODE));
    let ran = hook(
        &["session-end", "--harness", "claude-code"],
        &app.base,
        token,
        &end,
    )
    .await;
    assert!(ran.quiet().is_empty());
    assert_eq!(posted(&app).await, (1, 1));
    let compact = input("PreCompact", &fixture(CLAUDE_CODE));
    let ran = hook(
        &["pre-compact", "--harness", "claude-code"],
        &app.base,
        token,
        &compact,
    )
    .await;
    assert!(ran.quiet().is_empty());
    assert_eq!(posted(&app).await.1, 2, "posted again, harmlessly");
    let stop = input("Stop", &fixture(CODEX));
    let ran = hook(&["stop", "--harness", "codex"], &app.base, token, &stop).await;
    assert!(ran.quiet().is_empty());
    assert_eq!(posted(&app).await, (2, 3));

    for harness in ["claude-code", "codex"] {
        let start = json!({"session_id": "s-2", "source": "startup"}).to_string();
        let ran = hook(
            &["session-start", "--harness", harness],
            &app.base,
            token,
            &start,
        )
        .await;
        let window = ran.quiet();
        assert!(window.starts_with("# Assistant journal"), "{window}");
        assert!(window.len() <= 10_000, "{harness}: {} bytes", window.len());
    }
}

#[tokio::test]
async fn every_cause_of_doing_nothing_is_one_line_and_exit_0() {
    let app = common::spawn_app().await;
    let a = app.account("A", "chats:read").await;
    app.journal_on(a.id).await;
    let off = app.account("Off", "chats:read").await;
    let end = input("SessionEnd", &fixture(CLAUDE_CODE));
    let session_end = ["session-end", "--harness", "claude-code"];
    let session_start = ["session-start", "--harness", "codex"];
    let base = app.base.as_str();

    let ran = common::hook::run(
        common::hook::BIN,
        &["hook", "session-end", "--harness", "claude-code"],
        &[
            ("N8V_URL", base),
            ("N8V_TOKEN", a.token.as_str()),
            ("N8V_JOURNAL", "off"),
        ],
        &end,
    )
    .await;
    assert!(ran.why().contains("N8V_JOURNAL=off"), "{}", ran.stderr);
    let ran = hook(&session_start, base, None, "{}").await;
    assert!(ran.why().contains("N8V_TOKEN is not set where codex runs"));
    let ran = hook(&session_end, base, Some("n8v_sk_not-a-key"), &end).await;
    assert!(
        ran.why().contains("refused N8V_TOKEN (401)"),
        "{}",
        ran.stderr
    );
    assert!(
        !ran.stderr.contains("not-a-key"),
        "the token is never repeated"
    );
    let ran = hook(&session_start, base, Some(off.token.as_str()), "{}").await;
    assert!(
        ran.why().contains("journal is off for this account"),
        "{}",
        ran.stderr
    );
    let nowhere = closed_port().await;
    let ran = hook(&session_end, &nowhere, Some(a.token.as_str()), &end).await;
    assert!(
        ran.why()
            .contains(&format!("cannot reach the service at {nowhere}"))
    );
    let (old, _) = fake_service(Fake::Old).await;
    let ran = hook(&session_end, &old, Some(a.token.as_str()), &end).await;
    assert!(
        ran.why().contains("older than this n8v-journal"),
        "{}",
        ran.stderr
    );
    let ran = hook(&session_start, &old, Some(a.token.as_str()), "{}").await;
    assert!(
        ran.why().contains("it has no GET /journal.md"),
        "{}",
        ran.stderr
    );

    let none = json!({"session_id": "s", "transcript_path": null}).to_string();
    let ran = hook(&session_end, base, Some(a.token.as_str()), &none).await;
    assert!(ran.why().contains("no transcript"), "{}", ran.stderr);
    let missing = input("SessionEnd", "/nonexistent/t.jsonl");
    let ran = hook(&session_end, base, Some(a.token.as_str()), &missing).await;
    assert!(ran.why().contains("no transcript at /nonexistent/t.jsonl"));
    let ran = hook(&session_end, base, Some(a.token.as_str()), "not json").await;
    assert!(ran.why().contains("not JSON"));
    let early = input("Stop", &fixture(CLAUDE_CODE_NO_REPLY));
    let ran = hook(&session_end, base, Some(a.token.as_str()), &early).await;
    assert!(ran.why().contains("no assistant reply yet"));
    assert_eq!(posted(&app).await.0, 0, "nothing was made by any of them");
}

#[tokio::test]
async fn the_end_is_marked_the_turns_are_not_and_each_call_says_who_and_why() {
    let (url, seen) = fake_service(Fake::Current).await;
    for (event, harness, transcript) in [
        ("session-end", "claude-code", CLAUDE_CODE),
        ("pre-compact", "claude-code", CLAUDE_CODE),
        ("stop", "codex", CODEX),
    ] {
        let ran = hook(
            &[event, "--harness", harness],
            &url,
            Some("n8v_sk_x"),
            &input("Any", &fixture(transcript)),
        )
        .await;
        assert!(ran.quiet().is_empty());
    }
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 3);
    let ended: Vec<bool> = seen.iter().map(|s| s.body["ended"] == true).collect();
    assert_eq!(ended, [true, false, false]);
    for s in &seen {
        assert_eq!(s.headers["x-assistant"], "n8v-journal-hook");
        assert!(
            s.headers["user-agent"]
                .to_str()
                .unwrap()
                .starts_with("n8v-journal/")
        );
        let purpose = s.headers["x-purpose"].to_str().unwrap();
        assert!(purpose.contains("hook") && !purpose.contains("before the journal"));
        let texts = s.body["turns"].to_string();
        assert!(!texts.contains("SECRET-THOUGHT") && !texts.contains("TOOL-RESULT"));
    }
    assert!(
        seen[0].headers["x-purpose"]
            .to_str()
            .unwrap()
            .contains("just ended")
    );
}

#[tokio::test]
async fn a_service_from_before_ended_gets_the_post_without_it() {
    let (url, seen) = fake_service(Fake::BeforeEnded).await;
    let end = input("SessionEnd", &fixture(CLAUDE_CODE));
    let ran = hook(
        &["session-end", "--harness", "claude-code"],
        &url,
        Some("n8v_sk_x"),
        &end,
    )
    .await;
    assert!(ran.quiet().is_empty());
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 2);
    assert_eq!(seen[0].body["ended"], true);
    assert!(seen[1].body.get("ended").is_none());
}

#[tokio::test]
async fn the_window_fits_each_harness_budget() {
    // The fake answers as many two-byte characters as asked: Claude Code counts characters,
    // Codex counts 4 bytes a token, so Codex asks again for fewer.
    let (url, seen) = fake_service(Fake::Current).await;
    let claude = hook(
        &["session-start", "--harness", "claude-code"],
        &url,
        Some("t"),
        "{}",
    )
    .await;
    assert_eq!(claude.quiet().chars().count(), 9_500);
    let codex = hook(
        &["session-start", "--harness", "codex"],
        &url,
        Some("t"),
        "{}",
    )
    .await;
    assert!(codex.quiet().len() <= 10_000, "{}", codex.stdout.len());
    let mine = hook(
        &["session-start", "--harness", "codex", "--max-chars", "2000"],
        &url,
        Some("t"),
        "{}",
    )
    .await;
    assert_eq!(mine.quiet().chars().count(), 2_000);
    let asked: Vec<String> = seen.lock().unwrap().iter().map(|s| s.uri.clone()).collect();
    assert_eq!(asked[0], "/journal.md?max_chars=9500");
    assert_eq!(asked[1], "/journal.md?max_chars=9000");
    assert!(asked[2].starts_with("/journal.md?max_chars="), "{asked:?}");
    assert_eq!(asked[3], "/journal.md?max_chars=2000");
    assert_eq!(asked.len(), 4);
    let seen = seen.lock().unwrap().clone();
    assert!(seen.iter().all(|s| {
        s.headers["x-purpose"]
            .to_str()
            .unwrap()
            .contains("session-start hook")
    }));
}

#[tokio::test]
async fn a_codex_conversation_posted_after_each_turn_sends_all_its_turns_so_far() {
    // Codex's rollout format as it grows: the session line, the environment block Codex puts
    // in the user's place, then a user turn, reasoning, a tool call and a reply per turn.
    let (url, seen) = fake_service(Fake::Current).await;
    let dir = std::env::temp_dir().join(format!("n8v-rollout-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("rollout-2026-11-10T10-00-00-0c9d7e3a.jsonl");
    let line = |at: &str, kind: &str, payload: serde_json::Value| {
        json!({"timestamp": at, "type": kind, "payload": payload}).to_string() + "\n"
    };
    let message = |role: &str, part: &str, text: &str| json!({"type": "message", "role": role, "content": [{"type": part, "text": text}]});
    let mut text = line(
        "2026-11-10T10:00:00Z",
        "session_meta",
        json!({"id": "0c9d7e3a-grow", "cwd": "/home/ada/acme/api", "originator": "codex_cli_rs"}),
    );
    text += &line(
        "2026-11-10T10:00:00Z",
        "response_item",
        message(
            "user",
            "input_text",
            "<environment_context>\n  <cwd>/home/ada/acme/api</cwd>\n</environment_context>",
        ),
    );
    let stop = input("Stop", file.to_str().unwrap());
    for turn in 1..=3 {
        let at = format!("2026-11-10T10:0{turn}:00Z");
        text += &line(
            &at,
            "response_item",
            message("user", "input_text", &format!("Ask {turn}")),
        );
        text += &line(
            &at,
            "response_item",
            json!({"type": "reasoning", "summary": [{"type": "summary_text", "text": "SECRET-THOUGHT"}]}),
        );
        text += &line(
            &at,
            "response_item",
            json!({"type": "function_call", "name": "shell", "arguments": "{}", "call_id": "c"}),
        );
        text += &line(
            &at,
            "response_item",
            message("assistant", "output_text", &format!("Done {turn}")),
        );
        std::fs::write(&file, &text).unwrap();
        let ran = hook(
            &["stop", "--harness", "codex"],
            &url,
            Some("n8v_sk_x"),
            &stop,
        )
        .await;
        assert!(ran.quiet().is_empty());
    }
    let seen = seen.lock().unwrap().clone();
    let turns: Vec<usize> = seen
        .iter()
        .map(|s| s.body["turns"].as_array().unwrap().len())
        .collect();
    assert_eq!(turns, [2, 4, 6], "every post holds every turn so far");
    let last = &seen[2].body;
    assert_eq!(last["episode_id"], "0c9d7e3a-grow");
    assert_eq!(last["ended_at"], "2026-11-10T10:03:00Z");
    assert_eq!(last["turns"][0], json!({"role": "user", "text": "Ask 1"}));
    assert!(!last.to_string().contains("environment_context"));
    assert!(!last.to_string().contains("SECRET-THOUGHT"));
    assert!(
        seen.iter().all(|s| s.body.get("ended").is_none()),
        "a turn is not the end"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test]
async fn claude_codes_compaction_recap_is_posted_by_neither_the_hooks_nor_the_import() {
    let (url, seen) = fake_service(Fake::Current).await;
    let file = fixture(CLAUDE_CODE_COMPACTED);
    for event in ["pre-compact", "session-end"] {
        let ran = hook(
            &[event, "--harness", "claude-code"],
            &url,
            Some("n8v_sk_x"),
            &input("Any", &file),
        )
        .await;
        assert!(ran.quiet().is_empty());
    }
    common::hook::import(&url, "n8v_sk_x", "claude-code", &file).await;
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 3);
    for s in &seen {
        assert_eq!(
            s.body["turns"],
            json!([
                {"role": "user", "text": "Make the login page load faster."},
                {"role": "assistant", "text": "The bundle was split; the page loads in half the time."},
                {"role": "user", "text": "Thanks, also run the linter."},
                {"role": "assistant", "text": "The linter is clean."},
            ]),
            "the recap is left out, the turns on either side of it kept"
        );
    }
}
