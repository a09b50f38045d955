//! `n8v-journal hook install --harness codex`: Codex's one-step setup, the counterpart of the
//! Claude Code plugin. It merges into Codex's home (`$CODEX_HOME`, else `~/.codex`):
//!
//! - `hooks.json`: `SessionStart` and `Stop` run this very binary by its absolute path (no path
//!   into a repository, no reliance on `PATH`) with the service URL of the MCP entry (`--url`:
//!   the hooks talk to the service the tools do); earlier n8v-journal hooks are replaced, every
//!   other hook is kept;
//! - `config.toml`: the hooks switch (`[features] codex_hooks = true`) and the MCP server
//!   `[mcp_servers.n8v]` (kept as it is when there is one), the rest of the file untouched.
//!
//! Running it again changes nothing more. Codex asks once to trust the new hooks.
//!
//! `--harness claude-code --http` instead writes Claude Code's `http` hook into its user
//! settings ([`claude_code_http`]): no binary runs, and the service answers the hook itself
//! (`POST /api/v1/hooks/claude-code`). The plugin's command hooks are the fuller choice.

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
    /// The service the hooks post to: the one the MCP entry names.
    pub url: String,
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
pub fn merge_hooks(mut existing: Value, exe: &str, url: &str) -> anyhow::Result<Value> {
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
            "command": format!(
                "{} hook {} --harness codex --url {}",
                shell_word(exe),
                event.name(),
                shell_word(url)
            ),
            "timeout": timeout,
            "statusMessage": status,
        }]}));
    }
    Ok(existing)
}

/// What `merge_config` made of config.toml.
pub struct Config {
    pub text: String,
    /// Whether `[mcp_servers.n8v]` was added.
    pub added: bool,
    /// The service the MCP entry names (its `url` without `/mcp`): the hooks' too.
    pub service: String,
}

/// The service an MCP entry's `url` names: the URL without its `/mcp` path.
fn service_of(mcp_url: &str) -> Option<String> {
    let base = mcp_url.trim().trim_end_matches('/').strip_suffix("/mcp")?;
    (base.starts_with("http://") || base.starts_with("https://")).then(|| base.to_owned())
}

/// `existing` config.toml with the hooks switch on and the MCP server added when absent.
pub fn merge_config(existing: &str, url: &str) -> anyhow::Result<Config> {
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
    let service = servers
        .get("n8v")
        .and_then(|n8v| n8v.get("url"))
        .and_then(|u| u.as_str())
        .and_then(service_of)
        .unwrap_or_else(|| url.trim_end_matches('/').to_owned());
    Ok(Config {
        text: doc.to_string(),
        added,
        service,
    })
}

/// Writes `text` to `path` through a file beside it, so a reader never sees half of it.
pub(super) fn write(path: &Path, text: &str) -> anyhow::Result<()> {
    let tmp = path.with_extension("n8v-journal.tmp");
    std::fs::write(&tmp, text).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))
}

/// Installs the hooks and the MCP server into Codex's home `home`.
pub fn codex(home: &Path, exe: &Path, url: &str) -> anyhow::Result<Installed> {
    std::fs::create_dir_all(home).with_context(|| format!("creating {}", home.display()))?;
    let exe = exe.to_str().context("this binary's path is not UTF-8")?;
    let config_path = home.join("config.toml");
    let existing = match std::fs::read_to_string(&config_path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e).context(format!("reading {}", config_path.display())),
    };
    let config = merge_config(&existing, url)?;
    let hooks_path = home.join("hooks.json");
    let existing = match std::fs::read_to_string(&hooks_path) {
        Ok(text) => serde_json::from_str(&text)
            .with_context(|| format!("{} is not JSON", hooks_path.display()))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => json!({}),
        Err(e) => return Err(e).context(format!("reading {}", hooks_path.display())),
    };
    let hooks = merge_hooks(existing, exe, &config.service)?;
    write(&hooks_path, &(serde_json::to_string_pretty(&hooks)? + "\n"))?;
    write(&config_path, &config.text)?;
    Ok(Installed {
        hooks: hooks_path,
        config: config_path,
        command: format!("{} hook", shell_word(exe)),
        url: config.service,
        mcp_server_added: config.added,
    })
}

/// Where Claude Code's user settings are: `$CLAUDE_CONFIG_DIR/settings.json`, else
/// `~/.claude/settings.json`.
pub fn claude_settings() -> anyhow::Result<PathBuf> {
    if let Some(dir) = std::env::var_os("CLAUDE_CONFIG_DIR").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir).join("settings.json"));
    }
    let home = std::env::var_os("HOME").context("neither CLAUDE_CONFIG_DIR nor HOME is set")?;
    Ok(PathBuf::from(home).join(".claude").join("settings.json"))
}

