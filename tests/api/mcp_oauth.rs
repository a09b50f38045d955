//! Issue 32: clients no one here wrote connect through OAuth with nothing pasted. The official
//! MCP Python SDK's `OAuthClientProvider` (tests/e2e/mcp_oauth_client.py) and the official
//! TypeScript SDK's OAuth client (tests/e2e/node/oauth_client.mjs) each discover the journal's
//! authorization server from `/mcp`'s 401, register, send the person to the consent page
//! (played over HTTP on the real pages, signing in with the person's API key), exchange the
//! code with PKCE and call tools. Their sessions carry the client's name as their assistant
//! and are the account's, listed for the person's own key; the grant's token reads nothing of
//! another account.
//!
//! The TypeScript SDK is installed from tests/e2e/node/package-lock.json into
//! `N8V_MCP_NODE_MODULES` (default /var/tmp/n8v-journal-mcp-node) on first use; the Python SDK
//! as for tests/api/mcp_python.rs.

use crate::common::{self, TestApp};
use crate::mcp_python::python_with_mcp;
use serde_json::Value;
use std::path::PathBuf;

const SCOPES: &str = "chats:read,records:read,records:write";

/// The node_modules directory holding the TypeScript SDK, installed on first use.
fn node_modules() -> PathBuf {
    common::node::installed(
        "e2e/node",
        "N8V_MCP_NODE_MODULES",
        "/var/tmp/n8v-journal-mcp-node",
        "@modelcontextprotocol/sdk",
    )
}

/// Runs a client program; the JSON line it printed.
async fn run_client(mut command: tokio::process::Command, what: &str) -> Value {
    let output = command
        .output()
        .await
        .unwrap_or_else(|e| panic!("run {what}: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{what} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let line = stdout.lines().last().unwrap_or_default();
    serde_json::from_str(line).unwrap_or_else(|e| panic!("{what} printed {stdout:?}: {e}"))
}

/// What both clients' runs must show, whoever wrote the client.
async fn check_connected(app: &TestApp, person: &common::Account, report: &Value, name: &str) {
    assert_eq!(
        report["assistant"], name,
        "the session's assistant: {report}"
    );
    assert!(
        report["iss"].as_str().is_some_and(|i| i == app.base),
        "the authorization response names its issuer (RFC 9207): {report}"
    );
    // The session is the account's: the person's own key lists it, with the client's name.
    let listed = app
        .call(reqwest::Method::GET, "/api/v1/journal/sessions")
        .token(&person.token)
        .purpose("see what the connector did")
        .ok(200)
        .await;
    let session = report["session"].as_str().unwrap();
    let row = listed["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == session)
        .unwrap_or_else(|| panic!("{session} not in {listed}"));
    assert_eq!(row["assistant"], name);

    // The grant's token is the account's only: another account's session is not there for it.
    let other = app.account("someone else", SCOPES).await;
    app.journal_on(other.id).await;
    let theirs = app
        .start_session(
            &other.token,
            Some("start their own work"),
            serde_json::json!({"goal": "Their own work"}),
        )
        .await;
    let theirs = theirs["id"].as_str().unwrap();
    let token = report["access_token"].as_str().unwrap();
    let read = app
        .call(
            reqwest::Method::GET,
            &format!("/api/v1/journal/sessions/{theirs}"),
        )
        .token(token)
        .purpose("try another account")
        .send()
        .await;
    assert!(
        matches!(read.status().as_u16(), 401 | 403 | 404),
        "a grant's token read another account's session: {}",
        read.status()
    );
}

#[tokio::test]
async fn the_official_python_sdk_connects_through_oauth() {
    let python = tokio::task::spawn_blocking(python_with_mcp).await.unwrap();
    let app = common::spawn_app().await;
    let person = app.account("Ada", SCOPES).await;
    app.journal_on(person.id).await;
    let mut command = tokio::process::Command::new(&python);
    command
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/e2e/mcp_oauth_client.py"
        ))
        .arg(app.url("/mcp"))
        .arg(&person.token)
        .arg("Python Connector");
    let report = run_client(command, "the Python SDK's OAuth client").await;
    assert!(
        report["refresh_token"]
            .as_str()
            .is_some_and(|t| !t.is_empty())
    );
    check_connected(&app, &person, &report, "Python Connector").await;
}

#[tokio::test]
async fn the_official_typescript_sdk_connects_through_oauth() {
    let modules = tokio::task::spawn_blocking(node_modules).await.unwrap();
    let app = common::spawn_app().await;
    let person = app.account("Grace", SCOPES).await;
    app.journal_on(person.id).await;
    // The script runs from the installed directory, so its imports resolve there.
    let script = modules.parent().unwrap().join("oauth_client.mjs");
    std::fs::copy(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/e2e/node/oauth_client.mjs"
        ),
        &script,
    )
    .unwrap();
    let mut command = tokio::process::Command::new("node");
    command
        .arg(&script)
        .arg(app.url("/mcp"))
        .arg(&person.token)
        .arg("TypeScript Connector");
    let report = run_client(command, "the TypeScript SDK's OAuth client").await;
    check_connected(&app, &person, &report, "TypeScript Connector").await;
}
