//! Tool arguments. Doc comments become the JSON-schema descriptions an assistant reads.

use crate::journal::handoff::{MAX_ITEM_CHARS, MAX_ITEMS};
use crate::journal::loops::MAX_RESOLVED;
use crate::journal::meta::{
    MAX_ASSISTANT_CHARS, MAX_PURPOSE_CHARS, MAX_REPOSITORY_CHARS, MAX_TEXT_CHARS,
};
use crate::ops::search::MAX_QUERY_CHARS;
use crate::records::MAX_LINE_CHARS;
use rmcp::schemars::{self, JsonSchema};
use serde::{Deserialize, Serialize};

/// The two arguments every tool takes.
#[derive(Debug, Default, Clone, Deserialize, Serialize, JsonSchema)]
pub struct Conversation {
    /// Why you are making this call, in one sentence (at most 500 characters). It is kept in
    /// the journal so the next conversation knows what you did and why.
    #[serde(default)]
    #[schemars(length(max = MAX_PURPOSE_CHARS))]
    pub purpose: Option<String>,
    /// The session of this conversation (`ses_…`), as returned by `session_start` or in
    /// `_meta["n8v/session"]`. Omit it to join your recent open session or get a new one.
    #[serde(default)]
    #[schemars(length(max = 30))]
    pub session: Option<String>,
}

#[derive(Debug, Deserialize, Serialize, JsonSchema)]
pub struct CatchUpArgs {
    /// Start of the window: an RFC 3339 time (`2026-11-10T09:00:00Z`) or a previous session id
    /// (then: since that session started). Default: the last 7 days.
    #[serde(default)]
    #[schemars(length(max = 40))]
    pub since: Option<String>,
    #[serde(flatten)]
    pub conversation: Conversation,
}

#[derive(Debug, Deserialize, Serialize, JsonSchema)]
pub struct SessionStartArgs {
    /// One sentence describing the goal of this conversation. Optional, as in REST, but give
    /// it: the next conversation's brief and the journal show sessions by their goal.
    #[serde(default)]
    #[schemars(length(max = MAX_TEXT_CHARS))]
    pub goal: Option<String>,
    /// The organization the work is for (`org_…`), if any.
    #[serde(default)]
    #[schemars(length(max = 30))]
    pub organization: Option<String>,
    /// The repository you work in, if any.
    #[serde(default)]
    #[schemars(length(max = MAX_REPOSITORY_CHARS))]
    pub repository: Option<String>,
    #[serde(flatten)]
    pub conversation: Conversation,
}

#[derive(Debug, Deserialize, Serialize, JsonSchema)]
pub struct SessionEndArgs {
    /// What happened: the handoff for the next conversation. Optional, as in REST, but give
    /// it: a session with a goal and an outcome is a hand-off the next conversation always sees.
    #[serde(default)]
    #[schemars(length(max = MAX_TEXT_CHARS))]
    pub outcome: Option<String>,
    /// The decisions you made in this session, one line each in your own words (at most 20
    /// items of 300 characters). The next conversation reads them first.
    #[serde(default)]
    #[schemars(length(max = MAX_ITEMS), inner(length(max = MAX_ITEM_CHARS)))]
    pub decisions: Option<Vec<String>>,
    /// Questions you leave open for the person or the next conversation (same limits).
    #[serde(default)]
    #[schemars(length(max = MAX_ITEMS), inner(length(max = MAX_ITEM_CHARS)))]
    pub open_questions: Option<Vec<String>>,
    /// What the next conversation should do first (same limits).
    #[serde(default)]
    #[schemars(length(max = MAX_ITEMS), inner(length(max = MAX_ITEM_CHARS)))]
    pub next_steps: Option<Vec<String>>,
    /// Open loops you settled in this session (`itm_…` ids from journal_catch_up or
    /// journal_loops, at most 100): each is closed, a question as answered, a next step as done.
    /// An id naming no item you may close is skipped and listed in the result's not_resolved.
    #[serde(default)]
    #[schemars(length(max = MAX_RESOLVED), inner(length(max = 30)))]
    pub resolved: Option<Vec<String>>,
    #[serde(flatten)]
    pub conversation: Conversation,
}

