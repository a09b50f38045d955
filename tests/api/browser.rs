//! The pages in a real headless browser: Debian's `chromium`, driven by `playwright-core`
//! (tests/browser/journey.mjs) against the real app. Covers sign-in, the session filters, a
//! session, a call and its audit entry, J/K and the timeline, search and jump, deletion with
//! confirmation, sign-out, and an operator turning `assistantJournal` on for one account in the
//! console while another's stays off. Screenshots of every page land in
//! `$CARGO_TARGET_DIR/browser-screenshots/` (else `target/browser-screenshots/`).
//!
//! Needs `/usr/bin/chromium` (or `N8V_CHROMIUM`) and node; playwright-core is installed from
//! tests/browser/package-lock.json into `N8V_BROWSER_MODULES` (default
//! /var/tmp/n8v-journal-browser). A missing browser fails the test unless `N8V_SKIP_BROWSER=1`
//! asks, out loud, for it to be skipped: nothing passes because a variable was not set.

use crate::common;

use chrono::{Duration, Utc};
use std::path::{Path, PathBuf};
use uuid::Uuid;

pub(crate) fn chromium() -> Option<String> {
    let path = std::env::var("N8V_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    Path::new(&path).exists().then_some(path)
}

/// The node_modules directory holding playwright-core, installed on first use.
pub fn playwright_modules() -> PathBuf {
    common::node::installed(
        "browser",
        "N8V_BROWSER_MODULES",
        "/var/tmp/n8v-journal-browser",
        "playwright-core",
    )
}

/// Chromium, or `None` when the test is to be skipped: only when `N8V_SKIP_BROWSER=1` asks
/// for it (a missing browser otherwise fails the test).
pub fn chromium_or_skip() -> Option<String> {
    let found = chromium();
    if found.is_none() {
        assert!(
            std::env::var_os("N8V_SKIP_BROWSER").is_some_and(|v| v == "1"),
            "the browser test needs chromium: apt-get install chromium (.ci/tools.sh does), \
             or set N8V_SKIP_BROWSER=1 to skip it"
        );
        eprintln!("skipped at N8V_SKIP_BROWSER=1: no chromium");
    }
    found
}

/// Runs `tests/browser/<script>` in node with `setup` (as `N8V_BROWSER_SETUP`), and fails
/// unless it succeeds having printed `done` and each `ok <step>`.
pub async fn run_script(script: &str, setup: &serde_json::Value, done: &str, steps: &[&str]) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/browser")
        .join(script);
    let out = tokio::process::Command::new("node")
        .arg(script)
        .env("N8V_BROWSER_SETUP", setup.to_string())
        .output()
        .await
        .expect("node is needed for the browser test");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    assert!(
        out.status.success() && stdout.contains(done),
        "the browser script failed:\n{stdout}\n{stderr}"
    );
    for step in steps {
        assert!(
            stdout.contains(&format!("ok {step}")),
            "step {step:?} did not run"
        );
    }
}

/// Fails unless each of `names` is a screenshot in `dir` taken at or after `began`.
pub fn assert_screenshots(dir: &Path, names: &[&str], began: std::time::SystemTime) {
    for name in names {
        let taken = std::fs::metadata(dir.join(format!("{name}.png")))
            .and_then(|m| m.modified())
            .unwrap_or_else(|e| panic!("no screenshot of {name}: {e}"));
        assert!(taken >= began, "the screenshot of {name} is not this run's");
    }
}

