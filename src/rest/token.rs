//! `POST /api/v1/auth/token`: mint a short-lived access token from an API key.

use crate::error::Problem;
use crate::http::OptionalJson;
use crate::http::call::{ApiCall, Reply};
use crate::http::openapi::{AccessProblems, JournalHeaders, SessionEnded};
use crate::ops::Services;
use crate::ops::token::{MintToken, TokenResponse};
use axum::extract::State;

/// Mint a short-lived access token.
///
/// Send an API key as the bearer credential (a minted token cannot mint another). The token
/// carries the key's credential id and never more scope than the key; it stops working when the
/// key is revoked. Journalled like every other call (`X-Purpose`, `X-Session-Id`).
#[utoipa::path(
    post,
    path = "/api/v1/auth/token",
    operation_id = "mintToken",
    tag = "auth",
    params(JournalHeaders),
    request_body(
        content = Option<MintToken>,
        content_type = "application/json",
        description = "The scopes and lifetime wanted. Optional: no body, `null` or `{}` mint a \
            token with all of the key's scopes and the longest lifetime.",
    ),
    responses(
        (status = 200, description = "The minted token", body = TokenResponse),
        (status = 400, description = "Malformed JSON, an unknown scope name, an empty `scopes` \
            list, `expires_in` out of range, or a bad `X-Purpose` or `X-Session-Id` \
            (`bad-request`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "More scope than the key holds, a minted token instead of \
            an API key, or an operator credential (`forbidden`)", body = Problem,
            content_type = "application/problem+json"),
        (status = 404, description = "`X-Session-Id` names no session of this credential \
            (`not-found`)", body = Problem, content_type = "application/problem+json"),
        SessionEnded,
        (status = 413, description = "The body is larger than the server accepts \
            (`payload-too-large`)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "A body without `Content-Type: application/json` \
            (`unsupported-media-type`)", body = Problem,
            content_type = "application/problem+json"),
        (status = 422, description = "JSON of the wrong shape (not an object, or unknown \
            fields) (`invalid-body`)", body = Problem, content_type = "application/problem+json"),
        AccessProblems,
    ),
    security(("bearer" = []))
)]
pub async fn mint(
    State(state): State<Services>,
    call: ApiCall,
    OptionalJson(body): OptionalJson<MintToken>,
) -> Reply<TokenResponse> {
    let input = MintToken {
        from_token: call.principal.minted,
        sign_in: false,
        ..body.unwrap_or_default()
    };
    Reply(call.body(&input).run(&state, input.clone()).await)
}
