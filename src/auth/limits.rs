//! Rate limits: requests per credential per minute, and failed authentications per client
//! address, counted for the deployment: every replica takes from the same buckets in
//! PostgreSQL ([`shared`]; the requests in leases, [`lease`]), so two replicas allow what one
//! does (issue 44, finding 3; `docs/scaling.md`).
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
//! A failure is counted in the shared bucket, after this replica's own count (a sound fast
//! path: an address that failed the limit's worth here alone is refused without asking); an
//! address refused is remembered here until its next token, so a flood of bad credentials
//! from it costs the database nothing.
//!
//! Keyed state is pruned as the request path goes by (at most once per [`PRUNE_EVERY`]): an
//! entry whose bucket has refilled is dropped, so memory follows the addresses that failed
//! within one refill window. A hard cap ([`MAX_TRACKED_ADDRESSES`]) bounds it whatever the
//! rate: past it, stale entries go at once, and if that is not enough the failure counts start
//! over (a flood from that many addresses gains little from it: each address has its own
//! budget anyway).

mod address;
pub mod lease;
pub mod shared;

use address::{canonical, forwarded_for};
use axum::http::{HeaderMap, HeaderName};
use dashmap::DashMap;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use ipnet::IpNet;
use sqlx::PgPool;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub use crate::config::parse_trusted_proxies;
pub use lease::lease_size;
use uuid::Uuid;

/// How often stale limiter state is dropped.
pub const PRUNE_EVERY: Duration = Duration::from_secs(10);

/// The most client addresses whose failures are remembered at once.
pub const MAX_TRACKED_ADDRESSES: usize = 50_000;

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
    per_credential: Option<lease::Leases>,
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
            per_credential: NonZeroU32::new(per_minute).map(|n| lease::Leases::new(n.get())),
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

    /// `Ok(status)` while the credential is within the deployment's limit (`None` when limits
    /// are off), `Err(status)` with `reset_secs` = the wait when it is over; the outer `Err` is
    /// the database failing.
    pub async fn check_credential(
        &self,
        pool: &PgPool,
        credential: Uuid,
    ) -> sqlx::Result<Result<Option<RateLimitStatus>, RateLimitStatus>> {
        self.prune_if_due(Some(pool));
        let Some(leases) = &self.per_credential else {
            return Ok(Ok(None));
        };
        Ok(leases.spend(pool, credential).await?.map(Some))
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

    /// Counts a failed authentication for the deployment; `Ok(Err(seconds))` when the address
    /// is now over the limit, `Err` when the database failed.
    pub async fn record_failure(
        &self,
        pool: &PgPool,
        addr: IpAddr,
    ) -> sqlx::Result<Result<(), u64>> {
        self.prune_if_due(Some(pool));
        let Some(per_minute) = self.auth_failures.as_ref().map(|(_, n)| *n) else {
            return Ok(Ok(()));
        };
        if let Err(wait) = self.record_failure_here(addr) {
            return Ok(Err(wait));
        }
        let taken = shared::take(
            pool,
            shared::Kind::AuthFailure,
            &addr.to_string(),
            per_minute,
            1,
            0,
        )
        .await?;
        if taken.granted > 0 {
            return Ok(Ok(()));
        }
        self.block(addr, taken.next_in);
        Ok(Err(retry_after(taken.next_in)))
    }

    /// Counts a failure in this replica's own count (a lower bound of the deployment's);
    /// `Err(seconds)` when that alone is over the limit.
    fn record_failure_here(&self, addr: IpAddr) -> Result<(), u64> {
        self.prune_if_due(None);
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
            self.block(addr, wait);
            retry_after(wait)
        })
    }

    /// Refuses failures from `addr` here for `wait`, without asking the shared bucket.
    fn block(&self, addr: IpAddr, wait: Duration) {
        if self.blocked.len() < MAX_TRACKED_ADDRESSES {
            self.blocked.insert(addr, Instant::now() + wait);
        }
    }

    /// Failures per minute per address (0 = off).
    pub fn auth_failures_per_minute(&self) -> u32 {
        self.auth_failures.as_ref().map_or(0, |(_, n)| *n)
    }

    /// How many addresses and credentials the limiter holds state for.
    pub fn tracked(&self) -> usize {
        self.auth_failures.as_ref().map_or(0, |(l, _)| {
            l.read().unwrap_or_else(|e| e.into_inner()).len()
        }) + self
            .per_credential
            .as_ref()
            .map_or(0, lease::Leases::tracked)
            + self.blocked.len()
    }

    /// Drops the state of every address and credential whose bucket has refilled (it would
    /// start from a full bucket again anyway), and every expired lease.
    pub fn prune(&self) {
        if let Some((limiter, _)) = &self.auth_failures {
            let limiter = limiter.read().unwrap_or_else(|e| e.into_inner());
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
        if let Some(leases) = &self.per_credential {
            leases.prune();
        }
        let now = Instant::now();
        self.blocked.retain(|_, until| *until > now);
        self.blocked.shrink_to_fit();
    }

    /// Prunes when due; with `pool`, the shared buckets too (off the request's path).
    fn prune_if_due(&self, pool: Option<&PgPool>) {
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
            if let Some(pool) = pool.cloned() {
                tokio::spawn(async move {
                    let _ = shared::prune(&pool).await; // logged by its span; retried next time
                });
            }
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

pub(crate) fn retry_after(wait: Duration) -> u64 {
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
            let _ = limits.record_failure_here(addr);
            peak = peak.max(limits.tracked());
        }
        std::thread::sleep(Duration::from_millis(100));
        let _ = limits.record_failure_here("192.0.2.1".parse().unwrap());
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
            let _ = limits.record_failure_here(addr);
            peak = peak.max(limits.tracked());
        }
        println!("100,000 fresh addresses: peak {peak} tracked");
        assert!(peak <= 2 * MAX_TRACKED_ADDRESSES + 2, "peak {peak}");
    }
}
