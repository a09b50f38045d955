//! Claude Code's `http` hooks, which Claude Code posts itself (no binary on the machine):
//! `hook install --harness claude-code --http` writes one into Claude Code's settings, and the
//! service answers Claude Code's real hook inputs: the recent journal as `additionalContext`
//! on a conversation's first prompt, nothing on its later ones or on `Stop` and `SessionEnd`
//! (the service cannot read the transcript those name), the prompt never kept.

use crate::common::hook::{BIN, run};
use crate::common::{self, TestApp};
use serde_json::{Value, json};

/// Posts `input` as Claude Code posts an `http` hook `hook`: to its `url`, with its headers,
/// `$VAR` filled in only for the variables its `allowedEnvVars` lists.
async fn as_claude_code(hook: &Value, env: &[(&str, &str)], input: &Value) -> (u16, String) {
    let allowed: Vec<&str> = hook["allowedEnvVars"]
        .as_array()
        .map(|l| l.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut request = reqwest::Client::new()
        .post(hook["url"].as_str().unwrap())
        .json(input);
    for (name, value) in hook["headers"].as_object().unwrap() {
        let mut value = value.as_str().unwrap().to_owned();
        for (var, set) in env {
            let set = if allowed.contains(var) { *set } else { "" };
            value = value
                .replace(&format!("${{{var}}}"), set)
                .replace(&format!("${var}"), set);
        }
        request = request.header(name.as_str(), value);
    }
    let response = request.send().await.unwrap();
    (response.status().as_u16(), response.text().await.unwrap())
}

fn input(event: &str, session: &str, extra: Value) -> Value {
    let mut input = json!({
        "session_id": session,
        "transcript_path": format!("/home/ada/.claude/projects/-home-ada-acme-web/{session}.jsonl"),
        "cwd": "/home/ada/acme/web",
        "permission_mode": "default",
        "hook_event_name": event,
    });
    input
        .as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    input
}

async fn installed_hook(app: &TestApp) -> (Value, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("n8v-claude-http-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).unwrap();
    let settings = dir.join("settings.json");
    let theirs = json!({"model": "opus", "hooks": {"UserPromptSubmit": [
        {"hooks": [{"type": "command", "command": "say prompt"}]}]}});
    std::fs::write(&settings, theirs.to_string()).unwrap();
    let path = settings.to_str().unwrap();
    let args = [
        "hook",
        "install",
        "--harness",
        "claude-code",
        "--http",
        "--claude-settings",
        path,
    ];
    let env = [("N8V_URL", app.base.as_str())];
    let first = run(BIN, &args, &env, "").await;
    let installed: Value = serde_json::from_str(first.quiet()).unwrap();
    assert_eq!(installed["events"], json!(["UserPromptSubmit"]));
    let once = std::fs::read_to_string(&settings).unwrap();
    run(BIN, &args, &env, "").await.quiet();
    assert_eq!(
        std::fs::read_to_string(&settings).unwrap(),
        once,
        "again: no change"
    );
    let written: Value = serde_json::from_str(&once).unwrap();
    assert_eq!(written["model"], "opus");
    let groups = written["hooks"]["UserPromptSubmit"].as_array().unwrap();
    assert_eq!(groups.len(), 2, "{written}");
    assert_eq!(groups[0]["hooks"][0]["command"], "say prompt");
    let hook = groups[1]["hooks"][0].clone();
    assert_eq!(hook["type"], "http");
    assert!(
        !once.contains("n8v_sk_"),
        "the key is never written: {once}"
    );
    (hook, dir)
}

#[tokio::test]
async fn an_http_hook_loads_the_journal_once_per_conversation_and_posts_nothing() {
    let app = common::spawn_app().await;
    let a = app.account("A", "chats:read").await;
    app.journal_on(a.id).await;
    let (hook, dir) = installed_hook(&app).await;
    let env = [("N8V_TOKEN", a.token.as_str())];
    let prompt = json!({"prompt": "SECRET-PROMPT fix the login"});
    let (_logs_guard, logs) = common::logs::capture_on_this_thread();

    let (status, first) = as_claude_code(
        &hook,
        &env,
        &input("UserPromptSubmit", "s-1", prompt.clone()),
    )
    .await;
    assert_eq!(status, 200, "{first}");
    let first: Value = serde_json::from_str(&first).unwrap();
    assert_eq!(
        first["hookSpecificOutput"]["hookEventName"],
        "UserPromptSubmit"
    );
    let context = first["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(context.starts_with("# Assistant journal"), "{context}");
    assert!(context.chars().count() <= 10_000);
    // The conversation's next prompt: nothing more.
    let (status, again) = as_claude_code(
        &hook,
        &env,
        &input("UserPromptSubmit", "s-1", prompt.clone()),
    )
    .await;
    assert_eq!((status, again.as_str()), (200, "{}"));
    // Another conversation gets it; SessionStart too, should Claude Code post it.
    let (_, other) = as_claude_code(
        &hook,
        &env,
        &input("UserPromptSubmit", "s-2", prompt.clone()),
    )
    .await;
    assert!(other.contains("additionalContext"), "{other}");
    let start = input(
        "SessionStart",
        "s-3",
        json!({"source": "startup", "model": "claude-opus-4"}),
    );
    let (_, started) = as_claude_code(&hook, &env, &start).await;
    assert!(
        started.contains("\"hookEventName\":\"SessionStart\""),
        "{started}"
    );
    // The ends cannot send the transcript: they change nothing (no episode, no session at all).
    let sessions = || async {
        sqlx::query_as::<_, (i64, i64)>(
            "SELECT count(*) FILTER (WHERE kind = 'episode'), count(*) FROM journal_sessions",
        )
        .fetch_one(&app.owner)
        .await
        .unwrap()
    };
    let before = sessions().await;
    assert_eq!(before.0, 0, "no episode before the ends");
    for (event, extra) in [
        ("Stop", json!({"stop_hook_active": false})),
        ("SessionEnd", json!({"reason": "exit"})),
        (
            "PreCompact",
            json!({"trigger": "auto", "custom_instructions": ""}),
        ),
    ] {
        let (status, answer) = as_claude_code(&hook, &env, &input(event, "s-1", extra)).await;
        assert_eq!((status, answer.as_str()), (200, "{}"), "{event}");
    }
    assert_eq!(
        sessions().await,
        before,
        "an end hook posted to the journal"
    );
    // An event it does not know answers nothing (Claude Code adds events); a bad id and no key
    // are problems, never a 500.
    let (status, body) =
        as_claude_code(&hook, &env, &input("Sessionstart", "s-1", json!({}))).await;
    assert_eq!((status, body.as_str()), (200, "{}"));
    let (status, _) = as_claude_code(&hook, &env, &input("Stop", "s 1/..", json!({}))).await;
    assert_eq!(status, 400);
    let (status, _) = as_claude_code(&hook, &[], &input("Stop", "s-1", json!({}))).await;
    assert_eq!(status, 401);

    // What the journal kept: the calls, by the hook, never the prompt.
    let kept: Vec<(String, Option<String>, String)> = sqlx::query_as(
        "SELECT c.operation, c.purpose, coalesce(c.input_shape::text, '') FROM journal_calls c \
         ORDER BY c.created_at",
    )
    .fetch_all(&app.owner)
    .await
    .unwrap();
    assert!(kept.len() >= 7, "{kept:?}");
    assert!(
        kept.iter().all(|(op, _, _)| op == "answerClaudeCodeHook"),
        "{kept:?}"
    );
    assert!(kept.iter().all(|(_, purpose, shape)| {
        !shape.contains("SECRET-PROMPT")
            && purpose.as_deref().is_some_and(|p| p.contains("http hook"))
    }));
    // Nor any log line at trace: neither the key the hook sends nor the prompt.
    let logged = common::logs::text(&logs);
    assert!(
        logged.contains("answerClaudeCodeHook"),
        "the requests were captured"
    );
    assert!(!logged.contains(&a.token), "the key was logged");
    assert!(!logged.contains("SECRET-PROMPT"), "the prompt was logged");
    std::fs::remove_dir_all(dir).unwrap();
}