/// The path Claude Code's `http` hooks post to.
pub const HTTP_HOOK_PATH: &str = "/api/v1/hooks/claude-code";

/// What an `http` install wrote.
#[derive(Debug, serde::Serialize)]
pub struct InstalledHttp {
    pub settings: PathBuf,
    /// Where Claude Code posts the hooks.
    pub url: String,
    /// The events hooked.
    pub events: Vec<&'static str>,
}

/// `existing` Claude Code settings with the journal's `http` hook in place of any earlier one:
/// `UserPromptSubmit` (Claude Code 2.1 runs no `http` hook at `SessionStart`) posts to the
/// service, which answers the recent journal once per conversation. The key is Claude Code's
/// `N8V_TOKEN`, interpolated into the header (`allowedEnvVars`), never written to the file.
pub fn merge_http_hooks(mut existing: Value, url: &str) -> anyhow::Result<Value> {
    if !existing.is_object() {
        existing = json!({});
    }
    let target = format!("{}{HTTP_HOOK_PATH}", url.trim_end_matches('/'));
    let hooks = existing
        .as_object_mut()
        .unwrap()
        .entry("hooks")
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .context("settings.json: `hooks` is not an object")?;
    let ours = |h: &Value| {
        h["type"] == "http"
            && h["url"]
                .as_str()
                .is_some_and(|u| u.ends_with(HTTP_HOOK_PATH))
    };
    let groups = hooks
        .entry("UserPromptSubmit")
        .or_insert_with(|| json!([]))
        .as_array_mut()
        .context("settings.json: `UserPromptSubmit` is not a list")?;
    for group in groups.iter_mut() {
        if let Some(list) = group["hooks"].as_array_mut() {
            list.retain(|h| !ours(h));
        }
    }
    groups.retain(|g| g["hooks"].as_array().is_none_or(|l| !l.is_empty()));
    groups.push(json!({"hooks": [{
        "type": "http",
        "url": target,
        "headers": {
            "Authorization": "Bearer $N8V_TOKEN",
            "X-Assistant": crate::import::client::HOOK_ASSISTANT,
            "X-Purpose": "Load the recent journal as a claude-code conversation starts (http hook)",
        },
        "allowedEnvVars": ["N8V_TOKEN"],
        "timeout": 15,
    }]}));
    Ok(existing)
}

/// Installs the `http` hook into Claude Code's settings at `settings`.
pub fn claude_code_http(settings: &Path, url: &str) -> anyhow::Result<InstalledHttp> {
    if let Some(dir) = settings.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let existing = match std::fs::read_to_string(settings) {
        Ok(text) => serde_json::from_str(&text)
            .with_context(|| format!("{} is not JSON", settings.display()))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => json!({}),
        Err(e) => return Err(e).context(format!("reading {}", settings.display())),
    };
    let merged = merge_http_hooks(existing, url)?;
    write(settings, &(serde_json::to_string_pretty(&merged)? + "\n"))?;
    Ok(InstalledHttp {
        settings: settings.to_owned(),
        url: format!("{}{HTTP_HOOK_PATH}", url.trim_end_matches('/')),
        events: vec!["UserPromptSubmit"],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_install_replaces_its_hooks_and_keeps_the_others() {
        let theirs = json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}],
            "SessionStart": [{"hooks": [{"type": "command", "command": "sh integrations/session-start.sh"}]}]}});
        let url = "https://j.example.com";
        let once = merge_hooks(theirs, "/opt/it's/n8v-journal", url).unwrap();
        let twice = merge_hooks(once.clone(), "/opt/it's/n8v-journal", url).unwrap();
        assert_eq!(once, twice);
        let stop = twice["hooks"]["Stop"].as_array().unwrap();
        assert_eq!(stop.len(), 2);
        assert_eq!(stop[0]["hooks"][0]["command"], "say done");
        assert_eq!(
            stop[1]["hooks"][0]["command"],
            r"'/opt/it'\''s/n8v-journal' hook stop --harness codex --url 'https://j.example.com'"
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
        let once = merge_config(mine, "https://j.example.com/").unwrap();
        assert!(once.added);
        assert_eq!(once.service, "https://j.example.com");
        // Asked again for another service, the entry is kept, and the hooks follow it.
        let again = merge_config(&once.text, "http://127.0.0.1:8080").unwrap();
        assert!(!again.added);
        assert_eq!(again.service, "https://j.example.com");
        assert_eq!(once.text, again.text);
        let twice = again.text;
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
