//! MCP over streamable HTTP at `/mcp`: the journal and Record tools, behind the same bearer
//! credentials as REST, each tool running as one journalled operation (see `operation`).
//!
//! Stateless (no `Mcp-Session-Id`): any replica can answer any request, so no sticky routing.
//! rmcp refuses `Host` headers it does not know; `N8V_MCP_ALLOWED_HOSTS` lists the names the
//! service is deployed under (`*` allows any).

mod args;
mod results;
mod tools;

use super::AppState;
use crate::auth::Principal;
use axum::extract::{FromRequestParts, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::sync::Arc;
pub use tools::JournalMcp;

pub fn service(state: AppState) -> StreamableHttpService<JournalMcp, NeverSessionManager> {
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
/// to the tools through the request's extensions.
pub async fn authenticate(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let (mut parts, body) = request.into_parts();
    match Principal::from_request_parts(&mut parts, &state).await {
        Ok(principal) => {
            parts.extensions.insert(principal);
            next.run(Request::from_parts(parts, body)).await
        }
        Err(error) => error.into_response(),
    }
}

/// A `413` problem for an MCP request whose declared length is over `N8V_MAX_BODY_BYTES`
/// (bodies without a length are cut at the same size by `RequestBodyLimitLayer`).
pub async fn limit_body(max: usize, request: Request, next: Next) -> Response {
    let declared = request
        .headers()
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|len| len > max) {
        return crate::error::Error::PayloadTooLarge(format!(
            "the request body is larger than this server accepts ({max} bytes)"
        ))
        .into_response();
    }
    next.run(request).await
}
