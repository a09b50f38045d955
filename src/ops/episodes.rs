//! Episodes: a harness posts a conversation, again as it grows; each ~30,000-character part
//! becomes one journal entry, drafted by the summary providers once the conversation settled,
//! and the prose itself is never kept.
//!
//! The request waits for the drafts. The prose lives only in this request's memory: a queued
//! job would have to carry it through the job table, which is storage. Tool calls, tool output,
//! reasoning and private turns are dropped before anything else looks at the turns; the rest
//! lose format characters and credentials before a model sees them. Each part is claimed by
//! inserting its entry's session row (unique per account, episode and part) in the operation's
//! transaction, or locked when an earlier post made it; a settled part's entry is code's when
//! the operation commits, and the model drafts it after the commit, with nothing held
//! (`draft`): a retried or concurrent post of the same episode waits for the commit, then
//! finds the part made, and pays for nothing. Claims are per credential (a key and the tokens minted from it): no other key
//! of the account can post under an id first and keep this key's conversation out, and the
//! same id posted by two keys makes two entries.
//!
//! A post compares each part's turns with the digest stored on its entry (`turns::digest`): the
//! same turns change nothing; other turns (the conversation grew, or was rewritten) rewrite the
//! entry. The model drafts a part only once the conversation settled: the harness says it ended
//! (`ended`), its last turn is `N8V_EPISODE_SETTLE_MINUTES` old (`ended_at`), or the setting
//! is 0. Until then the entry is code's and reads as an open session; a post of the same turns
//! that finds them settled drafts it. Code's entry (also without a model or budget) quotes the
//! part's first request and last reply, cut short, and its hand-off holds the lines the turns
//! mark, scrubbed, which the brief, `/journal.md` and the open loops read.

mod draft;
mod open;
mod turns;

pub use open::{ListOpenEpisodes, MAX_OPEN_EPISODES, OpenEpisodes};

use super::{Op, Operation, Services};
use crate::auth::Scope;
use crate::error::{Error, Result};
use crate::ids::SessionId;
use crate::journal::episodes::{self, Before, EpisodePart, Written};
use crate::journal::exposures::Field;
use crate::journal::meta::{MAX_REPOSITORY_CHARS, REPOSITORY_PATTERN, parse_repository};
use crate::operation::{Effect, JournalUse, Refusal, Spec};
use crate::summaries::{account_model, set_on_session};
use crate::summarize::{self, ConversationPart, ConversationTurn, PART_CHARS, Provider};
use chrono::{DateTime, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// One turn of the conversation, as the harness sent it (REST and MCP take it as it is).
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EpisodeTurn {
    /// `user` or `assistant`; other roles (`tool`, `system`) are dropped unread.
    pub role: String,
    /// What was said.
    pub text: String,
    /// `message` (default); `tool_call`, `tool_output` and `reasoning` are dropped unread.
    #[serde(default)]
    pub kind: Option<String>,
    /// A turn the person marked private: dropped unread.
    #[serde(default)]
    pub private: bool,
}

/// A conversation as far as it went, as a harness saw it.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(example = serde_json::json!({
    "episode_id": "0b6c6a4e-6f1f-4c55-9d1e-0c8f2a7b3e91",
    "harness": "claude-code",
    "project": "acme/web",
    "started_at": "2026-11-10T09:00:00Z",
    "ended_at": "2026-11-10T09:40:00Z",
    "turns": [
        {"role": "user", "text": "The login redirect loops; can you fix it?"},
        {"role": "assistant", "text": "Fixed: the cookie was SameSite=Strict. Tests pass."}
    ],
    "ended": true
}))]
pub struct PostEpisode {
    /// The harness's own id for the conversation (letters, digits, `. _ : -`, up to 200).
    /// Posting the same turns of an episode again changes nothing; posting it grown updates
    /// its entries.
    #[schemars(length(max = MAX_EPISODE_ID_CHARS), regex(pattern = "^[\\t\\n\\u000B\\u000C\\r\\u0085 ]*[A-Za-z0-9._:-]+[\\t\\n\\u000B\\u000C\\r\\u0085 ]*$"))]
    pub episode_id: String,
    /// The harness: `claude-code`, `codex`, …
    #[schemars(length(max = MAX_HARNESS_CHARS), regex(pattern = "^[\\t\\n\\u000B\\u000C\\r\\u0085 ]*[A-Za-z0-9._-]+[\\t\\n\\u000B\\u000C\\r\\u0085 ]*$"))]
    pub harness: String,
    /// The project or repository, if any.
    #[serde(default)]
    #[schemars(length(max = MAX_REPOSITORY_CHARS), regex(pattern = REPOSITORY_PATTERN))]
    pub project: Option<String>,
    /// When the conversation started (RFC 3339).
    #[schemars(length(max = 40))]
    pub started_at: DateTime<Utc>,
    /// When its last turn was (RFC 3339; the settle rule reads it: send the last turn's time,
    /// not now).
    #[schemars(length(max = 40))]
    pub ended_at: DateTime<Utc>,
    /// The turns, in order (at most 10,000): the whole conversation so far, also when it is
    /// posted again as it grows.
    #[schemars(length(max = MAX_TURNS))]
    pub turns: Vec<EpisodeTurn>,
    /// The harness says the conversation ended (its `SessionEnd` hook): its parts are drafted
    /// now rather than once it has been quiet for `N8V_EPISODE_SETTLE_MINUTES`.
    #[serde(default)]
    pub ended: bool,
}
crate::openapi_schema!(PostEpisode => "EpisodeRequest");

