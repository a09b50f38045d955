//! Where a newcomer starts: `GET /`, the integrations guide (`/integrations.md`) and the
//! favicon. A browser opening `/` is sent on to the journal pages (`303` to `/journal`);
//! anything else gets a small JSON map of the entry points, with the URL to give MCP clients.
//! Public, like `/openapi.json`: they read nothing and need no credential.

use crate::config::Config;
use crate::oauth::metadata::RESOURCE_METADATA_PATH;
use crate::ops::Services;
use crate::pages::wants_html;
use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::json;

/// The journal pages, where a browser opening `/` is sent.
const PAGES: &str = "/journal";

/// The integrations guide (`integrations/README.md` of this build), served so that the guide a
/// service points to is the one for its version, wherever the repository lives.
pub const INTEGRATIONS_PATH: &str = "/integrations.md";

/// The favicon: one small SVG, at the address browsers ask for and at the one pages link to.
const FAVICON: &str = include_str!("../../templates/assets/favicon.svg");

pub fn routes() -> Router<Services> {
    Router::new()
        .route("/", get(root))
        .route(INTEGRATIONS_PATH, get(integrations))
        .route("/favicon.ico", get(favicon))
        .route("/favicon.svg", get(favicon))
}

async fn root(State(state): State<Services>, headers: HeaderMap) -> Response {
    if wants_html(&headers) {
        return (StatusCode::SEE_OTHER, [(header::LOCATION, PAGES)]).into_response();
    }
    Json(doors(&state.config)).into_response()
}

/// Which URL to give MCP clients, in words.
fn connect(config: &Config) -> String {
    let url = config.mcp_url();
    match &config.public_url {
        Some(_) => format!(
            "Give MCP clients {url} (N8V_PUBLIC_URL): its OAuth tokens are issued for that \
             address only. Clients sign in through OAuth in a browser, or send \
             `Authorization: Bearer <API key>`."
        ),
        None => format!(
            "Give MCP clients {url} (the address you reached this server at). Clients sign in \
             through OAuth in a browser, or send `Authorization: Bearer <API key>`. Set \
             N8V_PUBLIC_URL when clients reach it at another address (over the network, or \
             behind a proxy)."
        ),
    }
}

fn doors(config: &Config) -> serde_json::Value {
    let link = |href: &str, title: &str| json!({"href": href, "title": title});
    json!({
        "service": "n8v-journal",
        "version": env!("CARGO_PKG_VERSION"),
        "description": "A journal of what AI assistants did and why, and a catch-up brief for \
            the next conversation. Every /api/v1 call takes a bearer key (n8v_sk_…).",
        "mcp_url": config.mcp_url(),
        "connect": connect(config),
        "links": {
            "journal": link(PAGES, "The journal pages: sign in with a key"),
            "catch_up": link("/api/v1/journal/catch-up", "The catch-up brief"),
            "openapi": link("/openapi.json", "The REST API (/api/v1/…): its OpenAPI document"),
            "docs": link("/docs", "The REST API in Swagger UI, and how to connect MCP clients"),
            "mcp": link("/mcp", "The MCP server (streamable HTTP)"),
            "oauth_protected_resource": link(
                RESOURCE_METADATA_PATH,
                "The MCP server's OAuth protected resource metadata (RFC 9728)",
            ),
            "oauth_authorization_server": link(
                "/.well-known/oauth-authorization-server",
                "The OAuth authorization server metadata (RFC 8414)",
            ),
            "integrations": link(
                INTEGRATIONS_PATH,
                "How to connect each assistant: Claude, ChatGPT, Cursor, VS Code, Codex, …",
            ),
            "journal_md": link("/journal.md", "The recent journal as markdown, for hooks"),
            "health": link("/readyz", "Ready to serve"),
        },
    })
}

async fn integrations() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/markdown; charset=utf-8"),
            (header::CACHE_CONTROL, "public, max-age=300"),
        ],
        include_str!("../../integrations/README.md"),
    )
        .into_response()
}

async fn favicon() -> Response {
    (
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "public, max-age=86400"),
        ],
        FAVICON,
    )
        .into_response()
}
