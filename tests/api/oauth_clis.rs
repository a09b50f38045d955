//! Issue 45, finding 1: the real Claude Code and Codex CLIs sign in by OAuth, replayed. Their
//! own requests were captured from `claude mcp login` and `codex mcp login` against a local
//! `serve` (tests/fixtures/oauth_clis/, secrets replaced by placeholders; `.ci/oauth-clis`
//! captures them again). Each replay runs against a fresh server with a loopback copy of the
//! client's metadata document: the discovery requests, the authorization request with its
//! parameters in the client's order and its loopback port, the person's sign-in and consent,
//! the token request with the client's form fields (in order) and headers, and the client's
//! first MCP requests with the access token, in the protocol era it speaks.

use crate::common::oauth::{self, pkce, sign_in_through};
use crate::common::{self, spawn_app_configured};
use reqwest::header::AUTHORIZATION;
use serde_json::{Value, json};

const CLAUDE_CODE: &str = include_str!("../fixtures/oauth_clis/claude-code.json");
const CODEX: &str = include_str!("../fixtures/oauth_clis/codex.json");

/// `document` served on a loopback port under its own URL; that URL (the replay's client_id).
async fn serve_document(mut document: Value) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!(
        "http://{}/oauth/client-metadata.json",
        listener.local_addr().unwrap()
    );
    document["client_id"] = json!(url);
    let app = axum::Router::new().route(
        "/oauth/client-metadata.json",
        axum::routing::get(move || {
            let document = document.clone();
            async move { axum::Json(document) }
        }),
    );
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    url
}

/// The fixture's `[name, value]` pairs with each `{placeholder}` filled from `values`.
fn filled(pairs: &Value, values: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .as_array()
        .unwrap()
        .iter()
        .map(|pair| {
            let (name, value) = (pair[0].as_str().unwrap(), pair[1].as_str().unwrap());
            let value = values
                .iter()
                .find(|(placeholder, _)| value == format!("{{{placeholder}}}"))
                .map_or(value, |(_, v)| v);
            (name.to_owned(), value.to_owned())
        })
        .collect()
}

fn encoded(pairs: &[(String, String)]) -> String {
    url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(pairs)
        .finish()
}

/// A JSON-RPC answer from a JSON body or the last `data:` of an SSE body.
fn rpc_answer(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|_| {
        let data = body
            .lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .rfind(|d| !d.trim().is_empty())
            .unwrap_or_else(|| panic!("no JSON-RPC answer in {body}"));
        serde_json::from_str(data.trim()).unwrap()
    })
}