pub fn screenshots() -> PathBuf {
    let target = std::env::var("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    target.join("browser-screenshots")
}

/// A closed session of the account's key, started `days` ago, as the owner writes it.
pub(crate) async fn seed_session(
    app: &common::TestApp,
    account: Uuid,
    key: Uuid,
    days: i64,
    goal: &str,
) -> Uuid {
    let id = Uuid::now_v7();
    let started = Utc::now() - Duration::days(days);
    sqlx::query(
        "INSERT INTO journal_sessions (account_id, session_id, credential_id, kind, assistant, \
             scopes, goal, outcome, started_at, last_activity_at, ended_at, end_reason, \
             journal_only, summary, summary_model, summary_cost_usd) \
         SELECT $1, $2, $3, 'explicit', 'Claude', scopes, $4, 'done', $5, $5, $5, 'ended', \
             false, jsonb_build_object('summary', 'Worked on: ' || $4, 'decisions', '[]'::jsonb, \
             'work_started', '[]'::jsonb, 'work_finished', '[]'::jsonb, \
             'open_questions', '[]'::jsonb), 'code', 0 \
         FROM credentials WHERE credential_id = $3",
    )
    .bind(account)
    .bind(id)
    .bind(key)
    .bind(goal)
    .bind(started)
    .execute(&app.owner)
    .await
    .unwrap();
    id
}

#[tokio::test(flavor = "multi_thread")]
async fn the_pages_work_in_a_real_browser() {
    let Some(chromium) = chromium_or_skip() else {
        return;
    };
    // Only this run's screenshots: the directory starts empty, and each file must be newer
    // than this moment.
    let _ = std::fs::remove_dir_all(screenshots());
    let began = std::time::SystemTime::now();
    let modules = playwright_modules();
    let app = common::spawn_app().await;
    let scopes = crate::common::DELETING_SCOPES;
    let a = app.account("Ada", scopes).await;
    let b = app.account("Bea", scopes).await;
    let operator = n8v_journal::admin::create_operator_key(&app.owner, "Olive")
        .await
        .unwrap();

    // Ada's history, older than what the journey records.
    let kestrel = seed_session(&app, a.id, a.key_id, 2, "Tune the kestrel cache").await;
    seed_session(&app, a.id, a.key_id, 5, "Review the storage plan").await;
    seed_session(&app, a.id, a.key_id, 20, "Plan the roadmap").await;
    seed_session(&app, a.id, a.key_id, 60, "Rotate the signing keys").await;
    sqlx::query(
        "INSERT INTO journal_digests (account_id, digest_id, period, period_start, period_end, \
             scopes, session_count, summary, model, created_at) \
         VALUES ($1, gen_random_uuid(), 'month', date_trunc('month', now() - interval '200 days')::date, \
             (date_trunc('month', now() - interval '200 days') + interval '1 month')::date, \
             '{chats:read}', 4, jsonb_build_object('summary', 'A month of migrations', \
             'decisions', '[]'::jsonb, 'work_started', '[]'::jsonb, 'work_finished', '[]'::jsonb, \
             'open_questions', '[]'::jsonb), 'code', now())",
    )
    .bind(a.id)
    .execute(&app.owner)
    .await
    .unwrap();
    // Bea's words, which Ada's search must never find.
    seed_session(&app, b.id, b.key_id, 2, "The hummingbird kestrel secret").await;

    let setup = serde_json::json!({
        "base": app.base,
        "chromium": chromium,
        "modules": modules,
        "shots": screenshots(),
        "keyA": a.token,
        "keyB": b.token,
        "accountA": a.ext,
        "recordA": app.record_of(a.id).await,
        "operatorKey": operator.token,
        "operatorName": "Olive",
        "kestrelSession": n8v_journal::ids::format(n8v_journal::ids::Kind::Session, kestrel),
        "seededDay": (Utc::now() - Duration::days(2)).date_naive().to_string(),
    });
    let steps = [
        "operator turns assistantJournal on for one account",
        "the account's journal records while the other's does not",
        "sign in",
        "filter sessions",
        "open a session and a call",
        "follow the audit link",
        "J/K",
        "search and jump",
        "delete with confirmation",
        "sign out",
    ];
    run_script("journey.mjs", &setup, "journey: all steps passed", &steps).await;
    let pages = [
        "console", "sign-in", "journal", "sessions", "session", "entry", "audit", "search",
    ];
    assert_screenshots(&screenshots(), &pages, began);
}
