//! Which addresses are globally reachable, as IANA's registries say: the IPv4 and IPv6
//! Special-Purpose Address Registries (RFC 6890), beside the IPv6 Address Space registry (only
//! `2000::/3` is global unicast) and the multicast blocks. The registries' table is written
//! once, here, one row per entry, and the most specific row holding an address decides, as
//! the registries mean it (`192.0.0.9/32` is reachable inside the unreachable `192.0.0.0/24`).
//! An entry marked "N/A" (a deprecated or tunnelling block) is refused like a "False" one.
//!
//! Addresses that embed an IPv4 address are refused by their own rows (IPv4-compatible,
//! -mapped and -translated, 6to4, Teredo, the local-use NAT64 prefix), except the well-known
//! NAT64 prefix, which the registry marks reachable and which a DNS64 resolver hands out for
//! every IPv4-only name on an IPv6-only network: it is as reachable as the IPv4 address in its
//! last 32 bits (RFC 6052 §2.1), so `64:ff9b::7f00:1` (127.0.0.1) is refused.
//!
//! Registries: <https://www.iana.org/assignments/iana-ipv4-special-registry>,
//! <https://www.iana.org/assignments/iana-ipv6-special-registry>,
//! <https://www.iana.org/assignments/ipv6-address-space>.

use ipnet::IpNet;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::sync::LazyLock;

/// What a row says of the addresses it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reach {
    /// "Globally Reachable: True".
    Global,
    /// "False", "N/A", or not unicast at all.
    NotGlobal,
    /// As reachable as the IPv4 address in the last 32 bits.
    AsEmbeddedV4,
}

use Reach::{AsEmbeddedV4, Global, NotGlobal};

