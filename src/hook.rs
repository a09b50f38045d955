//! `n8v-journal hook <event> --harness <harness>`: the harnesses' hooks, as subcommands of the
//! installed binary (no script path into a repository).
//!
//! - `session-start` prints the recent journal (`GET /journal.md`) sized for the harness's own
//!   budget for a hook's output ([`Budget`]), and starts the catch-up ([`flush`]) in the
//!   background when the harness has recent transcripts: the conversations whose last post was
//!   not settled are posted again, marked ended, so each gets its draft;
//! - `flush` runs that catch-up alone (for cron), and prints what it did;
//! - `session-end`, `pre-compact` and `stop` post the conversation the hook's input names
//!   (`transcript_path`) as an episode; `session-end` marks it ended (`"ended": true`), the
//!   per-turn ones (`stop`, `pre-compact`) do not, so the service drafts when it settles.
//!
//! A hook never fails or holds up a conversation: it always exits 0, within a bounded time, and
//! when it did nothing it says why in exactly one line on stderr (the journal off on this
//! machine, no token, the token refused, the service unreachable or older than this binary,
//! no transcript). A hook that did its work prints nothing on stderr.

pub mod flush;
pub mod install;
pub mod plugins;

use crate::import::client::{HOOK_ASSISTANT, Service};
use crate::import::{Harness, transcript};
use std::path::PathBuf;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt};

/// What fired the hook.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    SessionStart,
    SessionEnd,
    PreCompact,
    Stop,
}

impl Event {
    pub fn name(self) -> &'static str {
        match self {
            Event::SessionStart => "session-start",
            Event::SessionEnd => "session-end",
            Event::PreCompact => "pre-compact",
            Event::Stop => "stop",
        }
    }

    /// What the hook's call is for, as the journal keeps it.
    fn purpose(self, harness: Harness) -> String {
        let h = harness.name();
        match self {
            Event::SessionStart => {
                format!("Load the recent journal as a {h} conversation starts (session-start hook)")
            }
            Event::SessionEnd => {
                format!("Post the {h} conversation that just ended (session-end hook)")
            }
            Event::PreCompact => format!(
                "Post the {h} conversation before its context is compacted (pre-compact hook)"
            ),
            Event::Stop => format!("Post the {h} conversation after its latest turn (stop hook)"),
        }
    }
}

/// How much of a hook's output a harness puts in front of the model unabridged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Characters (Claude Code: about 10,000 of a hook's output).
    Chars(usize),
    /// Bytes (Codex: 2,500 tokens, counted as 4 bytes each).
    Bytes(usize),
}

impl Budget {
    /// Sources in integrations/README.md ("How much of the journal a session starts with").
    pub fn of(harness: Harness) -> Self {
        match harness {
            Harness::ClaudeCode => Budget::Chars(9_500),
            Harness::Codex => Budget::Bytes(2_500 * 4),
            // Added to the system prompt by their integrations, which cap nothing: the size
            // every harness of the table asks for.
            Harness::OpenCode | Harness::Pi | Harness::Hermes => Budget::Chars(9_500),
        }
    }

    /// The `max_chars` to ask for first.
    fn first_ask(self) -> usize {
        match self {
            Budget::Chars(n) => n,
            // Mostly ASCII: a tenth to spare for the rest.
            Budget::Bytes(n) => n * 9 / 10,
        }
    }

    /// A `max_chars` that should fit, when `text` asked for with `asked` did not.
    fn retry(self, text: &str, asked: usize) -> Option<usize> {
        match self {
            Budget::Chars(_) => None,
            Budget::Bytes(n) if text.len() > n => {
                Some((asked * n / text.len()).saturating_sub(100).max(1_000))
            }
            Budget::Bytes(_) => None,
        }
    }
}

/// What the hook runs with, from its flags and environment.
#[derive(Clone, Debug)]
pub struct Options {
    pub url: String,
    pub token: Option<String>,
    /// `N8V_JOURNAL`: `off` turns every hook off on this machine.
    pub journal: Option<String>,
    /// `--max-chars`: overrides the harness's budget.
    pub max_chars: Option<usize>,
    /// The most a hook waits for the service.
    pub timeout: Duration,
    /// `session-start`: the program that runs the catch-up in the background (this binary's
    /// `hook flush`); `None` runs none.
    pub catch_up: Option<PathBuf>,
}

impl Options {
    /// Options for the service at `url`, its key and the on/off switch from the environment
    /// (`N8V_TOKEN`, `N8V_JOURNAL`), with no budget override and no background catch-up.
    pub fn from_env(url: String, timeout: Duration) -> Self {
        Options {
            url,
            token: std::env::var("N8V_TOKEN").ok(),
            journal: std::env::var("N8V_JOURNAL").ok(),
            max_chars: None,
            timeout,
            catch_up: None,
        }
    }
}

/// What the hook prints: the context for the conversation (session-start), and why nothing
/// happened.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    pub stdout: Option<String>,
    pub why: Option<String>,
}

