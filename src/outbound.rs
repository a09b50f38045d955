//! Requests the service makes to addresses its users name (OAuth client metadata documents,
//! webhook endpoints): only to the public internet unless a setting allows private addresses,
//! with the connection pinned to the address that was checked, so a second DNS answer cannot
//! swap it, and no redirect followed.

mod special_purpose;

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

/// Why a host gave no address to connect to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unresolved {
    TimedOut,
    NoAddress,
    /// One of its addresses is loopback, private, link-local or otherwise not globally
    /// reachable ([`is_public`]).
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

/// Whether an address is on the public internet: globally reachable, as IANA's
/// special-purpose registries say ([`special_purpose`], the one table both doors read).
pub fn is_public(ip: IpAddr) -> bool {
    special_purpose::is_global(ip)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Addresses no request of ours may reach, one or more for each row of the registries'
    /// table that is not globally reachable, the forms that embed an IPv4 address among them.
    const NOT_PUBLIC: &[&str] = &[
        "0.0.0.0",
        "0.1.2.3",
        "10.1.2.3",
        "100.64.0.1",
        "127.0.0.1",
        "169.254.169.254",
        "172.16.0.1",
        "192.0.0.1",
        "192.0.0.8",
        "192.0.0.170",
        "192.0.2.1",
        "192.88.99.1",
        "192.168.1.1",
        "198.18.0.1",
        "198.51.100.1",
        "203.0.113.1",
        "224.0.0.1",
        "239.255.255.250",
        "240.0.0.1",
        "255.255.255.255",
        "::",
        "::1",
        // IPv4-compatible (deprecated), of a loopback and of a public address alike.
        "::127.0.0.1",
        "::8.8.8.8",
        // IPv4-mapped, of a loopback and of a public address alike.
        "::ffff:127.0.0.1",
        "::ffff:8.8.8.8",
        // IPv4-translated (SIIT).
        "::ffff:0:7f00:1",
        "::ffff:0:808:808",
        // NAT64, well-known prefix, of a non-public address; local-use prefix, of any.
        "64:ff9b::7f00:1",
        "64:ff9b::a9fe:a9fe",
        "64:ff9b::a00:1",
        "64:ff9b:1::808:808",
        "64:ff9b:1:ffff::1",
        "100::1",
        // Teredo, 6to4 (of a loopback and of a public address), benchmarking, ORCHID.
        "2001::1",
        "2001:0:4136:e378:8000:63bf:3fff:fdd2",
        "2002:7f00:1::1",
        "2002:808:808::1",
        "2001:2::1",
        "2001:10::1",
        "2001:db8::1",
        "3fff::1",
        "5f00::1",
        "fc00::1",
        "fd00::1",
        "fe80::1",
        "fec0::1",
        "feff::1",
        "ff02::1",
        "ff0e::1",
        "4000::1",
        "1000::1",
    ];

    /// Addresses the registries mark globally reachable, the exceptions inside refused
    /// blocks among them.
    const PUBLIC: &[&str] = &[
        "1.1.1.1",
        "8.8.8.8",
        "93.184.216.34",
        "192.0.0.9",
        "192.0.0.10",
        "192.31.196.1",
        "192.175.48.1",
        "2606:4700::1111",
        "2a00:1450:4001::1",
        "64:ff9b::808:808",
        "2001:1::1",
        "2001:1::2",
        "2001:3::1",
        "2001:4:112::1",
        "2001:20::1",
        "2620:4f:8000::1",
    ];

    #[test]
    fn only_globally_reachable_addresses_are_public() {
        let judged = |list: &[&str], public: bool| -> Vec<String> {
            list.iter()
                .filter(|text| is_public(text.parse().unwrap()) != public)
                .map(|text| text.to_string())
                .collect()
        };
        assert_eq!(
            judged(NOT_PUBLIC, false),
            Vec::<String>::new(),
            "taken as public"
        );
        assert_eq!(
            judged(PUBLIC, true),
            Vec::<String>::new(),
            "taken as not public"
        );
    }
}
