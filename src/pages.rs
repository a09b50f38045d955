//! The web pages: the journal pages for account users (`/journal…`) and the operator console
//! at `/internal/admin/feature-flags` (when a browser asks for HTML). Server-rendered with
//! minijinja from `templates/`, a little plain JavaScript, no build step. Pages are one more
//! adapter over `ops/`: each runs the same operation REST and MCP run, as the signed-in user.
//!
//! Sign-in exchanges a credential for a short-lived cookie (`HttpOnly`, `SameSite=Strict`,
//! `Secure` behind TLS); every state-changing form carries a CSRF token, an HMAC of the cookie
//! it is posted with (see [`csrf`]).

mod assistants;
mod consent;
pub mod console;
mod csrf;
mod export;
mod exposures;
mod journal;
mod loops;
mod render;
mod user;
mod webhooks;
mod words;

pub use csrf::CsrfKey;

use crate::ops::Services;
use crate::ops::loops::{CloseLoop, DismissLoop};
use crate::ops::releases::{DeleteItem, ReleaseItem};
use crate::ops::webhooks::{SendTestEvent, TakeOverWebhook};
use axum::Router;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

/// The journal pages and their assets.
pub fn routes(state: &Services) -> Router<Services> {
    Router::new()
        .route("/journal", get(journal::timeline))
        .route("/journal/", get(journal::timeline))
        .route("/journal/search", get(journal::search))
        .route("/journal/settings", get(journal::sessions))
        .route("/journal/sessions/{id}", get(journal::session))
        .route("/journal/entries/{id}", get(journal::entry))
        .route("/journal/audit/{id}", get(journal::audit))
        .route("/journal/export", get(export::download))
        .route("/journal/delete", post(journal::delete))
        .route("/journal/loops/close", post(loops::press::<CloseLoop>))
        .route("/journal/loops/dismiss", post(loops::press::<DismissLoop>))
        .route("/journal/items/release", post(loops::press::<ReleaseItem>))
        .route("/journal/items/delete", post(loops::press::<DeleteItem>))
        .route(
            "/journal/exposures/{id}/acknowledge",
            post(exposures::acknowledge),
        )
        .route(
            "/journal/sign-in",
            get(user::sign_in_page).post(user::sign_in),
        )
        .route("/journal/sign-out", post(user::sign_out))
        .route(
            crate::oauth::metadata::AUTHORIZE_PATH,
            get(consent::authorize).post(consent::decide),
        )
        .route("/journal/assistants/revoke", post(assistants::revoke))
        .route(
            "/journal/webhooks/test",
            post(webhooks::press::<SendTestEvent>),
        )
        .route(
            "/journal/webhooks/maker",
            post(webhooks::press::<TakeOverWebhook>),
        )
        .route("/assets/journal.js", get(asset_js))
        .route("/assets/console.js", get(console_js))
        .route("/assets/style.css", get(asset_css))
        .layer(axum::Extension(CsrfKey::from_config(&state.config)))
}

async fn asset_js() -> Response {
    asset(
        include_str!("../templates/assets/journal.js"),
        "text/javascript",
    )
}

async fn console_js() -> Response {
    asset(
        include_str!("../templates/assets/console.js"),
        "text/javascript",
    )
}

async fn asset_css() -> Response {
    asset(include_str!("../templates/assets/style.css"), "text/css")
}

fn asset(body: &'static str, kind: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, format!("{kind}; charset=utf-8")),
            (header::CACHE_CONTROL, "public, max-age=300".into()),
        ],
        body,
    )
        .into_response()
}

/// A cookie's value from the request.
pub(crate) fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_owned())
        .filter(|v| !v.is_empty())
}

/// Whether the page was reached over TLS (a TLS-terminating proxy says so with
/// `X-Forwarded-Proto: https`): the cookie is then `Secure`.
fn over_tls(headers: &HeaderMap) -> bool {
    headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("https"))
}

/// A `Set-Cookie` value: `HttpOnly`, `SameSite=Strict`, `Secure` over TLS; `max_age` 0 clears.
pub(crate) fn set_cookie(
    headers: &HeaderMap,
    name: &str,
    value: &str,
    path: &str,
    max_age: i64,
) -> HeaderValue {
    let secure = if over_tls(headers) { "; Secure" } else { "" };
    HeaderValue::from_str(&format!(
        "{name}={value}; Path={path}; Max-Age={max_age}; HttpOnly; SameSite=Strict{secure}"
    ))
    .expect("cookie values are tokens")
}

/// Whether the client prefers HTML (a browser) to JSON (a script).
pub fn wants_html(headers: &HeaderMap) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("text/html"))
}
