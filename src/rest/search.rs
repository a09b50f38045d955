//! `GET /api/v1/journal/search`: the journal's full-text search (see `ops::search`).

use crate::http::ApiQuery;
use crate::http::call::handler;
use crate::http::openapi::JournalHeaders;
use crate::ops::Op;
use crate::ops::search::{SearchJournal, SearchResults};

handler! {
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
        operation_id = SearchJournal::SPEC.id,
        tag = "journal",
        params(SearchJournal, JournalHeaders),
        responses(
            (status = "2XX", description = "The matches, most relevant first",
                body = SearchResults),
        ),
        security(("bearer" = []))
    )]
    pub fn search(input: ApiQuery<SearchJournal>) -> SearchResults
        = reply(input)
}
