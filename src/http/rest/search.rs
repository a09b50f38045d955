//! `GET /api/v1/journal/search`: the journal's full-text search (see `ops::search`).

use crate::error::Problem;
use crate::http::call::{ApiCall, Reply};
use crate::http::openapi::{
    AccessProblems, JournalHeaders, JournalOffOrNoSession, NeedsChatsRead, SessionEnded,
};
use crate::http::{ApiQuery, AppState};
use crate::ops::search::{SearchJournal, SearchResults};
use axum::extract::State;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

#[derive(Deserialize, Serialize, Default, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct SearchQuery {
    /// The words to find (web search syntax: words, `"a phrase"`, `or`, `-word`); at most 200
    /// characters, with at least one word to find (not only `-excluded` or common words).
    #[param(example = "login redirect", max_length = 200)]
    pub q: Option<String>,
    /// Only matches in this repository.
    #[param(example = "acme/web")]
    pub repo: Option<String>,
    /// Only matches in sessions for this organization (`org_…`).
    #[param(example = "org_01KZ50QMC0FM8SEE7QV4YSR5S4")]
    pub organization: Option<String>,
    /// Only matches in sessions whose assistant name contains this text (case-insensitive).
    #[param(example = "Claude")]
    pub assistant: Option<String>,
    /// Only matches at or after this time (RFC 3339); default a year ago.
    #[param(example = "2026-01-01T00:00:00Z")]
    pub from: Option<DateTime<Utc>>,
    /// Only matches before this time (RFC 3339).
    #[param(example = "2026-12-01T00:00:00Z")]
    pub to: Option<DateTime<Utc>>,
    /// How many matches to return, from 1 to 50 (default 20).
    #[param(minimum = 1, maximum = 50, example = 20)]
    pub limit: Option<i64>,
}

/// Search the journal.
///
/// PostgreSQL full-text search over sessions' goals, outcomes and summaries, calls' purposes
/// and week and month digests, most relevant first, over the last year unless `from` says
/// otherwise. Narrowed by repository, organization or assistant (digests, which belong to none,
/// are then left out). Only what the credential could read matches: the same visibility as the
/// session list. Needs `chats:read`. Recorded as a journal read.
#[utoipa::path(
    get,
    path = "/api/v1/journal/search",
    operation_id = "searchJournal",
    tag = "journal",
    params(SearchQuery, JournalHeaders),
    responses(
        (status = 200, description = "The matches, most relevant first", body = SearchResults),
        (status = 400, description = "`q` missing, empty, too long or with no word to find \
            (only `-excluded` or common words), a bad `organization` or `limit`, an unknown \
            query parameter, or a bad `X-Purpose` or `X-Session-Id` (`bad-request`)",
            body = Problem, content_type = "application/problem+json"),
        NeedsChatsRead,
        JournalOffOrNoSession,
        SessionEnded,
        (status = 503, description = "The search ran longer than the service allows \
            (`N8V_SEARCH_TIMEOUT_MS`) and was stopped: narrow it (`unavailable`)",
            body = Problem, content_type = "application/problem+json"),
        AccessProblems,
    ),
    security(("bearer" = []))
)]
pub async fn search(
    State(state): State<AppState>,
    call: ApiCall,
    ApiQuery(q): ApiQuery<SearchQuery>,
) -> Reply<SearchResults> {
    Reply(call.run(&state, SearchQuery::into_input(q)).await)
}

impl SearchQuery {
    /// The operation's input: the page's search runs exactly this.
    pub fn into_input(self) -> SearchJournal {
        SearchJournal {
            q: self.q,
            repo: self.repo,
            organization: self.organization,
            assistant: self.assistant,
            from: self.from,
            to: self.to,
            limit: self.limit,
        }
    }
}