impl Outcome {
    fn nothing(why: impl Into<String>) -> Self {
        Outcome {
            stdout: None,
            why: Some(why.into()),
        }
    }
}

/// The most of the hook's input read, and how long it is waited for. OpenCode's and Hermes'
/// integrations send the conversation's text itself, not a path to it.
const MAX_INPUT: u64 = 16 << 20;
const INPUT_WAIT: Duration = Duration::from_secs(2);

/// Runs one hook. Never fails: every failure is an [`Outcome::why`].
pub async fn run(
    event: Event,
    harness: Harness,
    options: &Options,
    input: impl AsyncRead + Unpin,
) -> Outcome {
    if options.journal.as_deref().map(str::trim) == Some("off") {
        return Outcome::nothing("the journal is off on this machine (N8V_JOURNAL=off)");
    }
    let Some(token) = options.token.as_deref().filter(|t| !t.trim().is_empty()) else {
        return Outcome::nothing(format!(
            "N8V_TOKEN is not set where {} runs; set it to an API key with chats:read",
            harness.name()
        ));
    };
    let service = match Service::new(&options.url, token.trim(), HOOK_ASSISTANT, options.timeout) {
        Ok(service) => service,
        Err(e) => return Outcome::nothing(format!("cannot make an HTTP client: {e}")),
    };
    let bound = options.timeout + INPUT_WAIT + Duration::from_secs(1);
    let work = async {
        match event {
            Event::SessionStart => {
                let skip = starting(input).await;
                catch_up(harness, options, &skip);
                session_start(&service, event, harness, options).await
            }
            _ => post(&service, event, harness, input).await,
        }
    };
    tokio::time::timeout(bound, work)
        .await
        .unwrap_or_else(|_| Outcome::nothing(format!("gave up after {} s", bound.as_secs())))
}

async fn session_start(
    service: &Service,
    event: Event,
    harness: Harness,
    options: &Options,
) -> Outcome {
    let purpose = event.purpose(harness);
    let budget = options
        .max_chars
        .map(Budget::Chars)
        .unwrap_or(Budget::of(harness));
    let asked = budget.first_ask();
    let mut answer = service.window(asked, &purpose).await;
    if let Ok(text) = &answer
        && let Some(smaller) = budget.retry(text, asked)
    {
        answer = service.window(smaller, &purpose).await;
    }
    match answer {
        Ok(text) => Outcome {
            stdout: Some(text),
            why: None,
        },
        Err(failure) => Outcome::nothing(format!("nothing loaded: {}", failure.line())),
    }
}

/// Runs the catch-up alone (`hook flush`): what it did, and why it did nothing when it did.
pub async fn run_flush(
    harness: Harness,
    options: &Options,
    recent: flush::Recent,
    skip: &flush::Skip,
) -> (flush::Flushed, Outcome) {
    let none = flush::Flushed::default();
    if options.journal.as_deref().map(str::trim) == Some("off") {
        let why = "the journal is off on this machine (N8V_JOURNAL=off)";
        return (none, Outcome::nothing(why));
    }
    let Some(token) = options.token.as_deref().filter(|t| !t.trim().is_empty()) else {
        let why = format!(
            "N8V_TOKEN is not set where {} runs; set it to an API key with chats:read",
            harness.name()
        );
        return (none, Outcome::nothing(why));
    };
    match Service::new(&options.url, token.trim(), HOOK_ASSISTANT, options.timeout) {
        Ok(service) => flush::flush(&service, harness, recent, skip).await,
        Err(e) => {
            let why = format!("cannot make an HTTP client: {e}");
            (none, Outcome::nothing(why))
        }
    }
}

/// The conversation that is starting, from the hook's input: the catch-up leaves it alone.
async fn starting(input: impl AsyncRead + Unpin) -> flush::Skip {
    let Ok(value) = hook_input(input).await else {
        return flush::Skip::default();
    };
    let text = |key: &str| {
        value[key]
            .as_str()
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_owned)
    };
    flush::Skip {
        transcript: text("transcript_path").map(PathBuf::from),
        session_id: text("session_id"),
    }
}

