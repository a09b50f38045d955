//! `POST /api/v1/auth/token`: mint a short-lived access token from an API key.

use crate::auth::{Principal, Scopes};
use crate::error::{Error, Problem, Result};
use crate::http::openapi::AccessProblems;
use crate::http::{ApiJson, AppState, OptionalJson};
use axum::extract::State;
use serde::{Deserialize, Serialize};

/// What to mint; every field is optional, and so is the body.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"scopes": ["chats:read"], "expires_in": 600}))]
pub struct TokenRequest {
    /// Scopes for the token; each must be held by the key. Default: all of the key's scopes.
    pub scopes: Option<Vec<String>>,
    /// Lifetime in seconds, from 60 up to the server's maximum (default: the maximum).
    #[schema(minimum = 60)]
    pub expires_in: Option<i64>,
}

/// A minted access token.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(example = json!({
    "access_token": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJrZXlfMDEuLi4ifQ.c2lnbmF0dXJl",
    "token_type": "Bearer",
    "expires_in": 600,
    "scopes": ["chats:read"],
    "key_id": "key_01KZKXJDM0F4QS4FR84G98PBSK"
}))]
pub struct TokenResponse {
    /// The token (an HS256 JWT), to send as `Authorization: Bearer <token>`.
    pub access_token: String,
    /// Always `Bearer`.
    pub token_type: &'static str,
    /// Seconds until the token expires.
    pub expires_in: i64,
    /// The scopes the token carries.
    pub scopes: Vec<String>,
    /// The API key the token was minted from (`key_…`); revoking the key revokes the token.
    pub key_id: String,
}

/// Mint a short-lived access token.
///
/// Send an API key as the bearer credential. The token carries the key's credential id and
/// never more scope than the key; it stops working when the key is revoked.
#[utoipa::path(
    post,
    path = "/api/v1/auth/token",
    operation_id = "mintToken",
    tag = "auth",
    request_body(
        content = Option<TokenRequest>,
        content_type = "application/json",
        description = "The scopes and lifetime wanted. Optional: no body, `null` or `{}` mint a \
            token with all of the key's scopes and the longest lifetime.",
    ),
    responses(
        (status = 200, description = "The minted token", body = TokenResponse),
        (status = 400, description = "Malformed JSON, an unknown scope name, or `expires_in` \
            out of range (`bad-request`)", body = Problem,
            content_type = "application/problem+json"),
        (status = 403, description = "More scope than the key holds, or an operator credential \
            (`forbidden`)", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is larger than the server accepts \
            (`payload-too-large`)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "A body without `Content-Type: application/json` \
            (`unsupported-media-type`)", body = Problem,
            content_type = "application/problem+json"),
        (status = 422, description = "JSON of the wrong shape, unknown fields included \
            (`invalid-body`)", body = Problem, content_type = "application/problem+json"),
        AccessProblems,
    ),
    security(("bearer" = []))
)]
pub async fn mint(
    State(state): State<AppState>,
    principal: Principal,
    OptionalJson(body): OptionalJson<TokenRequest>,
) -> Result<ApiJson<TokenResponse>> {
    let request = body.unwrap_or_default();
    let scopes = match &request.scopes {
        None => principal.scopes.clone(),
        Some(names) => {
            let wanted =
                Scopes::from_names(names.iter().map(String::as_str)).map_err(Error::BadRequest)?;
            if !wanted.is_subset_of(&principal.scopes) {
                return Err(Error::Forbidden(format!(
                    "a token cannot hold more scope than its key; this key holds: {}",
                    principal.scopes.names().join(", ")
                )));
            }
            wanted
        }
    };
    let max = state.config.jwt_ttl.as_secs() as i64;
    let ttl = request.expires_in.unwrap_or(max);
    if !(60..=max).contains(&ttl) {
        return Err(Error::BadRequest(format!(
            "expires_in must be between 60 and {max} seconds"
        )));
    }
    let now = state.clock.now().timestamp();
    let token = state
        .auth
        .jwt
        .mint(
            principal.account_id(),
            principal.credential_id(),
            scopes.names(),
            now,
            ttl,
        )
        .map_err(|e| Error::Internal(e.into()))?;
    Ok(ApiJson(TokenResponse {
        access_token: token,
        token_type: "Bearer",
        expires_in: ttl,
        scopes: scopes.names(),
        key_id: principal.key_id,
    }))
}
