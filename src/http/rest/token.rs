//! `POST /api/v1/auth/token`: mint a short-lived access token from an API key.

use crate::auth::{Principal, Scopes};
use crate::error::{Error, Result};
use crate::http::{ApiJson, AppState, OptionalJson};
use axum::extract::State;
use serde::{Deserialize, Serialize};

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenRequest {
    /// Scopes for the token; each must be held by the key. Default: all of the key's scopes.
    pub scopes: Option<Vec<String>>,
    /// Lifetime in seconds, from 60 up to the server's maximum (default: the maximum).
    pub expires_in: Option<i64>,
}

#[derive(Debug, Serialize)]
pub struct TokenResponse {
    pub access_token: String,
    pub token_type: &'static str,
    pub expires_in: i64,
    pub scopes: Vec<String>,
    pub key_id: String,
}

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
