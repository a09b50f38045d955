//! Leases on paid model work (`model_leases`): a run claims its work in a short transaction
//! it commits before the first model call, calls with nothing held, and checks the lease in
//! each short transaction that stores what came back. A run that dies leaves its lease to
//! expire; the next claim after that takes the work over where it stopped. A slow but live run
//! keeps its lease: each stored part renews it.
//!
//! The lease also keeps the work's share of the month's ledger: the calls reserved for it, the
//! ones settled, those that timed out, and what they cost. A call reserved and never settled
//! had its answer lost (its run died): the ledger keeps its reservation.

use crate::db::TenantTx;
use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use std::time::Duration;
use uuid::Uuid;

/// How often a claim may be taken over before the run that takes it writes code's result
/// without calling a model: the first run and two more after a run died or failed.
pub const CLAIMS: i32 = 3;

/// Work claimed by this run.
#[derive(Clone, Debug)]
pub struct Lease {
    pub subject: String,
    pub holder: Uuid,
    /// How many runs have claimed the work, this one included.
    pub claims: i32,
    /// How long one claim or renewal lasts.
    pub length: chrono::Duration,
}

/// What a claim found.
pub enum Claim {
    Taken(Lease),
    /// Another run holds the work until then.
    Held(DateTime<Utc>),
}

/// How long a lease lasts: one part's two calls, each with every attempt at the per-attempt
/// `timeout` and the backoff between them, and a minute of margin for the database work.
pub fn length(timeout: Duration) -> chrono::Duration {
    let attempts = crate::summarize::ATTEMPTS;
    let call = timeout * attempts + Duration::from_secs(1);
    chrono::Duration::from_std(call * 2 + Duration::from_secs(60)).unwrap_or(chrono::Duration::MAX)
}

/// Claims `subject` for a new run unless another run's lease is live.
#[tracing::instrument(skip_all, err)]
pub async fn claim(
    tx: &mut TenantTx,
    subject: &str,
    now: DateTime<Utc>,
    length: chrono::Duration,
) -> sqlx::Result<Claim> {
    let holder = Uuid::now_v7();
    let claims = sqlx::query_scalar!(
        "INSERT INTO model_leases (account_id, subject, holder, lease_until)
         VALUES (n8v_account(), $1, $2, $3)
         ON CONFLICT (account_id, subject) DO UPDATE
            SET holder = EXCLUDED.holder, lease_until = EXCLUDED.lease_until,
                claims = model_leases.claims + 1
          WHERE model_leases.lease_until <= $4
         RETURNING claims",
        subject,
        holder,
        now + length,
        now
    )
    .fetch_optional(tx.conn())
    .await?;
    if let Some(claims) = claims {
        return Ok(Claim::Taken(Lease {
            subject: subject.to_owned(),
            holder,
            claims,
            length,
        }));
    }
    let until = sqlx::query_scalar!(
        "SELECT lease_until FROM model_leases WHERE account_id = n8v_account() AND subject = $1",
        subject
    )
    .fetch_one(tx.conn())
    .await?;
    Ok(Claim::Held(until))
}

/// Renews the lease if this run still holds it (`false`: another run took it over).
#[tracing::instrument(skip_all, err)]
pub async fn renew(tx: &mut TenantTx, lease: &Lease, now: DateTime<Utc>) -> sqlx::Result<bool> {
    let renewed = sqlx::query!(
        "UPDATE model_leases SET lease_until = $3
         WHERE account_id = n8v_account() AND subject = $1 AND holder = $2",
        lease.subject,
        lease.holder,
        now + lease.length
    )
    .execute(tx.conn())
    .await?;
    Ok(renewed.rows_affected() == 1)
}

/// Lets the next claim take the work at once (a run that failed and will be retried).
#[tracing::instrument(skip_all, err)]
pub async fn release(tx: &mut TenantTx, lease: &Lease) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE model_leases SET lease_until = '-infinity'
         WHERE account_id = n8v_account() AND subject = $1 AND holder = $2",
        lease.subject,
        lease.holder
    )
    .execute(tx.conn())
    .await?;
    Ok(())
}

/// Ends the work's lease once its result is stored.
#[tracing::instrument(skip_all, err)]
pub async fn end(tx: &mut TenantTx, subject: &str) -> sqlx::Result<()> {
    sqlx::query!(
        "DELETE FROM model_leases WHERE account_id = n8v_account() AND subject = $1",
        subject
    )
    .execute(tx.conn())
    .await?;
    Ok(())
}

/// A paid call reserved for the work (in the reservation's transaction).
pub async fn reserved(tx: &mut TenantTx, subject: &str, estimate: Decimal) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE model_leases SET calls_reserved = calls_reserved + 1,
             outstanding_usd = outstanding_usd + $2
         WHERE account_id = n8v_account() AND subject = $1",
        subject,
        estimate
    )
    .execute(tx.conn())
    .await?;
    Ok(())
}

/// A paid call settled for the work (in the settlement's transaction).
pub async fn settled(
    tx: &mut TenantTx,
    subject: &str,
    estimate: Decimal,
    actual: Decimal,
    timed_out: bool,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE model_leases SET calls_settled = calls_settled + 1,
             calls_timed_out = calls_timed_out + $4::int,
             outstanding_usd = GREATEST(outstanding_usd - $2, 0),
             settled_usd = settled_usd + $3
         WHERE account_id = n8v_account() AND subject = $1",
        subject,
        estimate,
        actual,
        i32::from(timed_out)
    )
    .execute(tx.conn())
    .await?;
    Ok(())
}

/// The work's share of the ledger.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Calls {
    pub reserved: i32,
    pub settled: i32,
    pub timed_out: i32,
    /// What the ledger holds for the work: settled calls at their cost, calls never settled at
    /// their reservation.
    pub paid_usd: Decimal,
}

impl Calls {
    /// The stored result's note: `why` (why code wrote some or all of it), then what it says
    /// of the calls it does not hold, given what it holds (`held_usd`); `None` when there is no
    /// `why` and it holds every call paid.
    pub fn note(&self, why: Option<String>, held_usd: Decimal) -> Option<String> {
        let mut said: Vec<String> = why.into_iter().collect();
        let lost = self.reserved - self.settled;
        if lost > 0 {
            said.push(format!(
                "{lost} model call(s) whose answers were lost when a worker stopped, counted in \
                 the ledger at their reservation"
            ));
        }
        if self.timed_out > 0 {
            said.push(format!(
                "{} model call(s) timed out, counted in the ledger at their reservation",
                self.timed_out
            ));
        }
        if self.paid_usd > held_usd {
            said.push(format!(
                "the ledger holds ${} for this work, of which this holds ${}",
                self.paid_usd.normalize(),
                held_usd.normalize()
            ));
        }
        (!said.is_empty()).then(|| said.join("; "))
    }
}

/// The work's calls so far.
#[tracing::instrument(skip_all, err)]
pub async fn calls(tx: &mut TenantTx, subject: &str) -> sqlx::Result<Calls> {
    let row = sqlx::query!(
        "SELECT calls_reserved, calls_settled, calls_timed_out,
                settled_usd + outstanding_usd AS \"paid_usd!\"
         FROM model_leases WHERE account_id = n8v_account() AND subject = $1",
        subject
    )
    .fetch_optional(tx.conn())
    .await?;
    Ok(row.map_or_else(Calls::default, |r| Calls {
        reserved: r.calls_reserved,
        settled: r.calls_settled,
        timed_out: r.calls_timed_out,
        paid_usd: r.paid_usd,
    }))
}
