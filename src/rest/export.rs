//! `GET /api/v1/journal/export`: the whole visible journal, streamed as NDJSON or markdown.

use crate::http::ApiQuery;
use crate::http::call::ApiCall;
use crate::http::openapi::JournalHeaders;
use crate::ops::export::{ExportJournal, ExportPlan};
use crate::ops::{Op, Services};
use crate::render::export::{self, ExportLine, Format};
use axum::body::Body;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use futures_util::TryStreamExt;

/// Export the journal.
///
/// Everything this credential can read of the journal, oldest first, streamed: the sessions
/// the session list shows, their calls, their stored summaries, and the week and month digests.
/// As NDJSON (the default), one object a line with its `type` (`session`, `call`, `summary`,
/// `digest`), each as the API answers it elsewhere; with `format=markdown`, one document.
/// Visibility is the session list's. Needs `chats:read`. Recorded as one journal read, before
/// the body is sent. Exports are bounded: a third of one account's at once gets `429`
/// (`too-many-at-once`), a server streaming as many as it runs `503` (`busy`), both with
/// `Retry-After`; a reader that takes nothing for 30 s, or an export past 10 minutes, is cut
/// off with a broken transfer, never a clean end.
#[utoipa::path(
    get,
    path = "/api/v1/journal/export",
    operation_id = ExportJournal::SPEC.id,
    tag = "journal",
    params(ExportJournal, JournalHeaders),
    responses(
        (status = "2XX", description = "The journal, oldest first: NDJSON lines (each one \
            object, `ExportLine`, with its `type`) or a markdown document",
            content(
                (ExportLine = "application/x-ndjson"),
                (String = "text/markdown"),
            )),
    ),
    security(("bearer" = []))
)]
pub async fn export(
    State(state): State<Services>,
    call: ApiCall,
    ApiQuery(input): ApiQuery<ExportJournal>,
) -> Response {
    call.reply(&state, input)
        .await
        .render(|plan| streamed(&state, plan))
}

/// The export's answer: its body read from the database as the client takes it, a page at a
/// time. A failure midway ends the body early (logged): a complete markdown document ends with
/// its tally line.
pub(crate) fn streamed(state: &Services, plan: ExportPlan) -> Response {
    let (content_type, extension) = match plan.format {
        Format::Ndjson => ("application/x-ndjson", "ndjson"),
        Format::Markdown => ("text/markdown; charset=utf-8", "md"),
    };
    let body = export::stream(
        state.db.clone(),
        plan.tenant,
        plan.format,
        plan.now,
        state.exports.limits(),
        plan.slot,
    )
    .inspect_err(|e| tracing::error!(error = %e, "the export stopped midway"));
    let day = state.clock.now().format("%Y-%m-%d");
    (
        [
            (header::CONTENT_TYPE, content_type.to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"journal-{day}.{extension}\""),
            ),
            (header::CACHE_CONTROL, "no-store".to_owned()),
        ],
        Body::from_stream(body),
    )
        .into_response()
}
