//! The per-credential rate limit, counted for the deployment in leases of quota.
//!
//! A replica takes [`lease_size`] requests' worth from the credential's shared bucket at once
//! and spends them locally, so most requests pay no round trip for the limit. A lease lives
//! [`Leases::ttl`] = its size × the bucket's refill step (60 s / the limit): a token taken from
//! the bucket is spent within that time or given back on the replica's next take. So the
//! requests served in any window were taken from the bucket within that window or at most one
//! lease's lifetime before it, when it refilled by at most one lease: the deployment serves at
//! most the limit (plus the window's refill) plus **one lease**, whatever the replica count.
//! The other way, a replica holds at most one lease unspent, which other replicas cannot use
//! until it is given back or expires.
//!
//! A refused credential is remembered until the bucket's next token: the bucket only empties
//! meanwhile (replicas take from it, none gives), so refusing locally until then is exact and
//! a flood over the limit costs the database nothing.

use super::RateLimitStatus;
use super::shared::{self, Kind};
use dashmap::DashMap;
use sqlx::PgPool;
use std::time::{Duration, Instant};
use uuid::Uuid;

/// Whether the take gave up waiting for the bucket's row (`lock_timeout`, migration 0035).
fn is_locked(e: &sqlx::Error) -> bool {
    e.as_database_error()
        .and_then(|d| d.code())
        .is_some_and(|c| c == crate::sqlstate::LOCK_NOT_AVAILABLE)
}

/// The most requests one lease holds.
pub const MAX_LEASE: u32 = 16;

/// Requests' worth a replica takes at once for a limit of `per_minute`: a twentieth of it (so
/// one lease is 5% of the limit at most), between 1 and [`MAX_LEASE`]. At the default 600 a
/// minute that is 16: one request in 16 pays the round trip, and the deployment may pass the
/// limit by 16 (2.7%).
pub fn lease_size(per_minute: u32) -> u32 {
    (per_minute / 20).clamp(1, MAX_LEASE)
}

/// What this replica holds of one credential's bucket.
#[derive(Clone, Copy, Debug)]
struct Held {
    /// Tokens taken and not spent yet.
    tokens: u32,
    /// When the tokens may no longer be spent (and are given back on the next take).
    expires: Instant,
    /// The bucket's own remaining tokens at the last take.
    bucket_remaining: u32,
    /// When the bucket is full again, as of the last take.
    full_at: Instant,
    /// Refused until then (the bucket had no token).
    refused_until: Option<Instant>,
    /// The tokens were granted here, the bucket being locked ([`Leases::local_lease`]): once
    /// spent, the credential waits for the lease's end.
    local: bool,
}

impl Held {
    fn empty(now: Instant) -> Self {
        Self {
            tokens: 0,
            expires: now,
            bucket_remaining: 0,
            full_at: now,
            refused_until: None,
            local: false,
        }
    }
}

pub struct Leases {
    per_minute: u32,
    lease: u32,
    held: DashMap<Uuid, Held>,
}

impl Leases {
    pub fn new(per_minute: u32) -> Self {
        Self {
            per_minute,
            lease: lease_size(per_minute),
            held: DashMap::new(),
        }
    }

    pub fn per_minute(&self) -> u32 {
        self.per_minute
    }

    /// How long a lease may be spent: its size × the refill step.
    pub fn ttl(&self) -> Duration {
        Duration::from_secs(60) * self.lease / self.per_minute.max(1)
    }

    /// Spends one request of `credential`'s quota: from the lease held here when there is
    /// one, else from the shared bucket (taking a new lease). `Ok(Err(status))` when the
    /// deployment's limit is reached.
    pub async fn spend(
        &self,
        pool: &PgPool,
        credential: Uuid,
    ) -> sqlx::Result<Result<RateLimitStatus, RateLimitStatus>> {
        let now = Instant::now();
        let mut give_back = 0;
        if let Some(mut held) = self.held.get_mut(&credential) {
            if let Some(until) = held.refused_until.filter(|u| *u > now) {
                return Ok(Err(self.refused(until - now)));
            }
            if held.tokens > 0 && held.expires > now {
                held.tokens -= 1;
                return Ok(Ok(self.status(&held, now)));
            }
            if held.local && held.expires > now {
                return Ok(Err(self.refused(held.expires - now)));
            }
            let unspent = std::mem::take(&mut held.tokens);
            // Tokens granted here (the bucket locked) were never the bucket's to get back.
            give_back = if held.local { 0 } else { unspent };
        }
        let (taken, local) = match shared::take(
            pool,
            Kind::Credential,
            &credential.to_string(),
            self.per_minute,
            self.lease,
            give_back,
        )
        .await
        {
            Ok(taken) => (taken, false),
            Err(e) if is_locked(&e) => (self.local_lease(), true),
            Err(e) => return Err(e),
        };
        let now = Instant::now();
        if taken.granted == 0 {
            let mut held = self.held.entry(credential).or_insert(Held::empty(now));
            held.refused_until = Some(now + taken.next_in);
            return Ok(Err(self.refused(taken.next_in)));
        }
        let mut held = self.held.entry(credential).or_insert(Held::empty(now));
        // Another request of this replica may have taken a lease meanwhile: both are kept,
        // until the older one's end (no token outlives its own lease: that is the bound).
        let kept = if held.expires > now { held.tokens } else { 0 };
        let expires = if kept > 0 {
            held.expires
        } else {
            now + self.ttl()
        };
        *held = Held {
            tokens: kept + taken.granted - 1,
            expires,
            bucket_remaining: taken.remaining,
            full_at: now + taken.full_in,
            refused_until: None,
            local,
        };
        Ok(Ok(self.status(&held, now)))
    }

    /// The bucket's row is locked (migration 0035 gives a take a quarter of a second): rather
    /// than stall the request, and every other request behind it, this replica grants itself
    /// one lease (its usual size, for its usual time), so while the stall lasts each replica
    /// serves at most the limit on its own. Said at warn and counted (`n8v.limits.fallbacks`);
    /// readiness is left alone, as every replica shares the stall.
    fn local_lease(&self) -> shared::Taken {
        tracing::warn!(
            lease = self.lease,
            "the shared rate-limit bucket is locked; counting this credential on this replica \
             until it is free"
        );
        crate::telemetry::limit_fallback();
        shared::Taken {
            granted: self.lease,
            remaining: 0,
            full_in: self.ttl(),
            next_in: Duration::ZERO,
        }
    }

    fn status(&self, held: &Held, now: Instant) -> RateLimitStatus {
        RateLimitStatus {
            limit: self.per_minute,
            remaining: held.bucket_remaining + held.tokens,
            reset_secs: held
                .full_at
                .saturating_duration_since(now)
                .as_secs_f64()
                .ceil() as u64,
        }
    }

    fn refused(&self, wait: Duration) -> RateLimitStatus {
        RateLimitStatus {
            limit: self.per_minute,
            remaining: 0,
            reset_secs: super::retry_after(wait),
        }
    }

    /// Drops what has expired: leases past their time and refusals past their wait.
    pub fn prune(&self) {
        let now = Instant::now();
        self.held
            .retain(|_, h| h.expires > now || h.refused_until.is_some_and(|u| u > now));
        self.held.shrink_to_fit();
    }

    pub fn tracked(&self) -> usize {
        self.held.len()
    }
}