/// Starts `hook flush` in the background, in a process group of its own with no terminal, so
/// the conversation starts while the drafts are written (a model may take longer than the
/// harness gives a hook), when the harness has transcripts recent enough to look at.
fn catch_up(harness: Harness, options: &Options, skip: &flush::Skip) {
    let Some(program) = &options.catch_up else {
        return;
    };
    let Some(dir) = flush::transcripts_dir(harness) else {
        return;
    };
    let now = std::time::SystemTime::now();
    if flush::candidates(&dir, flush::Recent::default(), now, skip).is_empty() {
        return;
    }
    let mut command = std::process::Command::new(program);
    command
        .args(["hook", "flush", "--harness", harness.name(), "--url"])
        .arg(&options.url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    if let Some(path) = &skip.transcript {
        command.arg("--skip-transcript").arg(path);
    }
    if let Some(id) = &skip.session_id {
        command.arg("--skip-session").arg(id);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    // Not waited for: it outlives this hook, bounded by its own timeout per request.
    let _ = command.spawn();
}

/// The hook's input on stdin, as JSON.
async fn hook_input(input: impl AsyncRead + Unpin) -> Result<serde_json::Value, String> {
    let mut raw = Vec::new();
    let mut limited = input.take(MAX_INPUT);
    let read = limited.read_to_end(&mut raw);
    match tokio::time::timeout(INPUT_WAIT, read).await {
        Ok(Ok(_)) => {}
        Ok(Err(e)) => return Err(format!("cannot read the hook's input: {e}")),
        Err(_) => return Err("the hook's input did not arrive on stdin".into()),
    }
    serde_json::from_slice(&raw).map_err(|_| "the hook's input on stdin is not JSON".to_owned())
}

/// The conversation the hook's input names: the transcript at `transcript_path`, or the
/// messages an integration sends itself (`messages`, [`transcript::from_input`]).
async fn conversation(
    harness: Harness,
    input: impl AsyncRead + Unpin,
) -> Result<transcript::Episode, String> {
    let value = hook_input(input).await?;
    if value["messages"].is_array() {
        return Ok(transcript::from_input(harness, &value));
    }
    let path = match value["transcript_path"].as_str().map(str::trim) {
        Some(path) if !path.is_empty() => PathBuf::from(path),
        _ => return Err("no transcript: the hook's input names none (transcript_path)".into()),
    };
    if !path.is_file() {
        return Err(format!("no transcript at {}", path.display()));
    }
    transcript::read(harness, &path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

async fn post(
    service: &Service,
    event: Event,
    harness: Harness,
    input: impl AsyncRead + Unpin,
) -> Outcome {
    let episode = match conversation(harness, input).await {
        Ok(episode) => episode,
        Err(why) => return Outcome::nothing(format!("nothing posted: {why}")),
    };
    if episode.clean_id().is_empty() || !episode.has_reply() {
        return Outcome::nothing("nothing posted: the conversation has no assistant reply yet");
    }
    let ended = event == Event::SessionEnd;
    match service
        .post(harness, &episode, &event.purpose(harness), ended)
        .await
    {
        Ok(_) => Outcome::default(),
        Err(failure) => Outcome::nothing(format!("nothing posted: {}", failure.line())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_harness_asks_for_what_it_shows() {
        assert_eq!(Budget::of(Harness::ClaudeCode).first_ask(), 9_500);
        let codex = Budget::of(Harness::Codex);
        assert_eq!(codex.first_ask(), 9_000);
        assert_eq!(codex.retry(&"a".repeat(9_000), 9_000), None);
        // Text of two-byte characters: 9,000 of them are 18,000 bytes; ask for about half.
        let wide = "é".repeat(9_000);
        let smaller = codex.retry(&wide, 9_000).unwrap();
        assert!(smaller * 2 <= 10_000, "{smaller}");
        assert_eq!(Budget::Chars(9_500).retry(&wide, 9_500), None);
    }

    #[tokio::test]
    async fn the_conversation_is_read_from_the_hooks_input() {
        let none: &[u8] = br#"{"session_id":"s","transcript_path":null}"#;
        let why = conversation(Harness::ClaudeCode, none).await.unwrap_err();
        assert!(why.contains("names none"), "{why}");
        let missing: &[u8] = br#"{"session_id":"s","transcript_path":"/nonexistent/t.jsonl"}"#;
        let why = conversation(Harness::Pi, missing).await.unwrap_err();
        assert!(why.contains("no transcript at /nonexistent"), "{why}");
        let junk: &[u8] = b"not json";
        let why = conversation(Harness::Codex, junk).await.unwrap_err();
        assert!(why.contains("not JSON"), "{why}");
        let sent: &[u8] = br#"{"session_id":"ses_1","cwd":"/nowhere/acme","messages":[
            {"role":"user","content":"Fix the login","at":1796565723.406},
            {"role":"tool","content":"TOOL-OUTPUT"},
            {"role":"user","content":"[CONTEXT SUMMARY]: earlier turns"},
            {"role":"assistant","content":"RECAP","_compressed_summary":true},
            {"role":"assistant","content":[{"type":"text","text":"Fixed."}],"at":"2026-12-06T14:03:00Z"}]}"#;
        let episode = conversation(Harness::Hermes, sent).await.unwrap();
        assert_eq!(episode.id, "ses_1");
        assert_eq!(
            episode.project, None,
            "Hermes: only inside a git repository"
        );
        assert_eq!(
            episode.turns,
            [
                ("user".to_owned(), "Fix the login".to_owned()),
                ("assistant".to_owned(), "Fixed.".to_owned())
            ]
        );
        assert_eq!(episode.started.as_deref(), Some("2026-12-06T14:02:03.406Z"));
        assert_eq!(episode.ended.as_deref(), Some("2026-12-06T14:03:00Z"));
    }
}
