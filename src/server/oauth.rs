//! The OAuth endpoints that are JSON APIs (see `crate::oauth`): discovery, dynamic client
//! registration, the token endpoint and revocation. Thin: each parses its request, calls the
//! room and writes the RFC's answer (errors as `{"error", "error_description"}`, RFC 6749
//! §5.2). The authorization endpoint is a page (`pages::consent`).

use crate::oauth::OAuthError;
use crate::oauth::grants::{self, CodeExchange};
use crate::oauth::metadata;
use crate::oauth::registry::{self, Registration};
use crate::ops::Services;
use crate::scopes::Scopes;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

pub fn routes() -> Router<Services> {
    Router::new()
        .route(
            "/.well-known/oauth-protected-resource",
            get(protected_resource),
        )
        .route(metadata::RESOURCE_METADATA_PATH, get(protected_resource))
        .route(
            "/.well-known/oauth-authorization-server",
            get(authorization_server),
        )
        .route(
            "/.well-known/openid-configuration",
            get(authorization_server),
        )
        .route(metadata::REGISTER_PATH, post(register))
        .route(metadata::TOKEN_PATH, post(token))
        .route(metadata::REVOKE_PATH, post(revoke))
}

fn json(status: StatusCode, value: serde_json::Value) -> Response {
    let mut response = (status, axum::Json(value)).into_response();
    // Tokens and client ids are never cached (RFC 6749 §5.1).
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

impl IntoResponse for OAuthError {
    fn into_response(self) -> Response {
        if let Some(cause) = &self.cause {
            tracing::error!(error = %cause, "an OAuth request failed");
        }
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::BAD_REQUEST);
        json(
            status,
            serde_json::json!({ "error": self.error, "error_description": self.description }),
        )
    }
}

async fn protected_resource(State(state): State<Services>) -> Response {
    axum::Json(metadata::protected_resource(&state.config)).into_response()
}

async fn authorization_server(State(state): State<Services>) -> Response {
    axum::Json(metadata::authorization_server(&state.config)).into_response()
}

fn peer(
    connect: Option<axum::Extension<ConnectInfo<SocketAddr>>>,
    headers: &HeaderMap,
    state: &Services,
) -> IpAddr {
    let peer = connect.map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.0.ip());
    state.auth.limits.client_address(peer, headers)
}

/// `POST /oauth/register` (RFC 7591): registers a public client; rate-limited per address.
async fn register(
    State(state): State<Services>,
    connect: Option<axum::Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let address = peer(connect, &headers, &state);
    let budget = match state
        .oauth
        .check_registration(state.db.pool(), address)
        .await
    {
        Ok(budget) => budget,
        Err(e) => return OAuthError::server(e).into_response(),
    };
    if let Err(retry_after) = budget {
        let mut response = OAuthError {
            error: "slow_down",
            description: "too many registrations from this address; try again later".into(),
            status: 429,
            cause: None,
        }
        .into_response();
        if let Ok(value) = HeaderValue::from_str(&retry_after.to_string()) {
            response.headers_mut().insert(header::RETRY_AFTER, value);
        }
        return response;
    }
    let registration: Registration = match serde_json::from_slice(&body) {
        Ok(r) => r,
        Err(e) => {
            return OAuthError::bad(
                "invalid_client_metadata",
                format!("the registration is not valid JSON client metadata: {e}"),
            )
            .into_response();
        }
    };
    match registry::register(&state.db, &state.config, registration, state.clock.now()).await {
        Ok(client) => json(StatusCode::CREATED, client),
        Err(e) => e.into_response(),
    }
}

/// The token endpoint's form (RFC 6749 §4.1.3, §6; RFC 7636 §4.5; RFC 8707 §2.2).
#[derive(Debug, Deserialize)]
struct TokenForm {
    grant_type: Option<String>,
    code: Option<String>,
    redirect_uri: Option<String>,
    client_id: Option<String>,
    code_verifier: Option<String>,
    refresh_token: Option<String>,
    scope: Option<String>,
    resource: Option<String>,
}

/// The client id of a request: the form's, else HTTP Basic's user part (a public client that
/// sends `client_secret_basic` with an empty secret).
fn client_id_of(form: Option<&str>, headers: &HeaderMap) -> Option<String> {
    if let Some(id) = form.filter(|s| !s.is_empty()) {
        return Some(id.to_owned());
    }
    use base64::Engine;
    let basic = headers
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Basic ")?;
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(basic.trim())
        .ok()?;
    let text = String::from_utf8(decoded).ok()?;
    let user = text.split(':').next()?;
    let user = percent_encoding::percent_decode_str(user)
        .decode_utf8()
        .ok()?
        .into_owned();
    (!user.is_empty()).then_some(user)
}

