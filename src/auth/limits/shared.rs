//! The buckets every replica takes from (`limit_buckets`, migration 0028): GCRA in PostgreSQL,
//! on the owner's pool (not tenant data). One statement per take; the row lock queues replicas
//! taking from one bucket at once.

use dashmap::DashMap;
use sqlx::PgPool;
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// What a bucket is counting; its name is the row's `kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Requests per credential (taken in leases: see `lease`).
    Credential,
    /// Failed authentications per client address.
    AuthFailure,
    /// Dynamic client registrations per client address.
    Registration,
    /// Client ID metadata documents fetched per client address.
    DocumentFetch,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Self::Credential => "credential",
            Self::AuthFailure => "auth_failure",
            Self::Registration => "registration",
            Self::DocumentFetch => "document_fetch",
        }
    }
}

/// One take's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Taken {
    /// Tokens granted (fewer than asked when the bucket ran low; 0 = refused).
    pub granted: u32,
    /// Tokens left in the bucket after the take.
    pub remaining: u32,
    /// Until the bucket is full again.
    pub full_in: Duration,
    /// Until the next token (zero when one is left).
    pub next_in: Duration,
}

/// Takes up to `want` tokens from the shared bucket (`kind`, `key`) of `per_minute` tokens a
/// minute, giving back first `give_back` tokens taken earlier and never spent.
#[tracing::instrument(skip_all, fields(kind = kind.name()), err)]
pub async fn take(
    pool: &PgPool,
    kind: Kind,
    key: &str,
    per_minute: u32,
    want: u32,
    give_back: u32,
) -> sqlx::Result<Taken> {
    let clamp = |n: u32| i32::try_from(n).unwrap_or(i32::MAX);
    let row = sqlx::query!(
        r#"SELECT granted AS "granted!", remaining AS "remaining!",
                  reset_ms AS "reset_ms!", retry_ms AS "retry_ms!"
             FROM n8v_limit_take($1, $2, $3, $4, $5)"#,
        kind.name(),
        key,
        clamp(per_minute),
        clamp(want),
        clamp(give_back),
    )
    .fetch_one(pool)
    .await?;
    let millis = |ms: i64| Duration::from_millis(u64::try_from(ms).unwrap_or(0));
    Ok(Taken {
        granted: u32::try_from(row.granted).unwrap_or(0),
        remaining: u32::try_from(row.remaining).unwrap_or(0),
        full_in: millis(row.reset_ms),
        next_in: millis(row.retry_ms),
    })
}

/// Deletes the full buckets (they say nothing a missing row does not), so the table holds
/// only what was used within the last minute.
#[tracing::instrument(skip_all, err)]
pub async fn prune(pool: &PgPool) -> sqlx::Result<i64> {
    let gone = sqlx::query_scalar!(r#"SELECT n8v_limit_prune() AS "gone!""#)
        .fetch_one(pool)
        .await?;
    Ok(gone)
}

/// A per-address budget of rare events (dynamic registrations, document fetches), counted in the shared bucket
/// on every event. An address refused is remembered here until its next token, so a flood
/// from it is answered without asking the database (the bucket only empties meanwhile: other
/// replicas take, none gives).
pub struct AddressBudget {
    kind: Kind,
    per_minute: u32,
    refused: DashMap<IpAddr, Instant>,
}

impl AddressBudget {
    /// `per_minute` events per address (0 = unlimited).
    pub fn new(kind: Kind, per_minute: u32) -> Self {
        Self {
            kind,
            per_minute,
            refused: DashMap::new(),
        }
    }

    /// Counts one event from `address`: `Ok(Err(seconds))` when the deployment's budget for
    /// the address is spent, `Err` when the database failed.
    pub async fn spend(&self, pool: &PgPool, address: IpAddr) -> sqlx::Result<Result<(), u64>> {
        if self.per_minute == 0 {
            return Ok(Ok(()));
        }
        let now = Instant::now();
        if let Some(until) = self.refused.get(&address).map(|e| *e) {
            if until > now {
                return Ok(Err(super::retry_after(until - now)));
            }
            self.refused.remove(&address);
        }
        let taken = take(pool, self.kind, &address.to_string(), self.per_minute, 1, 0).await?;
        if taken.granted > 0 {
            return Ok(Ok(()));
        }
        if self.refused.len() >= super::MAX_TRACKED_ADDRESSES {
            self.refused.retain(|_, until| *until > now);
        }
        if self.refused.len() < super::MAX_TRACKED_ADDRESSES {
            self.refused.insert(address, now + taken.next_in);
        }
        Ok(Err(super::retry_after(taken.next_in)))
    }
}
