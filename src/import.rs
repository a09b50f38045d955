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
pub mod transcript;

use client::{IMPORT_ASSISTANT, Service};
use std::path::Path;
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Harness {
    ClaudeCode,
    Codex,
}

impl Harness {
    pub fn parse(name: &str) -> anyhow::Result<Self> {
        match name {
            "claude-code" => Ok(Self::ClaudeCode),
            "codex" => Ok(Self::Codex),
            other => anyhow::bail!("no harness {other:?}; use claude-code or codex"),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::ClaudeCode => "claude-code",
            Self::Codex => "codex",
        }
    }
}

/// What an import did.
#[derive(Debug, Default, serde::Serialize)]
pub struct Summary {
    pub files: usize,
    pub imported: usize,
    pub already_there: usize,
    /// Files with no assistant reply, or that are not transcripts.
    pub skipped: usize,
    pub failed: usize,
}

/// Imports every transcript under `path`, printing progress on stderr.
pub async fn run(harness: Harness, path: &Path, url: &str, token: &str) -> anyhow::Result<Summary> {
    let files = transcript::transcripts(path)?;
    let service = Service::new(url, token, IMPORT_ASSISTANT, Duration::from_secs(300))?;
    let purpose = format!(
        "Import a past {} conversation from its local transcript (n8v-journal import)",
        harness.name()
    );
    let mut summary = Summary {
        files: files.len(),
        ..Summary::default()
    };
    for (n, file) in files.iter().enumerate() {
        eprint!("\r[{:>4}/{:<4}] {}", n + 1, files.len(), harness.name());
        let Ok(episode) = transcript::read(harness, file) else {
            summary.skipped += 1;
            continue;
        };
        if episode.clean_id().is_empty() || !episode.has_reply() {
            summary.skipped += 1;
            continue;
        }
        match service.post(harness, &episode, &purpose, false).await {
            Err(failure) => {
                eprintln!("\n{}: {}", file.display(), failure.line());
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
