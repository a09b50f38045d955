//! The summary job: summarise one closed session snapshot, claimed before any model is paid.
//!
//! The job claims `(account, session, snapshot)` in a transaction it holds while the model
//! works (see `journal::summaries`), so a job that runs twice, or two workers racing, call the
//! model once and store one summary; a job killed half-way leaves no claim behind. Sessions that
//! only read the journal never go to a paid provider. Each paid model call reserves its most
//! possible cost from the account's monthly budget first. Providers never fail the job (they
//! fall back to the code summary), so only database faults are retried.

use super::WorkerState;
use crate::config::{ProviderSettings, SummaryConfig};
use crate::db::{Db, Tenant, TenantTx};
use crate::journal::summaries;
use crate::queue::SummarizeSession;
use crate::summarize::{self, BUDGET_SPENT, Budget, Gemini, Limits, Provider, Proxy};
use chrono::NaiveDate;
use rust_decimal::Decimal;
use uuid::Uuid;

pub const BUDGET_NOTE: &str = "the monthly summary budget is spent: summary written by code";
pub const JOURNAL_ONLY_NOTE: &str =
    "the session only read the journal: summary written by code, no model paid";

fn provider(
    settings: &ProviderSettings,
    config: &SummaryConfig,
    gemini: bool,
) -> Box<dyn Provider> {
    let (url, key, model) = (
        settings.base_url.clone(),
        settings.api_key.clone(),
        settings.model.clone(),
    );
    if gemini {
        Box::new(Gemini::new(url, key, model, config.timeout))
    } else {
        Box::new(Proxy::new(url, key, model, config.timeout))
    }
}

/// The model an account's summaries and digests use: the proxy for internal accounts, Gemini
/// for customers; `None` when that provider is not configured (code writes them).
pub(super) fn model_for(config: &SummaryConfig, account_kind: &str) -> Option<Box<dyn Provider>> {
    let internal = account_kind == "internal";
    let settings = if internal {
        config.proxy.as_ref()
    } else {
        config.gemini.as_ref()
    };
    settings.map(|s| provider(s, config, !internal))
}

/// The account's monthly budget in the database, shared by every job and worker.
pub(super) struct MonthlyBudget<'a> {
    pub db: &'a Db,
    pub account: Uuid,
    pub month: NaiveDate,
    pub limit: Decimal,
}

impl<'a> MonthlyBudget<'a> {
    /// The account's budget for the month of `now`.
    pub fn of(state: &'a WorkerState, account: Uuid, now: chrono::DateTime<chrono::Utc>) -> Self {
        Self {
            db: &state.db,
            account,
            month: summaries::month_of(now),
            limit: state.config.summaries.monthly_budget_usd,
        }
    }

    /// The limits a summary or digest works within, reserving from this budget.
    pub fn limits<'b>(&'b self, config: &'b SummaryConfig) -> Limits<'b> {
        Limits {
            rates: &config.rates,
            budget: self,
            max_parts: config.max_parts,
        }
    }
}

#[async_trait::async_trait]
impl Budget for MonthlyBudget<'_> {
    async fn reserve(&self, estimate: Decimal) -> bool {
        match summaries::reserve(self.db, self.account, self.month, estimate, self.limit).await {
            Ok(reserved) => reserved,
            Err(e) => {
                tracing::warn!(error = %e, "reserving summary budget failed; not paying a model");
                false
            }
        }
    }

    async fn settle(&self, estimate: Decimal, actual: Decimal) {
        if let Err(e) = summaries::settle(self.db, self.account, self.month, estimate, actual).await
        {
            // The reservation stands: the budget errs on the side of spending less.
            tracing::warn!(error = %e, "settling summary budget failed");
        }
    }
}

/// Summarises the session snapshot unless it is already summarised. Returns whether this run
/// stored the summary.
pub async fn summarize_session(state: &WorkerState, job: &SummarizeSession) -> sqlx::Result<bool> {
    let tenant = Tenant::service(job.account_id);
    let now = state.clock.now();
    let mut tx = TenantTx::begin(&state.db, &tenant).await?;
    if !summaries::claim(&mut tx, job.session_id, job.snapshot, now).await? {
        return Ok(false); // stored by another run
    }
    let Some(loaded) = summaries::load(&mut tx, job.session_id).await? else {
        return Ok(false); // deleted meanwhile (retention or the account); the claim rolls back
    };

    let config = &state.config.summaries;
    let chosen = match loaded.journal_only {
        true => None,
        false => model_for(config, &loaded.account_kind),
    };
    let budget = MonthlyBudget::of(state, job.account_id, now);
    let limits = budget.limits(config);
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
    )
    .await?;
    tx.commit().await?;
    Ok(true)
}
