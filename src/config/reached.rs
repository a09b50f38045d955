//! The address a request reached the service at, when it may stand for the service's public
//! address. Without `N8V_PUBLIC_URL`, a service listening on loopback (or on every address) is
//! reached as `http://localhost:P`, `http://127.0.0.1:P` or `http://[::1]:P` alike, and MCP
//! clients refuse a protected resource, issuer or authorization response whose URL is not the
//! one they were given (RFC 9728 §3.3, RFC 8414 §3.3, RFC 9207). So discovery answers for the
//! loopback name in the request's `Host`, on the port the service listens on, and for no other
//! name: a foreign `Host` (a page whose name was rebound to 127.0.0.1) is never reflected, and
//! such a request is answered as if it had named the listening address.
//!
//! The name is held for the request's task by `http::middleware::reached` and read by
//! [`crate::config::Config::public_base`], so every answer built while serving the request (the
//! metadata, the `401` challenge, the authorization response's `iss`) names what the client
//! used. Tokens do not follow it: they are bound to the one listening address
//! ([`crate::config::Config::own_base`]), and every loopback spelling of it names the same
//! resource (see `oauth::metadata::canonical_resource`).

use std::future::Future;
use std::net::{IpAddr, SocketAddr};

tokio::task_local! {
    static REACHED: String;
}

/// Runs `serve` with `base` as the address the request reached (none: the configured one).
pub async fn serving<F: Future>(base: Option<String>, serve: F) -> F::Output {
    match base {
        Some(base) => REACHED.scope(base, serve).await,
        None => serve.await,
    }
}

/// The address the request being served reached, when [`serving`] set one.
pub(super) fn current() -> Option<String> {
    REACHED.try_with(Clone::clone).ok()
}

/// Whether discovery may answer for the loopback names of `bind`: a loopback address, or every
/// address (which includes loopback).
pub(super) fn answers_loopback(bind: SocketAddr) -> bool {
    bind.ip().is_loopback() || bind.ip().is_unspecified()
}

/// `http://` and the loopback name `host` (a `Host` header: `localhost:8080`, `127.0.0.1:8080`,
/// `[::1]:8080`) when it names the port `port`; `None` for any other name or port.
pub(super) fn loopback_base(host: &str, port: u16) -> Option<String> {
    // A Host is an authority, nothing more: no user, path, query or fragment.
    if host.is_empty() || host.contains(['@', '/', '\\', '?', '#', ' ']) {
        return None;
    }
    let url = url::Url::parse(&format!("http://{host}")).ok()?;
    let loopback = match url.host()? {
        url::Host::Domain(name) => name == "localhost",
        url::Host::Ipv4(ip) => IpAddr::V4(ip).is_loopback(),
        url::Host::Ipv6(ip) => IpAddr::V6(ip).is_loopback(),
    };
    (loopback && url.port_or_known_default() == Some(port))
        .then(|| url.origin().ascii_serialization())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_names_on_the_listening_port_are_answered_for() {
        for (host, base) in [
            ("localhost:8080", "http://localhost:8080"),
            ("LocalHost:8080", "http://localhost:8080"),
            ("127.0.0.1:8080", "http://127.0.0.1:8080"),
            ("[::1]:8080", "http://[::1]:8080"),
        ] {
            assert_eq!(loopback_base(host, 8080).as_deref(), Some(base), "{host}");
        }
        assert_eq!(
            loopback_base("localhost", 80).as_deref(),
            Some("http://localhost")
        );
        for foreign in [
            "evil.example.com:8080",
            "localhost.evil.example.com:8080",
            "localhost.:8080",
            "10.0.0.5:8080",
            "[::ffff:127.0.0.1]:8080",
            "localhost:8081",
            "localhost",
            "user@localhost:8080",
            "localhost:8080/mcp",
            "localhost:8080?x",
            "",
        ] {
            assert_eq!(loopback_base(foreign, 8080), None, "{foreign}");
        }
    }

    #[tokio::test]
    async fn the_reached_address_holds_for_the_request_only() {
        assert_eq!(current(), None);
        let inside = serving(Some("http://localhost:1".into()), async { current() }).await;
        assert_eq!(inside.as_deref(), Some("http://localhost:1"));
        assert_eq!(serving(None, async { current() }).await, None);
        assert_eq!(current(), None);
    }
}
