//! The `Host` check of `/mcp` (DNS-rebinding protection, as the MCP transport specification
//! asks): an authenticated request for a host name not in `N8V_MCP_ALLOWED_HOSTS` is a `403`
//! problem that names the setting (where rmcp's check was: a client without a token is first
//! told how to get one). rmcp makes the same check inside the service, but
//! answers in plain text ("Forbidden: Host header is not allowed"), which leaves the person who
//! deployed the service guessing; this one runs first with rmcp's rule (a name without a port
//! allows any port, `name:port` that port only, names compared without case or IPv6 brackets),
//! so rmcp's never fires for a name allowed here.

use crate::error::Error;
use crate::ops::Services;
use axum::extract::{Request, State};
use axum::http::header::HOST;
use axum::http::uri::Authority;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// Refuses a request to `/mcp` whose host name is not allowed (see the module's comment).
pub async fn check(State(state): State<Services>, request: Request, next: Next) -> Response {
    let Some(allowed) = &state.config.mcp_allowed_hosts else {
        return next.run(request).await;
    };
    let sent = request
        .headers()
        .get(HOST)
        .and_then(|h| h.to_str().ok())
        .map(str::to_owned)
        .or_else(|| request.uri().authority().map(|a| a.to_string()));
    // A missing or malformed Host is rmcp's to refuse (400), as it does now.
    let Some(authority) = sent.as_deref().and_then(|s| s.parse::<Authority>().ok()) else {
        return next.run(request).await;
    };
    if allows(allowed, &authority) {
        return next.run(request).await;
    }
    Error::Forbidden(format!(
        "MCP is not served under the host name {:?}: it is not in N8V_MCP_ALLOWED_HOSTS. Add the \
         name clients reach this server by to that setting (comma-separated, e.g. \
         journal.example.com; `*` for any), or give clients a URL with a name it lists (GET / \
         names the one to give)",
        authority.host()
    ))
    .into_response()
}

fn normalize(host: &str) -> String {
    host.trim_matches(['[', ']']).to_ascii_lowercase()
}

/// rmcp's rule (`host_is_allowed` in its streamable HTTP server), so the two never disagree.
fn allows(allowed: &[String], sent: &Authority) -> bool {
    let host = normalize(sent.host());
    allowed.iter().any(|entry| {
        let entry = entry.trim();
        let (name, port) = match entry.parse::<Authority>() {
            Ok(a) => (normalize(a.host()), a.port_u16()),
            Err(_) => (normalize(entry), None),
        };
        !entry.is_empty() && name == host && port.is_none_or(|p| sent.port_u16() == Some(p))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn allowed(list: &[&str], host: &str) -> bool {
        let list: Vec<String> = list.iter().map(|s| (*s).to_owned()).collect();
        allows(&list, &host.parse().unwrap())
    }

    #[test]
    fn names_match_without_case_or_brackets_and_a_listed_port_must_match() {
        let list = ["localhost", "127.0.0.1", "::1", "Journal.Example.com:8443"];
        assert!(allowed(&list, "localhost:8080"));
        assert!(allowed(&list, "LOCALHOST"));
        assert!(allowed(&list, "[::1]:8080"));
        assert!(allowed(&list, "journal.example.com:8443"));
        assert!(!allowed(&list, "journal.example.com"));
        assert!(!allowed(&list, "journal.example.com:443"));
        assert!(!allowed(&list, "evil.example:8080"));
        assert!(!allowed(&[""], "localhost"));
    }
}
