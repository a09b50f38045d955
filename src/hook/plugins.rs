//! `n8v-journal hook install --harness opencode|pi|hermes`: the harnesses whose integration is
//! a plugin in their own extension mechanism (`integrations/<harness>/`), copied into the
//! harness's folder with this binary's absolute path and the service's URL filled in
//! (`INSTALLED`), so it works in every project and without `PATH`:
//!
//! - OpenCode: `plugins/n8v-journal.js` in its config folder (`$OPENCODE_CONFIG_DIR`, else
//!   `$XDG_CONFIG_HOME/opencode`, else `~/.config/opencode`), and the MCP server `n8v` in its
//!   `opencode.jsonc` (the file OpenCode writes) or `opencode.json` when that has none (a file
//!   with comments is left alone and the answer says so);
//! - Pi: `extensions/n8v-journal.ts` in its agent folder (`$PI_CODING_AGENT_DIR`, else
//!   `~/.pi/agent`); Pi has no MCP client;
//! - Hermes: `plugins/n8v-journal/` (`plugin.yaml`, `__init__.py`) in its home (`$HERMES_HOME`,
//!   else `~/.hermes`), enabled in its `config.yaml` (`plugins.enabled`).
//!
//! Running it again writes the same files.

use crate::import::Harness;
use anyhow::Context;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

const OPENCODE_PLUGIN: &str = include_str!("../../integrations/opencode/n8v-journal.js");
const PI_EXTENSION: &str = include_str!("../../integrations/pi/n8v-journal.ts");
const HERMES_MANIFEST: &str = include_str!("../../integrations/hermes/n8v-journal/plugin.yaml");
const HERMES_PLUGIN: &str = include_str!("../../integrations/hermes/n8v-journal/__init__.py");

/// The line each integration carries for the install to fill in.
const JS_BLANK: &str = "const INSTALLED = { bin: null, url: null };";
const PY_BLANK: &str = "INSTALLED = {\"bin\": None, \"url\": None}";

/// What an install wrote.
#[derive(Debug, serde::Serialize)]
pub struct Installed {
    pub harness: &'static str,
    /// The files written.
    pub files: Vec<PathBuf>,
    /// The binary the integration runs.
    pub command: String,
    /// The service it talks to.
    pub url: String,
    /// What else was done or left, in a sentence each.
    pub notes: Vec<String>,
}

/// `template` with its `INSTALLED` line naming `exe` and `url`.
pub fn fill(template: &str, blank: &str, exe: &str, url: &str) -> anyhow::Result<String> {
    anyhow::ensure!(
        template.contains(blank),
        "the integration has no INSTALLED line"
    );
    let (bin, url) = (json!(exe).to_string(), json!(url).to_string());
    let filled = if blank == JS_BLANK {
        format!("const INSTALLED = {{ bin: {bin}, url: {url} }};")
    } else {
        format!("INSTALLED = {{\"bin\": {bin}, \"url\": {url}}}")
    };
    Ok(template.replacen(blank, &filled, 1))
}

fn env_dir(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

fn home() -> anyhow::Result<PathBuf> {
    env_dir("HOME").context("HOME is not set")
}

/// The folder the harness's integration goes under.
pub fn harness_dir(harness: Harness) -> anyhow::Result<PathBuf> {
    Ok(match harness {
        Harness::OpenCode => match env_dir("OPENCODE_CONFIG_DIR") {
            Some(dir) => dir,
            None => env_dir("XDG_CONFIG_HOME")
                .map(Ok)
                .unwrap_or_else(|| home().map(|h| h.join(".config")))?
                .join("opencode"),
        },
        Harness::Pi => match env_dir("PI_CODING_AGENT_DIR") {
            Some(dir) => dir,
            None => home()?.join(".pi").join("agent"),
        },
        Harness::Hermes => match env_dir("HERMES_HOME") {
            Some(dir) => dir,
            None => home()?.join(".hermes"),
        },
        Harness::ClaudeCode | Harness::Codex => {
            anyhow::bail!("{} is set up by its own install", harness.name())
        }
    })
}

/// [`super::install::write`], making the folder first.
fn write(path: &Path, text: &str) -> anyhow::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    super::install::write(path, text)
}

/// `existing` opencode.json with the MCP server `n8v` added when it has none (`None`: kept).
pub fn merge_opencode_config(mut existing: Value, url: &str) -> anyhow::Result<Option<Value>> {
    if !existing.is_object() {
        existing = json!({"$schema": "https://opencode.ai/config.json"});
    }
    let mcp = existing
        .as_object_mut()
        .unwrap()
        .entry("mcp")
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .context("opencode.json: `mcp` is not an object")?;
    if mcp.contains_key("n8v") {
        return Ok(None);
    }
    mcp.insert(
        "n8v".into(),
        json!({
            "type": "remote",
            "url": format!("{}/mcp", url.trim_end_matches('/')),
            "headers": {"Authorization": "Bearer {env:N8V_TOKEN}", "X-Assistant": "opencode"},
        }),
    );
    Ok(Some(existing))
}

