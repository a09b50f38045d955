//! Reading a harness's transcript file: only user and assistant text is kept. Tool calls and
//! their output, reasoning, sidechains and the text a harness injects into the conversation
//! itself (its environment and instructions blocks, command echoes) are dropped while reading,
//! before anything is sent.

use super::{Harness, project};
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
            self.project = v["cwd"]
                .as_str()
                .and_then(|c| project::of(Harness::ClaudeCode, c));
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
                self.project = v["payload"]["cwd"]
                    .as_str()
                    .and_then(|c| project::of(Harness::Codex, c));
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

/// Pi: a header line (`type` session: the id and working directory), then entries that form
/// a tree by `id` / `parentId`; the conversation is the branch ending at the last entry. Its
/// `message` entries of role user|assistant keep their text parts; tool calls, tool results,
/// thinking, bash runs, extension messages, and the compaction and branch summaries (Pi's
/// recaps, entries of their own) are dropped.
fn pi(episode: &mut Episode, lines: &[Value]) {
    let mut parent_of = std::collections::HashMap::new();
    let mut last = None;
    for v in lines {
        if v["type"] == "session" {
            if let Some(id) = v["id"].as_str() {
                episode.id = id.to_owned();
            }
            episode.project = v["cwd"].as_str().and_then(|c| project::of(Harness::Pi, c));
            continue;
        }
        if let Some(id) = v["id"].as_str() {
            parent_of.insert(id, v["parentId"].as_str());
            last = Some(id);
        }
    }
    let mut branch = std::collections::HashSet::new();
    let mut at = last;
    while let Some(id) = at {
        if !branch.insert(id) {
            break;
        }
        at = parent_of.get(id).copied().flatten();
    }
    for v in lines {
        let on_branch = v["id"].as_str().is_some_and(|id| branch.contains(id));
        if !on_branch || v["type"] != "message" {
            continue;
        }
        let message = &v["message"];
        if let Some(role @ ("user" | "assistant")) = message["role"].as_str() {
            episode.turn(
                role,
                texts(&message["content"], &["text"]),
                v["timestamp"].as_str(),
            );
        }
    }
}

/// A time as the harnesses keep it: RFC 3339 text, Unix milliseconds (OpenCode) or seconds
/// with a fraction (Hermes' database), as RFC 3339.
fn time_of(at: &Value) -> Option<String> {
    let utc =
        |t: chrono::DateTime<chrono::Utc>| t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    match at {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) if n.is_i64() || n.is_u64() => n
            .as_i64()
            .and_then(chrono::DateTime::from_timestamp_millis)
            .map(utc),
        Value::Number(n) => n
            .as_f64()
            .and_then(|s| chrono::DateTime::from_timestamp_millis((s * 1000.0).round() as i64))
            .map(utc),
        _ => None,
    }
}

/// Hermes' summary in place of compacted turns (`agent/context_compressor.py`): flagged
/// `_compressed_summary`, and its text opens with one of these.
const HERMES_RECAP: [&str; 2] = ["[CONTEXT COMPACTION", "[CONTEXT SUMMARY]:"];

impl Episode {
    /// OpenCode: messages as its plugin API and its database hold them, `{info, parts}`. The
    /// text parts of user and assistant messages are kept; tool, reasoning and file parts, the
    /// parts OpenCode adds itself (`synthetic`, such as its "Continue…" after a compaction) or
    /// leaves out (`ignored`), and the compaction are dropped: the summary message (`summary`,
    /// the compaction agent) and the user turn that asked for it (a `compaction` part).
    pub fn opencode_messages(&mut self, messages: &[Value]) {
        for message in messages {
            let (info, parts) = (&message["info"], &message["parts"]);
            let Some(role @ ("user" | "assistant")) = info["role"].as_str() else {
                continue;
            };
            let parts = parts.as_array().map(Vec::as_slice).unwrap_or_default();
            let compaction = info["summary"] == true
                || info["mode"] == "compaction"
                || info["agent"] == "compaction"
                || parts.iter().any(|p| p["type"] == "compaction");
            if compaction {
                continue;
            }
            let text: Vec<String> = parts
                .iter()
                .filter(|p| p["type"] == "text" && p["synthetic"] != true && p["ignored"] != true)
                .filter_map(|p| p["text"].as_str().map(str::to_owned))
                .collect();
            let at = time_of(&info["time"]["created"]);
            self.turn(role, text, at.as_deref());
        }
    }

    /// Hermes: OpenAI-shaped messages (`role`, `content`, and `at` as its plugin and its
    /// database give it). User and assistant text is kept; tool messages, tool calls and the
    /// compaction summary are dropped.
    pub fn hermes_messages(&mut self, messages: &[Value]) {
        for message in messages {
            let Some(role @ ("user" | "assistant")) = message["role"].as_str() else {
                continue;
            };
            let text = texts(&message["content"], &["text", "input_text", "output_text"]);
            let recap = message["_compressed_summary"] == true
                || text
                    .first()
                    .is_some_and(|t| HERMES_RECAP.iter().any(|r| t.trim_start().starts_with(r)));
            if !recap {
                self.turn(role, text, time_of(&message["at"]).as_deref());
            }
        }
    }
}

/// A conversation an integration sends itself, as the hook's input, in its harness's own shape
/// (OpenCode's and Hermes' plugins hold the conversation in process, kept in a database, not a
/// transcript file): `{"session_id", "cwd", "messages": […]}`, read by the same rules as
/// `n8v-journal import` reads that harness's storage.
pub fn from_input(harness: Harness, input: &Value) -> Episode {
    let mut episode = Episode {
        id: input["session_id"].as_str().unwrap_or_default().to_owned(),
        project: input["cwd"].as_str().and_then(|c| project::of(harness, c)),
        ..Episode::default()
    };
    let messages = input["messages"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    match harness {
        Harness::OpenCode => episode.opencode_messages(messages),
        Harness::Hermes => episode.hermes_messages(messages),
        Harness::ClaudeCode | Harness::Codex | Harness::Pi => {}
    }
    episode
}

/// Reads one transcript file.
pub fn read(harness: Harness, file: &Path) -> anyhow::Result<Episode> {
    let text = std::fs::read_to_string(file)?;
    let mut episode = Episode::default();
    let lines: Vec<Value> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    match harness {
        Harness::Pi => pi(&mut episode, &lines),
        Harness::ClaudeCode | Harness::Codex => {
            for v in &lines {
                let at = v["timestamp"].as_str();
                if harness == Harness::ClaudeCode {
                    episode.claude_code_line(v, at);
                } else {
                    episode.codex_line(v, at);
                }
            }
        }
        Harness::OpenCode | Harness::Hermes => anyhow::bail!(
            "{} keeps no transcript files: its integration sends the turns itself",
            harness.name()
        ),
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
}