/// One entry of a posted episode.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct EpisodeEntry {
    /// The part (from 0).
    pub part: i32,
    /// The entry, a session of kind `episode` (`ses_…`).
    pub session_id: SessionId,
    /// `false` when an earlier post of the same episode made it already.
    pub created: bool,
    /// An earlier post made it with other turns, and this post rewrote it.
    pub updated: bool,
    /// The entry waits for the conversation to settle (written by code until then, and read
    /// as an open session).
    pub open: bool,
}

/// What a post made.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct EpisodePosted {
    /// The harness's episode id (credentials scrubbed).
    pub episode_id: String,
    /// One entry per part; none when the assistant never replied.
    pub entries: Vec<EpisodeEntry>,
    /// Turns dropped unread: tool calls and output, reasoning, private turns, other roles.
    pub dropped_turns: usize,
    /// Characters that hide or reorder text (Unicode tag characters, bidirectional
    /// embeddings, overrides and isolates) stripped from the turns kept.
    #[serde(default)]
    pub hidden_characters: usize,
    /// Whether the conversation counted as settled: `ended`, its last turn
    /// `N8V_EPISODE_SETTLE_MINUTES` old, or that setting 0.
    pub settled: bool,
}

pub const MAX_TURNS: usize = 10_000;
/// The longest `episode_id` (the messages say 200).
pub const MAX_EPISODE_ID_CHARS: usize = 200;
/// The longest `harness` name (the messages say 50).
pub const MAX_HARNESS_CHARS: usize = 50;

fn bad(message: impl Into<String>) -> Error {
    Error::BadRequest(message.into())
}

/// The checked episode id, harness and project, scrubbed as they are stored.
struct Checked {
    episode_id: crate::scrub::Cleaned,
    harness: crate::scrub::Cleaned,
    project: Option<String>,
}

