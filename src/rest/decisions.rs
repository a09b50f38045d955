//! Decisions over REST: `POST /api/v1/journal/decisions/{id}/replace`.

use crate::error::Problem;
use crate::http::ApiJson;
use crate::http::call::{ApiCall, Reply};
use crate::http::openapi::{AccessProblems, JournalHeaders, NeedsChatsRead};
use crate::ids::ItemId;
use crate::loops::Loop;
use crate::ops::Services;
use crate::ops::decisions::ReplaceDecision;
use axum::extract::{Path, State};

/// Replace a decision.
///
/// Says that a later decision (`by`) replaces this one, in the session the call is recorded
/// in (`X-Session-Id`, or the session it joins): the catch-up brief, `/journal.md` and the
/// resources stop presenting it as current and show it once, under the decision that replaced
/// it. Both are decisions as the brief lists them (`id` on each). Needs `chats:read`; only a
/// decision of your own account that this credential can read is replaced (an organization's
/// owner reads its members' decisions but does not replace them). `session_end` replaces too,
/// with its `replaces` list, and so does a line marked `Replaces itm_…:`.
#[utoipa::path(
    post,
    path = "/api/v1/journal/decisions/{id}/replace",
    operation_id = "replaceDecision",
    tag = "journal",
    params(
        ("id" = ItemId, Path, description = "The decision replaced (`itm_…`)",
            example = "itm_01M72B6Q00EDV8XKQ3RN1Z3H6A"),
        JournalHeaders,
    ),
    request_body(content = ReplaceDecision, content_type = "application/json",
        description = "The decision that replaces it"),
    responses(
        (status = 200, description = "The decision, replaced (`state: replaced`, \
            `replaced_by`)", body = Loop),
        (status = 400, description = "Malformed JSON, a `by` that is no item id, or a bad \
            `X-Purpose` or `X-Session-Id` (`bad-request`)",
            body = Problem, content_type = "application/problem+json"),
        NeedsChatsRead,
        (status = 404, description = "The assistant journal is off for this account \
            (`journal-off`), no decision with this id (or `by`'s) that this credential may \
            replace, or `X-Session-Id` names no session of this credential (`not-found`)",
            body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The decision is replaced already, `by` was replaced \
            itself or names this decision, or `X-Session-Id` names a session that has ended \
            (`conflict`)",
            body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is larger than the server accepts \
            (`payload-too-large`)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not sent with `Content-Type: application/json` \
            (`unsupported-media-type`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "JSON of the wrong shape, unknown fields included \
            (`invalid-body`)", body = Problem, content_type = "application/problem+json"),
        AccessProblems,
    ),
    security(("bearer" = []))
)]
pub async fn replace(
    State(state): State<Services>,
    call: ApiCall,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<ReplaceDecision>,
) -> Reply<Loop> {
    let input = ReplaceDecision { item: id, ..body };
    Reply(call.body(&input).run(&state, input.clone()).await)
}
