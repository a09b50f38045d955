//! Rate limits: requests per credential per minute, and failed authentications per client
//! address (once an address is over, it gets 429 until its bucket refills, valid token or not,
//! so guessing keys gains nothing).

use dashmap::DashMap;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::{Duration, Instant};
use uuid::Uuid;

pub struct Limits {
    per_credential: Option<DefaultKeyedRateLimiter<Uuid>>,
    auth_failures: Option<DefaultKeyedRateLimiter<IpAddr>>,
    blocked: DashMap<IpAddr, Instant>,
}

impl Limits {
    pub fn new(per_minute: u32, auth_failures_per_minute: u32) -> Self {
        Self {
            per_credential: NonZeroU32::new(per_minute)
                .map(|n| RateLimiter::keyed(Quota::per_minute(n))),
            auth_failures: NonZeroU32::new(auth_failures_per_minute)
                .map(|n| RateLimiter::keyed(Quota::per_minute(n))),
            blocked: DashMap::new(),
        }
    }

    /// `Err(seconds)` when the credential is over its limit.
    pub fn check_credential(&self, credential: Uuid) -> Result<(), u64> {
        let Some(limiter) = &self.per_credential else {
            return Ok(());
        };
        limiter.check_key(&credential).map_err(|not_until| {
            retry_after(not_until.wait_time_from(DefaultClock::default().now()))
        })
    }

    /// `Err(seconds)` while the address is blocked for failing too often.
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

    /// Counts a failed authentication; `Err(seconds)` when this one crossed the limit.
    pub fn record_failure(&self, addr: IpAddr) -> Result<(), u64> {
        let Some(limiter) = &self.auth_failures else {
            return Ok(());
        };
        limiter.check_key(&addr).map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            self.blocked.insert(addr, Instant::now() + wait);
            retry_after(wait)
        })
    }
}

fn retry_after(wait: Duration) -> u64 {
    wait.as_secs() + u64::from(wait.subsec_nanos() > 0)
}
