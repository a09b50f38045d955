//! The HTTP surface: routers, middleware and extractors. REST handlers and MCP tools are thin
//! adapters over `ops/`; nothing below knows HTTP.

pub mod call;
mod extract;
pub mod mcp;
mod middleware;
mod openapi;
pub mod rest;
mod web;

pub use extract::{ApiJson, ApiQuery, OptionalJson};

use crate::auth::AuthContext;
use crate::error::Error;
use axum::Router;
use axum::extract::{DefaultBodyLimit, FromRef};
use axum::http::{HeaderName, Request};
use std::sync::Arc;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::TraceLayer;

/// The state every handler shares: the services the operations run with.
pub use crate::ops::Services as AppState;

impl FromRef<AppState> for Arc<AuthContext> {
    fn from_ref(state: &AppState) -> Self {
        state.auth.clone()
    }
}

pub fn router(state: AppState) -> Router {
    let request_id = HeaderName::from_static("x-request-id");
    let max_body = state.config.max_body_bytes;
    let max_headers = state.config.max_header_bytes;
    // rmcp reads its body itself, past axum's DefaultBodyLimit: hold it to the same limit.
    let mcp = Router::new()
        .nest_service("/mcp", mcp::service(state.clone()))
        .layer(tower_http::limit::RequestBodyLimitLayer::new(max_body))
        .layer(axum::middleware::from_fn(move |req, next| {
            mcp::limit_body(max_body, req, next)
        }))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            mcp::authenticate,
        ));
    rest::routes()
        .merge(mcp)
        .fallback(|| async { Error::NotFound("no such endpoint; see /openapi.json".into()) })
        .method_not_allowed_fallback(middleware::method_not_allowed)
        .with_state(state)
        .layer(DefaultBodyLimit::max(max_body))
        .layer(axum::middleware::from_fn(middleware::rate_limit_headers))
        .layer(axum::middleware::from_fn(move |req, next| {
            middleware::limit_headers(max_headers, req, next)
        }))
        .layer(axum::middleware::from_fn(call::limit_uri))
        .layer(CatchPanicLayer::custom(middleware::panic_response))
        .layer(PropagateRequestIdLayer::new(request_id.clone()))
        .layer(TraceLayer::new_for_http().make_span_with(|req: &Request<_>| {
            let id = req
                .headers()
                .get("x-request-id")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("-");
            // The path as the audit log keeps it: a token in it never reaches the logs.
            let path = crate::scrub::audit_path(req.uri().path());
            tracing::info_span!("request", method = %req.method(), path = %path, request_id = %id)
        }))
        .layer(SetRequestIdLayer::new(request_id, MakeRequestUuid))
        // Outermost: a client's X-Request-Id that is not acceptable is dropped, so the layer
        // above generates one.
        .layer(axum::middleware::from_fn(middleware::screen_request_id))
}

/// The OpenAPI document (pretty JSON, ending in a newline), as served at `/openapi.json` and
/// committed as `openapi/openapi.json`.
pub fn openapi_json() -> String {
    openapi::json(&rest::document())
}
