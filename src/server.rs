//! The server: one router for the REST API, the MCP endpoint, the pages, OAuth's endpoints and
//! the front door, inside the layers every answer passes (request ids, traces, limits, timeouts,
//! security headers). `app` serves it.

mod index;
mod middleware;
mod oauth;

use crate::error::Error;
use crate::http::{call, headers};
use crate::{mcp, pages, rest};
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::HeaderName;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::TraceLayer;

use crate::ops::Services;

pub fn router(state: Services) -> Router {
    let request_id = HeaderName::from_static("x-request-id");
    let max_body = state.config.max_body_bytes;
    let max_headers = state.config.max_header_bytes;
    let timeout = state.config.request_timeout;
    let cors = middleware::cors(&state.config.cors_allowed_origins);
    // rmcp reads its body itself, past axum's DefaultBodyLimit: hold it to the same limit.
    let mcp = Router::new()
        .nest_service("/mcp", mcp::service(state.clone()))
        .layer(tower_http::limit::RequestBodyLimitLayer::new(max_body))
        .layer(axum::middleware::from_fn(move |req, next| {
            mcp::read_body(max_body, req, next)
        }))
        // A host name the deployment does not list, named with its setting: after
        // authentication, where rmcp's own check was (a client without a token is told how to
        // get one, whatever name it used, as discovery answers every name).
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            mcp::host::check,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            mcp::authenticate,
        ))
        // Outermost of /mcp: a foreign page is refused before its credentials are looked at.
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            mcp::origin::check,
        ));
    let console = pages::console::router(state.clone());
    let config = state.config.clone();
    rest::routes()
        .merge(mcp)
        .merge(pages::routes(&state))
        .merge(oauth::routes())
        .merge(index::routes())
        .fallback(|| async {
            Error::NotFound(
                "no such endpoint; GET / lists the entry points, /openapi.json the API".into(),
            )
        })
        .method_not_allowed_fallback(middleware::method_not_allowed)
        // After routing: names the span and the metrics by route template, not raw path.
        .layer(axum::middleware::from_fn(crate::telemetry::track_route))
        .with_state(state)
        // Browsers asking for the console's address get the console; scripts the JSON API.
        .layer(axum::middleware::from_fn_with_state(
            console,
            pages::console::divert,
        ))
        // Outside every handler and the console's diversion: whatever answers names the address
        // the client used, when it is a loopback name of this server.
        .layer(axum::middleware::from_fn(move |req, next| {
            middleware::reached(config.clone(), req, next)
        }))
        // Outside the console's diversion, so its pages get the anti-framing headers too.
        .layer(axum::middleware::from_fn(headers::security_headers))
        .layer(DefaultBodyLimit::max(max_body))
        .layer(axum::middleware::from_fn(middleware::rate_limit_headers))
        .layer(axum::middleware::from_fn(move |req, next| {
            middleware::limit_headers(max_headers, req, next)
        }))
        .layer(axum::middleware::from_fn(call::limit_uri))
        .layer(tower::util::option_layer(timeout.map(|limit| {
            tower_http::timeout::TimeoutLayer::with_status_code(
                axum::http::StatusCode::SERVICE_UNAVAILABLE,
                limit,
            )
        })))
        .layer(axum::middleware::from_fn(move |req, next| {
            middleware::timeout_problem(timeout.unwrap_or_default(), req, next)
        }))
        .layer(CatchPanicLayer::custom(middleware::panic_response))
        .layer(PropagateRequestIdLayer::new(request_id.clone()))
        .layer(tower::util::option_layer(cors))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(crate::telemetry::http_span)
                .on_response(
                    tower_http::trace::DefaultOnResponse::new().level(tracing::Level::INFO),
                ),
        )
        .layer(SetRequestIdLayer::new(request_id, MakeRequestUuid))
        // Outermost: a client's X-Request-Id that is not acceptable is dropped, so the layer
        // above generates one.
        .layer(axum::middleware::from_fn(middleware::screen_request_id))
}

/// The OpenAPI document (pretty JSON, ending in a newline), as served at `/openapi.json` and
/// committed as `openapi/openapi.json`.
pub fn openapi_json() -> String {
    crate::http::openapi::json(&rest::document())
}
