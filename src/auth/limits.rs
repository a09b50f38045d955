//! Rate limits: requests per credential per minute, and failed authentications per client
//! address.
//!
//! An address over its failure limit gets 429 for every *failed* attempt until its bucket
//! refills, so guessing keys gains nothing; a valid credential from that address is still
//! served (behind a load balancer or NAT many clients share an address, and one client's bad
//! tokens must not lock the others out). The client address is the TCP peer, or, when the peer
//! is one of `N8V_TRUSTED_PROXIES`, the address those proxies put in the one header they write
//! (`N8V_CLIENT_ADDRESS_HEADER`, `X-Forwarded-For` by default; see [`Limits::client_address`]).
//! Every other forwarding header is the client's own words and is ignored: a proxy that only
//! appends `X-Forwarded-For` passes a client's `Forwarded` through untouched.
//!
//! Keyed state is pruned as the request path goes by (at most once per [`PRUNE_EVERY`]): an
//! entry whose bucket has refilled is dropped, so memory follows the addresses that failed
//! within one refill window. A hard cap ([`MAX_TRACKED_ADDRESSES`]) bounds it whatever the
//! rate: past it, stale entries go at once, and if that is not enough the failure counts start
//! over (a flood from that many addresses gains little from it: each address has its own
//! budget anyway).

use axum::http::{HeaderMap, HeaderName};
use dashmap::DashMap;
use governor::clock::{Clock, DefaultClock};
use governor::middleware::StateInformationMiddleware;
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use ipnet::IpNet;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub use crate::config::parse_trusted_proxies;
use uuid::Uuid;

/// How often stale limiter state is dropped.
pub const PRUNE_EVERY: Duration = Duration::from_secs(10);

/// The most client addresses whose failures are remembered at once.
pub const MAX_TRACKED_ADDRESSES: usize = 50_000;

type CredentialLimiter =
    RateLimiter<Uuid, DefaultKeyedStateStore<Uuid>, DefaultClock, StateInformationMiddleware>;

/// Where a credential stands against its limit: what the `RateLimit-*` headers say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateLimitStatus {
    /// Requests allowed per minute.
    pub limit: u32,
    pub remaining: u32,
    /// Seconds until the full allowance is back (on a 429: until the next request is allowed).
    pub reset_secs: u64,
}

/// A request's slot for its [`RateLimitStatus`], filled in by authentication and turned into
/// response headers by the HTTP layer.
#[derive(Clone, Default, Debug)]
pub struct RateLimitSlot(std::sync::Arc<Mutex<Option<RateLimitStatus>>>);

