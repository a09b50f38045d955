//! The real OpenCode, Pi and Hermes, installed from their registries (pinned in `.ci/tools.sh`),
//! run headless against a local model speaking the OpenAI-compatible wire format
//! (`common::chat`) that keeps every request, with the journal's integration installed by
//! `n8v-journal hook install --harness …` into a HOME of their own, and a live test server.
//! For each one:
//!
//! - the window is in the system prompt of the session's first request, once, and the same
//!   text is in every later request of the session (a tool call makes a second), fetched from
//!   the service once;
//! - the conversation arrives as an episode labelled with the harness and the project (the git
//!   repository it ran in, from a subfolder; Hermes outside one: none), and its prose reaches the
//!   drafting model without the tool's output or a compaction recap;
//! - with `N8V_JOURNAL=off` nothing loads and nothing is posted.
//!
//! Without the harnesses installed the tests say so and pass, unless `CI` is set: there they
//! must run (`.ci/run` installs them in the background, `.ci/tools.sh`).

use crate::common;
use crate::common::chat::{self, Chat};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The test window's marker: an earlier entry, drafted before the harness runs.
const EARLIER: &str = "EARLIER-ENTRY-33: shipped the billing page.";
/// What the read tool finds: it must never reach the journal.
const TOOL_OUTPUT: &str = "TOOL-OUTPUT-99 the file's contents";
const WINDOW_HEAD: &str = "# Assistant journal";

/// The harness's program, or `None` (said) when it is not installed and this is not CI.
fn installed(what: &str, env: &str, default: &str) -> Option<PathBuf> {
    let path = PathBuf::from(std::env::var(env).unwrap_or_else(|_| default.into()));
    if path.exists() {
        return Some(path);
    }
    let why = format!(
        "{what} is not installed at {} (set {env}, or run `. .ci/tools.sh`, which installs it)",
        path.display()
    );
    if std::env::var_os("CI").is_some() {
        panic!("{why}; under CI the harness tests must run");
    }
    eprintln!("skipped: {why}");
    None
}

/// A run's world: the service, the drafting model, the chat stand-in, a HOME and a git
/// repository with a subfolder to run in.
struct World {
    app: common::TestApp,
    token: String,
    drafts: common::model::Model,
    chat: Chat,
    chat_url: String,
    root: PathBuf,
    home: PathBuf,
    repo: PathBuf,
    workdir: PathBuf,
}

impl World {
    async fn new() -> World {
        let summary = json!({"summary": EARLIER, "decisions": [], "work_started": [],
            "work_finished": ["Shipped"], "open_questions": []});
        let (gemini, drafts) = common::model::gemini(summary, true).await;
        let app = common::spawn_app_configured(|c| common::use_gemini(c, &gemini)).await;
        let a = app.account("A", common::JOURNAL_SCOPES).await;
        app.journal_on(a.id).await;
        // An earlier conversation, drafted: the window has an entry to hand over.
        let earlier = app
            .post(
                &a.token,
                "/api/v1/journal/episodes",
                json!({"episode_id": "earlier-1", "harness": "claude-code", "project": "billing",
                    "started_at": "2026-12-01T09:00:00Z", "ended_at": "2026-12-01T09:30:00Z",
                    "ended": true, "turns": [
                        {"role": "user", "text": "Ship the billing page."},
                        {"role": "assistant", "text": "Shipped."}]}),
            )
            .await;
        assert!(earlier.status().is_success(), "{}", earlier.status());
        let (chat_url, chat) = chat::serve().await;
        let root = std::env::temp_dir().join(format!("n8v-harness-{}", uuid::Uuid::new_v4()));
        let home = root.join("home");
        let repo = root.join("acme-shop");
        let workdir = repo.join("web");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(&workdir).unwrap();
        let git = std::process::Command::new("git")
            .args(["init", "-q"])
            .current_dir(&repo)
            .status();
        if !git.is_ok_and(|s| s.success()) {
            std::fs::create_dir_all(repo.join(".git")).unwrap();
        }
        let notes = workdir.join("notes.txt");
        std::fs::write(&notes, format!("{TOOL_OUTPUT}\n")).unwrap();
        chat.read_file(notes.to_str().unwrap());
        World {
            app,
            token: a.token,
            drafts,
            chat,
            chat_url,
            root,
            home,
            repo,
            workdir,
        }
    }

    /// The window as the service hands it to a harness now.
    async fn window(&self) -> String {
        let answer = self
            .app
            .get(&self.token, "/journal.md?max_chars=9500")
            .await;
        assert!(answer.status().is_success());
        let text = answer.text().await.unwrap();
        assert!(text.contains(EARLIER), "{text}");
        text.trim().to_owned()
    }

