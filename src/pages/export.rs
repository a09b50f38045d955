//! "Download my journal": the export (`GET /api/v1/journal/export`) as the signed-in user, on
//! the page's own cookie, so a plain link downloads it.

use super::render::error_page;
use super::user::PageUser;
use crate::ops::Services;
use crate::ops::export::ExportJournal;
use crate::rest::export::streamed;
use axum::extract::{Query, State};
use axum::response::Response;

pub async fn download(
    State(state): State<Services>,
    user: PageUser,
    Query(input): Query<ExportJournal>,
) -> Response {
    let finished = user.run(&state, input).await;
    match finished.result {
        Ok(plan) => streamed(&state, plan),
        Err(e) => error_page(&e, true),
    }
}
