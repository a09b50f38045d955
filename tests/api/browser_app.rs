//! The catch-up as an MCP App, in a real browser through the official host bridge
//! (tests/browser/app_host.mjs): the official SDK client on the live app's `/mcp`, the
//! `@modelcontextprotocol/ext-apps` `AppBridge` as the host, the view in Debian's headless
//! Chromium under the CSP its resource declares. The view renders the brief (decisions, open
//! loops with age and buttons, the sessions by assistant), shows an item's markup as text,
//! and its Close and Dismiss buttons act in the database through the host's `tools/call`.
//! Screenshots (light and dark) land in `app-screenshots/` beside the browser test's directory
//! (which that test empties when it starts).
//!
//! Needs what `browser` needs (chromium, node); the Node packages are pinned in
//! tests/browser/package-lock.json.

use crate::common::{self, TestApp};
use chrono::Duration;
use n8v_journal::ids::{self, Kind};
use serde_json::json;
use std::path::Path;
use uuid::Uuid;

const OWNER: &str = "chats:read,records:read,orgs:read";
/// Markup that would render were it not text. (An `<img onerror>` line, planted here before
/// issue 53, is now withheld from the brief as an active image: `tests/api/trust.rs`.)
const MARKUP: &str = "<b>Keep</b> the <u>session cookie</u> <i>as it is</i>";
const CLOSE: &str = "Write the migration for the job table";
const MEMBER: &str = "Rotate the staging keys";

/// A session of `token` by `assistant` (in `org` when given), ended with `handoff`.
async fn handed_on(
    app: &TestApp,
    token: &str,
    assistant: &str,
    org: Option<&str>,
    handoff: serde_json::Value,
) {
    let mut start = json!({"goal": format!("Work on the job queue with {assistant}")});
    if let Some(org) = org {
        start["organization"] = json!(org);
    }
    let session = app
        .call(reqwest::Method::POST, "/api/v1/journal/sessions")
        .token(token)
        .header("X-Assistant", assistant)
        .json(start)
        .ok(201)
        .await;
    let id = session["id"].as_str().unwrap();
    app.end_session(token, id, handoff)
        .header("X-Assistant", assistant)
        .ok(200)
        .await;
}

fn shots() -> std::path::PathBuf {
    crate::browser::screenshots().with_file_name("app-screenshots")
}

