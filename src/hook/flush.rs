//! The catch-up: every conversation gets its draft. The service drafts a part only when a post
//! finds the conversation settled or ended; a conversation whose last post came right after its
//! last turn (every Codex conversation: Codex has no end hook; a Claude Code session whose end
//! hook was killed) would stay code's entry for good, and the service keeps no prose to draft
//! it later. So the harness side finishes the job: `hook flush` (run by `hook session-start`
//! in the background, and by cron) asks the service which of this key's episodes wait
//! (`GET /api/v1/journal/episodes`), and posts just those transcripts again, marked ended.
//!
//! Nothing is kept on this machine: the service knows what it has. A conversation never posted
//! (one the journal was off for, `N8V_JOURNAL=off`) is never sent, and posting the same turns
//! marked ended again changes nothing, so two catch-ups at once, or one after another, draft a
//! conversation once.
//!
//! "Recent" is bounded ([`Recent`]): transcripts modified in the last `days` (7) but not in the
//! last `quiet_minutes` (5: a conversation still going in another terminal is left alone), the
//! newest first, at most `max_files` (20) posted per run; the starting conversation's own
//! transcript is skipped.

use super::Outcome;
use crate::import::client::Service;
use crate::import::{Harness, transcript};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// Which transcripts count as recent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recent {
    /// Modified within the last this many days.
    pub days: u64,
    /// Not modified within the last this many minutes.
    pub quiet_minutes: u64,
    /// At most this many posted per run.
    pub max_files: usize,
}

impl Default for Recent {
    fn default() -> Self {
        Recent {
            days: 7,
            quiet_minutes: 5,
            max_files: 20,
        }
    }
}

/// What not to post: the conversation that is starting.
#[derive(Clone, Debug, Default)]
pub struct Skip {
    pub transcript: Option<PathBuf>,
    pub session_id: Option<String>,
}

/// Where the harness keeps its transcripts: Claude Code's `$CLAUDE_CONFIG_DIR/projects` (else
/// `~/.claude/projects`, one `<session>.jsonl` per conversation in a folder per project),
/// Codex's `$CODEX_HOME/sessions` (else `~/.codex/sessions`, `YYYY/MM/DD/rollout-…-<id>.jsonl`),
/// Pi's `$PI_CODING_AGENT_DIR/sessions` (else `~/.pi/agent/sessions`,
/// `--<cwd>--/<time>_<id>.jsonl`). OpenCode and Hermes keep no transcript files (a database):
/// their integrations post the conversation marked ended themselves.
pub fn transcripts_dir(harness: Harness) -> Option<PathBuf> {
    let from_env = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    let home = || from_env("HOME").map(PathBuf::from);
    match harness {
        Harness::ClaudeCode => from_env("CLAUDE_CONFIG_DIR")
            .map(PathBuf::from)
            .or_else(|| home().map(|h| h.join(".claude")))
            .map(|d| d.join("projects")),
        Harness::Codex => from_env("CODEX_HOME")
            .map(PathBuf::from)
            .or_else(|| home().map(|h| h.join(".codex")))
            .map(|d| d.join("sessions")),
        Harness::Pi => from_env("PI_CODING_AGENT_DIR")
            .map(PathBuf::from)
            .or_else(|| home().map(|h| h.join(".pi").join("agent")))
            .map(|d| d.join("sessions")),
        Harness::OpenCode | Harness::Hermes => None,
    }
}

/// The recent transcripts under `dir`, the newest first.
pub fn candidates(dir: &Path, recent: Recent, now: SystemTime, skip: &Skip) -> Vec<PathBuf> {
    let Ok(files) = transcript::transcripts(dir) else {
        return Vec::new();
    };
    let oldest = now - Duration::from_secs(recent.days * 24 * 3600);
    let newest = now - Duration::from_secs(recent.quiet_minutes * 60);
    let skipped = skip
        .transcript
        .as_ref()
        .map(|p| p.canonicalize().unwrap_or_else(|_| p.clone()));
    let mut found: Vec<(SystemTime, PathBuf)> = files
        .into_iter()
        .filter_map(|file| {
            let modified = file.metadata().and_then(|m| m.modified()).ok()?;
            (oldest..=newest)
                .contains(&modified)
                .then_some((modified, file))
        })
        .filter(|(_, file)| {
            skipped.as_ref() != Some(&file.canonicalize().unwrap_or_else(|_| file.clone()))
        })
        .collect();
    found.sort_by(|a, b| b.cmp(a));
    found.into_iter().map(|(_, file)| file).collect()
}

