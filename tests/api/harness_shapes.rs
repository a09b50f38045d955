//! What the OpenCode, Pi and Hermes integrations hand `n8v-journal hook`, and the importer, in
//! the shapes those harnesses record, against the fake service: only prose is posted (no tool
//! calls or output, thinking, abandoned branches, recaps or extension notes), labelled with
//! the harness and the project by the rules (the git repository, else the folder; Hermes only
//! in a repository). `tests/api/harnesses.rs` runs the harnesses themselves.

use crate::common::hook::{BIN, Fake, fake_service, fixture, hook, import};
use serde_json::{Value, json};

const PI: &str =
    "pi/--home-ada-acme-web--/2026-11-21T10-00-00-000Z_01a24bac-8ffa-7189-b833-38468e92200a.jsonl";

fn pi_turns() -> Value {
    json!([
        {"role": "user", "text": "Why does the login page redirect forever?"},
        {"role": "assistant", "text": "Let me read the session code."},
        {"role": "assistant", "text": "The cookie is SameSite=Strict; Lax fixes the redirect."},
        {"role": "user", "text": "Make it Lax then."},
        {"role": "assistant", "text": "Done: SameSite=Lax, and the tests pass."},
    ])
}

#[tokio::test]
async fn pis_session_file_is_posted_as_its_current_branch_of_prose() {
    let (url, seen) = fake_service(Fake::Current).await;
    let input = json!({"session_id": "01a24bac-8ffa-7189-b833-38468e92200a",
        "transcript_path": fixture(PI), "cwd": "/home/ada/acme/web"})
    .to_string();
    let ran = hook(&["stop", "--harness", "pi"], &url, Some("n8v_sk_x"), &input).await;
    assert!(ran.quiet().is_empty());
    let summary = import(&url, "n8v_sk_x", "pi", &fixture("pi")).await;
    assert_eq!(summary["imported"], 1, "{summary}");
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 2);
    for s in &seen {
        let body = &s.body;
        assert_eq!(body["harness"], "pi");
        assert_eq!(body["episode_id"], "01a24bac-8ffa-7189-b833-38468e92200a");
        assert_eq!(body["project"], "web", "not on this machine: the folder");
        assert_eq!(body["turns"], pi_turns());
        assert_eq!(body["started_at"], "2026-11-21T10:00:01.000Z");
        assert_eq!(body["ended_at"], "2026-11-21T10:05:30.000Z");
        let all = body.to_string();
        for never in [
            "SECRET-THOUGHT-43",
            "TOOL-RESULT-79",
            "ABANDONED-BRANCH-5",
            "BRANCH-SUMMARY-6",
            "RECAP-SUMMARY-15",
            "EXTENSION-NOTE-7",
            "BASH-OUTPUT-8",
        ] {
            assert!(!all.contains(never), "{never} was posted");
        }
    }
    assert!(seen[0].body.get("ended").is_none(), "a turn is not the end");
}

