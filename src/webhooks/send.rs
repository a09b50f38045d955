//! Sending one delivery: the URL checked again on the addresses its host resolves to now (and
//! the connection pinned to the address checked), signed as Standard Webhooks specifies, no
//! redirect followed, bounded in time and in how much of the answer is read.

use super::deliveries::{Attempt, Claimed};
use super::{address, signing};
use crate::config::WebhookConfig;
use crate::ids::EventId;
use crate::outbound;
use std::time::Duration;

/// How much of a receiver's answer is read (the excerpt keeps less).
const MAX_RESPONSE_BYTES: usize = 4 * 1024;
const USER_AGENT: &str = concat!("n8v-journal-webhooks/", env!("CARGO_PKG_VERSION"));

fn failed(why: impl Into<String>) -> Attempt {
    Attempt {
        ok: false,
        status: None,
        excerpt: why.into(),
    }
}

/// Sends `claimed` once. The `webhook-timestamp` is the wall clock's (receivers check it
/// against theirs), whatever clock schedules the attempts.
pub async fn send(claimed: &Claimed, config: &WebhookConfig) -> Attempt {
    let url = match address::parse(&claimed.url, config.allow_private) {
        Ok(url) => url,
        Err(why) => return failed(format!("refused: {why}")),
    };
    let pinned = match address::resolve(&url, config.allow_private).await {
        Ok(address) => address,
        Err(why) => return failed(format!("refused: {why}")),
    };
    let host = url.host_str().unwrap_or_default();
    let client = match outbound::pinned_client(host, pinned, config.timeout)
        .user_agent(USER_AGENT)
        .build()
    {
        Ok(client) => client,
        Err(e) => return failed(format!("no HTTP client: {e}")),
    };
    let body = serde_json::to_vec(&claimed.body).unwrap_or_default();
    let id = EventId(claimed.event_id).to_string();
    let timestamp = chrono::Utc::now().timestamp();
    let signature = signing::header(
        claimed.secrets.iter().map(String::as_str),
        &id,
        timestamp,
        &body,
    );
    let sent = client
        .post(url)
        .header(reqwest::header::CONTENT_TYPE, "application/json")
        .header("webhook-id", &id)
        .header("webhook-timestamp", timestamp.to_string())
        .header("webhook-signature", signature)
        .body(body)
        .send()
        .await;
    let mut response = match sent {
        Ok(response) => response,
        Err(e) if e.is_timeout() => return failed("timed out"),
        Err(e) if e.is_connect() => return failed("could not connect"),
        Err(_) => return failed("the request failed"),
    };
    let status = response.status();
    let text = read_bounded(&mut response, config.timeout).await;
    Attempt {
        ok: status.is_success(),
        status: Some(status.as_u16()),
        excerpt: text,
    }
}

/// Up to [`MAX_RESPONSE_BYTES`] of the answer, as text; what could not be read is left out.
async fn read_bounded(response: &mut reqwest::Response, timeout: Duration) -> String {
    let mut body = Vec::new();
    let read = async {
        while let Ok(Some(chunk)) = response.chunk().await {
            body.extend_from_slice(&chunk);
            if body.len() >= MAX_RESPONSE_BYTES {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(timeout, read).await;
    body.truncate(MAX_RESPONSE_BYTES);
    String::from_utf8_lossy(&body).into_owned()
}
