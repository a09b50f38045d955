//! Browser-facing security headers, set on the way out of every response.
//!
//! - Every HTML answer (the journal pages, the operator console, Swagger UI) may not be framed
//!   by any page, same site included (`frame-ancestors 'none'`, and `X-Frame-Options: DENY` for
//!   browsers that predate CSP), and loads scripts, styles and data only from this origin: the
//!   templates have no inline script or style (scripts set positions through the CSSOM, which
//!   `style-src` does not govern), and Swagger UI's bundle is served from here too.
//! - Nothing is sniffed into another type (`X-Content-Type-Options: nosniff`, on everything).
//! - A JSON answer to a request that carried cookies (the pages' own `fetch`es, e.g. search)
//!   is account data: `Cache-Control: no-store`, so no browser or proxy cache keeps it.

use axum::extract::Request;
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;

/// The pages' content security policy.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; img-src 'self' data:; \
    object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

pub async fn security_headers(req: Request, next: Next) -> Response {
    let with_cookies = req.headers().contains_key(header::COOKIE);
    let mut response = next.run(req).await;
    let kind = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.to_ascii_lowercase())
        .unwrap_or_default();
    let headers = response.headers_mut();
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if kind.starts_with("text/html") {
        // A page may set its own, stricter-or-equal policy: the consent page adds only the
        // client's redirect origin to `form-action`, since browsers apply it to the redirect
        // that follows the form (see `pages::consent`).
        headers
            .entry(header::CONTENT_SECURITY_POLICY)
            .or_insert(HeaderValue::from_static(CONTENT_SECURITY_POLICY));
        headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    }
    let json = kind.starts_with("application/json")
        || (kind.starts_with("application/") && kind.contains("+json"));
    if with_cookies && json {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}