    /// `n8v-journal hook install --harness <harness>` into this HOME.
    async fn install(&self, harness: &str) -> Value {
        let out = tokio::process::Command::new(common::hook::BIN)
            .args(["hook", "install", "--harness", harness])
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap())
            .env("HOME", &self.home)
            .env("N8V_URL", &self.app.base)
            .output()
            .await
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    }

    /// Runs `program args` in `dir` with this HOME, the key, and `env`; its output.
    async fn run(&self, program: &Path, args: &[&str], dir: &Path, env: &[(&str, &str)]) -> String {
        let path = format!(
            "{}:{}",
            program.parent().unwrap().display(),
            std::env::var("PATH").unwrap()
        );
        let child = tokio::process::Command::new(program)
            .args(args)
            .current_dir(dir)
            .env_clear()
            .env("PATH", path)
            .env("HOME", &self.home)
            .env("N8V_TOKEN", &self.token)
            .envs(env.iter().copied())
            .stdin(std::process::Stdio::null())
            .kill_on_drop(true)
            .output();
        let out = tokio::time::timeout(Duration::from_secs(240), child)
            .await
            .unwrap_or_else(|_| panic!("{} did not finish in 240 s", program.display()))
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.status.success(),
            "{} {args:?}: {}\n{text}",
            program.display(),
            out.status
        );
        text
    }

    /// `n8v-journal import --harness <harness> <path>` against the service; its summary.
    async fn import(&self, harness: &str, path: &Path) -> Value {
        let path = path.to_str().unwrap();
        common::hook::import(&self.app.base, &self.token, harness, path).await
    }

    /// How often the window was read from the service.
    async fn reads(&self) -> i64 {
        sqlx::query_scalar("SELECT count(*) FROM audit_log WHERE path LIKE '/journal.md%'")
            .fetch_one(&self.app.owner)
            .await
            .unwrap()
    }

    /// The episodes of `harness`: (id, project).
    async fn episodes(&self, harness: &str) -> Vec<(String, Option<String>)> {
        sqlx::query_as(
            "SELECT episode_id, repository FROM journal_sessions \
             WHERE kind = 'episode' AND assistant = $1 ORDER BY episode_id",
        )
        .bind(harness)
        .fetch_all(&self.app.owner)
        .await
        .unwrap()
    }

    /// What the drafting model was sent about the conversation that holds `prompt`.
    fn drafted(&self, prompt: &str) -> String {
        let all: Vec<String> = self
            .drafts
            .requests()
            .iter()
            .map(Value::to_string)
            .filter(|r| r.contains(prompt))
            .collect();
        assert!(!all.is_empty(), "no draft was asked for the conversation");
        all.join("\n")
    }

    fn project(&self) -> String {
        self.repo.file_name().unwrap().to_str().unwrap().to_owned()
    }
}