/// A git repository with a subfolder, and a folder outside any repository.
fn folders() -> (std::path::PathBuf, String, String) {
    let root = std::env::temp_dir().join(format!("n8v-shapes-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(root.join("acme-api/.git")).unwrap();
    std::fs::create_dir_all(root.join("acme-api/src")).unwrap();
    std::fs::create_dir_all(root.join("gateway-service")).unwrap();
    let sub = root.join("acme-api/src").to_str().unwrap().to_owned();
    let plain = root.join("gateway-service").to_str().unwrap().to_owned();
    (root, sub, plain)
}

/// An OpenCode session as its plugin API hands it over (`client.session.messages`, cut by the
/// plugin to its text and compaction parts), compacted once: the turn asking for the summary,
/// the summary, and OpenCode's own "Continue" after it.
fn opencode_messages() -> Value {
    let info =
        |role: &str, at: i64| json!({"role": role, "time": {"created": at}, "summary": false});
    let text = |t: &str| json!({"type": "text", "text": t});
    json!([
        {"info": info("user", 1796565723406), "parts": [text("Add a health check")]},
        {"info": info("assistant", 1796565725000), "parts": [text("Reading the router first.")]},
        {"info": info("user", 1796565730000), "parts": [{"type": "compaction"}, text("What did we do so far?")]},
        {"info": {"role": "assistant", "summary": true, "mode": "compaction", "agent": "compaction",
                  "time": {"created": 1796565731000_i64}}, "parts": [text("RECAP-SUMMARY-17")]},
        {"info": info("user", 1796565732000), "parts": [
            {"type": "text", "text": "Continue if you have next steps", "synthetic": true}]},
        {"info": info("assistant", 1796565783406), "parts": [text("Added /healthz.")]},
    ])
}

/// A Hermes conversation as `post_llm_call` hands it over (cut by the plugin to user and
/// assistant text), compacted once.
fn hermes_messages() -> Value {
    json!([
        {"role": "user", "content": "Add a health check", "at": 1796565723.406},
        {"role": "assistant", "content": "Reading the router first.", "at": 1796565725.0},
        {"role": "user", "content": "[CONTEXT COMPACTION — REFERENCE ONLY] RECAP-SUMMARY-18",
         "_compressed_summary": false, "at": 1796565730.0},
        {"role": "assistant", "content": "RECAP-SUMMARY-19", "_compressed_summary": true, "at": 1796565731.0},
        {"role": "assistant", "content": "Added /healthz.", "at": 1796565783.406},
    ])
}

#[tokio::test]
async fn what_opencode_and_hermes_hand_over_is_prose_labelled_by_the_project_rules() {
    let (url, seen) = fake_service(Fake::Current).await;
    let (root, in_repo, plain) = folders();
    for (harness, cwd) in [
        ("opencode", &in_repo),
        ("opencode", &plain),
        ("hermes", &in_repo),
        ("hermes", &plain),
    ] {
        let messages = if harness == "opencode" {
            opencode_messages()
        } else {
            hermes_messages()
        };
        let input = json!({"session_id": format!("{harness}-1"), "cwd": cwd, "messages": messages});
        let ran = hook(
            &["session-end", "--harness", harness],
            &url,
            Some("n8v_sk_x"),
            &input.to_string(),
        )
        .await;
        assert!(ran.quiet().is_empty());
    }
    let seen = seen.lock().unwrap().clone();
    let labels: Vec<(Value, Value)> = seen
        .iter()
        .map(|s| (s.body["harness"].clone(), s.body["project"].clone()))
        .collect();
    assert_eq!(
        labels,
        [
            (json!("opencode"), json!("acme-api")),
            (json!("opencode"), json!("gateway-service")),
            (json!("hermes"), json!("acme-api")),
            (json!("hermes"), Value::Null),
        ]
    );
    for s in &seen {
        assert_eq!(s.body["ended"], true);
        assert_eq!(
            s.body["turns"],
            json!([
                {"role": "user", "text": "Add a health check"},
                {"role": "assistant", "text": "Reading the router first."},
                {"role": "assistant", "text": "Added /healthz."},
            ]),
            "no recap, no turn asking for it, no harness's own text"
        );
        assert_eq!(s.body["started_at"], "2026-12-06T14:02:03.406Z");
        assert_eq!(s.body["ended_at"], "2026-12-06T14:03:03.406Z");
        let harness = s.body["harness"].as_str().unwrap();
        assert!(s.headers["x-purpose"].to_str().unwrap().contains(harness));
    }
    let nothing = json!({"session_id": "s", "cwd": plain, "messages": [
        {"role": "user", "content": "Only a question"}]});
    let ran = hook(
        &["stop", "--harness", "hermes"],
        &url,
        Some("n8v_sk_x"),
        &nothing.to_string(),
    )
    .await;
    assert!(ran.why().contains("no assistant reply yet"));
    std::fs::remove_dir_all(root).unwrap();
}

#[tokio::test]
async fn each_new_harness_is_off_with_the_switch_and_asks_for_its_window() {
    let (url, seen) = fake_service(Fake::Current).await;
    for harness in ["opencode", "pi", "hermes"] {
        let start = json!({"session_id": "s-1", "cwd": "/tmp"}).to_string();
        let ran = hook(
            &["session-start", "--harness", harness],
            &url,
            Some("t"),
            &start,
        )
        .await;
        assert_eq!(ran.quiet().chars().count(), 9_500, "{harness}");
        let off = crate::common::hook::run(
            BIN,
            &["hook", "session-start", "--harness", harness],
            &[
                ("N8V_URL", url.as_str()),
                ("N8V_TOKEN", "t"),
                ("N8V_JOURNAL", "off"),
            ],
            &start,
        )
        .await;
        assert!(off.why().contains("N8V_JOURNAL=off"), "{}", off.stderr);
    }
    let asked: Vec<String> = seen.lock().unwrap().iter().map(|s| s.uri.clone()).collect();
    assert_eq!(asked, ["/journal.md?max_chars=9500"; 3]);
}

/// Hermes' plugin, as Hermes calls it, in Python: which conversations it posts, the prose it
/// takes from Hermes' messages, and the window after Hermes' own system prompt.
#[tokio::test]
async fn hermes_plugin_posts_the_cli_by_default_and_hands_over_only_user_and_assistant_text() {
    let plugin = format!("{}/integrations/hermes", env!("CARGO_MANIFEST_DIR"));
    let script = r##"
import importlib, json, os, sys
sys.path.insert(0, sys.argv[1])
p = importlib.import_module("n8v-journal")
os.environ.pop("N8V_HERMES_CAPTURE", None)
out = {"cli": p._captures("cli"), "tui": p._captures("tui"), "telegram": p._captures("telegram")}
os.environ["N8V_HERMES_CAPTURE"] = "all"
out["all_telegram"] = p._captures("telegram")
out["all_subagent"] = p._captures("subagent")
os.environ["N8V_HERMES_CAPTURE"] = "off"
out["off_cli"] = p._captures("cli")
history = [
    {"role": "system", "content": "You are Hermes"},
    {"role": "user", "content": "Fix the login"},
    {"role": "assistant", "content": None, "tool_calls": [{"id": "c", "function": {"name": "read_file"}}]},
    {"role": "tool", "content": "TOOL-OUTPUT-12"},
    {"role": "user", "content": "[CONTEXT COMPACTION — REFERENCE ONLY] Earlier turns were compacted RECAP-16"},
    {"role": "assistant", "content": "RECAP-17", "_compressed_summary": True},
    {"role": "assistant", "content": [{"type": "text", "text": "Fixed it."}]},
]
state = p._Session()
out["messages"] = [(m["role"], m["content"], m["_compressed_summary"]) for m in p._messages(state, history)]
out["timed"] = all(isinstance(m["at"], float) for m in p._messages(state, history))
state.window = "# Assistant journal\nW"
state.loading = __import__("threading").Thread(target=lambda: None); state.loading.start()
p._sessions["s"] = state
req = {"messages": [{"role": "system", "content": "You are Hermes"}, {"role": "user", "content": "hi"}]}
out["request"] = p.add_window(request=req, session_id="s", platform="cli")["request"]
out["subagent_request"] = p.add_window(request=req, session_id="s", platform="subagent")
print(json.dumps(out))
"##;
    let out = tokio::process::Command::new("python3")
        .args(["-c", script, &plugin])
        // No __pycache__ left in the repository's copy of the plugin.
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .await
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(got["cli"], true);
    assert_eq!(got["tui"], true);
    assert_eq!(
        got["telegram"], false,
        "a gateway's conversations: off by default"
    );
    assert_eq!(got["all_telegram"], true);
    assert_eq!(
        got["all_subagent"], false,
        "a subagent's is its parent's work"
    );
    assert_eq!(got["off_cli"], false);
    // Tool messages and calls stay in Hermes; the compaction summary goes with its flag, and
    // the binary leaves it out (`the_turns_…` above, and `hook`'s unit tests).
    assert_eq!(
        got["messages"],
        json!([
            ["user", "Fix the login", false],
            [
                "user",
                "[CONTEXT COMPACTION — REFERENCE ONLY] Earlier turns were compacted RECAP-16",
                false
            ],
            ["assistant", "RECAP-17", true],
            ["assistant", "Fixed it.", false],
        ])
    );
    assert_eq!(got["timed"], true);
    assert_eq!(
        got["subagent_request"],
        Value::Null,
        "no window for a subagent"
    );
    assert_eq!(
        got["request"]["messages"],
        json!([{"role": "system", "content": "You are Hermes\n\n# Assistant journal\nW"},
               {"role": "user", "content": "hi"}])
    );
}