impl RateLimitSlot {
    pub fn set(&self, status: RateLimitStatus) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(status);
    }

    pub fn get(&self) -> Option<RateLimitStatus> {
        *self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

pub struct Limits {
    per_credential: Option<(CredentialLimiter, u32)>,
    auth_failures: Option<(std::sync::RwLock<DefaultKeyedRateLimiter<IpAddr>>, u32)>,
    blocked: DashMap<IpAddr, Instant>,
    trusted_proxies: Vec<IpNet>,
    client_address_header: HeaderName,
    prune_every: Duration,
    last_prune: Mutex<Instant>,
}

impl Limits {
    pub fn new(per_minute: u32, auth_failures_per_minute: u32) -> Self {
        Self {
            per_credential: NonZeroU32::new(per_minute).map(|n| {
                let limiter = RateLimiter::keyed(Quota::per_minute(n))
                    .with_middleware::<StateInformationMiddleware>();
                (limiter, n.get())
            }),
            auth_failures: NonZeroU32::new(auth_failures_per_minute).map(|n| {
                let limiter = RateLimiter::keyed(Quota::per_minute(n));
                (std::sync::RwLock::new(limiter), n.get())
            }),
            blocked: DashMap::new(),
            trusted_proxies: Vec::new(),
            client_address_header: HeaderName::from_static("x-forwarded-for"),
            prune_every: PRUNE_EVERY,
            last_prune: Mutex::new(Instant::now()),
        }
    }

    /// The limits a configuration asks for.
    pub fn from_config(config: &crate::config::Config) -> Self {
        Self::new(
            config.rate_limit_per_minute,
            config.auth_failures_per_minute,
        )
        .with_trusted_proxies(config.trusted_proxies.clone())
        .with_client_address_header(config.client_address_header.clone())
    }

    /// Peers whose client-address header names the client.
    pub fn with_trusted_proxies(mut self, proxies: Vec<IpNet>) -> Self {
        self.trusted_proxies = proxies;
        self
    }

    /// The header the trusted proxies write the client's address into (`X-Forwarded-For` by
    /// default; `Forwarded` is read as RFC 7239 `for=`, any other as a comma-separated list).
    pub fn with_client_address_header(mut self, header: HeaderName) -> Self {
        self.client_address_header = header;
        self
    }

    /// How often stale state is dropped (tests shorten it).
    pub fn with_prune_interval(mut self, every: Duration) -> Self {
        self.prune_every = every;
        self
    }

    /// `Ok(status)` while the credential is within its limit (`None` when limits are off),
    /// `Err(status)` with `reset_secs` = the wait when it is over.
    pub fn check_credential(
        &self,
        credential: Uuid,
    ) -> Result<Option<RateLimitStatus>, RateLimitStatus> {
        self.prune_if_due();
        let Some((limiter, limit)) = &self.per_credential else {
            return Ok(None);
        };
        let per_request = 60.0 / f64::from(*limit);
        match limiter.check_key(&credential) {
            Ok(snapshot) => {
                let remaining = snapshot.remaining_burst_capacity();
                let used = f64::from(limit - remaining);
                Ok(Some(RateLimitStatus {
                    limit: *limit,
                    remaining,
                    reset_secs: (used * per_request).ceil() as u64,
                }))
            }
            Err(not_until) => Err(RateLimitStatus {
                limit: *limit,
                remaining: 0,
                reset_secs: retry_after(not_until.wait_time_from(DefaultClock::default().now())),
            }),
        }
    }

    /// `Err(seconds)` while the address is blocked for failing too often. Only failed
    /// attempts are refused for it: see the module documentation.
    pub fn check_address(&self, addr: IpAddr) -> Result<(), u64> {
        if let Some(until) = self.blocked.get(&addr).map(|e| *e) {
            let now = Instant::now();
            if until > now {
                return Err(retry_after(until - now));
            }
            self.blocked.remove(&addr);
        }
        Ok(())
    }

    /// Counts a failed authentication; `Err(seconds)` when the address is now over the limit.
    pub fn record_failure(&self, addr: IpAddr) -> Result<(), u64> {
        self.prune_if_due();
        let Some((limiter, per_minute)) = &self.auth_failures else {
            return Ok(());
        };
        let (checked, tracked) = {
            let limiter = limiter.read().unwrap_or_else(|e| e.into_inner());
            (limiter.check_key(&addr), limiter.len())
        };
        if tracked > MAX_TRACKED_ADDRESSES {
            self.prune();
            let mut limiter = limiter.write().unwrap_or_else(|e| e.into_inner());
            if limiter.len() > MAX_TRACKED_ADDRESSES {
                tracing::warn!(
                    tracked = limiter.len(),
                    "failed authentications from too many addresses; their counts start over"
                );
                let quota =
                    Quota::per_minute(NonZeroU32::new(*per_minute).unwrap_or(NonZeroU32::MIN));
                *limiter = RateLimiter::keyed(quota);
            }
        }
        if self.blocked.len() > MAX_TRACKED_ADDRESSES {
            let now = Instant::now();
            self.blocked.retain(|_, until| *until > now);
        }
        checked.map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            if self.blocked.len() < MAX_TRACKED_ADDRESSES {
                self.blocked.insert(addr, Instant::now() + wait);
            }
            retry_after(wait)
        })
    }

    /// Failures per minute per address (0 = off).
    pub fn auth_failures_per_minute(&self) -> u32 {
        self.auth_failures.as_ref().map_or(0, |(_, n)| *n)
    }

    /// How many addresses and credentials the limiter holds state for.
    pub fn tracked(&self) -> usize {
        self.auth_failures.as_ref().map_or(0, |(l, _)| {
            l.read().unwrap_or_else(|e| e.into_inner()).len()
        }) + self.per_credential.as_ref().map_or(0, |(l, _)| l.len())
            + self.blocked.len()
    }

    /// Drops the state of every address and credential whose bucket has refilled (it would
    /// start from a full bucket again anyway).
    pub fn prune(&self) {
        if let Some((limiter, _)) = &self.auth_failures {
            let limiter = limiter.read().unwrap_or_else(|e| e.into_inner());
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
        if let Some((limiter, _)) = &self.per_credential {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
        let now = Instant::now();
        self.blocked.retain(|_, until| *until > now);
        self.blocked.shrink_to_fit();
    }

    fn prune_if_due(&self) {
        let due = {
            let Ok(mut last) = self.last_prune.try_lock() else {
                return; // another request is pruning
            };
            let due = last.elapsed() >= self.prune_every;
            if due {
                *last = Instant::now();
            }
            due
        };
        if due {
            self.prune();
        }
    }

    /// The address a request comes from: the TCP peer, unless the peer is a trusted proxy; then
    /// the client-address header read right to left, past every trusted hop: the first address
    /// that is not itself a trusted proxy. Headers from untrusted peers are ignored (anyone can
    /// write them), and so is every header but the configured one (the proxy passes the
    /// others through as the client sent them).
    pub fn client_address(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        if !self.is_trusted(peer) {
            return peer;
        }
        let chain = forwarded_for(headers, &self.client_address_header);
        let mut client = peer;
        for addr in chain.iter().rev() {
            client = *addr;
            if !self.is_trusted(*addr) {
                break;
            }
        }
        client
    }

    fn is_trusted(&self, addr: IpAddr) -> bool {
        let addr = canonical(addr);
        self.trusted_proxies.iter().any(|net| net.contains(&addr))
    }
}

/// IPv4-mapped IPv6 addresses (`::ffff:10.0.0.1`) as the IPv4 address they are.
fn canonical(addr: IpAddr) -> IpAddr {
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
fn forwarded_for(headers: &HeaderMap, header: &HeaderName) -> Vec<IpAddr> {
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

fn retry_after(wait: Duration) -> u64 {
    (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (k, v) in pairs {
            map.append(
                axum::http::HeaderName::from_bytes(k.as_bytes()).unwrap(),
                v.parse().unwrap(),
            );
        }
        map
    }

    #[test]
    fn forwarded_headers_count_only_from_trusted_proxies() {
        let limits = Limits::new(10, 10)
            .with_trusted_proxies(parse_trusted_proxies("10.0.0.0/8, 192.0.2.7").unwrap());
        let lb: IpAddr = "10.1.2.3".parse().unwrap();
        let stranger: IpAddr = "198.51.100.9".parse().unwrap();
        let xff = headers(&[("x-forwarded-for", "203.0.113.5, 10.9.9.9")]);
        assert_eq!(
            limits.client_address(lb, &xff),
            "203.0.113.5".parse::<IpAddr>().unwrap()
        );
        // A client cannot pick its address by sending the header itself.
        assert_eq!(limits.client_address(stranger, &xff), stranger);
        // The rightmost untrusted hop wins: a spoofed left part is ignored.
        let spoofed = headers(&[("x-forwarded-for", "1.1.1.1, 203.0.113.5")]);
        assert_eq!(
            limits.client_address(lb, &spoofed),
            "203.0.113.5".parse::<IpAddr>().unwrap()
        );
        // Only the configured header counts: a `Forwarded` the client wrote itself (passed
        // through by a proxy that appends `X-Forwarded-For`) names no one.
        let both = headers(&[
            ("forwarded", "for=198.51.100.77"),
            ("x-forwarded-for", "1.1.1.1, 203.0.113.5"),
        ]);
        assert_eq!(
            limits.client_address(lb, &both),
            "203.0.113.5".parse::<IpAddr>().unwrap()
        );
        assert_eq!(
            limits.client_address(lb, &headers(&[("forwarded", "for=198.51.100.77")])),
            lb
        );
        // A proxy that writes `Forwarded` is configured so.
        let limits = limits.with_client_address_header(axum::http::header::FORWARDED);
        let forwarded = headers(&[
            (
                "forwarded",
                "for=\"[2001:db8::1]:443\";proto=https, for=192.0.2.7",
            ),
            ("x-forwarded-for", "198.51.100.78"),
        ]);
        assert_eq!(
            limits.client_address(lb, &forwarded),
            "2001:db8::1".parse::<IpAddr>().unwrap()
        );
        assert_eq!(
            limits.client_address(lb, &headers(&[("forwarded", "for=unknown")])),
            lb
        );
        assert!(parse_trusted_proxies("10.0.0.0/33").is_err());
    }

    #[test]
    fn state_for_100000_rotating_addresses_is_pruned() {
        // 6,000 a minute: a bucket refills 10 ms after one failure.
        let limits = Limits::new(0, 6_000).with_prune_interval(Duration::from_millis(50));
        let mut peak = 0;
        let started = Instant::now();
        for i in 0..100_000u32 {
            let addr = IpAddr::V6(std::net::Ipv6Addr::from(u128::from(i) + 1));
            let _ = limits.record_failure(addr);
            peak = peak.max(limits.tracked());
        }
        std::thread::sleep(Duration::from_millis(100));
        let _ = limits.record_failure("192.0.2.1".parse().unwrap());
        let after = limits.tracked();
        println!(
            "100,000 addresses in {:?}: peak {peak} tracked, {after} after pruning",
            started.elapsed()
        );
        assert!(after <= 1, "stale state is dropped: {after} entries left");
        assert!(peak <= MAX_TRACKED_ADDRESSES + 2, "peak {peak}");
    }

    #[test]
    fn the_cap_holds_even_when_no_state_is_stale() {
        // One failure a minute: nothing goes stale during the test, so only the cap bounds it.
        let limits = Limits::new(0, 1);
        let mut peak = 0;
        for i in 0..100_000u32 {
            let addr = IpAddr::V6(std::net::Ipv6Addr::from(u128::from(i) + 1));
            let _ = limits.record_failure(addr);
            peak = peak.max(limits.tracked());
        }
        println!("100,000 fresh addresses: peak {peak} tracked");
        assert!(peak <= 2 * MAX_TRACKED_ADDRESSES + 2, "peak {peak}");
    }
}
