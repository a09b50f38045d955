//! Searching the journal: the one search REST (`GET /api/v1/journal/search`), MCP
//! (`journal_search`) and the journal page run.

use super::{Op, Operation, Services, limit, parse_time};
use crate::auth::Scope;
use crate::error::{Error, Result};
use crate::ids::OrganizationId;
use crate::journal::meta::{
    LINE_PATTERN, MAX_ASSISTANT_CHARS, MAX_REPOSITORY_CHARS, TIME_PATTERN, filter_text,
};
use crate::journal::search::{self, SearchFilter, SearchHit};
use crate::operation::{Effect, JournalUse, Refusal, Spec};
use chrono::{DateTime, Duration, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The longest query accepted.
pub const MAX_QUERY_CHARS: usize = 200;
/// The most matches one search answers with.
pub const MAX_HITS: i64 = 50;

/// Words to find, and what narrows them.
#[derive(Debug, Default, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchJournal {
    /// The words to find (web search syntax: words, `"a phrase"`, `or`, `-word`); at most 200
    /// characters, with at least one word to find (not only `-excluded` or common words).
    #[schemars(
        with = "String",
        length(max = MAX_QUERY_CHARS),
        regex(pattern = LINE_PATTERN),
        example = &"login redirect"
    )]
    pub q: Option<String>,
    /// Only matches in this repository.
    #[serde(default)]
    #[schemars(
        length(max = MAX_REPOSITORY_CHARS),
        regex(pattern = LINE_PATTERN),
        example = &"acme/web"
    )]
    pub repo: Option<String>,
    /// Only matches in sessions for this organization (`org_…`).
    #[serde(default)]
    #[schemars(with = "Option<OrganizationId>")]
    pub organization: Option<String>,
    /// Only matches in sessions whose assistant name contains this text (case-insensitive).
    #[serde(default)]
    #[schemars(
        length(max = MAX_ASSISTANT_CHARS),
        regex(pattern = LINE_PATTERN),
        example = &"Claude"
    )]
    pub assistant: Option<String>,
    /// Only matches at or after this time (RFC 3339); default a year ago.
    #[serde(default)]
    #[schemars(
        with = "Option<chrono::DateTime<chrono::Utc>>",
        length(max = 40),
        regex(pattern = TIME_PATTERN),
        example = &"2026-01-01T00:00:00Z"
    )]
    pub from: Option<String>,
    /// Only matches before this time (RFC 3339).
    #[serde(default)]
    #[schemars(
        with = "Option<chrono::DateTime<chrono::Utc>>",
        length(max = 40),
        regex(pattern = TIME_PATTERN),
        example = &"2026-12-01T00:00:00Z"
    )]
    pub to: Option<String>,
    /// How many matches to return, from 1 to 50 (default 20).
    #[serde(default)]
    #[schemars(range(min = 1, max = MAX_HITS))]
    pub limit: Option<i64>,
}
crate::openapi_params!(SearchJournal);

/// The matches, best first.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SearchResults {
    /// The query as searched.
    pub query: String,
    /// The earliest time searched (a year ago unless `from` was given).
    pub from: DateTime<Utc>,
    /// The matches, most relevant first (newest first among equals).
    pub hits: Vec<SearchHit>,
}

fn nonempty(text: Option<String>) -> Option<String> {
    text.map(|t| t.trim().to_owned()).filter(|t| !t.is_empty())
}

impl Op for SearchJournal {
    const SPEC: Spec = Spec {
        id: "searchJournal",
        tool: Some("journal_search"),
        journal: JournalUse::Read,
        scopes: &[Scope::ChatsRead],
        needs_journal: true,
        creates: false,
        title: "Search the journal",
        effect: Effect::Reads,
        errors: &[
            Refusal::bad_request(
                "`q` missing, empty, too long or with no word to find (only `-excluded` or common words)",
            ),
            Refusal::bad_request("a bad `organization` or `limit`"),
            Refusal::unavailable(
                "unavailable",
                "the search ran longer than the service allows (`N8V_SEARCH_TIMEOUT_MS`) and was stopped: narrow it",
            ),
        ],
    };
    type Output = SearchResults;

    async fn run(self, op: &mut Operation, services: &Services) -> Result<SearchResults> {
        if self
            .q
            .as_ref()
            .is_some_and(|q| q.chars().count() > MAX_QUERY_CHARS)
        {
            return Err(Error::BadRequest(format!(
                "q must be one line of at most {MAX_QUERY_CHARS} characters"
            )));
        }
        let query = nonempty(self.q)
            .ok_or_else(|| Error::BadRequest("q must name the words to search for".into()))?;
        if query.chars().any(char::is_control) {
            return Err(Error::BadRequest(format!(
                "q must be one line of at most {MAX_QUERY_CHARS} characters"
            )));
        }
        let organization = super::journal::filter_id::<OrganizationId>(
            "organization",
            self.organization.as_deref(),
        )?;
        let from = parse_time("from", self.from.as_deref())?;
        let to = parse_time("to", self.to.as_deref())?;
        let from = from.unwrap_or_else(|| op.now() - Duration::days(365));
        let filter = SearchFilter {
            repository: filter_text("repo", self.repo, MAX_REPOSITORY_CHARS)
                .map_err(Error::BadRequest)?,
            organization,
            assistant: filter_text("assistant", self.assistant, MAX_ASSISTANT_CHARS)
                .map_err(Error::BadRequest)?,
            from,
            to,
        };
        let limit = limit(self.limit, 20, MAX_HITS)?;
        let timeout = services.config.search_timeout;
        let previous = search::begin_search(op.tx(), &query, timeout)
            .await?
            .ok_or_else(|| {
                Error::BadRequest(
                    "q must contain a word to find: a query of only excluded words (-word) or \
                     of only common words (the, and…) would read the whole journal"
                        .into(),
                )
            })?;
        let hits = search::search(op.tx(), &query, &filter, limit)
            .await
            .map_err(|e| timed_out(e, timeout))?;
        search::end_search(op.tx(), &previous).await?;
        op.results(hits.iter().map(|h| h.id.clone()), Some(hits.len()));
        Ok(SearchResults { query, from, hits })
    }
}

/// A search stopped by its statement timeout is the caller's clear 503, not a server fault.
fn timed_out(e: Error, timeout: std::time::Duration) -> Error {
    match &e {
        Error::Database(db)
            if db.as_database_error().and_then(|d| d.code()).as_deref() == Some("57014") =>
        {
            Error::Unavailable(format!(
                "the search took longer than {} ms and was stopped; narrow it (more words, \
                 `from`/`to`, `repo`) or try again later",
                timeout.as_millis()
            ))
        }
        _ => e,
    }
}
