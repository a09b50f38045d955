//! Request guards that answer in problem+json.

use crate::auth::limits::RateLimitSlot;
use crate::error::Error;
use axum::extract::Request;
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::any::Any;
use std::sync::Arc;

/// Refuses requests whose headers add up to more than `max` bytes (431), before any work.
pub async fn limit_headers(max: usize, req: Request, next: Next) -> Response {
    let size: usize = req
        .headers()
        .iter()
        .map(|(k, v)| k.as_str().len() + v.len() + 4)
        .sum();
    if size > max {
        return Error::HeadersTooLarge(format!(
            "the request headers total {size} bytes; this server accepts at most {max}"
        ))
        .into_response();
    }
    next.run(req).await
}

/// Serves the request with the address it reached held for it (`config::reached`): the
/// loopback name in its `Host` (or HTTP/2 `:authority`), when discovery answers for it.
pub async fn reached(config: Arc<crate::config::Config>, req: Request, next: Next) -> Response {
    let host = req
        .headers()
        .get(axum::http::header::HOST)
        .and_then(|h| h.to_str().ok())
        .or_else(|| req.uri().authority().map(|a| a.as_str()));
    let base = host.and_then(|host| config.reached_base(host));
    crate::config::reached::serving(base, next.run(req)).await
}

pub async fn method_not_allowed() -> Error {
    Error::MethodNotAllowed
}

pub fn panic_response(_: Box<dyn Any + Send + 'static>) -> Response {
    Error::Internal(anyhow::anyhow!("handler panicked")).into_response()
}

/// Gives each request a [`RateLimitSlot`] and turns what authentication put in it into
/// `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds) on the response,
/// success or error (a 429 also carries `Retry-After`).
pub async fn rate_limit_headers(mut req: Request, next: Next) -> Response {
    let slot = RateLimitSlot::default();
    req.extensions_mut().insert(slot.clone());
    let mut response = next.run(req).await;
    if let Some(status) = slot.get() {
        let headers = response.headers_mut();
        headers.insert("ratelimit-limit", HeaderValue::from(status.limit));
        headers.insert("ratelimit-remaining", HeaderValue::from(status.remaining));
        headers.insert("ratelimit-reset", HeaderValue::from(status.reset_secs));
    }
    response
}

/// The longest client-chosen request id we keep.
pub const MAX_REQUEST_ID: usize = 64;

/// A client's `X-Request-Id` is kept only when it is 1 to 64 characters of `[A-Za-z0-9._-]`
/// and the scrubber finds no credential in it; anything else is dropped so that a fresh one is
/// generated (it ends up on every log line of the request and in the audit log, so it must not
/// carry markup, newlines or someone's secret: `ghp_…` is 40 such characters).
pub fn acceptable_request_id(value: &[u8]) -> bool {
    (1..=MAX_REQUEST_ID).contains(&value.len())
        && value
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
        && std::str::from_utf8(value).is_ok_and(|id| !crate::scrub::contains_secret(id))
}

/// Removes every `X-Request-Id` unless there is exactly one and it is acceptable.
pub async fn screen_request_id(mut req: Request, next: Next) -> Response {
    let headers = req.headers_mut();
    let values: Vec<_> = headers.get_all("x-request-id").iter().collect();
    if !(values.len() == 1 && acceptable_request_id(values[0].as_bytes())) {
        headers.remove("x-request-id");
    }
    next.run(req).await
}

/// CORS for browser clients on other origins, from `N8V_CORS_ALLOWED_ORIGINS`; `None` when off
/// (then no CORS header is ever sent and browsers keep other origins out). Credentials are
/// bearer tokens, never cookies, so `Access-Control-Allow-Credentials` is not sent.
pub fn cors(origins: &crate::config::CorsOrigins) -> Option<tower_http::cors::CorsLayer> {
    use crate::config::CorsOrigins;
    use axum::http::{HeaderName, HeaderValue, Method};
    use tower_http::cors::{AllowOrigin, CorsLayer};
    let allow_origin = match origins {
        CorsOrigins::Off => return None,
        CorsOrigins::Any => AllowOrigin::any(),
        CorsOrigins::List(list) => AllowOrigin::list(
            list.iter()
                .filter_map(|o| HeaderValue::from_str(o).ok())
                .collect::<Vec<_>>(),
        ),
    };
    let names = |list: &[&'static str]| -> Vec<HeaderName> {
        list.iter().map(|n| HeaderName::from_static(n)).collect()
    };
    Some(
        CorsLayer::new()
            .allow_origin(allow_origin)
            .allow_methods([
                Method::GET,
                Method::POST,
                Method::PUT,
                Method::DELETE,
                Method::OPTIONS,
            ])
            .allow_headers(names(&[
                "authorization",
                "content-type",
                "x-purpose",
                "x-session-id",
                "x-assistant",
                "x-request-id",
                "mcp-protocol-version",
                "mcp-session-id",
                "last-event-id",
            ]))
            .expose_headers(names(&[
                "x-session-id",
                "x-request-id",
                "retry-after",
                "mcp-session-id",
            ]))
            .max_age(std::time::Duration::from_secs(600)),
    )
}

/// tower-http's request timeout answers with a bare status; give that answer our problem body.
/// Every other error of ours already is `application/problem+json`, so a body-less `503`
/// without a content type can only be the timeout.
pub async fn timeout_problem(limit: std::time::Duration, req: Request, next: Next) -> Response {
    let response = next.run(req).await;
    if response.status() == axum::http::StatusCode::SERVICE_UNAVAILABLE
        && !response
            .headers()
            .contains_key(axum::http::header::CONTENT_TYPE)
    {
        tracing::warn!(limit_ms = limit.as_millis() as u64, "request timed out");
        return Error::Unavailable(format!(
            "the request took longer than {} ms and was stopped; retry later",
            limit.as_millis()
        ))
        .into_response();
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_id_is_kept_unless_it_is_odd_or_a_credential() {
        assert!(acceptable_request_id(
            b"6f1c0a4e-2b7d-4c55-9d1e-0c8f2a7b3e91"
        ));
        assert!(acceptable_request_id(b"req_42.retry-1"));
        assert!(!acceptable_request_id(b"two words"));
        assert!(!acceptable_request_id(&[b'x'; MAX_REQUEST_ID + 1]));
        let token = format!("ghp_{}", "a1B2c3D4e5F6".repeat(3));
        assert!(!acceptable_request_id(token.as_bytes()));
    }
}