impl PostEpisode {
    fn check(&self) -> Result<Checked> {
        let id = self.episode_id.trim();
        if id.is_empty()
            || self.episode_id.len() > MAX_EPISODE_ID_CHARS
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
            || self.harness.len() > MAX_HARNESS_CHARS
            || !harness
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
        {
            return Err(bad(
                "harness must be 1 to 50 letters, digits and . _ - (e.g. claude-code, codex)",
            ));
        }
        if self.ended_at < self.started_at {
            return Err(bad("ended_at must not be before started_at"));
        }
        if self.turns.len() > MAX_TURNS {
            return Err(bad(format!("at most {MAX_TURNS} turns per episode")));
        }
        let project = parse_repository(self.project.as_deref()).map_err(bad)?;
        // Both are stored (the entries' episode and assistant) and shown to every reader of the
        // journal: scrubbed like every other stored text, what the scrub removed recorded as
        // exposures.
        Ok(Checked {
            episode_id: crate::scrub::clean(id),
            harness: crate::scrub::clean(harness),
            project,
        })
    }

    /// Whether the conversation has settled at `now`.
    fn settled(&self, now: DateTime<Utc>, settle: chrono::Duration) -> bool {
        self.ended || settle <= chrono::Duration::zero() || self.ended_at <= now - settle
    }
}

/// What one post shares across its parts.
struct Post<'a> {
    episode_id: &'a str,
    harness: &'a str,
    project: Option<&'a str>,
    about: String,
    turns: Arc<[ConversationTurn]>,
    kept: &'a [turns::Kept],
    total: usize,
    settled: bool,
    model: Option<Arc<dyn Provider>>,
}

/// Why a part's entry is code's while it waits.
const WAITING: &str = "the conversation has not settled yet; a post once it has drafts it";

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
        title: "Post a conversation",
        // Idempotent: posting the same turns of an `episode_id` again with the same key
        // changes nothing.
        effect: Effect::Writes { idempotent: true },
        errors: &[
            Refusal::bad_request("a bad episode id, harness or project"),
            Refusal::bad_request("`ended_at` before `started_at`"),
            Refusal::bad_request("too many turns"),
            Refusal::conflict(
                "a part of this episode was posted by this key with scopes this token does not hold",
            ),
        ],
    };
    type Output = EpisodePosted;

    async fn run(self, op: &mut Operation, services: &Services) -> Result<EpisodePosted> {
        let checked = self.check()?;
        op.scrubbed(Field::Target, &checked.episode_id.found);
        op.scrubbed(Field::Target, &checked.harness.found);
        let config = &services.config.summaries;
        let settled = self.settled(op.now(), config.episode_settle);
        let (kept, dropped_turns, hidden_characters) = turns::kept_turns(self.turns);
        let mut posted = EpisodePosted {
            episode_id: checked.episode_id.text.clone(),
            entries: Vec::new(),
            dropped_turns,
            hidden_characters,
            settled,
        };
        if !kept.iter().any(|t| !t.from_user) {
            return Ok(posted); // no assistant reply: no entry, no cost
        }
        let turns: Arc<[ConversationTurn]> = turns::scrubbed(&kept).into();
        let parts = summarize::split_conversation(&turns, PART_CHARS);
        let model = account_model(op.tx(), config).await?.map(Arc::from);
        let harness = checked.harness.text.as_str();
        let about = format!(
            "A {harness} conversation{}",
            checked
                .project
                .as_deref()
                .map(|p| format!(" in {p}"))
                .unwrap_or_default()
        );
        let post = Post {
            episode_id: &checked.episode_id.text,
            harness,
            project: checked.project.as_deref(),
            about,
            turns,
            kept: &kept,
            total: parts.len(),
            settled,
            model,
        };
        for (index, part) in parts.iter().enumerate() {
            let entry = post_part(
                op,
                services,
                &post,
                &self.started_at,
                self.ended_at,
                part,
                index,
            )
            .await?;
            posted.entries.push(entry);
        }
        op.results(
            posted.entries.iter().map(|e| e.session_id.to_string()),
            Some(posted.entries.len()),
        );
        op.wrote();
        Ok(posted)
    }
}

