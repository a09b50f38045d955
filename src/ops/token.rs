//! Minting a short-lived access token from an API key. Journalled like any other operation.

use super::{Op, Operation, Services};
use crate::error::{Error, Result};
use crate::ids::KeyId;
use crate::operation::{Effect, JournalUse, Refusal, Spec};
use crate::scopes::Scopes;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// The shortest lifetime a token may be minted with, in seconds.
pub const MIN_EXPIRES_IN: i64 = 60;

/// What to mint; every field is optional, and so is the body.
#[derive(Debug, Default, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(example = json!({"scopes": ["chats:read"], "expires_in": 600}))]
pub struct MintToken {
    /// Scopes for the token; each must be held by the key. Default: all of the key's scopes.
    #[serde(default)]
    #[schemars(length(min = 1), inner(regex(pattern = crate::scopes::Scope::PATTERN)))]
    pub scopes: Option<Vec<String>>,
    /// Lifetime in seconds, from 60 up to the server's maximum (default: the maximum).
    #[serde(default)]
    #[schemars(range(min = MIN_EXPIRES_IN))]
    pub expires_in: Option<i64>,
    /// The caller itself authenticated with a minted token (which cannot mint another).
    #[serde(skip)]
    pub from_token: bool,
    /// A sign-in's cookie: the token gets its own id, so that signing out ends it.
    #[serde(skip)]
    pub sign_in: bool,
}
crate::openapi_schema!(MintToken => "TokenRequest");

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
    pub key_id: KeyId,
}

impl Op for MintToken {
    const SPEC: Spec = Spec {
        id: "mintToken",
        tool: None,
        journal: JournalUse::None,
        scopes: &[],
        needs_journal: false,
        creates: false,
        title: "Mint a short-lived token",
        effect: Effect::Writes { idempotent: false },
        errors: &[
            Refusal::bad_request("an unknown scope name"),
            Refusal::bad_request("an empty `scopes` list"),
            Refusal::bad_request("`expires_in` out of range"),
            Refusal::forbidden("more scope than the key holds"),
            Refusal::forbidden("a minted token instead of an API key"),
        ],
    };
    type Output = TokenResponse;

    async fn run(self, op: &mut Operation, services: &Services) -> Result<TokenResponse> {
        if self.from_token {
            return Err(Error::Forbidden(
                "only an API key mints access tokens; a minted token cannot mint another".into(),
            ));
        }
        let held = op.tenant().scopes.clone();
        let scopes = match &self.scopes {
            None => held.clone(),
            Some(names) => {
                let wanted = Scopes::from_names(names.iter().map(String::as_str))
                    .map_err(Error::BadRequest)?;
                if wanted.is_empty() {
                    return Err(Error::BadRequest(
                        "scopes must name at least one scope; leave it out for all of the key's"
                            .into(),
                    ));
                }
                if !wanted.is_subset_of(&held) {
                    return Err(Error::Forbidden(format!(
                        "a token cannot hold more scope than its key; this key holds: {}",
                        held.names().join(", ")
                    )));
                }
                wanted
            }
        };
        let max = services.config.jwt_ttl.as_secs() as i64;
        let ttl = self.expires_in.unwrap_or(max);
        if !(MIN_EXPIRES_IN..=max).contains(&ttl) {
            return Err(Error::BadRequest(format!(
                "expires_in must be between {MIN_EXPIRES_IN} and {max} seconds"
            )));
        }
        let tenant = op.tenant().clone();
        let credential = tenant
            .credential_id
            .ok_or_else(|| Error::Forbidden("only an API key mints access tokens".into()))?;
        let token = services
            .auth
            .jwt
            .mint(
                tenant.account_id,
                credential,
                scopes.names(),
                op.now().timestamp(),
                ttl,
                self.sign_in.then(crate::ids::new_id),
            )
            .map_err(|e| Error::Internal(e.into()))?;
        Ok(TokenResponse {
            access_token: token,
            token_type: "Bearer",
            expires_in: ttl,
            scopes: scopes.names(),
            key_id: KeyId(credential),
        })
    }
}
