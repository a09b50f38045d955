//! Running `n8v-journal hook …` (and the plugin's wrapper) as a harness does: the hook's JSON on
//! stdin, a clean environment but for what the test gives it; and a fake service that records
//! every request and answers as a current, an older or a pre-`ended` service would.

use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use tokio::io::AsyncWriteExt;

pub const BIN: &str = env!("CARGO_BIN_EXE_n8v-journal");
pub const ROOT: &str = env!("CARGO_MANIFEST_DIR");

pub struct Ran {
    pub status: std::process::ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

impl Ran {
    /// The run succeeded quietly: exit 0, nothing on stderr.
    pub fn quiet(&self) -> &str {
        assert!(self.status.success(), "{}", self.stderr);
        assert!(self.stderr.is_empty(), "stderr: {}", self.stderr);
        &self.stdout
    }

    /// The run did nothing and said why: exit 0, no output, exactly one line on stderr.
    pub fn why(&self) -> &str {
        assert!(self.status.success(), "{}", self.stderr);
        assert!(self.stdout.is_empty(), "stdout: {}", self.stdout);
        assert_eq!(self.stderr.lines().count(), 1, "stderr: {:?}", self.stderr);
        assert!(self.stderr.ends_with('\n'));
        self.stderr.trim_end()
    }
}

/// A HOME with no harness in it: a session start finds no transcripts to catch up on.
fn empty_home() -> std::path::PathBuf {
    let home = std::env::temp_dir().join("n8v-hook-empty-home");
    std::fs::create_dir_all(&home).unwrap();
    home
}

/// Runs `program args` with only `PATH`, `HOME` (an empty one unless `env` names one) and
/// `env`, writing `input` to its stdin.
pub async fn run(program: &str, args: &[&str], env: &[(&str, &str)], input: &str) -> Ran {
    let mut child = tokio::process::Command::new(program)
        .args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap())
        .env("HOME", empty_home())
        .envs(env.iter().copied())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // A hook that has nothing to do may exit before reading its input.
    let _ = stdin.write_all(input.as_bytes()).await;
    drop(stdin);
    let out = child.wait_with_output().await.unwrap();
    Ran {
        status: out.status,
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

/// `n8v-journal hook args…` against `url` with `token`.
pub async fn hook(args: &[&str], url: &str, token: Option<&str>, input: &str) -> Ran {
    let mut env = vec![("N8V_URL", url)];
    if let Some(token) = token {
        env.push(("N8V_TOKEN", token));
    }
    let mut all = vec!["hook"];
    all.extend_from_slice(args);
    run(BIN, &all, &env, input).await
}

/// `n8v-journal import --harness <harness> <path>` against `url` with `token`: its summary.
pub async fn import(url: &str, token: &str, harness: &str, path: &str) -> Value {
    let out = tokio::process::Command::new(BIN)
        .args(["import", "--harness", harness, path])
        .env("N8V_URL", url)
        .env("N8V_TOKEN", token)
        .output()
        .await
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(String::from_utf8_lossy(&out.stdout).lines().last().unwrap()).unwrap()
}

/// A hook's input naming `transcript`, as both harnesses send it.
pub fn input(event: &str, transcript: &str) -> String {
    json!({"session_id": "s-1", "transcript_path": transcript, "cwd": "/home/ada/acme/web",
           "hook_event_name": event})
    .to_string()
}

pub fn fixture(path: &str) -> String {
    format!("{ROOT}/tests/fixtures/import/{path}")
}

pub const CLAUDE_CODE: &str =
    "claude-code/-home-ada-acme-web/5f1c2a7e-0b1d-4a9e-9c3e-2f7a1b6d8e01.jsonl";
pub const CLAUDE_CODE_NO_REPLY: &str =
    "claude-code/-home-ada-acme-web/9a8b7c6d-1111-4222-8333-444455556666.jsonl";
/// A Claude Code session compacted once: its recap (flagged, and an older unflagged form)
/// stands in the user's place between the turns.
pub const CLAUDE_CODE_COMPACTED: &str =
    "claude-code-compacted/-home-ada-acme-web/7e2d4c1b-3a5f-4e6d-8b9c-0a1b2c3d4e5f.jsonl";
pub const CODEX: &str =
    "codex/2026/11/10/rollout-2026-11-10T10-00-00-0c9d7e3a-2b4f-4c1d-8e5a-6f7b8c9d0e1f.jsonl";

/// How the fake service answers.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Fake {
    /// As this service: `/journal.md` answers `max_chars` characters of `é` (two bytes each).
    Current,
    /// As a service from before `ended`: a body with it is a 422 naming the field.
    BeforeEnded,
    /// As a service with neither endpoint: 404 for everything.
    Old,
}

/// One request the fake service received.
#[derive(Clone, Debug)]
pub struct Seen {
    pub method: String,
    pub uri: String,
    pub headers: axum::http::HeaderMap,
    pub body: Value,
}

pub async fn fake_service(mode: Fake) -> (String, Arc<Mutex<Vec<Seen>>>) {
    type Shared = (Fake, Arc<Mutex<Vec<Seen>>>);
    async fn any(
        axum::extract::State((mode, seen)): axum::extract::State<Shared>,
        method: axum::http::Method,
        uri: axum::http::Uri,
        headers: axum::http::HeaderMap,
        body: axum::body::Bytes,
    ) -> axum::response::Response {
        use axum::response::IntoResponse;
        let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        let ended = body.get("ended").is_some();
        seen.lock().unwrap().push(Seen {
            method: method.to_string(),
            uri: uri.to_string(),
            headers,
            body,
        });
        let status = axum::http::StatusCode::from_u16;
        match (mode, uri.path()) {
            (Fake::Old, _) => status(404).unwrap().into_response(),
            (_, "/journal.md") => {
                let asked: usize = uri
                    .query()
                    .and_then(|q| q.strip_prefix("max_chars="))
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(9_500);
                "é".repeat(asked).into_response()
            }
            (Fake::BeforeEnded, _) if ended => (
                status(422).unwrap(),
                axum::Json(
                    json!({"type": "https://n8v-journal.dev/problems/invalid-body",
                    "title": "Invalid body", "status": 422,
                    "detail": "unknown field `ended`, expected one of `episode_id`, `turns`"}),
                ),
            )
                .into_response(),
            _ => (
                status(201).unwrap(),
                axum::Json(json!({"episode_id": "e", "dropped_turns": 0,
                    "entries": [{"part": 0, "session_id": "ses_x", "created": true}]})),
            )
                .into_response(),
        }
    }
    let seen: Arc<Mutex<Vec<Seen>>> = Arc::default();
    let app = axum::Router::new()
        .fallback(any)
        .with_state((mode, seen.clone()));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url, seen)
}

/// An address nothing listens on.
pub async fn closed_port() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    url
}

/// Every file under `dir`, at any depth.
pub fn files_under(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_owned()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out
}
