//! The doors as a newcomer meets them: the service's root points somewhere, REST and MCP agree
//! that a session's goal and outcome are optional (and both ask for them), and the small texts
//! read right.

use crate::common;
use crate::common::mcp::{call, connect, error_text, structured};
use reqwest::Method;
use reqwest::header::{ACCEPT, CONTENT_TYPE, LOCATION};
use serde_json::{Value, json};

#[tokio::test]
async fn the_root_points_a_newcomer_to_the_journal_the_api_and_mcp() {
    let app = common::spawn_app().await;
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();

    // A script (curl, no credential) gets the map of the entry points.
    let root = http.get(app.url("/")).send().await.unwrap();
    assert_eq!(root.status(), 200);
    assert!(
        root.headers()[CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("application/json")
    );
    let root: Value = root.json().await.unwrap();
    let links = root["links"].as_object().expect("links");
    for (name, href) in [
        ("journal", "/journal"),
        ("openapi", "/openapi.json"),
        ("docs", "/docs"),
        ("mcp", "/mcp"),
        ("catch_up", "/api/v1/journal/catch-up"),
        ("journal_md", "/journal.md"),
        ("health", "/readyz"),
    ] {
        assert_eq!(links[name]["href"], href, "{root}");
        assert!(links[name]["title"].as_str().is_some_and(|t| t.len() > 5));
    }
    // Every door it names is there: the public ones answer, the others ask for a credential.
    for link in links.values() {
        let href = link["href"].as_str().unwrap();
        let status = http.get(app.url(href)).send().await.unwrap().status();
        assert!(
            [200, 303, 401].contains(&status.as_u16()),
            "{href} answered {status}"
        );
    }

    // A browser is sent on to the journal pages.
    let browser = http
        .get(app.url("/"))
        .header(ACCEPT, "text/html,application/xhtml+xml")
        .send()
        .await
        .unwrap();
    assert_eq!(browser.status(), 303);
    assert_eq!(browser.headers()[LOCATION], "/journal");

    // An unknown address is still a problem, and says where to look.
    let lost = app
        .call(Method::GET, "/nowhere")
        .problem(404, "not-found")
        .await;
    assert!(
        lost["detail"].as_str().unwrap().contains("GET / lists"),
        "{lost}"
    );
}

fn required(schema: &Value) -> Vec<&str> {
    schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

#[tokio::test]
async fn goal_and_outcome_are_optional_in_rest_and_mcp_alike_and_both_ask_for_them() {
    let app = common::spawn_app().await;
    let a = app.account("A", "chats:read").await;
    app.journal_on(a.id).await;

    // MCP: neither is required, both descriptions still ask for it.
    let client = connect(&app, &a.token).await;
    let tools = client.list_all_tools().await.unwrap();
    let schema = |name: &str| {
        let tool = tools.iter().find(|t| t.name == name).unwrap();
        Value::Object((*tool.input_schema).clone())
    };
    for (tool, field) in [("session_start", "goal"), ("session_end", "outcome")] {
        let schema = schema(tool);
        assert!(!required(&schema).contains(&field), "{tool}: {schema}");
        let described = schema["properties"][field]["description"].as_str().unwrap();
        let described = described.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            described.contains("Optional") && described.contains("give it"),
            "{tool}.{field}: {described}"
        );
    }
    let started = call(&client, "session_start", json!({"purpose": "No goal yet"})).await;
    assert!(
        !started.is_error.unwrap_or(false),
        "{}",
        error_text(&started)
    );
    let session = structured(&started);
    let id = session["id"].as_str().unwrap();
    assert!(session["goal"].is_null(), "{session}");
    let ended = call(&client, "session_end", json!({"session": id})).await;
    assert!(!ended.is_error.unwrap_or(false), "{}", error_text(&ended));
    assert_eq!(
        structured(&ended)["end_reason"],
        "ended",
        "{:?}",
        structured(&ended)
    );

    // REST: the same, and the OpenAPI document says so.
    let opened = app.start_session(&a.token, None, json!({})).await;
    let id = &opened.id.to_string();
    app.end_session(&a.token, id, json!({})).ok(200).await;
    let doc: Value = serde_json::from_str(&n8v_journal::server::openapi_json()).unwrap();
    for (schema, field) in [("StartRequest", "goal"), ("EndRequest", "outcome")] {
        let schema = &doc["components"]["schemas"][schema];
        assert!(!required(schema).contains(&field), "{schema}");
        let described = schema["properties"][field]["description"].as_str().unwrap();
        assert!(described.contains("Optional"), "{described}");
    }
}
