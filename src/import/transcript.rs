//! Reading a harness's transcript file: only user and assistant text is kept. Tool calls and
//! their output, reasoning, sidechains and the text a harness injects into the conversation
//! itself (its environment and instructions blocks, command echoes) are dropped while reading,
//! before anything is sent.

use super::Harness;
use anyhow::Context;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// One conversation read from a transcript file.
#[derive(Debug, Default)]
pub struct Episode {
    pub id: String,
    pub project: Option<String>,
    pub started: Option<String>,
    pub ended: Option<String>,
    pub turns: Vec<(String, String)>,
}

impl Episode {
    /// The id as the service accepts it (letters, digits and `. _ : -`, up to 200).
    pub fn clean_id(&self) -> String {
        self.id
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || "._:-".contains(*c))
            .take(200)
            .collect()
    }

    pub fn has_reply(&self) -> bool {
        self.turns.iter().any(|(role, _)| role == "assistant")
    }
}

/// Every `.jsonl` file under `path` (or `path` itself), sorted.
pub fn transcripts(path: &Path) -> anyhow::Result<Vec<PathBuf>> {
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

/// Text the harness put in the user's place: Codex's `<environment_context>` and
/// `<user_instructions>` blocks, Claude Code's `<command-name>` and `<local-command-stdout>`
/// echoes and its interruption notes. Not what the person said.
fn injected(text: &str) -> bool {
    const TAGS: [&str; 7] = [
        "<environment_context>",
        "<user_instructions>",
        "<permissions instructions>",
        "<command-name>",
        "<command-message>",
        "<local-command-stdout>",
        "<local-command-caveat>",
    ];
    let start = text.trim_start();
    TAGS.iter().any(|t| start.starts_with(t))
        || start.starts_with("# AGENTS.md instructions")
        || start.starts_with("[Request interrupted by user")
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

/// The recap a harness writes in the user's place when it compacts a long conversation
/// (Claude Code's "This session is being continued from a previous conversation …"): it only
/// repeats what was already captured.
fn recap(text: &str) -> bool {
    text.trim_start()
        .starts_with("This session is being continued from a previous conversation")
}

impl Episode {
    fn turn(&mut self, role: &str, parts: Vec<String>, at: Option<&str>) {
        let joined = parts.join("\n");
        if joined.trim().is_empty() || (role == "user" && (injected(&joined) || recap(&joined))) {
            return;
        }
        self.turns.push((role.to_owned(), joined));
        if self.started.is_none() {
            self.started = at.map(str::to_owned);
        }
        if at.is_some() {
            self.ended = at.map(str::to_owned);
        }
    }

    /// Claude Code: one message per line, `type` user|assistant; content parts of type text
    /// are kept, tool_use / tool_result / thinking dropped; sidechains, meta lines and the
    /// compaction recap (`isCompactSummary`, shown in the transcript only) skipped.
    fn claude_code_line(&mut self, v: &Value, at: Option<&str>) {
        let flagged = |key: &str| v[key] == Value::Bool(true);
        if flagged("isSidechain")
            || flagged("isMeta")
            || flagged("isCompactSummary")
            || flagged("isVisibleInTranscriptOnly")
        {
            return;
        }
        if self.id.is_empty()
            && let Some(id) = v["sessionId"].as_str()
        {
            self.id = id.to_owned();
        }
        if self.project.is_none() {
            self.project = v["cwd"].as_str().and_then(project_of);
        }
        if let Some(role @ ("user" | "assistant")) = v["type"].as_str() {
            self.turn(role, texts(&v["message"]["content"], &["text"]), at);
        }
    }

    /// Codex: `session_meta` names the session; `response_item` messages carry input_text /
    /// output_text parts; reasoning, function calls and developer messages are dropped.
    fn codex_line(&mut self, v: &Value, at: Option<&str>) {
        match v["type"].as_str() {
            Some("session_meta") => {
                if let Some(id) = v["payload"]["id"].as_str() {
                    self.id = id.to_owned();
                }
                self.project = v["payload"]["cwd"].as_str().and_then(project_of);
            }
            Some("response_item") if v["payload"]["type"] == "message" => {
                let kinds = ["input_text", "output_text", "text"];
                if let Some(role @ ("user" | "assistant")) = v["payload"]["role"].as_str() {
                    self.turn(role, texts(&v["payload"]["content"], &kinds), at);
                }
            }
            _ => {}
        }
    }
}

/// Reads one transcript file.
pub fn read(harness: Harness, file: &Path) -> anyhow::Result<Episode> {
    let text = std::fs::read_to_string(file)?;
    let mut episode = Episode::default();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let at = v["timestamp"].as_str();
        match harness {
            Harness::ClaudeCode => episode.claude_code_line(&v, at),
            Harness::Codex => episode.codex_line(&v, at),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn injected_blocks_are_not_the_persons_words() {
        assert!(injected(
            "<environment_context>\n  <cwd>/x</cwd>\n</environment_context>"
        ));
        assert!(injected("  <command-name>/clear</command-name>"));
        assert!(!injected("Fix the <environment_context> parser"));
        assert!(!injected("The login page redirects forever."));
    }

    #[test]
    fn a_project_is_the_last_component_of_the_working_directory() {
        assert_eq!(project_of("/home/ada/acme/web/"), Some("web".into()));
        assert_eq!(
            project_of("/home/ada/my project"),
            Some("my-project".into())
        );
        assert_eq!(project_of("/"), None);
    }
}
