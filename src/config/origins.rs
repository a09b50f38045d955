//! `N8V_MCP_ALLOWED_ORIGINS`, parsed: which browser origins `/mcp` serves. The check itself is
//! `http::mcp::origin`.

/// `N8V_MCP_ALLOWED_ORIGINS`: the browser origins `/mcp` serves. The service's own public
/// origin ([`crate::config::Config::public_base`]) is always allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum McpOrigins {
    /// Unset: the own origin and loopback pages on any port (`http://localhost:*`,
    /// `http://127.0.0.1:*`, `http://[::1]:*`), for local development tools.
    Default,
    /// `*`: any origin (no check).
    Any,
    /// The own origin and these.
    List(Vec<AllowedOrigin>),
}

/// One allowed origin: `scheme://host[:port]`, or `scheme://host:*` for any port. Without a
/// port, the scheme's default port (80, 443), as browsers send it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AllowedOrigin {
    scheme: String,
    host: String,
    /// `None`: any port.
    port: Option<u16>,
}

const LOOPBACK: [&str; 3] = ["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"];

impl McpOrigins {
    pub fn parse(list: &str) -> anyhow::Result<Self> {
        let entries: Vec<&str> = list
            .split(',')
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .collect();
        if entries.is_empty() {
            return Ok(Self::Default);
        }
        if entries.contains(&"*") {
            return Ok(Self::Any);
        }
        entries
            .iter()
            .map(|entry| {
                AllowedOrigin::parse(entry).ok_or_else(|| {
                    anyhow::anyhow!(
                        "N8V_MCP_ALLOWED_ORIGINS: {entry:?} is not an origin (scheme://host, \
                         scheme://host:port or scheme://host:* for any port, e.g. \
                         https://app.example.com)"
                    )
                })
            })
            .collect::<anyhow::Result<_>>()
            .map(Self::List)
    }

    /// Whether a request whose `Origin` header is `origin` may reach `/mcp` of a service whose
    /// own origin is `own`.
    pub fn allows(&self, origin: &str, own: &str) -> bool {
        let Some(sent) = Origin::parse(origin) else {
            return matches!(self, Self::Any);
        };
        let own_allows = || AllowedOrigin::parse(own).is_some_and(|o| o.matches(&sent));
        match self {
            Self::Any => true,
            Self::Default => {
                own_allows()
                    || LOOPBACK
                        .iter()
                        .filter_map(|l| AllowedOrigin::parse(l))
                        .any(|l| l.matches(&sent))
            }
            Self::List(list) => own_allows() || list.iter().any(|a| a.matches(&sent)),
        }
    }
}

/// An origin as sent, its port made explicit.
struct Origin {
    scheme: String,
    host: String,
    port: Option<u16>,
}

impl Origin {
    fn parse(text: &str) -> Option<Self> {
        let url = url::Url::parse(text.trim()).ok()?;
        // An origin is a scheme and an authority, nothing more (`null` fails here too).
        if !matches!(url.path(), "" | "/") || url.query().is_some() || !url.username().is_empty() {
            return None;
        }
        Some(Self {
            scheme: url.scheme().to_owned(),
            host: url.host_str()?.to_ascii_lowercase(),
            port: url.port_or_known_default(),
        })
    }
}

impl AllowedOrigin {
    fn parse(text: &str) -> Option<Self> {
        let text = text.trim().trim_end_matches('/');
        let (base, any_port) = match text.strip_suffix(":*") {
            Some(base) => (base, true),
            None => (text, false),
        };
        let origin = Origin::parse(base)?;
        if !matches!(origin.scheme.as_str(), "http" | "https") {
            return None;
        }
        // `scheme://host:*` must not name a port too.
        let names_port = base
            .rsplit_once(':')
            .is_some_and(|(_, p)| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
        if any_port && names_port {
            return None;
        }
        Some(Self {
            scheme: origin.scheme,
            host: origin.host,
            port: if any_port { None } else { origin.port },
        })
    }

    fn matches(&self, origin: &Origin) -> bool {
        self.scheme == origin.scheme
            && self.host == origin.host
            && self.port.is_none_or(|p| origin.port == Some(p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OWN: &str = "https://journal.example.com";

    #[test]
    fn the_default_serves_the_own_origin_and_loopback_pages_only() {
        let d = McpOrigins::parse("").unwrap();
        assert_eq!(d, McpOrigins::Default);
        for ok in [
            "https://journal.example.com",
            "https://journal.example.com:443",
            "https://JOURNAL.example.com",
            "http://localhost:6274",
            "http://127.0.0.1:3000",
            "http://[::1]:8080",
        ] {
            assert!(d.allows(ok, OWN), "{ok}");
        }
        for refused in [
            "http://evil.example.com",
            "http://journal.example.com",
            "https://journal.example.com:8443",
            "https://localhost:6274",
            "http://localhost.evil.example.com",
            "null",
            "not an origin",
            "",
        ] {
            assert!(!d.allows(refused, OWN), "{refused}");
        }
    }

    #[test]
    fn a_list_replaces_loopback_but_keeps_the_own_origin() {
        let list = McpOrigins::parse("https://app.example.com, http://dev.example.com:*").unwrap();
        assert!(list.allows("https://app.example.com", OWN));
        assert!(list.allows("http://dev.example.com:5173", OWN));
        assert!(list.allows(OWN, OWN));
        assert!(!list.allows("https://app.example.com:8443", OWN));
        assert!(!list.allows("http://localhost:6274", OWN));
        assert!(
            McpOrigins::parse("*")
                .unwrap()
                .allows("http://evil.example.com", OWN)
        );
    }

    #[test]
    fn entries_that_are_not_origins_are_refused_at_startup() {
        for bad in [
            "app.example.com",
            "https://app.example.com/path",
            "ftp://app.example.com",
            "https://app.example.com:443:*",
            "null",
        ] {
            let error = McpOrigins::parse(bad).unwrap_err().to_string();
            assert!(error.contains("N8V_MCP_ALLOWED_ORIGINS"), "{bad}: {error}");
        }
    }
}