fn form<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, OAuthError> {
    serde_urlencoded::from_bytes(body).map_err(|e| {
        OAuthError::bad(
            "invalid_request",
            format!("the request must be a form (application/x-www-form-urlencoded), each parameter once: {e}"),
        )
    })
}

/// The resource a token request names, canonical; an unknown one is `invalid_target`.
fn resource_of(given: Option<&str>, state: &Services) -> Result<Option<String>, OAuthError> {
    match given.filter(|r| !r.is_empty()) {
        None => Ok(None),
        Some(r) => metadata::canonical_resource(r, &state.config)
            .map(Some)
            .ok_or_else(|| {
                OAuthError::bad(
                    "invalid_target",
                    "resource must be this server's MCP endpoint",
                )
            }),
    }
}

/// `POST /oauth/token`.
async fn token(State(state): State<Services>, headers: HeaderMap, body: Bytes) -> Response {
    match token_inner(&state, &headers, &body).await {
        Ok(set) => json(
            StatusCode::OK,
            serde_json::to_value(set).unwrap_or_default(),
        ),
        Err(e) => e.into_response(),
    }
}

async fn token_inner(
    state: &Services,
    headers: &HeaderMap,
    body: &[u8],
) -> Result<grants::TokenSet, OAuthError> {
    let form: TokenForm = form(body)?;
    let client_id = client_id_of(form.client_id.as_deref(), headers).ok_or_else(|| OAuthError {
        error: "invalid_client",
        description: "client_id is required (public clients send it in the form)".into(),
        status: 401,
        cause: None,
    })?;
    let resource = resource_of(form.resource.as_deref(), state)?;
    let now = state.clock.now();
    let missing = |name: &str| OAuthError::bad("invalid_request", format!("{name} is required"));
    match form.grant_type.as_deref() {
        Some("authorization_code") => {
            let code = form.code.as_deref().ok_or_else(|| missing("code"))?;
            let verifier = form
                .code_verifier
                .as_deref()
                .ok_or_else(|| missing("code_verifier (PKCE)"))?;
            let exchange = CodeExchange {
                code,
                client_id: &client_id,
                redirect_uri: form.redirect_uri.as_deref(),
                code_verifier: verifier,
                resource: resource.as_deref(),
            };
            grants::exchange_code(&state.db, &state.auth.jwt, &state.config, exchange, now).await
        }
        Some("refresh_token") => {
            let refresh = form
                .refresh_token
                .as_deref()
                .ok_or_else(|| missing("refresh_token"))?;
            let scope = match form
                .scope
                .as_deref()
                .map(str::trim)
                .filter(|s| !s.is_empty())
            {
                None => None,
                Some(text) => {
                    Some(Scopes::parse(text).map_err(|e| OAuthError::bad("invalid_scope", e))?)
                }
            };
            let request = grants::Refresh {
                refresh_token: refresh,
                client_id: &client_id,
                scope: scope.as_ref(),
                resource: resource.as_deref(),
            };
            grants::refresh(&state.db, &state.auth.jwt, &state.config, request, now).await
        }
        Some(_) => Err(OAuthError::bad(
            "unsupported_grant_type",
            "grant_type must be authorization_code or refresh_token",
        )),
        None => Err(missing("grant_type")),
    }
}

#[derive(Debug, Deserialize)]
struct RevokeForm {
    token: Option<String>,
    #[allow(dead_code)]
    token_type_hint: Option<String>,
    client_id: Option<String>,
}

/// `POST /oauth/revoke` (RFC 7009): `200` whether or not the token was known.
async fn revoke(State(state): State<Services>, headers: HeaderMap, body: Bytes) -> Response {
    let form: RevokeForm = match form(&body) {
        Ok(f) => f,
        Err(e) => return e.into_response(),
    };
    let Some(token) = form.token.filter(|t| !t.is_empty()) else {
        return OAuthError::bad("invalid_request", "token is required").into_response();
    };
    let client_id = client_id_of(form.client_id.as_deref(), &headers);
    match grants::revoke_token(
        &state.db,
        &state.auth.jwt,
        &state.config,
        &token,
        client_id.as_deref(),
    )
    .await
    {
        Ok(()) => json(StatusCode::OK, serde_json::json!({})),
        Err(e) => e.into_response(),
    }
}
