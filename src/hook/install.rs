//! `n8v-journal hook install --harness codex`: Codex's one-step setup, the counterpart of the
//! Claude Code plugin. It merges into Codex's home (`$CODEX_HOME`, else `~/.codex`):
//!
//! - `hooks.json`: `SessionStart` and `Stop` run this very binary by its absolute path (no path
//!   into a repository, no reliance on `PATH`); earlier n8v-journal hooks are replaced, every
//!   other hook is kept;
//! - `config.toml`: the hooks switch (`[features] codex_hooks = true`) and the MCP server
//!   `[mcp_servers.n8v]` (kept as it is when there is one), the rest of the file untouched.
//!
//! Running it again changes nothing more. Codex asks once to trust the new hooks.

use super::Event;
use anyhow::Context;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// What an install wrote.
#[derive(Debug, serde::Serialize)]
pub struct Installed {
    pub hooks: PathBuf,
    pub config: PathBuf,
    /// The command each hook runs, before its event's arguments.
    pub command: String,
    /// Whether `[mcp_servers.n8v]` was added (`false`: one was there and is kept).
    pub mcp_server_added: bool,
}

/// Codex's home: `$CODEX_HOME`, else `~/.codex`.
pub fn codex_home() -> anyhow::Result<PathBuf> {
    if let Some(home) = std::env::var_os("CODEX_HOME").filter(|h| !h.is_empty()) {
        return Ok(PathBuf::from(home));
    }
    let home = std::env::var_os("HOME").context("neither CODEX_HOME nor HOME is set")?;
    Ok(PathBuf::from(home).join(".codex"))
}

/// `text` as one word for a POSIX shell.
fn shell_word(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// An n8v-journal hook from an earlier install or the old scripts.
fn ours(hook: &Value) -> bool {
    let command = hook["command"].as_str().unwrap_or_default();
    (command.contains("n8v-journal") && command.contains(" hook "))
        || command.contains("session-start.sh")
        || command.contains("session-end.sh")
}

/// `existing` hooks.json with this binary's hooks in place of any earlier n8v-journal ones.
pub fn merge_hooks(mut existing: Value, exe: &str) -> anyhow::Result<Value> {
    if !existing.is_object() {
        existing = json!({});
    }
    let hooks = existing
        .as_object_mut()
        .unwrap()
        .entry("hooks")
        .or_insert_with(|| json!({}));
    let hooks = hooks
        .as_object_mut()
        .context("hooks.json: `hooks` is not an object")?;
    for (name, event, timeout, status) in [
        (
            "SessionStart",
            Event::SessionStart,
            15,
            "Loading the recent journal",
        ),
        (
            "Stop",
            Event::Stop,
            60,
            "Posting the conversation to the journal",
        ),
    ] {
        let groups = hooks.entry(name).or_insert_with(|| json!([]));
        let groups = groups
            .as_array_mut()
            .with_context(|| format!("hooks.json: `{name}` is not a list"))?;
        for group in groups.iter_mut() {
            if let Some(list) = group["hooks"].as_array_mut() {
                list.retain(|h| !ours(h));
            }
        }
        groups.retain(|g| g["hooks"].as_array().is_none_or(|l| !l.is_empty()));
        groups.push(json!({"hooks": [{
            "type": "command",
            "command": format!("{} hook {} --harness codex", shell_word(exe), event.name()),
            "timeout": timeout,
            "statusMessage": status,
        }]}));
    }
    Ok(existing)
}

/// `existing` config.toml with the hooks switch on and the MCP server added when absent.
pub fn merge_config(existing: &str, url: &str) -> anyhow::Result<(String, bool)> {
    let mut doc: toml_edit::DocumentMut =
        existing.parse().context("config.toml is not valid TOML")?;
    let features = doc
        .entry("features")
        .or_insert(toml_edit::table())
        .as_table_like_mut()
        .context("config.toml: `features` is not a table")?;
    if features.get("codex_hooks").and_then(|v| v.as_bool()) != Some(true) {
        features.insert("codex_hooks", toml_edit::value(true));
    }
    let servers = doc
        .entry("mcp_servers")
        .or_insert_with(|| {
            let mut t = toml_edit::Table::new();
            t.set_implicit(true);
            toml_edit::Item::Table(t)
        })
        .as_table_like_mut()
        .context("config.toml: `mcp_servers` is not a table")?;
    let added = servers.get("n8v").is_none();
    if added {
        let mut n8v = toml_edit::Table::new();
        n8v.insert(
            "url",
            toml_edit::value(format!("{}/mcp", url.trim_end_matches('/'))),
        );
        n8v.insert("bearer_token_env_var", toml_edit::value("N8V_TOKEN"));
        let mut headers = toml_edit::InlineTable::new();
        headers.insert("X-Assistant", "codex".into());
        n8v.insert("http_headers", toml_edit::value(headers));
        servers.insert("n8v", toml_edit::Item::Table(n8v));
    }
    Ok((doc.to_string(), added))
}

/// Writes `text` to `path` through a file beside it, so a reader never sees half of it.
fn write(path: &Path, text: &str) -> anyhow::Result<()> {
    let tmp = path.with_extension("n8v-journal.tmp");
    std::fs::write(&tmp, text).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))
}

