//! The walk-through ("A first conversation, step by step", `docs/walkthrough.md`) runs as
//! written: its shell blocks, in order, with `curl` and `jq`, against a test server; and each
//! block prints what the sample output under it shows, ids and the server's address aside.

use crate::common;

const CHAPTER: &str = include_str!("../../docs/walkthrough.md");
/// Printed between two blocks' output, to tell them apart.
const BETWEEN: &str = "@@ the next block @@";

/// The walk-through's shell blocks, each with the sample output shown under it (a `text`
/// block right after it), without the line that sets the server's address (the test gives its
/// own).
fn blocks() -> Vec<(String, String)> {
    let mut blocks = Vec::new();
    for block in CHAPTER.split("```sh\n").skip(1) {
        let (code, after) = block.split_once("```").expect("a closed block");
        let code: String = code
            .lines()
            .filter(|l| !l.starts_with("N8V="))
            .map(|l| format!("{l}\n"))
            .collect();
        let sample = after
            .trim_start_matches('\n')
            .strip_prefix("```text\n")
            .and_then(|s| s.split_once("```"))
            .map(|(sample, _)| sample.to_owned())
            .unwrap_or_else(|| panic!("no sample output (a ```text block) under:\n{code}"));
        blocks.push((code, sample));
    }
    assert!(blocks.iter().any(|(code, _)| code.contains("/end")));
    blocks
}

/// What may differ between two runs: ids and the server's address.
fn comparable(text: &str, base: &str) -> String {
    let ids = regex::Regex::new(r"\b(ses|itm|rec|call|acc|key|aud)_[0-9A-Za-z]{20,}").unwrap();
    let text = text.replace(base, "http://127.0.0.1:8080");
    ids.replace_all(&text, "${1}_…")
        .lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .to_owned()
}

#[tokio::test]
async fn the_walk_through_runs_as_written_and_prints_its_sample_output() {
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
    let blocks = blocks();
    let script = format!(
        "set -euo pipefail\n{}",
        blocks
            .iter()
            .map(|(code, _)| code.as_str())
            .collect::<Vec<_>>()
            .join(&format!("echo '{BETWEEN}'\n"))
    );
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
    // Each block prints what its sample output shows.
    let printed: Vec<&str> = stdout.split(&format!("{BETWEEN}\n")).collect();
    assert_eq!(printed.len(), blocks.len(), "{stdout}");
    for ((code, sample), printed) in blocks.iter().zip(&printed) {
        assert_eq!(
            comparable(printed, &app.base),
            comparable(sample, &app.base),
            "the sample output under this block of docs/walkthrough.md is not what it prints:\n{code}"
        );
    }
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
