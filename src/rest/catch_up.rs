//! `GET /api/v1/journal/catch-up`: the brief a new conversation starts with.

use crate::brief::{Answer, CatchUp};
use crate::error::Problem;
use crate::http::ApiQuery;
use crate::http::call::{ApiCall, Reply};
use crate::http::openapi::{AccessProblems, JournalHeaders, NeedsChatsRead, SessionEnded};
use crate::ops::Services;
use crate::ops::journal::ReadCatchUp;
use axum::extract::State;

/// Read the catch-up brief.
///
/// Call it first in a new conversation: decisions, work started, work finished and questions
/// waiting for you since a time or a previous session, the sessions they come from (`more`
/// says when older ones were left out), and, with `records:read`, what was put on record
/// meanwhile in each Record you can open, and, with `orgs:read`, what members did on the
/// Records of organizations you own. Needs `chats:read`.
#[utoipa::path(
    get,
    path = "/api/v1/journal/catch-up",
    operation_id = "getCatchUp",
    tag = "journal",
    params(ReadCatchUp, JournalHeaders),
    responses(
        (status = 200, description = "The catch-up brief", body = CatchUp),
        (status = 400, description = "`since` is neither an RFC 3339 time nor a session id, an \
            unknown query parameter, or a bad `X-Purpose` or `X-Session-Id` (`bad-request`)",
            body = Problem, content_type = "application/problem+json"),
        NeedsChatsRead,
        (status = 404, description = "The assistant journal is off for this account \
            (`journal-off`), or the `since` session is not visible to this credential, or \
            `X-Session-Id` names no session of this credential (`not-found`)",
            body = Problem, content_type = "application/problem+json"),
        SessionEnded,
        AccessProblems,
    ),
    security(("bearer" = []))
)]
pub async fn catch_up(
    State(state): State<Services>,
    call: ApiCall,
    ApiQuery(input): ApiQuery<ReadCatchUp>,
) -> Reply<Answer> {
    Reply(call.run(&state, input).await)
}
