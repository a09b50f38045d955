//! The `Origin` check of `/mcp` (the MCP transport specification: servers MUST validate it, so
//! that a web page whose name was rebound to this server cannot talk to it). A request with no
//! `Origin` (every non-browser client) passes; one whose `Origin` is not allowed is a `403`
//! problem, before authentication, saying which setting lets it in.
//!
//! Ours rather than rmcp's (`with_allowed_origins`): rmcp checks inside the service, after
//! `authenticate`, and answers in plain text.

use crate::error::Error;
use crate::ops::Services;
use axum::extract::{Request, State};
use axum::http::header::ORIGIN;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// Refuses a request to `/mcp` whose `Origin` is not allowed (see the module's comment).
pub async fn check(State(state): State<Services>, request: Request, next: Next) -> Response {
    if let Some(origin) = request.headers().get(ORIGIN) {
        let origin = origin.to_str().unwrap_or_default();
        let allowed = &state.config.mcp_allowed_origins;
        if !allowed.allows(origin, &state.config.public_base()) {
            return Error::Forbidden(format!(
                "MCP does not serve pages from the origin {origin:?} (a web page another site \
                 could have pointed at this server). Clients that are not browsers send no \
                 Origin header; to allow this origin, add it to N8V_MCP_ALLOWED_ORIGINS \
                 (comma-separated, e.g. https://app.example.com)"
            ))
            .into_response();
        }
    }
    next.run(request).await
}
