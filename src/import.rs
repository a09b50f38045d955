//! `n8v-journal import`: reads a harness's local transcripts and posts them as episodes, so
//! history from before the journal was turned on can be added. A client of the service's own
//! API (`POST /api/v1/journal/episodes`), so every rule of episodes holds; safe to run twice
//! (episodes are idempotent by id and part).
//!
//! Only user and assistant text leaves the machine: tool calls and their output, reasoning and
//! sidechains are dropped while reading, before anything is sent.

use anyhow::Context;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Harness {
    ClaudeCode,
    Codex,
}

impl Harness {
    pub fn parse(name: &str) -> anyhow::Result<Self> {
        match name {
            "claude-code" => Ok(Self::ClaudeCode),
            "codex" => Ok(Self::Codex),
            other => anyhow::bail!("no harness {other:?}; use claude-code or codex"),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Self::ClaudeCode => "claude-code",
            Self::Codex => "codex",
        }
    }
}

/// What an import did.
#[derive(Debug, Default, serde::Serialize)]
pub struct Summary {
    pub files: usize,
    pub imported: usize,
    pub already_there: usize,
    /// Files with no assistant reply, or that are not transcripts.
    pub skipped: usize,
    pub failed: usize,
}

/// One conversation read from a transcript file.
#[derive(Debug, Default)]
struct Episode {
    id: String,
    project: Option<String>,
    started: Option<String>,
    ended: Option<String>,
    turns: Vec<(String, String)>,
}

/// Every `.jsonl` file under `path` (or `path` itself), sorted.
fn transcripts(path: &Path) -> anyhow::Result<Vec<PathBuf>> {
    if path.is_file() {
        return Ok(vec![path.to_owned()]);
    }
    let mut out = Vec::new();
    let mut dirs = vec![path.to_owned()];
    while let Some(dir) = dirs.pop() {
        for entry in
            std::fs::read_dir(&dir).with_context(|| format!("reading {}", dir.display()))?
        {
            let path = entry?.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "jsonl") {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The text parts of a message's content (a string, or a list of typed parts).
fn texts(content: &Value, kinds: &[&str]) -> Vec<String> {
    match content {
        Value::String(s) => vec![s.clone()],
        Value::Array(parts) => parts
            .iter()
            .filter(|p| p["type"].as_str().is_some_and(|t| kinds.contains(&t)))
            .filter_map(|p| p["text"].as_str().map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    }
}

/// A project name the service accepts, from a working directory: its last component.
fn project_of(cwd: &str) -> Option<String> {
    let last = cwd.trim_end_matches('/').rsplit('/').next()?;
    let clean: String = last
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '-'
            }
        })
        .take(200)
        .collect();
    (!clean.is_empty()).then_some(clean)
}

fn read(harness: Harness, file: &Path) -> anyhow::Result<Episode> {
    let text = std::fs::read_to_string(file)?;
    let mut episode = Episode::default();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let at = v["timestamp"].as_str().map(str::to_owned);
        let mut turn = |role: &str, parts: Vec<String>| {
            let joined = parts.join("\n");
            if !joined.trim().is_empty() {
                episode.turns.push((role.to_owned(), joined));
                if episode.started.is_none() {
                    episode.started = at.clone();
                }
                if at.is_some() {
                    episode.ended = at.clone();
                }
            }
        };
        match harness {
            // Claude Code: one message per line, `type` user|assistant; content parts of type
            // text are kept, tool_use / tool_result / thinking dropped; sidechains skipped.
            Harness::ClaudeCode => {
                if v["isSidechain"] == Value::Bool(true) {
                    continue;
                }
                if episode.id.is_empty()
                    && let Some(id) = v["sessionId"].as_str()
                {
                    episode.id = id.to_owned();
                }
                if episode.project.is_none() {
                    episode.project = v["cwd"].as_str().and_then(project_of);
                }
                match v["type"].as_str() {
                    Some("user") => turn("user", texts(&v["message"]["content"], &["text"])),
                    Some("assistant") => {
                        turn("assistant", texts(&v["message"]["content"], &["text"]))
                    }
                    _ => {}
                }
            }
            // Codex: `session_meta` names the session; `response_item` messages carry
            // input_text / output_text parts; reasoning and function calls are dropped.
            Harness::Codex => match v["type"].as_str() {
                Some("session_meta") => {
                    if let Some(id) = v["payload"]["id"].as_str() {
                        episode.id = id.to_owned();
                    }
                    episode.project = v["payload"]["cwd"].as_str().and_then(project_of);
                }
                Some("response_item") if v["payload"]["type"] == "message" => {
                    let kinds = ["input_text", "output_text", "text"];
                    match v["payload"]["role"].as_str() {
                        Some("user") => turn("user", texts(&v["payload"]["content"], &kinds)),
                        Some("assistant") => {
                            turn("assistant", texts(&v["payload"]["content"], &kinds))
                        }
                        _ => {}
                    }
                }
                _ => {}
            },
        }
    }
    if episode.id.is_empty() {
        episode.id = file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
    }
    Ok(episode)
}

/// Imports every transcript under `path`, printing progress on stderr.
pub async fn run(harness: Harness, path: &Path, url: &str, token: &str) -> anyhow::Result<Summary> {
    let files = transcripts(path)?;
    let client = reqwest::Client::new();
    let mut summary = Summary {
        files: files.len(),
        ..Summary::default()
    };
    for (n, file) in files.iter().enumerate() {
        eprint!("\r[{:>4}/{:<4}] {}", n + 1, files.len(), harness.name());
        let Ok(episode) = read(harness, file) else {
            summary.skipped += 1;
            continue;
        };
        let id: String = episode
            .id
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || "._:-".contains(*c))
            .take(200)
            .collect();
        if id.is_empty() || !episode.turns.iter().any(|(role, _)| role == "assistant") {
            summary.skipped += 1;
            continue;
        }
        let now = chrono::Utc::now().to_rfc3339();
        let body = json!({
            "episode_id": id,
            "harness": harness.name(),
            "project": episode.project,
            "started_at": episode.started.clone().unwrap_or_else(|| now.clone()),
            "ended_at": episode.ended.or(episode.started).unwrap_or(now),
            "turns": episode.turns.iter().map(|(role, text)| json!({"role": role, "text": text}))
                .collect::<Vec<_>>(),
        });
        let response = client
            .post(format!(
                "{}/api/v1/journal/episodes",
                url.trim_end_matches('/')
            ))
            .bearer_auth(token)
            .header(
                "x-purpose",
                "Import a conversation from before the journal was on",
            )
            .json(&body)
            .send()
            .await;
        let posted: Option<Value> = match response {
            Ok(r) if r.status().is_success() => r.json().await.ok(),
            Ok(r) => {
                eprintln!("\n{}: the service answered {}", file.display(), r.status());
                None
            }
            Err(e) => {
                eprintln!("\n{}: {e}", file.display());
                None
            }
        };
        match posted {
            None => summary.failed += 1,
            Some(p) => {
                let entries = p["entries"].as_array().cloned().unwrap_or_default();
                if entries.is_empty() {
                    summary.skipped += 1;
                } else if entries.iter().all(|e| e["created"] == false) {
                    summary.already_there += 1;
                } else {
                    summary.imported += 1;
                }
            }
        }
    }
    eprintln!();
    Ok(summary)
}