#[derive(Debug, Deserialize, Serialize, JsonSchema)]
pub struct LoopsArgs {
    /// `open` (the default: not closed, stale ones included), `closed` or `all`.
    #[serde(default)]
    #[schemars(length(max = 6))]
    pub state: Option<String>,
    /// Page size, 1 to 100 (default 20).
    #[serde(default)]
    pub limit: Option<i64>,
    /// The `next_cursor` of the previous page.
    #[serde(default)]
    #[schemars(length(max = 200))]
    pub cursor: Option<String>,
    #[serde(flatten)]
    pub conversation: Conversation,
}

#[derive(Debug, Deserialize, Serialize, JsonSchema)]
pub struct SessionsArgs {
    /// Only sessions whose assistant name contains this (case-insensitive), e.g. `Claude`.
    #[serde(default)]
    #[schemars(length(max = MAX_ASSISTANT_CHARS))]
    pub assistant: Option<String>,
    /// Only sessions of this key (`key_…`).
    #[serde(default)]
    #[schemars(length(max = 30))]
    pub key: Option<String>,
    /// Only sessions of this organization (`org_…`).
    #[serde(default)]
    #[schemars(length(max = 30))]
    pub organization: Option<String>,
    /// Only sessions in this repository.
    #[serde(default)]
    #[schemars(length(max = MAX_REPOSITORY_CHARS))]
    pub repo: Option<String>,
    /// Only sessions started at or after this RFC 3339 time.
    #[serde(default)]
    #[schemars(length(max = 40))]
    pub from: Option<String>,
    /// Only sessions started before this RFC 3339 time.
    #[serde(default)]
    #[schemars(length(max = 40))]
    pub to: Option<String>,
    /// Page size, 1 to 100 (default 20).
    #[serde(default)]
    pub limit: Option<i64>,
    /// The `next_cursor` of the previous page.
    #[serde(default)]
    #[schemars(length(max = 200))]
    pub cursor: Option<String>,
    #[serde(flatten)]
    pub conversation: Conversation,
}

#[derive(Debug, Deserialize, Serialize, JsonSchema)]
pub struct SessionArgs {
    /// The session to read (`ses_…`).
    #[schemars(length(max = 30))]
    pub session_id: String,
    /// Actions per page, 1 to 300 (default 100).
    #[serde(default)]
    pub limit: Option<i64>,
    /// The `next_cursor` of the previous page.
    #[serde(default)]
    #[schemars(length(max = 200))]
    pub cursor: Option<String>,
    /// Only the calls that wrote.
    #[serde(default)]
    pub writes: Option<bool>,
    #[serde(flatten)]
    pub conversation: Conversation,
}

#[derive(Debug, Deserialize, Serialize, JsonSchema)]
pub struct EntryArgs {
    /// The call to read (`call_…`).
    #[schemars(length(max = 31))]
    pub entry_id: String,
    #[serde(flatten)]
    pub conversation: Conversation,
}

#[derive(Debug, Deserialize, Serialize, JsonSchema)]
pub struct RecordListArgs {
    #[serde(flatten)]
    pub conversation: Conversation,
}

#[derive(Debug, Deserialize, Serialize, JsonSchema)]
pub struct RecordReadArgs {
    /// The Record to read (`rec_…`), from `record_list`.
    #[schemars(length(max = 30))]
    pub record_id: String,
    /// Lines per page, 1 to 200 (default 50), newest first.
    #[serde(default)]
    pub limit: Option<i64>,
    /// The `next_cursor` of the previous page.
    #[serde(default)]
    #[schemars(length(max = 200))]
    pub cursor: Option<String>,
    #[serde(flatten)]
    pub conversation: Conversation,
}

#[derive(Debug, Deserialize, Serialize, JsonSchema)]
pub struct RecordAppendArgs {
    /// The Record to append to (`rec_…`), from `record_list`.
    #[schemars(length(max = 30))]
    pub record_id: String,
    /// The line to put on record: one line, at most 4,000 characters.
    #[schemars(length(max = MAX_LINE_CHARS))]
    pub line: String,
    #[serde(flatten)]
    pub conversation: Conversation,
}

/// The longest string any tool argument may be (the longest field, `line`, is 4,000
/// characters; ids, cursors, filters and times are far shorter). Longer arguments are refused
/// before anything runs, so no oversized text reaches the journal or a model.
pub const MAX_ARGUMENT_CHARS: usize = MAX_LINE_CHARS;