/// The loop the script says it `verb`ed (`closed itm_…`), as the database keys it.
fn acted_on(stdout: &str, verb: &str) -> Uuid {
    let id = stdout
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{verb} ")))
        .unwrap_or_else(|| panic!("the script {verb} nothing:\n{stdout}"));
    ids::parse(Kind::Item, id.trim()).unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_catch_up_renders_and_acts_as_an_mcp_app_through_the_official_bridge() {
    let Some(chromium) = crate::browser::chromium_or_skip() else {
        return;
    };
    // Only this run's screenshots.
    let _ = std::fs::remove_dir_all(shots());
    let modules = crate::browser::playwright_modules();
    let app = common::spawn_app().await;
    let o = app.account("O", OWNER).await;
    let m = app.account("M", "chats:read").await;
    app.journal_on(o.id).await;
    app.journal_on(m.id).await;
    let org = app.organization_with_reader(o.id, "Org", m.id).await;
    let org = ids::format(Kind::Organization, org);

    handed_on(
        &app,
        &o.token,
        "Claude Code",
        None,
        json!({
            "outcome": "Queue designed",
            "decisions": ["Use PostgreSQL advisory locks for the job queue"],
            "next_steps": [CLOSE],
            "open_questions": [MARKUP],
        }),
    )
    .await;
    app.clock.advance(Duration::days(3));
    // The Codex session replaces the Claude Code session's decision: the view shows the old one
    // under the new one, from the server's own brief.
    let brief = app
        .call(reqwest::Method::GET, "/api/v1/journal/catch-up")
        .token(&o.token)
        .ok(200)
        .await;
    let locks = brief["decisions"][0]["id"].clone();
    handed_on(
        &app,
        &o.token,
        "Codex",
        None,
        json!({
            "outcome": "Queue reworked",
            "decisions": ["Claim jobs with SELECT … FOR UPDATE SKIP LOCKED"],
            "replaces": [locks],
            "next_steps": ["Benchmark the queue under load"],
        }),
    )
    .await;
    handed_on(
        &app,
        &m.token,
        "Cursor",
        Some(&org),
        json!({"outcome": "Staging looked at", "next_steps": [MEMBER]}),
    )
    .await;

    let setup = json!({
        "base": app.base,
        "chromium": chromium,
        "modules": modules,
        "shots": shots(),
        "key": o.token,
        "markup": MARKUP,
        "closeText": CLOSE,
        "memberText": MEMBER,
        "assistants": ["Claude Code", "Codex"],
    });
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser/app_host.mjs");
    let out = tokio::process::Command::new("node")
        .arg(script)
        .env("N8V_APP_SETUP", setup.to_string())
        .output()
        .await
        .expect("node is needed for the browser test");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    assert!(
        out.status.success() && stdout.contains("app: all steps passed"),
        "the app host failed:\n{stdout}\n{stderr}"
    );
    for step in [
        "the tools name a self-contained view",
        "the view renders the brief",
        "an item's markup shows as text",
        "a replaced decision shows under what replaced it",
        "the view fits a 340 px host",
        "Close and Dismiss act through the host",
        "the host's theme reaches the view",
    ] {
        assert!(
            stdout.contains(&format!("ok {step}")),
            "{step:?} did not run"
        );
    }

    // The click closed the owner's loop, as the tool call the view made through the host.
    let closed = acted_on(&stdout, "closed");
    let (state, kind): (String, String) =
        sqlx::query_as("SELECT state, kind FROM journal_loops WHERE loop_id = $1")
            .bind(closed)
            .fetch_one(&app.owner)
            .await
            .unwrap();
    assert_eq!((state.as_str(), kind.as_str()), ("done", "next_step"));
    // Each button was a tool call through the host, journalled with the view's purpose; the
    // second view's Drop of the closed loop was refused (409), and that view said why.
    let calls: Vec<(String, String, i32)> = sqlx::query_as(
        "SELECT operation, purpose, status FROM journal_calls WHERE account_id = $1 \
         AND operation IN ('journal_loop_close', 'journal_loop_dismiss') ORDER BY created_at",
    )
    .bind(o.id)
    .fetch_all(&app.owner)
    .await
    .unwrap();
    let calls: Vec<(&str, &str, i32)> = calls
        .iter()
        .map(|(op, purpose, status)| (op.as_str(), purpose.as_str(), *status))
        .collect();
    assert_eq!(
        calls,
        [
            (
                "journal_loop_close",
                "Close an open loop from the catch-up view",
                200
            ),
            (
                "journal_loop_dismiss",
                "Dismiss a member's open loop from the catch-up view",
                200
            ),
            (
                "journal_loop_close",
                "Drop an open loop from the catch-up view",
                409
            ),
        ]
    );
    // The member's loop is dismissed from the owner's view, and still open for the member.
    let dismissed = acted_on(&stdout, "dismissed");
    let (state,): (String,) = sqlx::query_as("SELECT state FROM journal_loops WHERE loop_id = $1")
        .bind(dismissed)
        .fetch_one(&app.owner)
        .await
        .unwrap();
    assert_eq!(state, "open");
    let (dismissals,): (i64,) = sqlx::query_as(
        "SELECT count(*) FROM journal_loop_dismissals WHERE account_id = $1 AND loop_id = $2",
    )
    .bind(o.id)
    .bind(dismissed)
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(dismissals, 1);
    for name in ["light", "dark", "replaces", "340"] {
        let shot = shots().join(format!("app-{name}.png"));
        assert!(shot.exists(), "no screenshot {}", shot.display());
    }
}
