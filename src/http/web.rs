//! `GET /journal.md`: the recent window as markdown, for session-start hooks. Same bearer
//! credentials as the API (chats:read). A read of the journal's window, not a journalled call.

use super::{ApiQuery, AppState};
use crate::auth::{Principal, Scope};
use crate::db::TenantTx;
use crate::error::{Error, Problem, Result};
use crate::flags::{self, Flag};
use crate::http::openapi::AccessProblems;
use crate::journal::window;
use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use serde::Deserialize;

#[derive(Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct WindowQuery {
    /// The most characters to answer with: 1,000 to 400,000 (default `N8V_JOURNAL_MD_MAX_CHARS`,
    /// 9,500).
    #[param(minimum = 1000, maximum = 400000, example = 9500)]
    pub max_chars: Option<usize>,
}

/// Read the recent journal as markdown.
///
/// The last 14 days of sessions as a short work log, newest kept within the character budget,
/// for session-start hooks. Needs `chats:read`. Not itself a journalled call.
#[utoipa::path(
    get,
    path = "/journal.md",
    operation_id = "getJournalMarkdown",
    tag = "journal",
    params(WindowQuery),
    responses(
        (status = 200, description = "The recent sessions as markdown", body = String,
            content_type = "text/markdown"),
        (status = 400, description = "`max_chars` out of range, or an unknown query parameter \
            (`bad-request`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The credential lacks `chats:read` (`missing-scope`) or is \
            an operator credential (`forbidden`)", body = Problem,
            content_type = "application/problem+json"),
        (status = 404, description = "The assistant journal is off for this account \
            (`journal-off`)", body = Problem, content_type = "application/problem+json"),
        AccessProblems,
    ),
    security(("bearer" = []))
)]
pub async fn journal_md(
    State(state): State<AppState>,
    principal: Principal,
    ApiQuery(query): ApiQuery<WindowQuery>,
) -> Result<impl IntoResponse> {
    principal.require(Scope::ChatsRead)?;
    let max = query.max_chars.unwrap_or(state.config.journal_md_max_chars);
    if !(window::MIN_CHARS..=window::MAX_CHARS).contains(&max) {
        return Err(Error::BadRequest(format!(
            "max_chars must be between {} and {}",
            window::MIN_CHARS,
            window::MAX_CHARS
        )));
    }
    let mut tx = TenantTx::begin(&state.db, &principal.tenant).await?;
    if !flags::enabled(&mut tx, Flag::AssistantJournal).await? {
        return Err(Error::JournalOff);
    }
    let markdown = window::render(&mut tx, state.clock.now(), max).await?;
    tx.commit().await?;
    Ok((
        [(header::CONTENT_TYPE, "text/markdown; charset=utf-8")],
        markdown,
    ))
}
