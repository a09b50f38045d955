//! How the hooks are installed: the Claude Code plugin's files have their documented formats
//! (`integrations/check_configs.py --formats`), its wrapper says when the binary is missing or
//! too old, and `n8v-journal hook install --harness codex` writes hooks that run this binary
//! by its absolute path from any directory, merged into what Codex already has.

use crate::common::hook::{BIN, Fake, ROOT, closed_port, fake_service, run};
use serde_json::{Value, json};
use std::path::Path;

fn check_formats(root: &Path) -> std::process::Output {
    std::process::Command::new("python3")
        .arg(format!("{ROOT}/integrations/check_configs.py"))
        .args(["--formats", "--root"])
        .arg(root)
        .output()
        .expect("python3 runs integrations/check_configs.py")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("n8v-{name}-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Edits the JSON file `path` under `root` with `change`.
fn edit(root: &Path, path: &str, change: impl FnOnce(&mut Value)) {
    let path = root.join(path);
    let mut value: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    change(&mut value);
    std::fs::write(path, value.to_string()).unwrap();
}

#[test]
fn the_plugin_marketplace_and_hooks_have_their_documented_formats() {
    let committed = check_formats(&Path::new(ROOT).join("integrations"));
    assert!(
        committed.status.success(),
        "{}",
        String::from_utf8_lossy(&committed.stderr)
    );
    // The check can fail: each of these breaks one documented rule.
    type Break = fn(&Path);
    let breaks: [(&str, Break); 5] = [
        ("kebab-case", |r| {
            edit(r, "claude-code/.claude-plugin/plugin.json", |v| {
                v["name"] = json!("N8V Journal")
            })
        }),
        ("names the plugin", |r| {
            edit(r, "claude-code/.claude-plugin/marketplace.json", |v| {
                v["plugins"][0]["name"] = json!("other")
            })
        }),
        ("`owner` is required", |r| {
            edit(r, "claude-code/.claude-plugin/marketplace.json", |v| {
                v.as_object_mut().unwrap().remove("owner");
            })
        }),
        ("path into this repository", |r| {
            edit(r, "codex/hooks.json", |v| {
                v["hooks"]["Stop"][0]["hooks"][0]["command"] = json!("sh integrations/x.sh")
            })
        }),
        ("no hook event", |r| {
            edit(r, "claude-code/hooks/hooks.json", |v| {
                v["hooks"]["SessionFinish"] = v["hooks"]["SessionEnd"].clone()
            })
        }),
    ];
    for (said, break_it) in breaks {
        let root = temp_dir("formats");
        copy_dir(&Path::new(ROOT).join("integrations"), &root);
        break_it(&root);
        let out = check_formats(&root);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && stderr.contains(said),
            "{said}: {stderr}"
        );
        std::fs::remove_dir_all(root).unwrap();
    }
}

#[tokio::test]
async fn the_plugins_wrapper_says_when_the_binary_is_missing_or_too_old() {
    let wrapper = format!("{ROOT}/integrations/claude-code/hooks/n8v-hook.sh");
    let bin_dir = temp_dir("path");
    let only = |dir: &Path| format!("{}:/usr/bin:/bin", dir.display());
    let path = only(&bin_dir);
    let ran = run(
        "/bin/sh",
        &[wrapper.as_str(), "session-start"],
        &[("PATH", path.as_str())],
        "{}",
    )
    .await;
    assert!(
        ran.why().contains("n8v-journal is not on PATH"),
        "{}",
        ran.stderr
    );
    // An n8v-journal from before the hooks: clap refuses the unknown command with status 2.
    let old = bin_dir.join("n8v-journal");
    std::fs::write(
        &old,
        "#!/bin/sh\necho \"error: unrecognized subcommand 'hook'\" >&2\nexit 2\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o755)).unwrap();
    let ran = run(
        "/bin/sh",
        &[wrapper.as_str(), "session-end"],
        &[("PATH", path.as_str())],
        "{}",
    )
    .await;
    assert!(
        ran.why().contains("older than this plugin"),
        "{}",
        ran.stderr
    );
    // This binary: the wrapper hands over, and the binary says why it did nothing.
    std::fs::remove_file(&old).unwrap();
    std::os::unix::fs::symlink(BIN, &old).unwrap();
    let env = [("PATH", path.as_str()), ("N8V_JOURNAL", "off")];
    let ran = run("/bin/sh", &[wrapper.as_str(), "pre-compact"], &env, "{}").await;
    assert_eq!(
        ran.why(),
        "n8v-journal hook pre-compact: the journal is off on this machine (N8V_JOURNAL=off)"
    );
    std::fs::remove_dir_all(bin_dir).unwrap();
}

#[tokio::test]
async fn codex_installs_in_one_step_with_hooks_that_run_from_any_directory() {
    let home = temp_dir("codex-home");
    std::fs::write(home.join("config.toml"), "model = \"o4\"\n").unwrap();
    let theirs =
        json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}});
    std::fs::write(home.join("hooks.json"), theirs.to_string()).unwrap();
    let home_arg = home.to_str().unwrap();
    let args = [
        "hook",
        "install",
        "--harness",
        "codex",
        "--codex-home",
        home_arg,
    ];
    let env = [("N8V_URL", "https://journal.example.com")];
    let first = run(BIN, &args, &env, "").await;
    let installed: Value = serde_json::from_str(first.quiet()).unwrap();
    assert_eq!(installed["mcp_server_added"], true);
    let hooks_once = std::fs::read_to_string(home.join("hooks.json")).unwrap();
    let second = run(BIN, &args, &env, "").await;
    second.quiet();
    assert_eq!(
        std::fs::read_to_string(home.join("hooks.json")).unwrap(),
        hooks_once,
        "a second install changes nothing"
    );
    let config = std::fs::read_to_string(home.join("config.toml")).unwrap();
    assert!(config.starts_with("model = \"o4\"\n"), "{config}");
    assert!(config.contains("codex_hooks = true"), "{config}");
    assert!(
        config.contains("url = \"https://journal.example.com/mcp\""),
        "{config}"
    );

    let hooks: Value = serde_json::from_str(&hooks_once).unwrap();
    assert_eq!(hooks["hooks"]["Stop"][0]["hooks"][0]["command"], "say done");
    let start = hooks["hooks"]["SessionStart"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap();
    let exe = std::fs::canonicalize(BIN).unwrap();
    assert!(
        start.starts_with(&format!("'{}' hook session-start", exe.display())),
        "{start}"
    );
    // Codex runs the command in the conversation's project, whatever it is, through a shell.
    let elsewhere = temp_dir("project");
    let ran = tokio::process::Command::new("/bin/sh")
        .args(["-c", start])
        .current_dir(&elsewhere)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .stdin(std::process::Stdio::null())
        .output()
        .await
        .unwrap();
    assert!(ran.status.success());
    assert!(
        String::from_utf8_lossy(&ran.stderr).contains("N8V_TOKEN is not set where codex runs"),
        "{ran:?}"
    );
    let claude = run(
        BIN,
        &["hook", "install", "--harness", "claude-code"],
        &[],
        "",
    )
    .await;
    assert!(!claude.status.success() && claude.stderr.contains("/plugin marketplace add"));
    std::fs::remove_dir_all(home).unwrap();
    std::fs::remove_dir_all(elsewhere).unwrap();
}

