//! The official MCP Python SDK as a real client (tests/e2e/mcp_client.py). `.ci/run` installs it
//! into a virtual environment and sets N8V_MCP_PYTHON; without it the test is skipped locally
//! and fails under CI.

mod common;

#[tokio::test]
async fn the_official_python_client_runs_a_conversation() {
    let Ok(python) = std::env::var("N8V_MCP_PYTHON") else {
        assert!(
            std::env::var("CI").is_err(),
            "CI must set N8V_MCP_PYTHON (see .ci/run)"
        );
        eprintln!(
            "skipped: set N8V_MCP_PYTHON to a python with `mcp` installed (tests/e2e/requirements.txt)"
        );
        return;
    };
    let app = common::spawn_app().await;
    let a = app
        .account("A", "chats:read,records:read,records:write")
        .await;
    app.journal_on(a.id).await;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/e2e/mcp_client.py");
    let output = tokio::process::Command::new(python)
        .arg(script)
        .arg(app.url("/mcp"))
        .arg(&a.token)
        .output()
        .await
        .expect("run python");
    assert!(
        output.status.success(),
        "python client failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    // The purposes it sent are in the journal.
    let purposes: Vec<String> =
        sqlx::query_scalar("SELECT purpose FROM journal_calls WHERE purpose IS NOT NULL")
            .fetch_all(&app.owner)
            .await
            .unwrap();
    for expected in [
        "Open this conversation",
        "Put the fix on record",
        "Leave a handoff",
    ] {
        assert!(
            purposes.iter().any(|p| p == expected),
            "{expected} missing from {purposes:?}"
        );
    }
}
