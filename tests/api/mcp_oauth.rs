//! Issue 32: clients no one here wrote connect through OAuth with nothing pasted. The official
//! MCP Python SDK's `OAuthClientProvider` (tests/e2e/mcp_oauth_client.py) and the official
//! TypeScript SDK's OAuth client (tests/e2e/node/oauth_client.mjs) each discover the journal's
//! authorization server from `/mcp`'s 401, register, send the person to the consent page
//! (played over HTTP on the real pages, signing in with the person's API key), exchange the
//! code with PKCE and call tools. Their sessions carry the client's name as their assistant
//! and are the account's, listed for the person's own key; the grant's token reads nothing of
//! another account.
//!
//! Issue 45, finding 2: each connects with the default settings at both
//! `http://127.0.0.1:PORT/mcp` and `http://localhost:PORT/mcp` (the SDKs refuse a protected
//! resource other than the URL they were given), and the token got at one name works at the
//! other: both are the same server, and tokens are bound to its one resource.
//!
//! The TypeScript SDK is installed from tests/e2e/node/package-lock.json into
//! `N8V_MCP_NODE_MODULES` (default /var/tmp/n8v-journal-mcp-node) on first use; the Python SDK
//! as for tests/api/mcp_python.rs.

use crate::common::{self, TestApp};
use crate::mcp_python::python_with_mcp;
use serde_json::Value;
use std::path::PathBuf;

use crate::common::JOURNAL_SCOPES as SCOPES;

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

/// The loopback name a client is given the server by.
#[derive(Clone, Copy, Debug)]
enum Name {
    Ip,
    Localhost,
}

impl Name {
    /// The server's address under this name (`app.base` is `http://127.0.0.1:PORT`).
    fn base(self, app: &TestApp) -> String {
        match self {
            Name::Ip => app.base.clone(),
            Name::Localhost => app.base.replace("127.0.0.1", "localhost"),
        }
    }

    fn other(self) -> Self {
        match self {
            Name::Ip => Name::Localhost,
            Name::Localhost => Name::Ip,
        }
    }
}

/// The status of an `initialize` sent to `mcp_url` with `token`.
async fn initialize_status(mcp_url: &str, token: &str) -> u16 {
    reqwest::Client::new()
        .post(mcp_url)
        .bearer_auth(token)
        .header("accept", "application/json, text/event-stream")
        .json(
            &serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "probe", "version": "1"}}}),
        )
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

/// What both clients' runs must show, whoever wrote the client, given the server as `name`.
async fn check_connected(
    app: &TestApp,
    person: &common::Account,
    report: &Value,
    client: &str,
    name: Name,
) {
    assert_eq!(
        report["assistant"], client,
        "the session's assistant: {report}"
    );
    assert!(
        report["iss"].as_str() == Some(name.base(app).as_str()),
        "the authorization response names its issuer as the client knows it (RFC 9207): \
         {report}"
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
    assert_eq!(row["assistant"], client);

    // The token works at the server's other loopback name too: the same server, one resource.
    let token = report["access_token"].as_str().unwrap();
    for name in [name, name.other()] {
        let url = format!("{}/mcp", name.base(app));
        assert_eq!(initialize_status(&url, token).await, 200, "{url}");
    }

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
    let theirs = &theirs.id.to_string();
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

/// The Python SDK's OAuth client, given the server as `name`.
async fn python_connects(name: Name) {
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
        .arg(format!("{}/mcp", name.base(&app)))
        .arg(&person.token)
        .arg("Python Connector");
    let report = run_client(
        command,
        &format!("the Python SDK's OAuth client at {name:?}"),
    )
    .await;
    assert!(
        report["refresh_token"]
            .as_str()
            .is_some_and(|t| !t.is_empty())
    );
    check_connected(&app, &person, &report, "Python Connector", name).await;
}

/// The TypeScript SDK's OAuth client, given the server as `name`.
async fn typescript_connects(name: Name) {
    let modules = tokio::task::spawn_blocking(node_modules).await.unwrap();
    let app = common::spawn_app().await;
    let person = app.account("Grace", SCOPES).await;
    app.journal_on(person.id).await;
    // The script runs from the installed directory, so its imports resolve there.
    let script = modules
        .parent()
        .unwrap()
        .join(format!("oauth_client.{name:?}.mjs"));
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
        .arg(format!("{}/mcp", name.base(&app)))
        .arg(&person.token)
        .arg("TypeScript Connector");
    let report = run_client(
        command,
        &format!("the TypeScript SDK's OAuth client at {name:?}"),
    )
    .await;
    check_connected(&app, &person, &report, "TypeScript Connector", name).await;
}

// One test per SDK, the two names in turn: the TypeScript SDK's first run installs it.

#[tokio::test]
async fn the_official_python_sdk_connects_through_oauth() {
    for name in [Name::Ip, Name::Localhost] {
        python_connects(name).await;
    }
}

#[tokio::test]
async fn the_official_typescript_sdk_connects_through_oauth() {
    for name in [Name::Ip, Name::Localhost] {
        typescript_connects(name).await;
    }
}
