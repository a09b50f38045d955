//! The README's walk-through ("A first conversation, step by step") runs as written: its shell
//! blocks, in order, with `curl` and `jq`, against a test server, and end where it says.

use crate::common;

/// The walk-through's shell blocks, joined, without the line that sets the server's address
/// (the test gives its own).
fn walkthrough() -> String {
    let readme = include_str!("../../README.md");
    let start = readme
        .find("\n## A first conversation, step by step\n")
        .expect("the README's walk-through");
    let section = &readme[start + 1..];
    let section = &section[..section[3..]
        .find("\n## ")
        .map_or(section.len(), |end| end + 3)];
    let mut script = String::new();
    for block in section.split("```sh\n").skip(1) {
        let (code, _) = block.split_once("```").expect("a closed block");
        for line in code.lines().filter(|l| !l.starts_with("N8V=")) {
            script.push_str(line);
            script.push('\n');
        }
    }
    assert!(script.contains("/end"), "{script}");
    script
}

#[tokio::test]
async fn the_readmes_walk_through_runs_as_written() {
    for tool in ["curl", "jq", "bash"] {
        let found = std::process::Command::new("sh")
            .args(["-c", &format!("command -v {tool}")])
            .output()
            .unwrap();
        assert!(
            found.status.success(),
            "the walk-through test needs {tool} (apt-get install curl jq)"
        );
    }
    let app = common::spawn_app().await;
    let a = app.account("Ada", crate::common::JOURNAL_SCOPES).await;
    app.journal_on(a.id).await;
    let script = format!("set -euo pipefail\n{}", walkthrough());
    let (base, token) = (app.base.clone(), a.token.clone());
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new("bash")
            .args(["-c", &script])
            .env("N8V", base)
            .env("TOKEN", token)
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    // Each step shows what it says it does.
    for seen in [
        "/journal",
        "appendRecordEntry 201 Put the release date on record",
        "Release on Friday",
        "\"outcome\": \"Release notes tidied; the date is on record\"",
        "Should the changelog name its contributors?",
        "next_step Send the notes for review",
        "\"state\": \"done\"",
    ] {
        assert!(stdout.contains(seen), "{seen:?} not in:\n{stdout}");
    }
    // And the service holds it: the loop closed, the question still open.
    let loops = app
        .call(reqwest::Method::GET, "/api/v1/journal/loops?state=all")
        .token(&a.token)
        .ok(200)
        .await;
    let states: Vec<(String, String)> = loops["loops"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["kind"].as_str().unwrap().into(),
                l["state"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(states.len(), 2, "{loops}");
    assert!(
        states.contains(&("next_step".into(), "done".into())),
        "{loops}"
    );
    assert!(
        states.contains(&("question".into(), "open".into())),
        "{loops}"
    );
}