async fn replay(fixture: &str) {
    let fixture: Value = serde_json::from_str(fixture).unwrap();
    let name = fixture["client"].as_str().unwrap();
    let app = spawn_app_configured(|c| c.oauth.allow_private_client_urls = true).await;
    let account = app.account("A", common::JOURNAL_SCOPES).await;
    let client_id = serve_document(fixture["document"].clone()).await;
    let resource = app.url("/mcp");

    // Discovery as the client made it: every request answers as it did when captured (the
    // unauthenticated MCP probe a 401 naming the protected resource's metadata).
    for line in fixture["discovery"].as_array().unwrap() {
        let mut parts = line.as_str().unwrap().split(' ');
        let (method, path, status) = (
            parts.next().unwrap(),
            parts.next().unwrap(),
            parts.next().unwrap(),
        );
        let request = app.http.request(method.parse().unwrap(), app.url(path));
        let response = request.send().await.unwrap();
        assert_eq!(
            response.status().as_str(),
            status,
            "{name}: {method} {path}"
        );
        if path == "/.well-known/oauth-authorization-server" {
            let metadata: Value = response.json().await.unwrap();
            // What makes these clients send a metadata document's URL, not register.
            assert_eq!(metadata["client_id_metadata_document_supported"], true);
            assert!(
                metadata["token_endpoint_auth_methods_supported"]
                    .as_array()
                    .unwrap()
                    .contains(&json!("none")),
                "{metadata}"
            );
        } else if path == "/mcp" {
            assert!(
                oauth::challenge(&response).contains("resource_metadata="),
                "{name}: the 401 names the protected resource's metadata"
            );
        }
    }

    // The client's own authorization request: its parameters, in its order, with its port.
    let flow = pkce();
    let state = "captured-state-of-the-client";
    let values = [
        ("client_id", client_id.as_str()),
        ("resource", resource.as_str()),
        ("code_challenge", flow.challenge.as_str()),
        ("state", state),
    ];
    let params = filled(&fixture["authorization_request"], &values);
    let redirect = params
        .iter()
        .find(|(k, _)| k == "redirect_uri")
        .map(|(_, v)| v.clone())
        .unwrap();
    let path = format!("/oauth/authorize?{}", encoded(&params));
    let (cookie, consent) = sign_in_through(&app, &account.token, &path).await;
    let approved = oauth::decide(&app, &cookie, &consent, "approve").await;
    assert_eq!(approved.status(), 303, "{name}");
    let location = approved.headers()["location"].to_str().unwrap().to_owned();
    assert!(
        location.starts_with(&format!("{redirect}?")),
        "{name}: back to the CLI's own port: {location}"
    );
    let back = oauth::redirect_params(&approved);
    assert_eq!(back["state"], state, "{name}");

    // The client's token request: its headers, its form fields in its order.
    let values = [
        ("client_id", client_id.as_str()),
        ("resource", resource.as_str()),
        ("code", back["code"].as_str()),
        ("code_verifier", flow.verifier.as_str()),
    ];
    let form = filled(&fixture["token_request"]["form"], &values);
    let mut request = app.http.post(app.url("/oauth/token"));
    for (header, value) in filled(&fixture["token_request"]["headers"], &[]) {
        request = request.header(header, value);
    }
    let response = request.body(encoded(&form)).send().await.unwrap();
    assert_eq!(response.status(), 200, "{name}");
    assert_eq!(response.headers()["cache-control"], "no-store", "{name}");
    let tokens: Value = response.json().await.unwrap();
    assert_eq!(tokens["token_type"], "Bearer", "{name}: {tokens}");
    let access = tokens["access_token"].as_str().unwrap();
    assert!(tokens["refresh_token"].is_string(), "{name}: {tokens}");

    // The client's first MCP requests with that token, in its era: the tools are listed.
    let mut listed = None;
    for captured in fixture["mcp_requests"].as_array().unwrap() {
        let body = &captured["body"];
        let mut request = app
            .http
            .post(app.url("/mcp"))
            .header(AUTHORIZATION, format!("Bearer {access}"));
        for (header, value) in filled(&captured["headers"], &[]) {
            request = request.header(header, value);
        }
        let response = request.body(body.to_string()).send().await.unwrap();
        let method = body["method"].as_str().unwrap();
        if body.get("id").is_none() {
            assert_eq!(response.status(), 202, "{name}: {method}");
            continue;
        }
        assert_eq!(response.status(), 200, "{name}: {method}");
        let answer = rpc_answer(&response.text().await.unwrap());
        assert!(answer["result"].is_object(), "{name}: {method}: {answer}");
        if method == "tools/list" {
            listed = Some(answer["result"]["tools"].clone());
        }
    }
    let tools = listed.unwrap_or_else(|| panic!("{name}: no tools/list was replayed"));
    let names: Vec<&str> = tools
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(
        names.contains(&"session_start") && names.contains(&"journal_catch_up"),
        "{name}: {names:?}"
    );
}

#[tokio::test]
async fn claude_code_signs_in_as_its_cli_does() {
    replay(CLAUDE_CODE).await;
}

#[tokio::test]
async fn codex_signs_in_as_its_cli_does() {
    replay(CODEX).await;
}