/// Refuses any string argument, or string in a list argument, longer than
/// [`MAX_ARGUMENT_CHARS`], naming it.
pub fn check_lengths(arguments: &serde_json::Value) -> Result<(), String> {
    use serde_json::Value;
    let Value::Object(map) = arguments else {
        return Ok(());
    };
    let too_long = |value: &Value| matches!(value, Value::String(text) if text.chars().count() > MAX_ARGUMENT_CHARS);
    for (name, value) in map {
        let long = match value {
            Value::Array(items) => items.iter().any(too_long),
            value => too_long(value),
        };
        if long {
            return Err(format!(
                "`{name}` is longer than {MAX_ARGUMENT_CHARS} characters; shorten it"
            ));
        }
    }
    Ok(())
}

#[derive(Debug, Deserialize, Serialize, JsonSchema)]
pub struct DeleteSessionArgs {
    /// The session to delete for good (`ses_…`), with its calls and summary.
    #[schemars(length(max = 30))]
    pub session_id: String,
    #[serde(flatten)]
    pub conversation: Conversation,
}

#[derive(Debug, Deserialize, Serialize, JsonSchema)]
pub struct DeleteDayArgs {
    /// The day whose sessions to delete for good, `YYYY-MM-DD` (UTC).
    #[schemars(length(max = 10))]
    pub date: String,
    #[serde(flatten)]
    pub conversation: Conversation,
}

#[derive(Debug, Deserialize, Serialize, JsonSchema)]
pub struct DigestsArgs {
    /// `week` or `month`; both when absent.
    #[serde(default)]
    #[schemars(length(max = 5))]
    pub period: Option<String>,
    /// Only periods starting on or after this day, YYYY-MM-DD.
    #[serde(default)]
    #[schemars(length(max = 10))]
    pub from: Option<String>,
    /// Only periods starting before this day, YYYY-MM-DD.
    #[serde(default)]
    #[schemars(length(max = 10))]
    pub to: Option<String>,
    #[serde(flatten)]
    pub conversation: Conversation,
}

#[derive(Debug, Deserialize, Serialize, JsonSchema)]
pub struct SearchArgs {
    /// The words to find (web search syntax: words, "a phrase", `or`, `-word`), with at least
    /// one word to find (not only `-excluded` or common words).
    #[schemars(length(max = MAX_QUERY_CHARS))]
    pub q: String,
    /// Only matches in this repository.
    #[serde(default)]
    #[schemars(length(max = MAX_REPOSITORY_CHARS))]
    pub repo: Option<String>,
    /// Only matches in sessions for this organization (`org_…`).
    #[serde(default)]
    #[schemars(length(max = 30))]
    pub organization: Option<String>,
    /// Only matches in sessions whose assistant name contains this (case-insensitive).
    #[serde(default)]
    #[schemars(length(max = MAX_ASSISTANT_CHARS))]
    pub assistant: Option<String>,
    /// Only matches at or after this RFC 3339 time; default a year ago.
    #[serde(default)]
    #[schemars(length(max = 40))]
    pub from: Option<String>,
    /// Only matches before this RFC 3339 time.
    #[serde(default)]
    #[schemars(length(max = 40))]
    pub to: Option<String>,
    /// How many matches, 1 to 50 (default 20).
    #[serde(default)]
    pub limit: Option<i64>,
    #[serde(flatten)]
    pub conversation: Conversation,
}

#[derive(Debug, Deserialize, Serialize, JsonSchema)]
pub struct DeleteDigestArgs {
    /// The digest to delete for good (`dig_…`).
    #[schemars(length(max = 30))]
    pub digest_id: String,
    #[serde(flatten)]
    pub conversation: Conversation,
}

#[derive(Debug, Deserialize, Serialize, JsonSchema)]
pub struct EpisodeArgs {
    /// The harness's own id for the conversation; the same turns again change nothing.
    #[schemars(length(max = 200))]
    pub episode_id: String,
    /// The harness: claude-code, codex, …
    #[schemars(length(max = 50))]
    pub harness: String,
    /// The project or repository, if any.
    #[serde(default)]
    #[schemars(length(max = MAX_REPOSITORY_CHARS))]
    pub project: Option<String>,
    /// When the conversation started (RFC 3339).
    #[schemars(length(max = 40))]
    pub started_at: String,
    /// When it ended (RFC 3339).
    #[schemars(length(max = 40))]
    pub ended_at: String,
    /// The turns, in order: the whole conversation so far, also when posted again as it grows.
    pub turns: Vec<crate::ops::episodes::EpisodeTurn>,
    /// The harness says the conversation ended: draft its entries now.
    #[serde(default)]
    pub ended: bool,
    #[serde(flatten)]
    pub conversation: Conversation,
}
