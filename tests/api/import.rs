//! `n8v-journal import`: a fixture transcript directory per harness, imported twice; the second
//! run imports nothing, and nothing but user and assistant text is ever sent.

use crate::common;

use serde_json::{Value, json};
use std::sync::{Arc, Mutex};

async fn fake_gemini() -> (String, Arc<Mutex<Vec<String>>>) {
    common::recording_gemini(json!({"summary": "Imported work.", "decisions": [],
        "work_started": [], "work_finished": ["Imported"], "open_questions": []}))
    .await
}

async fn import(base: &str, token: &str, harness: &str, dir: &str) -> Value {
    let path = format!("{}/tests/fixtures/import/{dir}", env!("CARGO_MANIFEST_DIR"));
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_n8v-journal"))
        .args(["import", "--harness", harness, &path])
        .env("N8V_URL", base)
        .env("N8V_TOKEN", token)
        .output()
        .await
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(String::from_utf8_lossy(&out.stdout).lines().last().unwrap()).unwrap()
}

#[tokio::test]
async fn importing_each_harness_twice_imports_once_and_sends_only_the_conversation() {
    let (gemini, seen) = fake_gemini().await;
    let app = common::spawn_app_configured(|c| common::use_gemini(c, &gemini)).await;
    let a = app
        .account("A", "chats:read,records:read,records:write")
        .await;
    app.journal_on(a.id).await;

    let first = import(&app.base, &a.token, "claude-code", "claude-code").await;
    assert_eq!(
        first,
        json!({"files": 2, "imported": 1, "already_there": 0, "skipped": 1, "failed": 0})
    );
    let again = import(&app.base, &a.token, "claude-code", "claude-code").await;
    assert_eq!(
        again,
        json!({"files": 2, "imported": 0, "already_there": 1, "skipped": 1, "failed": 0})
    );
    let codex = import(&app.base, &a.token, "codex", "codex").await;
    assert_eq!(codex["imported"], 1, "{codex}");
    let codex_again = import(&app.base, &a.token, "codex", "codex").await;
    assert_eq!(codex_again["already_there"], 1, "{codex_again}");
    assert_eq!(codex_again["imported"], 0, "{codex_again}");

    let requests = seen.lock().unwrap().clone();
    assert_eq!(
        requests.len(),
        4,
        "a draft and an edit per imported conversation"
    );
    let all = requests.join("\n");
    assert!(all.contains("SameSite=Lax") && all.contains("health check"));
    for never in [
        "SECRET-THOUGHT-41",
        "SECRET-THOUGHT-42",
        "TOOL-RESULT-77",
        "TOOL-RESULT-78",
        "SIDECHAIN-12",
    ] {
        assert!(!all.contains(never), "{never} reached the model");
    }
    let entries: Vec<(String, String, Option<String>)> = sqlx::query_as(
        "SELECT episode_id, assistant, repository FROM journal_sessions \
         WHERE kind = 'episode' ORDER BY episode_id",
    )
    .fetch_all(&app.owner)
    .await
    .unwrap();
    assert_eq!(
        entries,
        [
            (
                "0c9d7e3a-2b4f-4c1d-8e5a-6f7b8c9d0e1f".into(),
                "codex".into(),
                Some("api".into())
            ),
            (
                "5f1c2a7e-0b1d-4a9e-9c3e-2f7a1b6d8e01".into(),
                "claude-code".into(),
                Some("web".into())
            ),
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_end_of_conversation_hook_posts_the_transcript_unless_turned_off() {
    let (gemini, seen) = fake_gemini().await;
    let app = common::spawn_app_configured(|c| common::use_gemini(c, &gemini)).await;
    let a = app.account("A", "chats:read").await;
    app.journal_on(a.id).await;
    let root = env!("CARGO_MANIFEST_DIR");
    let transcript = format!(
        "{root}/tests/fixtures/import/claude-code/-home-ada-acme-web/5f1c2a7e-0b1d-4a9e-9c3e-2f7a1b6d8e01.jsonl"
    );
    let bin_dir = std::path::Path::new(env!("CARGO_BIN_EXE_n8v-journal"))
        .parent()
        .unwrap()
        .to_owned();
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap());
    let hook = |journal: &'static str, token: &str| {
        let mut child = std::process::Command::new("sh")
            .arg(format!("{root}/integrations/session-end.sh"))
            .arg("claude-code")
            .env("PATH", &path)
            .env("N8V_URL", &app.base)
            .env("N8V_TOKEN", token)
            .env("N8V_JOURNAL", journal)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        let input = json!({"session_id": "x", "transcript_path": transcript, "hook_event_name": "SessionEnd"});
        // A hook turned off exits without reading its input.
        let _ = child
            .stdin
            .take()
            .unwrap()
            .write_all(input.to_string().as_bytes());
        let out = child.wait_with_output().unwrap();
        // The hook never fails the conversation and never talks over it, whatever happened.
        assert!(out.status.success(), "{out:?}");
        assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{out:?}");
    };
    // What the hook did, read from the service: the entries made and the posts it received.
    let state = || async {
        let (entries, posts): (i64, i64) = sqlx::query_as(
            "SELECT (SELECT count(*) FROM journal_sessions WHERE kind = 'episode'), \
                    (SELECT count(*) FROM audit_log \
                      WHERE method = 'POST' AND path = '/api/v1/journal/episodes')",
        )
        .fetch_one(&app.owner)
        .await
        .unwrap();
        (entries, posts)
    };
    tokio::task::block_in_place(|| hook("off", &a.token));
    assert_eq!(state().await, (0, 0), "N8V_JOURNAL=off posts nothing");
    tokio::task::block_in_place(|| hook("on", "n8v_not-a-key"));
    assert_eq!(
        state().await,
        (0, 0),
        "a refused post is quiet and leaves nothing"
    );
    tokio::task::block_in_place(|| hook("on", &a.token));
    assert_eq!(state().await, (1, 1), "the transcript was posted");
    tokio::task::block_in_place(|| hook("on", &a.token));
    assert_eq!(
        state().await,
        (1, 2),
        "posted again, and a hook that fires twice is harmless"
    );
    assert_eq!(seen.lock().unwrap().len(), 2);
}
