//! `POST /api/v1/auth/token`: mint a short-lived access token from an API key.

use crate::http::OptionalJson;
use crate::http::call::{ApiCall, Reply};
use crate::http::openapi::JournalHeaders;
use crate::ops::token::{MintToken, TokenResponse};
use crate::ops::{Op, Services};
use axum::extract::State;

/// Mint a short-lived access token.
///
/// Send an API key as the bearer credential (a minted token cannot mint another). The token
/// carries the key's credential id and never more scope than the key; it stops working when the
/// key is revoked. Journalled like every other call (`X-Purpose`, `X-Session-Id`).
#[utoipa::path(
    post,
    path = "/api/v1/auth/token",
    operation_id = MintToken::SPEC.id,
    tag = "auth",
    params(JournalHeaders),
    request_body(
        content = Option<MintToken>,
        content_type = "application/json",
        description = "The scopes and lifetime wanted. Optional: no body, `null` or `{}` mint a \
            token with all of the key's scopes and the longest lifetime.",
    ),
    responses(
        (status = "2XX", description = "The minted token", body = TokenResponse),
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
    call.reply_body(&state, input).await
}