/// What a catch-up did.
#[derive(Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Flushed {
    /// Episodes the service said wait for a draft.
    pub open: usize,
    /// Their transcripts posted, marked ended.
    pub posted: usize,
    /// Posts the service refused or did not answer.
    pub failed: usize,
}

fn purpose(harness: Harness) -> String {
    format!(
        "Post the {} conversations whose last post was not settled, as ended (catch-up)",
        harness.name()
    )
}

/// Posts, marked ended, the recent transcripts of episodes the service says wait for a draft.
/// Never fails: a reason for doing nothing is an [`Outcome::why`].
pub async fn flush(
    service: &Service,
    harness: Harness,
    recent: Recent,
    skip: &Skip,
) -> (Flushed, Outcome) {
    let mut flushed = Flushed::default();
    let Some(dir) = transcripts_dir(harness) else {
        return (
            flushed,
            Outcome::nothing("nothing to post: HOME is not set"),
        );
    };
    let files = candidates(&dir, recent, SystemTime::now(), skip);
    if files.is_empty() {
        return (flushed, Outcome::default());
    }
    let purpose = purpose(harness);
    let open = match service.open_episodes(harness, &purpose).await {
        Ok(open) => open,
        Err(failure) => {
            let why = format!("nothing posted: {}", failure.line());
            return (flushed, Outcome::nothing(why));
        }
    };
    let open: Vec<String> = open
        .into_iter()
        .filter(|id| skip.session_id.as_deref() != Some(id.as_str()))
        .collect();
    flushed.open = open.len();
    let mut failure = None;
    for file in files {
        if flushed.posted + flushed.failed >= recent.max_files {
            break;
        }
        // The file's name holds the id (Claude Code's `<session>.jsonl`, Codex's
        // `rollout-…-<id>.jsonl`): only those are read.
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        if !open.iter().any(|id| name.contains(id.as_str())) {
            continue;
        }
        let Ok(episode) = transcript::read(harness, &file) else {
            continue;
        };
        let id = episode.clean_id();
        if !open.contains(&id) || !episode.has_reply() {
            continue;
        }
        match service.post(harness, &episode, &purpose, true).await {
            Ok(_) => flushed.posted += 1,
            Err(f) => {
                flushed.failed += 1;
                failure = Some(f);
            }
        }
    }
    let outcome = match failure {
        Some(f) => Outcome::nothing(format!(
            "{} of {} not posted: {}",
            flushed.failed,
            flushed.failed + flushed.posted,
            f.line()
        )),
        None => Outcome::default(),
    };
    (flushed, outcome)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recent_means_modified_in_the_window_newest_first_and_not_the_starting_one() {
        let dir = std::env::temp_dir().join(format!("n8v-recent-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(dir.join("p")).unwrap();
        let now = SystemTime::now();
        let at = |name: &str, ago_minutes: u64| {
            let file = dir.join("p").join(name);
            std::fs::write(&file, "{}\n").unwrap();
            let f = std::fs::File::options().write(true).open(&file).unwrap();
            f.set_modified(now - Duration::from_secs(ago_minutes * 60))
                .unwrap();
            file
        };
        let live = at("live.jsonl", 1);
        let old = at("old.jsonl", 8 * 24 * 60);
        let day = at("day.jsonl", 24 * 60);
        let hour = at("hour.jsonl", 60);
        let starting = at("starting.jsonl", 30);
        at("notes.txt", 60);
        let skip = Skip {
            transcript: Some(starting),
            session_id: None,
        };
        let found = candidates(&dir, Recent::default(), now, &skip);
        assert_eq!(found, [hour, day]);
        assert!(!found.contains(&live) && !found.contains(&old));
        std::fs::remove_dir_all(dir).unwrap();
    }
}
