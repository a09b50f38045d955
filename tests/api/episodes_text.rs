//! A harness posts the whole conversation at each turn, so a control character in one turn is
//! in every later post: it is dropped where the turns are read (as format characters are),
//! and the conversation goes on, over REST and over the MCP tool alike.

use crate::common::mcp::{call, connect, structured};
use crate::common::{self, TestApp};
use reqwest::Method;
use serde_json::{Value, json};

fn episode(id: &str, turns: &[(&str, &str)]) -> Value {
    let turns: Vec<Value> = turns
        .iter()
        .map(|(role, text)| json!({"role": role, "text": text}))
        .collect();
    json!({
        "episode_id": id, "harness": "codex", "project": "acme/web",
        "started_at": "2026-11-10T09:00:00Z", "ended_at": "2026-11-10T09:40:00Z",
        "turns": turns,
    })
}

/// The first request and the last reply (which code's entry quotes) with a NUL, an escape, a
/// DEL and a C1 control in them.
const FIRST: &str = "Fix the\u{0} login\u{1b}[0m loop";
const LAST: &str = "Fixed\u{0}: SameSite\u{7f}=Lax\u{9b}.";

async fn summary_of(app: &TestApp, token: &str, session: &str) -> String {
    let detail = app.session_detail(token, session).await;
    let summary = detail.session.summary.as_ref();
    summary
        .unwrap_or_else(|| panic!("{detail:?}"))
        .summary
        .clone()
}

#[tokio::test]
async fn control_characters_in_the_turns_are_dropped_and_every_later_post_goes_through() {
    let app = common::spawn_app().await;
    let a = app.account("A", "chats:read").await;
    app.journal_on(a.id).await;
    let post = |body: Value| {
        app.call(Method::POST, "/api/v1/journal/episodes")
            .token(&a.token)
            .json(body)
            .send()
    };
    let mut turns = vec![("user", FIRST), ("assistant", LAST)];
    let mut session = String::new();
    for turn in 0..3 {
        let response = post(episode("ep-nul", &turns)).await;
        let posted = common::expect_ok(response, 201).await;
        session = posted["entries"][0]["session_id"]
            .as_str()
            .unwrap()
            .to_owned();
        assert_eq!(posted["entries"].as_array().unwrap().len(), 1, "{posted}");
        assert_eq!(posted["entries"][0]["created"], turn == 0, "{posted}");
        turns.push(("user", "And the tests?"));
        turns.push(("assistant", LAST));
    }
    let summary = summary_of(&app, &a.token, &session).await;
    assert!(
        summary.contains("Fix the login[0m loop") && summary.contains("Fixed: SameSite=Lax."),
        "{summary}"
    );
    assert!(!summary.chars().any(char::is_control), "{summary:?}");
}

#[tokio::test]
async fn the_mcp_tool_drops_them_too() {
    let app = common::spawn_app().await;
    let a = app.account("A", "chats:read").await;
    app.journal_on(a.id).await;
    let client = connect(&app, &a.token).await;
    let turns = [("user", FIRST), ("assistant", LAST)];
    let mut session = String::new();
    for _ in 0..2 {
        let result = call(&client, "journal_episode", episode("ep-mcp-nul", &turns)).await;
        let posted = structured(&result);
        session = posted["entries"][0]["session_id"]
            .as_str()
            .unwrap()
            .to_owned();
    }
    let summary = summary_of(&app, &a.token, &session).await;
    assert!(summary.contains("Fixed: SameSite=Lax."), "{summary}");
}
