//! The official MCP Python SDK as a real client (tests/e2e/mcp_client.py). It never passes
//! without running: `N8V_MCP_PYTHON` names a python with `mcp` installed (`.ci/run` sets it),
//! else the test makes its own virtual environment and installs tests/e2e/requirements.txt, or
//! fails saying what is missing.

use crate::common;

use std::path::PathBuf;
use std::process::Command;

fn has_mcp(python: &str) -> bool {
    Command::new(python)
        .args(["-c", "import mcp.client.streamable_http"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A python with the official SDK, provisioned on first use.
pub(crate) fn python_with_mcp() -> String {
    if let Ok(python) = std::env::var("N8V_MCP_PYTHON") {
        assert!(
            has_mcp(&python),
            "N8V_MCP_PYTHON={python} cannot import mcp; pip install -r tests/e2e/requirements.txt"
        );
        return python;
    }
    let venv = std::env::temp_dir().join("n8v-journal-mcp-venv");
    let python: PathBuf = venv.join("bin/python");
    let python = python.to_string_lossy().into_owned();
    if has_mcp(&python) {
        return python;
    }
    let made = Command::new("python3")
        .args(["-m", "venv"])
        .arg(&venv)
        .output()
        .expect("python3 is needed for the MCP client test (apt-get install python3-venv)");
    assert!(
        made.status.success(),
        "python3 -m venv {}: {}",
        venv.display(),
        String::from_utf8_lossy(&made.stderr)
    );
    let requirements = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/e2e/requirements.txt");
    let pip = Command::new(&python)
        .args([
            "-m",
            "pip",
            "install",
            "-q",
            "--disable-pip-version-check",
            "-r",
        ])
        .arg(requirements)
        .output()
        .expect("run pip");
    assert!(
        pip.status.success() && has_mcp(&python),
        "installing the MCP Python SDK failed (set N8V_MCP_PYTHON to a python with `mcp`):\n{}",
        String::from_utf8_lossy(&pip.stderr)
    );
    python
}

#[tokio::test]
async fn the_official_python_client_runs_a_conversation() {
    let python = tokio::task::spawn_blocking(python_with_mcp).await.unwrap();
    let app = common::spawn_app().await;
    let a = app.account("A", crate::common::JOURNAL_SCOPES).await;
    app.journal_on(a.id).await;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/e2e/mcp_client.py");
    let output = tokio::process::Command::new(&python)
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