/// Claims or locks one part, and writes its entry when its turns changed or just settled.
async fn post_part(
    op: &mut Operation,
    services: &Services,
    post: &Post<'_>,
    started_at: &DateTime<Utc>,
    ended_at: DateTime<Utc>,
    part: &ConversationPart,
    index: usize,
) -> Result<EpisodeEntry> {
    let number = index as i32;
    let account = op.tenant().account_id;
    let digest = turns::digest(account, post.episode_id, number, &part.text);
    let claim = EpisodePart {
        episode_id: post.episode_id,
        part: number,
        assistant: post.harness,
        repository: post.project,
        started_at: *started_at,
        ended_at,
    };
    let Some((session, before)) = episodes::claim(op.tx(), &claim, &digest).await? else {
        // The claim is this credential's; a token minted from the key with fewer scopes than
        // the part was posted with cannot read it, and is told so.
        return Err(Error::Conflict(format!(
            "part {index} of episode {:?} was already posted by this key with scopes this              token does not hold; post it with the key itself or a token of the same scopes",
            post.episode_id
        )));
    };
    let (write, open) = match before {
        Before::Same { open: false } => (false, false),
        Before::Same { open: true } => (post.settled, !post.settled),
        Before::New | Before::Changed => (true, !post.settled),
    };
    if write {
        let entry = Entry {
            session,
            part,
            index,
            digest: &digest,
            ended_at,
            open,
        };
        write_entry(op, services, post, &entry).await?;
    }
    Ok(EpisodeEntry {
        part: number,
        session_id: session,
        created: before == Before::New,
        updated: before == Before::Changed,
        open,
    })
}

/// One part's entry as a post writes it.
struct Entry<'a> {
    session: SessionId,
    part: &'a ConversationPart,
    index: usize,
    digest: &'a [u8],
    ended_at: DateTime<Utc>,
    /// The conversation has not settled.
    open: bool,
}

/// Writes a part's entry: code's, which waits while the conversation is open; once settled,
/// its items open as a closed session's do, and the model drafts it after the commit (code's
/// stands without a model, or when it fails).
async fn write_entry(
    op: &mut Operation,
    services: &Services,
    post: &Post<'_>,
    entry: &Entry<'_>,
) -> Result<()> {
    let (session, part) = (entry.session, entry.part);
    let which = (entry.index, post.total);
    let outcome = match (entry.open, &post.model) {
        (true, _) => summarize::code_entry(&post.about, &post.turns, part, which, WAITING),
        (false, None) => {
            let why = "no model provider is configured";
            summarize::code_entry(&post.about, &post.turns, part, which, why)
        }
        (false, Some(model)) => {
            // Shown to the model only: code's entry never reads them.
            let in_force = crate::loops::decided::in_force(op.tx(), session).await?;
            let draft = draft::Draft {
                db: services.db.clone(),
                config: services.config.clone(),
                tenant: op.tenant().clone(),
                model: model.clone(),
                now: op.now(),
                session,
                digest: entry.digest.to_vec(),
                about: post.about.clone(),
                in_force,
                turns: post.turns.clone(),
                part: part.clone(),
                which,
            };
            op.after_commit(Box::pin(draft.run()));
            summarize::code_entry(&post.about, &post.turns, part, which, draft::DRAFTING)
        }
    };
    let (handoff, found) =
        turns::marked_handoff(post.kept.get(part.turns.clone()).unwrap_or_default());
    op.scrubbed(Field::Handoff, &found);
    let written = Written {
        digest: entry.digest,
        open: entry.open,
        ended_at: entry.ended_at,
        handoff: handoff.as_ref(),
    };
    episodes::write(op.tx(), session, &written).await?;
    set_on_session(
        op.tx(),
        session.0,
        &outcome,
        outcome.fallback.as_deref(),
        None,
    )
    .await?;
    if !entry.open {
        // Settled: it ends as a closed session does, its end told and its items opened.
        let now = op.now();
        crate::sessions::settled_part(op.tx(), session, now).await?;
    }
    Ok(())
}
