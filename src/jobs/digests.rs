//! The nightly digest pass: for each account, every due week is rolled into a week digest,
//! then every due month into a month digest (see `summaries::digests`). Same providers, budget
//! and claim-once rule as session summaries. A digest whose model fails is not stored: its
//! inputs stay as they are and the next night tries again.

use super::WorkerState;
use crate::db::{Tenant, TenantTx};
use crate::retention;
use crate::summaries::digests::{self, Inputs};
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

/// Claims, makes and stores one digest. `None`: another job had it; `Some(false)`: the model
/// failed and nothing was stored.
#[tracing::instrument(skip_all)]
async fn make(
    state: &WorkerState,
    account: Uuid,
    period: &str,
    start: NaiveDate,
    end: NaiveDate,
) -> crate::error::Result<Option<bool>> {
    let now = state.clock.now();
    let mut tx = TenantTx::begin(&state.db, &Tenant::service(account)).await?;
    let Some(id) = digests::claim(&mut tx, period, start, end, now).await? else {
        return Ok(None);
    };
    let inputs: Inputs = match period {
        "week" => digests::week_inputs(&mut tx, start).await?,
        _ => digests::month_inputs(&mut tx, start).await?,
    };
    if inputs.entries.is_empty() {
        return Ok(None); // deleted meanwhile; the claim rolls back
    }
    let config = &state.config.summaries;
    let chosen = account_model(&mut tx, config).await?;
    let budget = MonthlyBudget::of(&state.db, config, account, now);
    let limits = budget.limits(config);
    match summarize::digest(chosen.as_deref(), &limits, &inputs.entries).await {
        Ok(outcome) => {
            let note = outcome.fallback.as_deref();
            digests::store(&mut tx, id, &inputs, &outcome, note, now).await?;
            tx.commit().await?;
            Ok(Some(true))
        }
        Err(why) => {
            tracing::warn!(%account, %period, %start, reason = %why, "digest failed; retried next pass");
            Ok(Some(false)) // the claim rolls back with the transaction
        }
    }
}