#[test]
fn the_plugin_is_versioned_as_the_binary() {
    // `claude plugin validate --strict` (.ci/plugin-check) fails on a manifest without one;
    // the plugin's hooks run this binary, so they are released together.
    let path = format!("{ROOT}/integrations/claude-code/.claude-plugin/plugin.json");
    let manifest: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(manifest["version"], env!("CARGO_PKG_VERSION"));
}

#[tokio::test]
async fn codex_hooks_talk_to_the_service_its_mcp_entry_names() {
    // The entry an earlier install (or the person) wrote is kept, and the hooks follow it,
    // whatever N8V_URL says where the install runs and where Codex runs the hooks.
    let (url, seen) = fake_service(Fake::Current).await;
    let home = temp_dir("codex-url");
    std::fs::write(
        home.join("config.toml"),
        format!("[mcp_servers.n8v]\nurl = \"{url}/mcp\"\nbearer_token_env_var = \"N8V_TOKEN\"\n"),
    )
    .unwrap();
    let home_arg = home.to_str().unwrap();
    let args = [
        "hook",
        "install",
        "--harness",
        "codex",
        "--codex-home",
        home_arg,
    ];
    let elsewhere = closed_port().await;
    let ran = run(BIN, &args, &[("N8V_URL", elsewhere.as_str())], "").await;
    let installed: Value = serde_json::from_str(ran.quiet()).unwrap();
    assert_eq!(installed["mcp_server_added"], false);
    assert_eq!(installed["url"], url.as_str());
    let hooks: Value =
        serde_json::from_str(&std::fs::read_to_string(home.join("hooks.json")).unwrap()).unwrap();
    for event in ["SessionStart", "Stop"] {
        let command = hooks["hooks"][event][0]["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(command.ends_with(&format!("--url '{url}'")), "{command}");
        // As Codex runs it: through a shell, with N8V_TOKEN and a stale N8V_URL.
        let transcript = format!(
            "{ROOT}/tests/fixtures/import/{}",
            crate::common::hook::CODEX
        );
        let stdin = crate::common::hook::input(event, &transcript);
        let env = [("N8V_TOKEN", "n8v_sk_x"), ("N8V_URL", elsewhere.as_str())];
        let ran = run("/bin/sh", &["-c", command.as_str()], &env, &stdin).await;
        ran.quiet();
    }
    let paths: Vec<String> = seen
        .lock()
        .unwrap()
        .iter()
        .map(|s| s.uri.split('?').next().unwrap().to_owned())
        .collect();
    // Codex's budget counts bytes: the window is asked for twice of the fake's wide text.
    let mut reached = paths.clone();
    reached.dedup();
    assert_eq!(
        reached,
        ["/journal.md", "/api/v1/journal/episodes"],
        "{paths:?}"
    );
    std::fs::remove_dir_all(home).unwrap();
}
