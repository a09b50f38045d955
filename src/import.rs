//! `n8v-journal import`: reads a harness's local transcripts and posts them as episodes, so
//! history from before the journal was turned on can be added. A client of the service's own
//! API (`POST /api/v1/journal/episodes`), so every rule of episodes holds; safe to run twice
//! (episodes are idempotent by id and part). The hooks (`crate::hook`) post one transcript the
//! same way.
//!
//! Its calls say who made them and why: the assistant `n8v-journal-import` (the hooks'
//! `n8v-journal-hook`) and a purpose naming what was posted. A post is the journal's own
//! traffic, so the implicit session holding these calls stays out of the session list, as a
//! session of journal reads does; the entries the posts make are what the journal shows.
//!
//! Only user and assistant text leaves the machine ([`transcript`]).

pub mod client;
pub mod databases;
pub mod project;
pub mod transcript;

use client::{IMPORT_ASSISTANT, Service};
use std::path::Path;
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Harness {
    ClaudeCode,
    Codex,
    OpenCode,
    Pi,
    Hermes,
}

impl Harness {
    /// Every harness, by the name the command line, the episodes and the journal use.
    pub const NAMES: [&'static str; 5] = ["claude-code", "codex", "opencode", "pi", "hermes"];

    pub fn parse(name: &str) -> anyhow::Result<Self> {
        match name {
            "claude-code" => Ok(Self::ClaudeCode),
            "codex" => Ok(Self::Codex),
            "opencode" => Ok(Self::OpenCode),
            "pi" => Ok(Self::Pi),
            "hermes" => Ok(Self::Hermes),
            other => anyhow::bail!(
                "no harness {other:?}; use one of {}",
                Self::NAMES.join(", ")
            ),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::ClaudeCode => "claude-code",
            Self::Codex => "codex",
            Self::OpenCode => "opencode",
            Self::Pi => "pi",
            Self::Hermes => "hermes",
        }
    }
}

/// Whose Hermes conversations are posted (`N8V_HERMES_CAPTURE`): a chat gateway carries other
/// people's conversations, so by default only the surfaces where the person is at the keyboard.
/// Hermes' plugin applies the same rule to what it posts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HermesCapture {
    /// `cli` (the default): the CLI, the TUI, an editor over ACP.
    Local,
    /// `all`: a gateway's too.
    All,
    /// `off`: none.
    Off,
}

impl HermesCapture {
    pub fn parse(value: Option<&str>) -> Self {
        match value.map(str::trim) {
            Some("all") => Self::All,
            Some("off") => Self::Off,
            _ => Self::Local,
        }
    }

    /// Whether a conversation from `surface` (Hermes' `platform` / `source`) is posted. A
    /// delegated subagent's (`subagent`) never is: it is part of its parent's work, as Claude
    /// Code's sidechains are.
    pub fn posts(self, surface: &str) -> bool {
        if surface == "subagent" {
            return false;
        }
        match self {
            Self::All => true,
            Self::Off => false,
            Self::Local => ["", "cli", "tui", "local", "acp"].contains(&surface),
        }
    }
}

/// `N8V_HERMES_CAPTURE` from the environment.
pub fn hermes_capture() -> HermesCapture {
    HermesCapture::parse(std::env::var("N8V_HERMES_CAPTURE").ok().as_deref())
}

/// What an import did.
#[derive(Debug, Default, serde::Serialize)]
pub struct Summary {
    /// Transcript files read, or conversations found in a database (OpenCode, Hermes).
    pub files: usize,
    pub imported: usize,
    pub already_there: usize,
    /// Files with no assistant reply, or that are not transcripts.
    pub skipped: usize,
    pub failed: usize,
}

/// The conversations at `path`: transcript files under it (Claude Code, Codex, Pi), or the
/// harness's database (OpenCode, Hermes: the file, or the folder holding it).
fn conversations(
    harness: Harness,
    path: &Path,
) -> anyhow::Result<Vec<anyhow::Result<transcript::Episode>>> {
    Ok(match harness {
        Harness::OpenCode | Harness::Hermes => databases::episodes(harness, path)?
            .into_iter()
            .map(Ok)
            .collect(),
        Harness::ClaudeCode | Harness::Codex | Harness::Pi => transcript::transcripts(path)?
            .iter()
            .map(|file| transcript::read(harness, file))
            .collect(),
    })
}

/// Imports every conversation at `path`, printing progress on stderr.
pub async fn run(harness: Harness, path: &Path, url: &str, token: &str) -> anyhow::Result<Summary> {
    let files = conversations(harness, path)?;
    let service = Service::new(url, token, IMPORT_ASSISTANT, Duration::from_secs(300))?;
    let purpose = format!(
        "Import a past {} conversation from its local transcript (n8v-journal import)",
        harness.name()
    );
    let mut summary = Summary {
        files: files.len(),
        ..Summary::default()
    };
    let count = files.len();
    for (n, read) in files.into_iter().enumerate() {
        eprint!("\r[{:>4}/{:<4}] {}", n + 1, count, harness.name());
        let Ok(episode) = read else {
            summary.skipped += 1;
            continue;
        };
        if episode.clean_id().is_empty() || !episode.has_reply() {
            summary.skipped += 1;
            continue;
        }
        match service.post(harness, &episode, &purpose, false).await {
            Err(failure) => {
                eprintln!("\n{}: {}", episode.clean_id(), failure.line());
                summary.failed += 1;
            }
            Ok(p) if p.entries == 0 => summary.skipped += 1,
            Ok(p) if p.created == 0 => summary.already_there += 1,
            Ok(_) => summary.imported += 1,
        }
    }
    eprintln!();
    Ok(summary)
}
