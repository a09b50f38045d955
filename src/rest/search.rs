//! `GET /api/v1/journal/search`: the journal's full-text search (see `ops::search`).

use crate::error::Problem;
use crate::http::ApiQuery;
use crate::http::call::{ApiCall, Reply};
use crate::http::openapi::{
    AccessProblems, JournalHeaders, JournalOffOrNoSession, NeedsChatsRead, SessionEnded,
};
use crate::ops::Services;
use crate::ops::search::{SearchJournal, SearchResults};
use axum::extract::State;

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
    params(SearchJournal, JournalHeaders),
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
    State(state): State<Services>,
    call: ApiCall,
    ApiQuery(input): ApiQuery<SearchJournal>,
) -> Reply<SearchResults> {
    Reply(call.run(&state, input).await)
}
