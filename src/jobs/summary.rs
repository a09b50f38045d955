//! The summary job: summarise one closed session snapshot, claimed before any model is paid.
//!
//! The job claims `(account, session, snapshot)` in a transaction it holds while the model
//! works (see `summaries`), so a job that runs twice, or two workers racing, call the
//! model once and store one summary; a job killed half-way leaves no claim behind. Sessions that
//! only read the journal never go to a paid provider. Each paid model call reserves its most
//! possible cost from the account's monthly budget first. Providers never fail the job (they
//! fall back to the code summary), so only database faults are retried.

use super::WorkerState;
use crate::db::{Tenant, TenantTx};
use crate::ids::SessionId;
use crate::loops::decided;
use crate::queue::SummarizeSession;
use crate::summaries::{self, MonthlyBudget, model_for};
use crate::summarize::{self, BUDGET_SPENT};

pub const BUDGET_NOTE: &str = "the monthly summary budget is spent: summary written by code";
pub const JOURNAL_ONLY_NOTE: &str =
    "the session only read the journal: summary written by code, no model paid";

/// Summarises the session snapshot unless it is already summarised. Returns whether this run
/// stored the summary.
#[tracing::instrument(skip_all)]
pub async fn summarize_session(
    state: &WorkerState,
    job: &SummarizeSession,
) -> crate::error::Result<bool> {
    let tenant = Tenant::service(job.account_id);
    let now = state.clock.now();
    let mut tx = TenantTx::begin(&state.db, &tenant).await?;
    if !summaries::claim(&mut tx, job.session_id, job.snapshot, now).await? {
        return Ok(false); // stored by another run
    }
    let Some(mut loaded) = summaries::load(&mut tx, job.session_id).await? else {
        return Ok(false); // deleted meanwhile (retention or the account); the claim rolls back
    };

    let config = &state.config.summaries;
    let chosen = match loaded.journal_only {
        true => None,
        false => model_for(config, &loaded.account_kind),
    };
    let budget = MonthlyBudget::of(&state.db, config, job.account_id, now);
    let limits = budget.limits(config);
    if chosen.is_some() {
        // What the model is shown and may say its session replaced.
        let session = SessionId(job.session_id);
        loaded.facts.decisions_in_force = decided::in_force(&mut tx, session).await?;
    }
    let outcome = summarize::summarize(chosen.as_deref(), &limits, &loaded.facts).await;
    let note = match outcome.fallback.as_deref() {
        _ if loaded.journal_only => Some(JOURNAL_ONLY_NOTE.to_owned()),
        Some(why) if why.ends_with(BUDGET_SPENT) => Some(BUDGET_NOTE.to_owned()),
        Some(why) => Some(format!("summary written by code: {why}")),
        None => None,
    };
    if let Some(why) = &outcome.fallback
        && chosen.is_some()
    {
        tracing::warn!(session = %job.session_id, reason = %why, "summary fell back to code");
    }
    summaries::store(
        &mut tx,
        job.session_id,
        job.snapshot,
        &outcome,
        note.as_deref(),
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(true)
}
