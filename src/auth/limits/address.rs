//! Client addresses from forwarding headers (see [`super::Limits::client_address`]).

use axum::http::{HeaderMap, HeaderName};
use std::net::IpAddr;

/// IPv4-mapped IPv6 addresses (`::ffff:10.0.0.1`) as the IPv4 address they are.
pub(super) fn canonical(addr: IpAddr) -> IpAddr {
    match addr {
        IpAddr::V6(v6) => v6
            .to_ipv4_mapped()
            .map(IpAddr::V4)
            .unwrap_or(IpAddr::V6(v6)),
        v4 => v4,
    }
}

/// The addresses a request passed through, client first, from `header` alone: RFC 7239 `for=`
/// elements when it is `Forwarded`, else a comma-separated list (`X-Forwarded-For` and its
/// kin). Unparsable elements (`unknown`, obfuscated names) end the chain there, so nothing
/// after a gap is trusted.
pub(super) fn forwarded_for(headers: &HeaderMap, header: &HeaderName) -> Vec<IpAddr> {
    let values = headers
        .get_all(header)
        .iter()
        .filter_map(|v| v.to_str().ok());
    let elements: Vec<String> = if header == axum::http::header::FORWARDED {
        values
            .flat_map(|v| v.split(','))
            .map(|element| {
                element
                    .split(';')
                    .filter_map(|pair| pair.split_once('='))
                    .find(|(k, _)| k.trim().eq_ignore_ascii_case("for"))
                    .map(|(_, v)| v.trim().to_owned())
                    .unwrap_or_default()
            })
            .collect()
    } else {
        values
            .flat_map(|v| v.split(','))
            .map(|s| s.trim().to_owned())
            .collect()
    };
    let parsed: Vec<Option<IpAddr>> = elements.iter().map(|e| parse_node(e)).collect();
    // Keep only the part after the last unparsable element: the proxies nearest to us.
    let start = parsed
        .iter()
        .rposition(Option::is_none)
        .map_or(0, |i| i + 1);
    parsed[start..]
        .iter()
        .flatten()
        .map(|a| canonical(*a))
        .collect()
}

/// One node: `192.0.2.1`, `192.0.2.1:8080`, `"[2001:db8::1]:443"`, `2001:db8::1`.
fn parse_node(node: &str) -> Option<IpAddr> {
    let node = node.trim().trim_matches('"');
    if let Ok(addr) = node.parse::<IpAddr>() {
        return Some(addr);
    }
    if let Some(rest) = node.strip_prefix('[') {
        return rest.split_once(']')?.0.parse().ok();
    }
    let (host, port) = node.rsplit_once(':')?;
    port.parse::<u16>().ok()?;
    host.parse::<std::net::Ipv4Addr>().ok().map(IpAddr::V4)
}
