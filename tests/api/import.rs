//! `n8v-journal import`: a fixture transcript directory per harness, imported twice; the second
//! run imports nothing, and nothing but user and assistant text is ever sent; the importer's
//! own calls carry its name and purpose and stay out of the session list.

use crate::common;

use serde_json::{Value, json};

async fn fake_gemini() -> (String, common::model::Model) {
    let summary = json!({"summary": "Imported work.", "decisions": [],
        "work_started": [], "work_finished": ["Imported"], "open_questions": []});
    common::model::gemini(summary, true).await
}

async fn import(base: &str, token: &str, harness: &str, dir: &str) -> Value {
    let path = format!("{}/tests/fixtures/import/{dir}", env!("CARGO_MANIFEST_DIR"));
    common::hook::import(base, token, harness, &path).await
}

#[tokio::test]
async fn importing_each_harness_twice_imports_once_and_sends_only_the_conversation() {
    let (gemini, seen) = fake_gemini().await;
    let app = common::spawn_app_configured(|c| common::use_gemini(c, &gemini)).await;
    let a = app.account("A", crate::common::JOURNAL_SCOPES).await;
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

    let requests: Vec<String> = seen.requests().iter().map(Value::to_string).collect();
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

#[tokio::test]
async fn the_importers_calls_are_its_own_and_stay_out_of_the_session_list() {
    let (gemini, _) = fake_gemini().await;
    let app = common::spawn_app_configured(|c| common::use_gemini(c, &gemini)).await;
    let a = app.account("A", "chats:read").await;
    app.journal_on(a.id).await;
    import(&app.base, &a.token, "claude-code", "claude-code").await;
    let end = common::hook::input(
        "SessionEnd",
        &common::hook::fixture(common::hook::CLAUDE_CODE),
    );
    let ran = common::hook::hook(
        &["session-end", "--harness", "claude-code"],
        &app.base,
        Some(&a.token),
        &end,
    )
    .await;
    ran.quiet();

    // Who made each post and why, and the session it was recorded in.
    let calls: Vec<(String, String, bool, String)> = sqlx::query_as(
        "SELECT s.assistant, c.purpose, s.journal_only, s.kind FROM journal_calls c \
         JOIN journal_sessions s USING (account_id, session_id) \
         WHERE c.operation = 'postEpisode' ORDER BY c.created_at",
    )
    .fetch_all(&app.owner)
    .await
    .unwrap();
    assert_eq!(calls.len(), 2, "{calls:?}");
    assert_eq!(calls[0].0, "n8v-journal-import");
    assert!(
        calls[0].1.contains("past claude-code conversation"),
        "{calls:?}"
    );
    assert_eq!(calls[1].0, "n8v-journal-hook");
    assert!(calls[1].1.contains("just ended"), "{calls:?}");
    for (_, purpose, journal_only, kind) in &calls {
        assert!(!purpose.contains("before the journal was on"));
        assert!(journal_only, "the posting session is the journal's own");
        assert_eq!(kind, "implicit");
    }
    // The list shows the entry, not the sessions that posted it.
    let listed = app.get(&a.token, "/api/v1/journal/sessions").await;
    assert_eq!(listed.status(), 200);
    let listed: Value = listed.json().await.unwrap();
    let kinds: Vec<&str> = listed["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["episode"], "{listed}");
}
