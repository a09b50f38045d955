//! Settings' connected assistants: the OAuth grants of the account (client, scopes,
//! when connected, when last given a token), each with a revoke button.

use super::CsrfKey;
use super::user::PageUser;
use crate::ids::{KeyId, TypedId};
use crate::ops::Services;
use crate::ops::oauth::{ListGrants, RevokeGrant};
use axum::Form;
use axum::extract::State;
use axum::response::Response;
use serde::Deserialize;
use serde_json::{Value, json};

/// The connected assistants as the settings page shows them (empty when they cannot be read:
/// the sessions are the page's main content).
pub async fn connected(state: &Services, user: &PageUser) -> Vec<Value> {
    match user.run(state, ListGrants).await.result {
        Ok(grants) => grants
            .into_iter()
            .map(|g| {
                json!({
                    "id": g.id,
                    "client": super::words::client(&g.client_id, Some(g.client_name.as_str())),
                    "scopes": super::words::scopes(g.scopes.iter().map(String::as_str)),
                    "created": g.created_at.format("%Y-%m-%d %H:%M UTC").to_string(),
                    "last_used": g.last_used_at
                        .map(|t| t.format("%Y-%m-%d %H:%M UTC").to_string()),
                })
            })
            .collect(),
        Err(e) => {
            tracing::warn!(error = %e, "the connected assistants could not be listed");
            Vec::new()
        }
    }
}

/// Each scope the connected assistants hold, once, with what it lets an assistant do: the page
/// says it once, not for every grant.
pub fn scope_meanings(assistants: &[Value]) -> Vec<Value> {
    let mut seen = Vec::new();
    for scope in assistants
        .iter()
        .filter_map(|a| a["scopes"].as_array())
        .flatten()
    {
        if !seen.iter().any(|s: &Value| s["name"] == scope["name"]) {
            seen.push(scope.clone());
        }
    }
    seen
}

#[derive(Deserialize)]
pub struct RevokeForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    grant: String,
}

/// `POST /journal/assistants/revoke`: disconnects one assistant; its tokens are refused from
/// the next request on.
pub async fn revoke(
    State(state): State<Services>,
    user: PageUser,
    axum::Extension(key): axum::Extension<CsrfKey>,
    Form(form): Form<RevokeForm>,
) -> Response {
    let input = RevokeGrant {
        grant: KeyId::arg(&form.grant),
    };
    user.press(
        &state,
        &key,
        &form.csrf,
        input,
        "/journal/settings#assistants",
    )
    .await
}