/// Hermes' `config.yaml` text with `n8v-journal` in `plugins.enabled` (`None`: already there).
/// Only the `plugins:` block is touched; a file whose `plugins` is not a plain block is left
/// alone (`Err`).
pub fn enable_hermes_plugin(existing: &str) -> anyhow::Result<Option<String>> {
    const NAME: &str = "n8v-journal";
    let lines: Vec<&str> = existing.lines().collect();
    let Some(start) = lines.iter().position(|l| l.trim_end() == "plugins:") else {
        anyhow::ensure!(
            !lines.iter().any(|l| l.starts_with("plugins:")),
            "config.yaml: `plugins` is not a block"
        );
        let mut text = existing.to_owned();
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&format!("plugins:\n  enabled:\n    - {NAME}\n"));
        return Ok(Some(text));
    };
    let end = lines[start + 1..]
        .iter()
        .position(|l| !l.trim().is_empty() && !l.starts_with(' ') && !l.starts_with('#'))
        .map_or(lines.len(), |n| start + 1 + n);
    let block = &lines[start + 1..end];
    if block.iter().any(|l| l.trim() == format!("- {NAME}")) {
        return Ok(None);
    }
    let mut out: Vec<String> = lines[..=start].iter().map(|l| l.to_string()).collect();
    let empty = block.iter().position(|l| l.trim_end() == "  enabled: []");
    match (
        block.iter().position(|l| l.trim_end() == "  enabled:"),
        empty,
    ) {
        (None, Some(at)) => {
            out.extend(block[..at].iter().map(|l| l.to_string()));
            out.push("  enabled:".into());
            out.push(format!("    - {NAME}"));
            out.extend(block[at + 1..].iter().map(|l| l.to_string()));
        }
        (Some(at), _) => {
            // The list's own indentation (YAML allows `- item` level with its key).
            let indent = block
                .get(at + 1)
                .filter(|l| l.trim_start().starts_with("- "))
                .map_or("    ", |l| &l[..l.len() - l.trim_start().len()]);
            out.extend(block[..=at].iter().map(|l| l.to_string()));
            out.push(format!("{indent}- {NAME}"));
            out.extend(block[at + 1..].iter().map(|l| l.to_string()));
        }
        (None, None) => {
            anyhow::ensure!(
                !block.iter().any(|l| l.trim_start().starts_with("enabled:")),
                "config.yaml: `plugins.enabled` is not a list"
            );
            out.push("  enabled:".into());
            out.push(format!("    - {NAME}"));
            out.extend(block.iter().map(|l| l.to_string()));
        }
    }
    out.extend(lines[end..].iter().map(|l| l.to_string()));
    Ok(Some(out.join("\n") + "\n"))
}

