//! Episodes: a harness posts a settled conversation; each ~30,000-character part becomes one
//! journal entry, drafted by the summary providers, and the prose itself is never kept.
//!
//! The request waits for the drafts. The prose lives only in this request's memory: a queued
//! job would have to carry it through the job table, which is storage. Tool calls, tool output,
//! reasoning and private turns are dropped before anything else looks at the turns; the rest
//! lose format characters and credentials before a model sees them. Each part is claimed by
//! inserting its entry's session row (unique per account, episode and part) in the operation's
//! transaction, held while its model works: a retried or concurrent post of the same episode
//! waits, then finds the part made, and pays for nothing. Claims are per credential (a key and
//! the tokens minted from it): no other key of the account can post under an id first and keep
//! this key's conversation out, and the same id posted by two keys makes two entries.

use super::{Op, Operation, Services};
use crate::auth::Scope;
use crate::error::{Error, Result};
use crate::ids::SessionId;
use crate::journal::meta::parse_repository;
use crate::journal::sessions::{self, EpisodePart};
use crate::journal::summaries::{MonthlyBudget, account_model, set_on_session};
use crate::operation::{Effect, JournalUse, Spec};
use crate::summarize::{self, ConversationTurn, PART_CHARS};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// One turn of the conversation, as the harness sent it (REST and MCP take it as it is).
#[derive(Debug, Clone, Deserialize, Serialize, utoipa::ToSchema, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EpisodeTurn {
    /// `user` or `assistant`; other roles (`tool`, `system`) are dropped unread.
    #[schemars(length(max = 20))]
    pub role: String,
    /// What was said.
    pub text: String,
    /// `message` (default); `tool_call`, `tool_output` and `reasoning` are dropped unread.
    #[serde(default)]
    #[schemars(length(max = 20))]
    pub kind: Option<String>,
    /// A turn the person marked private: dropped unread.
    #[serde(default)]
    pub private: bool,
}

/// A settled conversation.
#[derive(Debug, Clone)]
pub struct PostEpisode {
    pub episode_id: String,
    pub harness: String,
    pub project: Option<String>,
    pub started_at: DateTime<Utc>,
    pub ended_at: DateTime<Utc>,
    pub turns: Vec<EpisodeTurn>,
}

/// One entry of a posted episode.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct EpisodeEntry {
    /// The part (from 0).
    pub part: i32,
    /// The entry, a closed session of kind `episode` (`ses_…`).
    pub session_id: SessionId,
    /// `false` when an earlier post of the same episode made it already.
    pub created: bool,
}

/// What a post made.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct EpisodePosted {
    /// The harness's episode id.
    pub episode_id: String,
    /// One entry per part; none when the assistant never replied.
    pub entries: Vec<EpisodeEntry>,
    /// Turns dropped unread: tool calls and output, reasoning, private turns, other roles.
    pub dropped_turns: usize,
}

pub const MAX_TURNS: usize = 10_000;

fn bad(message: impl Into<String>) -> Error {
    Error::BadRequest(message.into())
}

/// Keeps the user and assistant prose, dropping everything else unread.
fn kept_turns(turns: Vec<EpisodeTurn>) -> (Vec<ConversationTurn>, usize) {
    let total = turns.len();
    let kept: Vec<ConversationTurn> = turns
        .into_iter()
        .filter(|t| !t.private)
        .filter(|t| matches!(t.kind.as_deref(), None | Some("message") | Some("text")))
        .filter(|t| t.role == "user" || t.role == "assistant")
        .map(|t| ConversationTurn {
            from_user: t.role == "user",
            text: crate::scrub::clean_text(t.text.trim()),
        })
        .filter(|t| !t.text.is_empty())
        .collect();
    let dropped = total - kept.len();
    (kept, dropped)
}

