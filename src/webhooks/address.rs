//! Where an endpoint may point: an `https` URL (plain `http` only where
//! `N8V_WEBHOOK_ALLOW_PRIVATE` allows it) with no user, password or fragment, whose host is on
//! the public internet. Checked when an endpoint is made or changed (a literal address, a name
//! like `localhost`, and what the name resolves to then) and again before every delivery, on
//! the addresses the name resolves to at that moment: the delivery connects to exactly the
//! address checked, so a second DNS answer cannot swap it.

use crate::outbound::{self, Unresolved};
use std::net::SocketAddr;
use std::time::Duration;

pub const MAX_URL_CHARS: usize = 2000;
const RESOLVE_TIMEOUT: Duration = Duration::from_secs(5);

/// Why a URL is refused, in words for the caller.
pub type Refusal = String;

/// The URL's form: scheme, no credentials or fragment, a host. Its normal form.
pub fn parse(text: &str, allow_private: bool) -> Result<url::Url, Refusal> {
    if text.chars().count() > MAX_URL_CHARS {
        return Err(format!("url is longer than {MAX_URL_CHARS} characters"));
    }
    let url = url::Url::parse(text.trim()).map_err(|e| format!("url is not a URL: {e}"))?;
    match url.scheme() {
        "https" => {}
        "http" if allow_private => {}
        "http" => return Err("url must be https (plain http is refused)".into()),
        other => return Err(format!("url must be https, not {other}")),
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err("url must not carry a user name or password".into());
    }
    if url.fragment().is_some() {
        return Err("url must not carry a fragment".into());
    }
    let host = url.host_str().unwrap_or_default();
    if host.is_empty() {
        return Err("url has no host".into());
    }
    let lower = host.to_ascii_lowercase();
    if !allow_private && (lower == "localhost" || lower.ends_with(".localhost")) {
        return Err(private(host));
    }
    Ok(url)
}

fn private(host: &str) -> Refusal {
    format!(
        "url's host {host} is a loopback, private, link-local or otherwise not globally \
         reachable address; webhooks are sent only to public addresses"
    )
}

/// The address to connect to for `url` ([`outbound::resolve_public`]).
pub async fn resolve(url: &url::Url, allow_private: bool) -> Result<SocketAddr, Refusal> {
    let host = url.host_str().unwrap_or_default();
    let port = url.port_or_known_default().unwrap_or(443);
    outbound::resolve_public(host, port, allow_private, RESOLVE_TIMEOUT)
        .await
        .map_err(|why| match why {
            Unresolved::TimedOut => format!("url's host {host} did not resolve in time"),
            Unresolved::NoAddress => format!("url's host {host} does not resolve"),
            Unresolved::Private => private(host),
        })
}

/// [`parse`], then [`resolve`]: what making or changing an endpoint checks.
pub async fn check(text: &str, allow_private: bool) -> Result<String, Refusal> {
    let url = parse(text, allow_private)?;
    resolve(&url, allow_private).await?;
    Ok(url.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_https_without_credentials_unless_private_is_allowed() {
        assert!(parse("https://hooks.example.com/in", false).is_ok());
        assert!(parse("http://hooks.example.com/in", false).is_err());
        assert!(parse("http://127.0.0.1:9/in", true).is_ok());
        assert!(parse("ftp://hooks.example.com/in", true).is_err());
        assert!(parse("https://u:p@hooks.example.com/", false).is_err());
        assert!(parse("https://hooks.example.com/#x", false).is_err());
        assert!(parse("https://localhost/in", false).is_err());
        assert!(parse("not a url", false).is_err());
    }

    #[tokio::test]
    async fn private_addresses_are_refused_after_resolving() {
        for url in [
            "https://127.0.0.1/",
            "https://[::1]/",
            "https://169.254.169.254/",
            "https://10.0.0.1/",
        ] {
            assert!(check(url, false).await.is_err(), "{url}");
        }
        assert!(check("http://127.0.0.1:9/", true).await.is_ok());
    }
}
