//! What `/mcp` answers a body it cannot take (issue 52, 3e and 3f): a body that is not JSON is
//! a JSON-RPC parse error (-32700) and a batch an invalid request (-32600), both with HTTP 400;
//! a malformed `journal://sessions/…` is no resource (-32002), never the purpose's error.

use crate::common;
use reqwest::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE};
use serde_json::{Value, json};

async fn post(app: &common::TestApp, token: &str, body: String) -> (u16, Value) {
    let response = app
        .http
        .post(app.url("/mcp"))
        .header(AUTHORIZATION, format!("Bearer {token}"))
        .header(ACCEPT, "application/json, text/event-stream")
        .header(CONTENT_TYPE, "application/json")
        .body(body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    let answer = serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
    (status, answer)
}

#[tokio::test]
async fn a_body_mcp_cannot_take_is_a_json_rpc_error_with_400() {
    let app = common::spawn_app().await;
    let a = app.account("A", "chats:read").await;
    let deep = format!("{}1{}", "{\"a\":".repeat(300), "}".repeat(300));
    let surrogate = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":"\ud800"}}"#;
    for (what, body) in [
        ("text", "tools/list please".to_owned()),
        ("deep nesting", deep),
        ("a lone surrogate", surrogate.to_owned()),
    ] {
        let (status, answer) = post(&app, &a.token, body).await;
        assert_eq!(
            (status, &answer["error"]["code"]),
            (400, &json!(-32700)),
            "{what}: {answer}"
        );
    }
    let batch = json!([{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}]).to_string();
    let (status, answer) = post(&app, &a.token, batch).await;
    assert_eq!(
        (status, &answer["error"]["code"]),
        (400, &json!(-32600)),
        "{answer}"
    );
    // One message is still served.
    let one = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).to_string();
    let (status, answer) = post(&app, &a.token, one).await;
    assert_eq!(status, 200, "{answer}");
    assert!(answer["result"]["tools"].is_array(), "{answer}");
}

#[tokio::test]
async fn a_malformed_session_resource_is_no_resource() {
    let app = common::spawn_app().await;
    let a = app.account("A", "chats:read").await;
    app.journal_on(a.id).await;
    let long = format!("journal://sessions/{}", "x".repeat(5000));
    for uri in [
        "journal://sessions/\u{0}".to_owned(),
        long,
        "journal://sessions/".into(),
    ] {
        let read = json!({
            "jsonrpc": "2.0", "id": 7, "method": "resources/read", "params": {"uri": uri},
        });
        let (status, answer) = post(&app, &a.token, read.to_string()).await;
        assert_eq!(status, 200, "{answer}");
        assert_eq!(answer["error"]["code"], -32002, "{}: {answer}", uri.len());
    }
}
