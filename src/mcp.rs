//! MCP over streamable HTTP at `/mcp`: the journal and Record tools, behind the same bearer
//! credentials as REST, each tool running as one journalled operation (see `operation`).
//!
//! Stateless (no `Mcp-Session-Id`): any replica can answer any request, so no sticky routing.
//! `N8V_MCP_ALLOWED_HOSTS` lists the names the service is deployed under (`*` allows any):
//! `host::check` refuses others once the caller is authenticated, naming the setting (rmcp
//! checks the same list again inside the service). Browser origins are checked first, before
//! authentication, by `origin::check` (`N8V_MCP_ALLOWED_ORIGINS`).

mod app;
mod args;
mod call;
mod handler;
pub mod host;
pub mod origin;
mod prompts;
mod resources;
mod results;
mod server;
mod surface;
mod tools;

use crate::auth::{Principal, Scope};
use crate::error::Error;
use crate::oauth::metadata::{MCP_SCOPES, mcp_scope_text, resource_metadata_url};
use crate::ops::Services;
use axum::extract::{Request, State};
use axum::http::HeaderValue;
use axum::http::header::{AUTHORIZATION, CONNECTION, WWW_AUTHENTICATE};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
pub use server::JournalMcp;
use std::sync::Arc;

pub fn service(state: Services) -> StreamableHttpService<JournalMcp, NeverSessionManager> {
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_sse_keep_alive(None);
    let config = match &state.config.mcp_allowed_hosts {
        None => config.disable_allowed_hosts(),
        Some(hosts) => config.with_allowed_hosts(hosts.clone()),
    };
    StreamableHttpService::new(
        move || Ok(JournalMcp::new(state.clone())),
        Arc::new(NeverSessionManager::default()),
        config,
    )
}

/// Authenticates like REST (401/403/429 problems before any MCP work) and hands the principal
/// to the tools through the request's extensions. Also an OAuth resource server (RFC 6750 §3,
/// RFC 9728 §5.1): a `401` names the protected resource metadata and the scopes to ask for,
/// with `error="invalid_token"` when a token was sent and refused (bad, expired, revoked, or
/// issued for another resource); an OAuth grant holding none of the scopes MCP's tools use is
/// a `403` with `error="insufficient_scope"`.
pub async fn authenticate(State(state): State<Services>, request: Request, next: Next) -> Response {
    let (mut parts, body) = request.into_parts();
    let sent_token = parts.headers.contains_key(AUTHORIZATION);
    let resource = state.config.mcp_resource();
    let refusal = match Principal::for_resource(&mut parts, &state.auth, &resource).await {
        Ok(principal) => {
            if principal.oauth.is_some()
                && !MCP_SCOPES.iter().any(|s| principal.scopes().contains(*s))
                && !principal.scopes().contains(Scope::ChatsDelete)
            {
                let mut response = Error::Forbidden(format!(
                    "this grant holds none of the scopes MCP's tools use ({})",
                    mcp_scope_text()
                ))
                .into_response();
                set_challenge(&mut response, &state, Some("insufficient_scope"));
                response
            } else {
                parts.extensions.insert(principal);
                return next.run(Request::from_parts(parts, body)).await;
            }
        }
        Err(Error::Unauthorized(text)) => {
            let mut response = Error::Unauthorized(with_url_to_give(text, &state)).into_response();
            set_challenge(&mut response, &state, sent_token.then_some("invalid_token"));
            response
        }
        Err(error) => error.into_response(),
    };
    closing(refusal)
}

/// A refusal answered before the request's body was read closes its connection, and says so
/// (`Connection: close`). Otherwise hyper closes it unannounced once it finds the body unread,
/// and a client that sends its next request on it (an MCP SDK sends `initialize` again with its
/// new token at once) gets "server disconnected" instead of an answer.
fn closing(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(CONNECTION, HeaderValue::from_static("close"));
    response
}

/// A `401`'s detail, saying which URL to give MCP clients when `N8V_PUBLIC_URL` sets it: their
/// tokens are for that resource only, and clients refuse metadata naming another URL than the
/// one they were given. (Without it, any loopback name of the listening port works.)
fn with_url_to_give(text: String, state: &Services) -> String {
    match &state.config.public_url {
        None => text,
        Some(_) => format!(
            "{text}. Give MCP clients the URL {} (N8V_PUBLIC_URL): its OAuth tokens are issued \
             for that address only",
            state.config.mcp_url()
        ),
    }
}

/// The `WWW-Authenticate` challenge of `/mcp`.
fn set_challenge(response: &mut Response, state: &Services, error: Option<&str>) {
    let mut challenge = format!(
        "Bearer resource_metadata=\"{}\", scope=\"{}\"",
        resource_metadata_url(&state.config),
        mcp_scope_text()
    );
    if let Some(error) = error {
        challenge.push_str(&format!(", error=\"{error}\""));
    }
    if let Ok(value) = HeaderValue::from_str(&challenge) {
        response.headers_mut().insert(WWW_AUTHENTICATE, value);
    }
}

/// The body of an MCP request, read before rmcp sees it: a `413` problem when it is over
/// `N8V_MAX_BODY_BYTES` (by its declared length, or as it is read), and a JSON-RPC parse error
/// (`-32700`, `400`) when a `POST`'s body is not JSON (a NUL escape, a lone surrogate, a cut
/// document), which rmcp would answer with a plain-text `415` no client can read.
pub async fn read_body(max: usize, request: Request, next: Next) -> Response {
    let too_large = || {
        Error::PayloadTooLarge(format!(
            "the request body is larger than this server accepts ({max} bytes)"
        ))
        .into_response()
    };
    let declared = request
        .headers()
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|len| len > max) {
        return too_large();
    }
    if request.method() != axum::http::Method::POST {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, max).await else {
        return too_large();
    };
    let refused = |code: i32, message: String| {
        let error = serde_json::json!({
            "jsonrpc": "2.0",
            "id": null,
            "error": {"code": code, "message": message},
        });
        (axum::http::StatusCode::BAD_REQUEST, axum::Json(error)).into_response()
    };
    match serde_json::from_slice::<serde_json::Value>(&bytes) {
        Err(e) => return refused(-32700, format!("Parse error: the body is not JSON ({e})")),
        // Valid JSON the transport does not take (MCP 2025-06-18 dropped batches).
        Ok(serde_json::Value::Array(_)) => {
            return refused(
                -32600,
                "Invalid Request: send one JSON-RPC message per request; batches are not \
                 accepted"
                    .into(),
            );
        }
        Ok(_) => {}
    }
    next.run(Request::from_parts(parts, axum::body::Body::from(bytes)))
        .await
}