/// Installs the integration of `harness` into `dir` (its folder, [`harness_dir`]).
pub fn install(harness: Harness, dir: &Path, exe: &Path, url: &str) -> anyhow::Result<Installed> {
    let exe = exe.to_str().context("this binary's path is not UTF-8")?;
    let url = url.trim_end_matches('/');
    let mut files = Vec::new();
    let mut notes = Vec::new();
    match harness {
        Harness::OpenCode => {
            let plugin = dir.join("plugins").join("n8v-journal.js");
            write(&plugin, &fill(OPENCODE_PLUGIN, JS_BLANK, exe, url)?)?;
            files.push(plugin);
            // OpenCode writes an `opencode.jsonc` of its own on its first start; one that is
            // plain JSON (no comments) is merged like `opencode.json`.
            let jsonc = dir.join("opencode.jsonc");
            let config = if jsonc.exists() {
                jsonc
            } else {
                dir.join("opencode.json")
            };
            let existing = match std::fs::read_to_string(&config) {
                Ok(text) => serde_json::from_str(&text).ok(),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(Value::Null),
                Err(e) => return Err(e).context(format!("reading {}", config.display())),
            };
            match existing
                .map(|e| merge_opencode_config(e, url))
                .transpose()?
            {
                Some(Some(merged)) => {
                    write(&config, &(serde_json::to_string_pretty(&merged)? + "\n"))?;
                    notes.push(format!(
                        "the MCP server n8v was added to {}",
                        config.display()
                    ));
                    files.push(config);
                }
                Some(None) => notes.push(format!(
                    "{} already has an MCP server n8v",
                    config.display()
                )),
                None => notes.push(format!(
                    "{} is not plain JSON (comments?) and is left as it is: add the MCP server \
                     n8v there by hand (integrations/README.md, OpenCode)",
                    config.display()
                )),
            }
        }
        Harness::Pi => {
            let extension = dir.join("extensions").join("n8v-journal.ts");
            write(&extension, &fill(PI_EXTENSION, JS_BLANK, exe, url)?)?;
            files.push(extension);
            notes.push("Pi has no MCP client: the journal reaches it through the window".into());
        }
        Harness::Hermes => {
            let plugin = dir.join("plugins").join("n8v-journal");
            write(&plugin.join("plugin.yaml"), HERMES_MANIFEST)?;
            write(
                &plugin.join("__init__.py"),
                &fill(HERMES_PLUGIN, PY_BLANK, exe, url)?,
            )?;
            files.push(plugin.join("plugin.yaml"));
            files.push(plugin.join("__init__.py"));
            let config = dir.join("config.yaml");
            let existing = match std::fs::read_to_string(&config) {
                Ok(text) => text,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
                Err(e) => return Err(e).context(format!("reading {}", config.display())),
            };
            match enable_hermes_plugin(&existing) {
                Ok(Some(text)) => {
                    write(&config, &text)?;
                    files.push(config);
                    notes.push("n8v-journal was enabled in config.yaml (plugins.enabled)".into());
                }
                Ok(None) => notes.push("config.yaml already enables n8v-journal".into()),
                Err(e) => notes.push(format!(
                    "{e:#}: enable the plugin by hand (`hermes plugins enable n8v-journal`)"
                )),
            }
        }
        Harness::ClaudeCode | Harness::Codex => {
            anyhow::bail!("{} is set up by its own install", harness.name())
        }
    }
    Ok(Installed {
        harness: harness.name(),
        files,
        command: exe.to_owned(),
        url: url.to_owned(),
        notes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_integration_gets_the_binary_and_the_url() {
        for (template, blank) in [
            (OPENCODE_PLUGIN, JS_BLANK),
            (PI_EXTENSION, JS_BLANK),
            (HERMES_PLUGIN, PY_BLANK),
        ] {
            let filled = fill(template, blank, "/opt/it's \"x\"/n8v-journal", "https://j").unwrap();
            assert!(!filled.contains(blank));
            assert!(
                filled.contains(r#""/opt/it's \"x\"/n8v-journal""#),
                "{filled}"
            );
            assert!(filled.contains(r#""https://j""#));
        }
    }

    #[test]
    fn opencode_gets_the_mcp_server_once() {
        let mine = json!({"model": "a/b", "mcp": {"other": {"type": "local"}}});
        let once = merge_opencode_config(mine, "https://j.example.com/")
            .unwrap()
            .unwrap();
        assert_eq!(once["model"], "a/b");
        assert_eq!(once["mcp"]["other"]["type"], "local");
        assert_eq!(once["mcp"]["n8v"]["url"], "https://j.example.com/mcp");
        assert!(merge_opencode_config(once, "http://x").unwrap().is_none());
        let fresh = merge_opencode_config(Value::Null, "http://x")
            .unwrap()
            .unwrap();
        assert_eq!(fresh["mcp"]["n8v"]["url"], "http://x/mcp");
    }

    #[test]
    fn hermes_enables_the_plugin_once_and_keeps_the_rest() {
        let added = enable_hermes_plugin("model:\n  default: x\n")
            .unwrap()
            .unwrap();
        assert_eq!(
            added,
            "model:\n  default: x\nplugins:\n  enabled:\n    - n8v-journal\n"
        );
        assert!(enable_hermes_plugin(&added).unwrap().is_none());
        let theirs = "plugins:\n  enabled:\n    - other\n  disabled: []\nmodel:\n  default: x\n";
        let merged = enable_hermes_plugin(theirs).unwrap().unwrap();
        assert_eq!(
            merged,
            "plugins:\n  enabled:\n    - n8v-journal\n    - other\n  disabled: []\nmodel:\n  default: x\n"
        );
        assert_eq!(
            enable_hermes_plugin("plugins:\n  enabled:\n  - other\n")
                .unwrap()
                .unwrap(),
            "plugins:\n  enabled:\n  - n8v-journal\n  - other\n"
        );
        assert_eq!(
            enable_hermes_plugin("plugins:\n  enabled: []\n")
                .unwrap()
                .unwrap(),
            "plugins:\n  enabled:\n    - n8v-journal\n"
        );
        let no_list = "plugins:\n  disabled: []\n";
        assert_eq!(
            enable_hermes_plugin(no_list).unwrap().unwrap(),
            "plugins:\n  enabled:\n    - n8v-journal\n  disabled: []\n"
        );
        assert!(enable_hermes_plugin("plugins: {}\n").is_err());
    }
}
