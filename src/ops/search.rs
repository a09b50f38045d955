//! Searching the journal: the one search REST (`GET /api/v1/journal/search`), MCP
//! (`journal_search`) and the journal page run.

use super::journal::SessionFilters;
use super::kinds::read;
use super::{Op, Operation, Services, limit};
use crate::error::{Error, Result};
use crate::journal::meta::LINE_PATTERN;
use crate::journal::search::{self, SearchFilter, SearchHit};
use crate::operation::{Refusal, Spec};
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
    #[serde(flatten)]
    pub filters: SessionFilters,
    /// How many matches to return, from 1 to 50 (default 20).
    #[serde(default)]
    #[schemars(range(min = 1, max = MAX_HITS))]
    pub limit: Option<i64>,
}
crate::openapi_params!(SearchJournal);

/// The matches, best first.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
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
        ..read("searchJournal", "journal_search", "Search the journal")
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
        if crate::ids::has_control(&query) || crate::ids::hidden_at(&query).is_some() {
            return Err(Error::BadRequest(format!(
                "q must be one line of at most {MAX_QUERY_CHARS} characters"
            )));
        }
        let filters = self.filters.read()?;
        let from = filters
            .from
            .unwrap_or_else(|| op.now() - Duration::days(365));
        let filter = SearchFilter {
            repository: filters.repository,
            organization: filters.organization,
            assistant: filters.assistant,
            from,
            to: filters.to,
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
