//! The nightly digest pass: for each account, every due week is rolled into a week digest,
//! then every due month into a month digest (see `summaries::digests`). Same providers, budget
//! and lease as session summaries: the digest is claimed in a short committed transaction, the
//! model is called with nothing held, and the digest is stored once in another short one that
//! checks the lease. A digest whose model fails is not stored: its inputs stay as they are and
//! the next night tries again, [`lease::CLAIMS`] times in all; then code writes it.

use super::WorkerState;
use crate::db::{Tenant, TenantTx};
use crate::retention;
use crate::summaries::digests::{self, Inputs};
use crate::summaries::lease::{self, Claim};
use crate::summaries::{MonthlyBudget, account_model};
use crate::summarize;
use chrono::{Months, NaiveDate};
use serde::Serialize;
use uuid::Uuid;

/// What one pass did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub accounts: u64,
    pub week_digests: u64,
    pub month_digests: u64,
    /// Digests whose model failed; retried on the next pass.
    pub failed: u64,
}

/// One digest pass over every account.
#[tracing::instrument(skip_all)]
pub async fn roll_up(state: &WorkerState) -> crate::error::Result<Counts> {
    let mut counts = Counts::default();
    for account in retention::all_accounts(&state.db).await? {
        counts.accounts += 1;
        roll_up_account(state, account, &mut counts).await?;
    }
    Ok(counts)
}

async fn roll_up_account(
    state: &WorkerState,
    account: Uuid,
    counts: &mut Counts,
) -> crate::error::Result<()> {
    let tenant = Tenant::service(account);
    let now = state.clock.now();
    let lifecycle = &state.config.lifecycle;
    let mut tx = TenantTx::begin(&state.db, &tenant).await?;
    let weeks = digests::due_weeks(&mut tx, now, lifecycle.digest_week_after).await?;
    tx.commit().await?;
    for week in weeks {
        let end = week + chrono::Duration::days(7);
        match make(state, account, "week", week, end).await? {
            Some(true) => counts.week_digests += 1,
            Some(false) => counts.failed += 1,
            None => {}
        }
    }
    let mut tx = TenantTx::begin(&state.db, &tenant).await?;
    let months = digests::due_months(&mut tx, now, lifecycle.digest_month_after).await?;
    tx.commit().await?;
    for month in months {
        let end = month + Months::new(1);
        match make(state, account, "month", month, end).await? {
            Some(true) => counts.month_digests += 1,
            Some(false) => counts.failed += 1,
            None => {}
        }
    }
    Ok(())
}

/// Claims, makes and stores one digest. `None`: another run has it, or it has no inputs;
/// `Some(false)`: the model failed and nothing was stored.
#[tracing::instrument(skip_all)]
async fn make(
    state: &WorkerState,
    account: Uuid,
    period: &str,
    start: NaiveDate,
    end: NaiveDate,
) -> crate::error::Result<Option<bool>> {
    let tenant = Tenant::service(account);
    let config = &state.config.summaries;
    let subject = format!("digest:{period}:{start}");
    let mut tx = TenantTx::begin(&state.db, &tenant).await?;
    let now = state.clock.now();
    let length = lease::length(config.timeout);
    let Claim::Taken(lease) = lease::claim(&mut tx, &subject, now, length).await? else {
        return Ok(None); // another replica's pass is making it
    };
    let inputs: Inputs = match period {
        "week" => digests::week_inputs(&mut tx, start).await?,
        _ => digests::month_inputs(&mut tx, start).await?,
    };
    let chosen = match lease.claims > lease::CLAIMS {
        true => None,
        false => account_model(&mut tx, config).await?,
    };
    if inputs.entries.is_empty() {
        lease::end(&mut tx, &subject).await?;
        tx.commit().await?;
        return Ok(None); // deleted meanwhile
    }
    tx.commit().await?;
    let budget = MonthlyBudget::of(&state.db, config, account, now).for_work(&subject);
    let limits = budget.limits(config);
    let outcome = match summarize::digest(chosen.as_deref(), &limits, &inputs.entries).await {
        Ok(outcome) => outcome,
        Err(why) if lease.claims >= lease::CLAIMS => {
            tracing::warn!(%account, %period, %start, reason = %why, "digest failed its last time; code writes it");
            let why = format!("the model failed {} times: {why}", lease.claims);
            summarize::code_digest_outcome(&inputs.entries, &why)
        }
        Err(why) => {
            tracing::warn!(%account, %period, %start, reason = %why, "digest failed; retried next pass");
            let mut tx = TenantTx::begin(&state.db, &tenant).await?;
            lease::release(&mut tx, &lease).await?;
            tx.commit().await?;
            return Ok(Some(false));
        }
    };
    let now = state.clock.now();
    let mut tx = TenantTx::begin(&state.db, &tenant).await?;
    if !lease::renew(&mut tx, &lease, now).await? {
        return Ok(None); // taken over by another run, which stores it
    }
    let Some(id) = digests::claim(&mut tx, period, start, end, now).await? else {
        return Ok(None); // stored by another run
    };
    let note = lease::calls(&mut tx, &subject)
        .await?
        .note(outcome.fallback.clone(), outcome.cost_usd);
    digests::store(&mut tx, id, &inputs, &outcome, note.as_deref(), now).await?;
    lease::end(&mut tx, &subject).await?;
    tx.commit().await?;
    Ok(Some(true))
}
