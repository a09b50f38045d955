//! `GET /api/v1/journal/catch-up`: the brief a new conversation starts with.

use super::journal::journal_read;
use crate::auth::Scope;
use crate::error::{Problem, Result};
use crate::http::call::{ApiCall, respond};
use crate::http::openapi::{AccessProblems, JournalHeaders};
use crate::http::{ApiJson, ApiQuery, AppState};
use crate::journal::catchup::{self, CatchUp};
use crate::operation::{JournalUse, Operation, Spec};
use axum::extract::State;
use axum::response::Response;
use serde::{Deserialize, Serialize};

const CATCH_UP: Spec = Spec {
    id: "getCatchUp",
    journal: JournalUse::Read,
};

#[derive(Deserialize, Serialize, Default, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct CatchUpQuery {
    /// An RFC 3339 time, or a previous session id (then: since that session started).
    /// Default: the last seven days.
    #[param(example = "2026-11-10T09:00:00Z")]
    pub since: Option<String>,
}

/// Read the catch-up brief.
///
/// Call it first in a new conversation: decisions, work started, work finished and questions
/// waiting for you since a time or a previous session, the sessions they come from (`more`
/// says when older ones were left out), and, with `records:read`, what was put on record
/// meanwhile in each Record you can open. Needs `chats:read`.
#[utoipa::path(
    get,
    path = "/api/v1/journal/catch-up",
    operation_id = "getCatchUp",
    tag = "journal",
    params(CatchUpQuery, JournalHeaders),
    responses(
        (status = 200, description = "The catch-up brief", body = CatchUp,
            headers(("X-Session-Id" = String, description = "The session this call was recorded \
                in (`ses_…`); sent when the assistant journal is on"))),
        (status = 400, description = "`since` is neither an RFC 3339 time nor a session id, an \
            unknown query parameter, or a bad `X-Purpose` or `X-Session-Id` (`bad-request`)",
            body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The credential lacks `chats:read` (`missing-scope`) or is \
            an operator credential (`forbidden`)",
            body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "The assistant journal is off for this account \
            (`journal-off`), or the `since` session is not visible to this credential, or \
            `X-Session-Id` names no session of this credential (`not-found`)",
            body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`X-Session-Id` names a session that has ended \
            (`conflict`)", body = Problem, content_type = "application/problem+json"),
        AccessProblems,
    ),
    security(("bearer" = []))
)]
pub async fn catch_up(
    State(state): State<AppState>,
    call: ApiCall,
    ApiQuery(query): ApiQuery<CatchUpQuery>,
) -> Result<Response> {
    let mut op = call.begin(&state, CATCH_UP).await?;
    let result = catch_up_in(&mut op, query.since.as_deref()).await;
    Ok(respond(op, result).await)
}

pub(crate) async fn catch_up_in(
    op: &mut Operation,
    since: Option<&str>,
) -> Result<ApiJson<CatchUp>> {
    journal_read(op)?;
    let now = op.now();
    let since = catchup::resolve_since(op.tx(), since, now).await?;
    let with_records = op.require(Scope::RecordsRead).is_ok();
    let brief = catchup::catch_up(op.tx(), since, with_records).await?;
    op.results(
        brief.sessions.iter().map(|s| s.id.clone()),
        Some(brief.sessions.len()),
    );
    Ok(ApiJson(brief))
}