impl Drop for World {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// The conversation's own requests (not a title's, not a compaction's), as the stand-in got them.
fn conversation(chat: &Chat) -> Vec<Value> {
    chat.requests()
        .into_iter()
        .filter(|r| !chat::is_compaction(r))
        .filter(|r| !chat::system_prompt(r).starts_with("You are a title generator"))
        .collect()
}

/// Checks the window in every request of one session: in the system prompt of the first, once,
/// and the same text in each later one.
fn window_held(requests: &[Value], window: &str) {
    assert!(
        requests.len() >= 2,
        "a tool call makes a second request: {}",
        requests.len()
    );
    for (n, request) in requests.iter().enumerate() {
        let system = chat::system_prompt(request);
        assert_eq!(
            system.matches(WINDOW_HEAD).count(),
            1,
            "request {n}: the window once in the system prompt:\n{system}"
        );
        assert!(system.contains(window), "request {n}: the same window");
        let rest: String = request["messages"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["role"] != "system" && m["role"] != "developer")
            .map(|m| m.to_string())
            .collect();
        assert!(
            !rest.contains(WINDOW_HEAD),
            "request {n}: only in the system prompt"
        );
    }
}

fn nothing_loaded(requests: &[Value]) {
    assert!(!requests.is_empty());
    for request in requests {
        assert!(!request.to_string().contains(WINDOW_HEAD));
    }
}

#[tokio::test]
async fn opencode_loads_the_window_once_and_posts_its_conversation() {
    let Some(opencode) = installed(
        "OpenCode",
        "N8V_OPENCODE_BIN",
        "/var/tmp/n8v-journal-harnesses/node_modules/.bin/opencode",
    ) else {
        return;
    };
    let world = World::new().await;
    let installed = world.install("opencode").await;
    let plugin = world.home.join(".config/opencode/plugins/n8v-journal.js");
    assert_eq!(installed["files"][0], plugin.to_str().unwrap());
    // The stand-in as the project's provider, with a small context so a compaction comes.
    std::fs::write(
        world.repo.join("opencode.json"),
        json!({"$schema": "https://opencode.ai/config.json",
            "provider": {"standin": {"npm": "@ai-sdk/openai-compatible", "name": "Stand-in",
                "options": {"baseURL": world.chat_url, "apiKey": "x"},
                "models": {"stand-in": {"name": "Stand-in",
                    "limit": {"context": 20000, "output": 1000}}}}},
            "model": "standin/stand-in", "autoupdate": false, "share": "disabled"})
        .to_string(),
    )
    .unwrap();
    let cache = std::env::var("N8V_HARNESS_NODE_TOOLS")
        .unwrap_or_else(|_| "/var/tmp/n8v-journal-harnesses".into());
    let npm_cache = format!("{cache}/npm-cache");
    let env = [
        ("OPENCODE_DISABLE_MODELS_FETCH", "1"),
        ("OPENCODE_DISABLE_AUTOUPDATE", "1"),
        ("npm_config_cache", npm_cache.as_str()),
    ];
    let window = world.window().await;
    let reads = world.reads().await;

    world.chat.compact_next(19_000);
    let prompt = "Fix the login redirect PROMPT-OC-1";
    world
        .run(&opencode, &["run", prompt], &world.workdir, &env)
        .await;
    let requests = conversation(&world.chat);
    window_held(&requests, &window);
    assert!(
        world.chat.requests().iter().any(chat::is_compaction),
        "OpenCode compacted the conversation"
    );
    for side in world
        .chat
        .requests()
        .iter()
        .filter(|r| chat::is_compaction(r))
    {
        assert!(
            !side.to_string().contains(WINDOW_HEAD),
            "not in a compaction's prompt"
        );
    }
    assert_eq!(world.reads().await, reads + 1, "fetched once");
    let episodes = world.episodes("opencode").await;
    assert_eq!(episodes.len(), 1, "{episodes:?}");
    assert!(episodes[0].0.starts_with("ses_"), "{episodes:?}");
    assert_eq!(episodes[0].1.as_deref(), Some(world.project().as_str()));
    let drafted = world.drafted("PROMPT-OC-1");
    assert!(drafted.contains("REPLY-"), "{drafted}");
    for never in [
        TOOL_OUTPUT,
        chat::RECAP,
        "Continue if you have next steps",
        WINDOW_HEAD,
    ] {
        assert!(
            !drafted.contains(never),
            "{never} reached the journal: {drafted}"
        );
    }

    world.chat.clear();
    let reads = world.reads().await;
    let mut off = env.to_vec();
    off.push(("N8V_JOURNAL", "off"));
    world
        .run(
            &opencode,
            &["run", "Another one PROMPT-OC-2"],
            &world.workdir,
            &off,
        )
        .await;
    nothing_loaded(&conversation(&world.chat));
    assert_eq!(world.reads().await, reads);
    assert_eq!(world.episodes("opencode").await.len(), 1, "nothing posted");

    // OpenCode's database, imported: the captured session is there already, the other one new.
    let imported = world
        .import("opencode", &world.home.join(".local/share/opencode"))
        .await;
    assert_eq!(
        imported,
        json!({"files": 2, "imported": 1, "already_there": 1, "skipped": 0, "failed": 0})
    );
    assert_eq!(world.episodes("opencode").await.len(), 2);
}

#[tokio::test]
async fn pi_loads_the_window_once_and_posts_its_conversation() {
    let Some(pi) = installed(
        "Pi",
        "N8V_PI_BIN",
        "/var/tmp/n8v-journal-harnesses/node_modules/.bin/pi",
    ) else {
        return;
    };
    let world = World::new().await;
    let installed = world.install("pi").await;
    let agent = world.home.join(".pi/agent");
    assert_eq!(
        installed["files"][0],
        agent.join("extensions/n8v-journal.ts").to_str().unwrap()
    );
    std::fs::write(
        agent.join("models.json"),
        json!({"providers": {"standin": {"baseUrl": world.chat_url, "api": "openai-completions",
            "apiKey": "x", "compat": {"supportsDeveloperRole": false, "supportsReasoningEffort": false},
            "models": [{"id": "stand-in", "contextWindow": 20000, "maxTokens": 1000}]}}})
        .to_string(),
    )
    .unwrap();
    let env = [("PI_OFFLINE", "1")];
    let args =
        |prompt: &'static str| ["--provider", "standin", "--model", "stand-in", "-p", prompt];
    let window = world.window().await;
    let reads = world.reads().await;

    world.chat.compact_next(19_000);
    world
        .run(
            &pi,
            &args("Fix the login redirect PROMPT-PI-1"),
            &world.workdir,
            &env,
        )
        .await;
    let requests = conversation(&world.chat);
    window_held(&requests, &window);
    assert!(
        world.chat.requests().iter().any(chat::is_compaction),
        "Pi compacted the conversation"
    );
    assert_eq!(world.reads().await, reads + 1, "fetched once");
    let sessions = agent.join("sessions");
    let files: Vec<String> = common::hook::files_under(&sessions)
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    assert!(
        files.iter().any(|f| f.contains(chat::RECAP)),
        "Pi kept its recap in the session file (and it is not posted, below)"
    );
    let episodes = world.episodes("pi").await;
    assert_eq!(episodes.len(), 1, "{episodes:?}");
    assert_eq!(episodes[0].1.as_deref(), Some(world.project().as_str()));
    let drafted = world.drafted("PROMPT-PI-1");
    assert!(drafted.contains("REPLY-"), "{drafted}");
    for never in [TOOL_OUTPUT, chat::RECAP, WINDOW_HEAD] {
        assert!(
            !drafted.contains(never),
            "{never} reached the journal: {drafted}"
        );
    }

    world.chat.clear();
    let reads = world.reads().await;
    world
        .run(
            &pi,
            &args("Another one PROMPT-PI-2"),
            &world.workdir,
            &[("PI_OFFLINE", "1"), ("N8V_JOURNAL", "off")],
        )
        .await;
    nothing_loaded(&conversation(&world.chat));
    assert_eq!(world.reads().await, reads);
    assert_eq!(world.episodes("pi").await.len(), 1, "nothing posted");

    // Pi's session files, imported: the captured session is there already, the other one new.
    let imported = world.import("pi", &sessions).await;
    assert_eq!(
        imported,
        json!({"files": 2, "imported": 1, "already_there": 1, "skipped": 0, "failed": 0})
    );
}

#[tokio::test]
async fn hermes_loads_the_window_once_and_posts_its_cli_conversation() {
    let Some(hermes) = installed(
        "Hermes",
        "N8V_HERMES_BIN",
        "/var/tmp/n8v-journal-hermes/bin/hermes",
    ) else {
        return;
    };
    let world = World::new().await;
    let hermes_home = world.home.join(".hermes");
    std::fs::create_dir_all(&hermes_home).unwrap();
    std::fs::write(
        hermes_home.join("config.yaml"),
        format!(
            "model:\n  default: stand-in\n  provider: custom\n  base_url: {}\n  api_key: x\n",
            world.chat_url
        ),
    )
    .unwrap();
    let installed = world.install("hermes").await;
    assert_eq!(
        installed["files"][0],
        hermes_home
            .join("plugins/n8v-journal/plugin.yaml")
            .to_str()
            .unwrap()
    );
    let window = world.window().await;
    let reads = world.reads().await;

    let args = |prompt: &'static str| ["chat", "-Q", "--yolo", "-q", prompt];
    world
        .run(
            &hermes,
            &args("Fix the login redirect PROMPT-HE-1"),
            &world.workdir,
            &[],
        )
        .await;
    let requests = conversation(&world.chat);
    window_held(&requests, &window);
    assert_eq!(world.reads().await, reads + 1, "fetched once");
    let episodes = world.episodes("hermes").await;
    assert_eq!(episodes.len(), 1, "{episodes:?}");
    assert_eq!(episodes[0].1.as_deref(), Some(world.project().as_str()));
    let drafted = world.drafted("PROMPT-HE-1");
    assert!(drafted.contains("REPLY-"), "{drafted}");
    for never in [TOOL_OUTPUT, WINDOW_HEAD] {
        assert!(
            !drafted.contains(never),
            "{never} reached the journal: {drafted}"
        );
    }

    // Outside a git repository (a gateway's service folder, say): posted, with no project.
    let service = world.root.join("service");
    std::fs::create_dir_all(&service).unwrap();
    world
        .run(&hermes, &args("Anything new PROMPT-HE-2"), &service, &[])
        .await;
    let episodes = world.episodes("hermes").await;
    assert_eq!(episodes.len(), 2, "{episodes:?}");
    assert!(
        episodes.iter().any(|(_, project)| project.is_none()),
        "{episodes:?}"
    );

    world.chat.clear();
    let reads = world.reads().await;
    world
        .run(
            &hermes,
            &args("Another one PROMPT-HE-3"),
            &world.workdir,
            &[("N8V_JOURNAL", "off")],
        )
        .await;
    nothing_loaded(&conversation(&world.chat));
    assert_eq!(world.reads().await, reads);
    assert_eq!(world.episodes("hermes").await.len(), 2, "nothing posted");

    // Hermes' database, imported: the two captured sessions are there already, the third new.
    let imported = world.import("hermes", &hermes_home).await;
    assert_eq!(
        imported,
        json!({"files": 3, "imported": 1, "already_there": 2, "skipped": 0, "failed": 0})
    );
    let episodes = world.episodes("hermes").await;
    assert_eq!(episodes.len(), 3, "{episodes:?}");
}
