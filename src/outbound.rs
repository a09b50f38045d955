//! Requests the service makes to addresses its users name (OAuth client metadata documents,
//! webhook endpoints): only to the public internet unless a setting allows private addresses,
//! with the connection pinned to the address that was checked, so a second DNS answer cannot
//! swap it, and no redirect followed.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::Duration;

/// Why a host gave no address to connect to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unresolved {
    TimedOut,
    NoAddress,
    /// One of its addresses is loopback, private, link-local or otherwise not public.
    Private,
}

/// The address to connect to for `host` (a name, or a literal address, IPv6 in brackets or
/// not) and `port`: the first it resolves to within `timeout`, when every address it resolves
/// to is public (or private ones are allowed).
pub async fn resolve_public(
    host: &str,
    port: u16,
    allow_private: bool,
    timeout: Duration,
) -> Result<SocketAddr, Unresolved> {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let addresses: Vec<SocketAddr> =
        tokio::time::timeout(timeout, tokio::net::lookup_host((bare, port)))
            .await
            .map_err(|_| Unresolved::TimedOut)?
            .map_err(|_| Unresolved::NoAddress)?
            .collect();
    let first = *addresses.first().ok_or(Unresolved::NoAddress)?;
    if !allow_private && addresses.iter().any(|a| !is_public(a.ip())) {
        return Err(Unresolved::Private);
    }
    Ok(first)
}

/// A client for `host` that connects to `address` (the one [`resolve_public`] checked; TLS
/// still verifies the name), follows no redirect, and gives up after `timeout`.
pub fn pinned_client(host: &str, address: SocketAddr, timeout: Duration) -> reqwest::ClientBuilder {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(timeout)
        .connect_timeout(timeout)
        .resolve(bare, address)
}

/// Whether an address is on the public internet.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => public_v4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => public_v4(v4),
            None => public_v6(v6),
        },
    }
}

fn public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    !(ip.is_private()
        || ip.is_loopback()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_documentation()
        || ip.is_multicast()
        || a == 0
        || a >= 240
        // Shared address space (RFC 6598) and benchmarking (RFC 2544).
        || (a == 100 && (64..128).contains(&b))
        || (a == 198 && (18..20).contains(&b)))
}

fn public_v6(ip: Ipv6Addr) -> bool {
    let first = ip.segments()[0];
    !(ip.is_loopback()
        || ip.is_unspecified()
        || ip.is_multicast()
        // Unique local (fc00::/7) and link-local (fe80::/10).
        || (first & 0xfe00) == 0xfc00
        || (first & 0xffc0) == 0xfe80
        // Documentation (2001:db8::/32).
        || (first == 0x2001 && ip.segments()[1] == 0x0db8))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_public_addresses_are_public() {
        for private in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "::1",
            "fe80::1",
            "fd00::1",
            "::ffff:127.0.0.1",
        ] {
            assert!(!is_public(private.parse().unwrap()), "{private}");
        }
        for public in ["93.184.216.34", "2606:4700::1111", "1.1.1.1"] {
            assert!(is_public(public.parse().unwrap()), "{public}");
        }
    }
}