impl PostEpisode {
    fn check(&self) -> Result<(Option<String>, String)> {
        let id = self.episode_id.trim();
        if id.is_empty()
            || id.len() > 200
            || !id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._:-".contains(c))
        {
            return Err(bad(
                "episode_id must be 1 to 200 letters, digits and . _ : - (the harness's own id)",
            ));
        }
        let harness = self.harness.trim();
        if harness.is_empty()
            || harness.len() > 50
            || !harness
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
        {
            return Err(bad(
                "harness must be 1 to 50 letters, digits and . _ - (e.g. claude-code, codex)",
            ));
        }
        // Both are stored (the entries' episode and assistant) and shown to every reader of the
        // journal, and are no free text to scrub: one holding a credential is refused instead,
        // without repeating it.
        for (name, value) in [("episode_id", id), ("harness", harness)] {
            if crate::scrub::contains_secret(value) {
                return Err(bad(format!(
                    "{name} holds what looks like a credential; send the harness's own id and \
                     name, never a token"
                )));
            }
        }
        if self.ended_at < self.started_at {
            return Err(bad("ended_at must not be before started_at"));
        }
        if self.turns.len() > MAX_TURNS {
            return Err(bad(format!("at most {MAX_TURNS} turns per episode")));
        }
        let project = parse_repository(self.project.as_deref()).map_err(bad)?;
        Ok((project, harness.to_owned()))
    }
}

impl Op for PostEpisode {
    // Each part may be written by a paid model, its cost reserved from the monthly budget on
    // a connection of its own: a second attempt would pay and reserve again.
    const RETRIED: bool = false;
    const SPEC: Spec = Spec {
        id: "postEpisode",
        tool: Some("journal_episode"),
        journal: JournalUse::Capture,
        scopes: &[Scope::ChatsRead],
        needs_journal: true,
        creates: true,
        title: "Post a settled conversation",
        // Idempotent: posting the same `episode_id` again with the same key makes nothing new.
        effect: Effect::Writes { idempotent: true },
    };
    type Output = EpisodePosted;

    async fn run(self, op: &mut Operation, services: &Services) -> Result<EpisodePosted> {
        let (project, harness) = self.check()?;
        let episode_id = self.episode_id.trim().to_owned();
        let (turns, dropped_turns) = kept_turns(self.turns);
        let mut posted = EpisodePosted {
            episode_id: episode_id.clone(),
            entries: Vec::new(),
            dropped_turns,
        };
        if !turns.iter().any(|t| !t.from_user) {
            return Ok(posted); // no assistant reply: no entry, no cost
        }
        let parts = summarize::split_conversation(&turns, PART_CHARS);
        drop(turns);
        let total = parts.len();
        let config = &services.config.summaries;
        let model = account_model(op.tx(), config).await?;
        let account = op.tenant().account_id;
        let budget = MonthlyBudget::of(&services.db, config, account, op.now());
        let limits = budget.limits(config);
        let about = format!(
            "A {harness} conversation{}",
            project
                .as_deref()
                .map(|p| format!(" in {p}"))
                .unwrap_or_default()
        );
        for (index, part) in parts.iter().enumerate() {
            let claim = EpisodePart {
                episode_id: &episode_id,
                part: index as i32,
                assistant: &harness,
                repository: project.as_deref(),
                started_at: self.started_at,
                ended_at: self.ended_at,
            };
            let claimed = sessions::claim_episode_part(op.tx(), &claim).await?;
            let Some(session) = claimed else {
                // The claim is this credential's; a token minted from the key with fewer
                // scopes than the part was posted with cannot read it, and is told so.
                let existing = sessions::episode_part(op.tx(), &episode_id, index as i32).await?;
                let Some(existing) = existing else {
                    return Err(Error::Conflict(format!(
                        "part {index} of episode {episode_id:?} was already posted by this key \
                         with scopes this token does not hold; post it with the key itself or \
                         a token of the same scopes"
                    )));
                };
                posted.entries.push(EpisodeEntry {
                    part: index as i32,
                    session_id: existing,
                    created: false,
                });
                continue;
            };
            let outcome = summarize::conversation_entry(
                model.as_deref(),
                &limits,
                &about,
                part,
                index,
                total,
            )
            .await;
            set_on_session(
                op.tx(),
                session.0,
                &outcome,
                outcome.fallback.as_deref(),
                None,
            )
            .await?;
            posted.entries.push(EpisodeEntry {
                part: index as i32,
                session_id: session,
                created: true,
            });
        }
        op.results(
            posted.entries.iter().map(|e| e.session_id.to_string()),
            Some(posted.entries.len()),
        );
        op.wrote();
        Ok(posted)
    }
}
