//! Request guards that answer in problem+json.

use crate::auth::limits::RateLimitSlot;
use crate::error::Error;
use axum::extract::Request;
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::any::Any;

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