/// (block, what it says, the registry entry it is): one line each, so read as a table.
#[rustfmt::skip]
const ROWS: &[(&str, Reach, &str)] = &[
    // The IPv4 space: unicast unless a row below says otherwise.
    ("0.0.0.0/0",          Global,       "IPv4 unicast, outside every special-purpose block"),
    // IANA IPv4 Special-Purpose Address Registry.
    ("0.0.0.0/8",          NotGlobal,    "\"This network\" (RFC 791 §3.2)"),
    ("0.0.0.0/32",         NotGlobal,    "\"This host on this network\" (RFC 1122 §3.2.1.3)"),
    ("10.0.0.0/8",         NotGlobal,    "Private-Use (RFC 1918)"),
    ("100.64.0.0/10",      NotGlobal,    "Shared Address Space (RFC 6598)"),
    ("127.0.0.0/8",        NotGlobal,    "Loopback (RFC 1122 §3.2.1.3)"),
    ("169.254.0.0/16",     NotGlobal,    "Link Local (RFC 3927)"),
    ("172.16.0.0/12",      NotGlobal,    "Private-Use (RFC 1918)"),
    ("192.0.0.0/24",       NotGlobal,    "IETF Protocol Assignments (RFC 6890 §2.1)"),
    ("192.0.0.0/29",       NotGlobal,    "IPv4 Service Continuity Prefix (RFC 7335)"),
    ("192.0.0.8/32",       NotGlobal,    "IPv4 dummy address (RFC 7600)"),
    ("192.0.0.9/32",       Global,       "Port Control Protocol Anycast (RFC 7723)"),
    ("192.0.0.10/32",      Global,       "Traversal Using Relays around NAT Anycast (RFC 8155)"),
    ("192.0.0.170/32",     NotGlobal,    "NAT64/DNS64 Discovery (RFC 8880, RFC 7050 §2.2)"),
    ("192.0.0.171/32",     NotGlobal,    "NAT64/DNS64 Discovery (RFC 8880, RFC 7050 §2.2)"),
    ("192.0.2.0/24",       NotGlobal,    "Documentation (TEST-NET-1) (RFC 5737)"),
    ("192.31.196.0/24",    Global,       "AS112-v4 (RFC 7535)"),
    ("192.52.193.0/24",    Global,       "AMT (RFC 7450)"),
    ("192.88.99.0/24",     NotGlobal,    "Deprecated (6to4 Relay Anycast) (RFC 7526): N/A"),
    ("192.88.99.2/32",     NotGlobal,    "6a44-relay anycast address (RFC 6751)"),
    ("192.168.0.0/16",     NotGlobal,    "Private-Use (RFC 1918)"),
    ("192.175.48.0/24",    Global,       "Direct Delegation AS112 Service (RFC 7534)"),
    ("198.18.0.0/15",      NotGlobal,    "Benchmarking (RFC 2544)"),
    ("198.51.100.0/24",    NotGlobal,    "Documentation (TEST-NET-2) (RFC 5737)"),
    ("203.0.113.0/24",     NotGlobal,    "Documentation (TEST-NET-3) (RFC 5737)"),
    ("240.0.0.0/4",        NotGlobal,    "Reserved (RFC 1112 §4)"),
    ("255.255.255.255/32", NotGlobal,    "Limited Broadcast (RFC 8190, RFC 919 §7)"),
    // IANA IPv4 Multicast Address Space Registry: never a unicast peer.
    ("224.0.0.0/4",        NotGlobal,    "Multicast (RFC 5771)"),
    // IANA IPv6 Address Space registry: only Global Unicast is reachable; the rest is
    // reserved by the IETF (IPv4-compatible `::/96` and IPv4-translated `::ffff:0:0:0/96`
    // among it), unique local, link-local, site-local (deprecated, RFC 3879) or multicast.
    ("::/0",               NotGlobal,    "everything outside Global Unicast (RFC 4291 §2.4)"),
    ("2000::/3",           Global,       "Global Unicast (RFC 4291 §2.4)"),
    // IANA IPv6 Special-Purpose Address Registry.
    ("::1/128",            NotGlobal,    "Loopback Address (RFC 4291 §2.5.3)"),
    ("::/128",             NotGlobal,    "Unspecified Address (RFC 4291 §2.5.2)"),
    ("::ffff:0:0/96",      NotGlobal,    "IPv4-mapped Address (RFC 4291 §2.5.5.2)"),
    ("64:ff9b::/96",       AsEmbeddedV4, "IPv4-IPv6 Translat. (RFC 6052 §2.1)"),
    ("64:ff9b:1::/48",     NotGlobal,    "IPv4-IPv6 Translat. (RFC 8215)"),
    ("100::/64",           NotGlobal,    "Discard-Only Address Block (RFC 6666)"),
    ("100:0:0:1::/64",     NotGlobal,    "Dummy IPv6 Prefix (RFC 9780)"),
    ("2001::/23",          NotGlobal,    "IETF Protocol Assignments (RFC 2928)"),
    ("2001::/32",          NotGlobal,    "TEREDO (RFC 4380, RFC 8190): N/A"),
    ("2001:1::1/128",      Global,       "Port Control Protocol Anycast (RFC 7723)"),
    ("2001:1::2/128",      Global,       "Traversal Using Relays around NAT Anycast (RFC 8155)"),
    ("2001:1::3/128",      Global,       "DNS-SD Service Registration Protocol Anycast (RFC 9665)"),
    ("2001:2::/48",        NotGlobal,    "Benchmarking (RFC 5180, RFC Errata 1752)"),
    ("2001:3::/32",        Global,       "AMT (RFC 7450)"),
    ("2001:4:112::/48",    Global,       "AS112-v6 (RFC 7535)"),
    ("2001:10::/28",       NotGlobal,    "Deprecated (previously ORCHID) (RFC 4843): N/A"),
    ("2001:20::/28",       Global,       "ORCHIDv2 (RFC 7343)"),
    ("2001:30::/28",       Global,       "Drone Remote ID Entity Tags (DETs) Prefix (RFC 9374)"),
    ("2001:db8::/32",      NotGlobal,    "Documentation (RFC 3849)"),
    ("2002::/16",          NotGlobal,    "6to4 (RFC 3056): N/A"),
    ("2620:4f:8000::/48",  Global,       "Direct Delegation AS112 Service (RFC 7534)"),
    ("3fff::/20",          NotGlobal,    "Documentation (RFC 9637)"),
    ("5f00::/16",          NotGlobal,    "Segment Routing (SRv6) SIDs (RFC 9602)"),
    ("fc00::/7",           NotGlobal,    "Unique-Local (RFC 4193, RFC 8190)"),
    ("fe80::/10",          NotGlobal,    "Link-Local Unicast (RFC 4291 §2.5.6)"),
];

/// [`ROWS`], parsed once.
static TABLE: LazyLock<Vec<(IpNet, Reach)>> = LazyLock::new(|| {
    ROWS.iter()
        .map(|(block, reach, entry)| {
            let net = block
                .parse()
                .unwrap_or_else(|_| panic!("{block} ({entry})"));
            (net, *reach)
        })
        .collect()
});

/// Whether `ip` is globally reachable: what the most specific row holding it says.
pub fn is_global(ip: IpAddr) -> bool {
    let row = TABLE
        .iter()
        .filter(|(net, _)| net.contains(&ip))
        .max_by_key(|(net, _)| net.prefix_len());
    match row.map(|(_, reach)| *reach) {
        Some(Global) => true,
        Some(AsEmbeddedV4) => match ip {
            IpAddr::V6(v6) => is_global(IpAddr::V4(last_32_bits(v6))),
            IpAddr::V4(_) => false,
        },
        Some(NotGlobal) | None => false,
    }
}

fn last_32_bits(ip: Ipv6Addr) -> Ipv4Addr {
    let [.., a, b, c, d] = ip.octets();
    Ipv4Addr::new(a, b, c, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_parses_and_is_written_once() {
        assert_eq!(TABLE.len(), ROWS.len());
        let mut blocks: Vec<&str> = ROWS.iter().map(|(block, ..)| *block).collect();
        blocks.sort_unstable();
        blocks.dedup();
        assert_eq!(blocks.len(), ROWS.len(), "a block written twice");
    }
}
