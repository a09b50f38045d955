//! The settings of the service's network face: its public address, the proxies it trusts, the
//! hosts MCP answers to and the browser origins the API serves.

/// `N8V_PUBLIC_URL`: an absolute `http`/`https` URL without query or fragment; a trailing `/`
/// is dropped.
pub fn parse_public_url(text: &str) -> anyhow::Result<String> {
    let url = url::Url::parse(text.trim())
        .map_err(|e| anyhow::anyhow!("N8V_PUBLIC_URL={text:?} is not a URL: {e}"))?;
    if !matches!(url.scheme(), "http" | "https")
        || url.host_str().is_none()
        || url.query().is_some()
        || url.fragment().is_some()
        || !url.username().is_empty()
    {
        anyhow::bail!(
            "N8V_PUBLIC_URL={text:?}: use an http(s) URL with a host and no query, fragment or user"
        );
    }
    Ok(url.as_str().trim_end_matches('/').to_owned())
}

/// `N8V_CORS_ALLOWED_ORIGINS`: exact origins (`https://app.example.com`), or `*` for any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum CorsOrigins {
    /// No CORS headers at all: browsers keep other origins out (the default).
    #[default]
    Off,
    Any,
    List(Vec<String>),
}

impl CorsOrigins {
    pub fn parse(list: &str) -> anyhow::Result<Self> {
        let origins: Vec<String> = list
            .split(',')
            .map(|o| o.trim().trim_end_matches('/').to_owned())
            .filter(|o| !o.is_empty())
            .collect();
        if origins.is_empty() {
            return Ok(Self::Off);
        }
        if origins.iter().any(|o| o == "*") {
            return Ok(Self::Any);
        }
        for origin in &origins {
            let (scheme, host) = origin.split_once("://").unwrap_or(("", ""));
            if !matches!(scheme, "http" | "https")
                || host.is_empty()
                || host.contains(['/', '?', '#', ' '])
            {
                anyhow::bail!(
                    "N8V_CORS_ALLOWED_ORIGINS: {origin:?} is not an origin \
                     (scheme://host[:port], e.g. https://app.example.com)"
                );
            }
        }
        Ok(Self::List(origins))
    }
}

/// A comma-separated host list; `*` means any host.
pub(super) fn hosts(list: &str) -> Option<Vec<String>> {
    let hosts: Vec<String> = list
        .split(',')
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .collect();
    if hosts.iter().any(|h| h == "*") {
        None
    } else {
        Some(hosts)
    }
}

/// Parses `N8V_TRUSTED_PROXIES`: comma-separated CIDRs or single addresses.
pub fn parse_trusted_proxies(list: &str) -> Result<Vec<ipnet::IpNet>, String> {
    list.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|item| {
            item.parse::<ipnet::IpNet>()
                .or_else(|_| item.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
                .map_err(|_| format!("{item:?} is not a CIDR (e.g. 10.0.0.0/8) or an IP address"))
        })
        .collect()
}