/// Installs the hooks and the MCP server into Codex's home `home`.
pub fn codex(home: &Path, exe: &Path, url: &str) -> anyhow::Result<Installed> {
    std::fs::create_dir_all(home).with_context(|| format!("creating {}", home.display()))?;
    let exe = exe.to_str().context("this binary's path is not UTF-8")?;
    let hooks_path = home.join("hooks.json");
    let existing = match std::fs::read_to_string(&hooks_path) {
        Ok(text) => serde_json::from_str(&text)
            .with_context(|| format!("{} is not JSON", hooks_path.display()))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => json!({}),
        Err(e) => return Err(e).context(format!("reading {}", hooks_path.display())),
    };
    let hooks = merge_hooks(existing, exe)?;
    write(&hooks_path, &(serde_json::to_string_pretty(&hooks)? + "\n"))?;
    let config_path = home.join("config.toml");
    let existing = match std::fs::read_to_string(&config_path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e).context(format!("reading {}", config_path.display())),
    };
    let (config, mcp_server_added) = merge_config(&existing, url)?;
    write(&config_path, &config)?;
    Ok(Installed {
        hooks: hooks_path,
        config: config_path,
        command: format!("{} hook", shell_word(exe)),
        mcp_server_added,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_install_replaces_its_hooks_and_keeps_the_others() {
        let theirs = json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}],
            "SessionStart": [{"hooks": [{"type": "command", "command": "sh integrations/session-start.sh"}]}]}});
        let once = merge_hooks(theirs, "/opt/it's/n8v-journal").unwrap();
        let twice = merge_hooks(once.clone(), "/opt/it's/n8v-journal").unwrap();
        assert_eq!(once, twice);
        let stop = twice["hooks"]["Stop"].as_array().unwrap();
        assert_eq!(stop.len(), 2);
        assert_eq!(stop[0]["hooks"][0]["command"], "say done");
        assert_eq!(
            stop[1]["hooks"][0]["command"],
            r"'/opt/it'\''s/n8v-journal' hook stop --harness codex"
        );
        let start = twice["hooks"]["SessionStart"].as_array().unwrap();
        assert_eq!(
            start.len(),
            1,
            "the old script's hook is replaced: {start:?}"
        );
    }

    #[test]
    fn the_config_gets_the_switch_and_the_server_once() {
        let mine = "model = \"o4\"\n\n[mcp_servers.other]\nurl = \"http://x\"\n";
        let (once, added) = merge_config(mine, "https://j.example.com/").unwrap();
        assert!(added);
        let (twice, again) = merge_config(&once, "https://j.example.com").unwrap();
        assert!(!again);
        assert_eq!(once, twice);
        let parsed: toml_edit::DocumentMut = twice.parse().unwrap();
        assert_eq!(parsed["model"].as_str(), Some("o4"));
        assert_eq!(parsed["features"]["codex_hooks"].as_bool(), Some(true));
        assert_eq!(
            parsed["mcp_servers"]["other"]["url"].as_str(),
            Some("http://x")
        );
        let n8v = &parsed["mcp_servers"]["n8v"];
        assert_eq!(n8v["url"].as_str(), Some("https://j.example.com/mcp"));
        assert_eq!(n8v["bearer_token_env_var"].as_str(), Some("N8V_TOKEN"));
    }
}
