//! `GET /journal.md`: the recent window as markdown, for session-start hooks. Same bearer
//! credentials as the API (chats:read). A read of the journal's window, not a journalled call.

use super::{ApiQuery, AppState};
use crate::auth::{Principal, Scope};
use crate::db::TenantTx;
use crate::error::{Error, Result};
use crate::flags::{self, Flag};
use crate::journal::window;
use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WindowQuery {
    /// 1,000 to 400,000 characters (default `N8V_JOURNAL_MD_MAX_CHARS`, 9,500).
    pub max_chars: Option<usize>,
}

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
