//! Summaries' journal SQL: the facts a summariser may see, the stored result, and the monthly
//! budget's ledger; the lease a run takes on its work (`lease`) and the parts it stores as they
//! arrive (`parts`). The orchestration lives in `jobs::summary`.
//!
//! Claim once per snapshot, before paying, and hold nothing while a model works: a run takes
//! the snapshot's lease in a short committed transaction, stores each part as it arrives, and
//! stores the summary in `session_summaries` once (its primary key: a second run finds it
//! there and stops). A run that dies leaves its lease to expire and its parts stored: the next
//! run pays only for the parts missing. Nothing is lost or doubled.

pub mod digests;
pub mod lease;
pub mod parts;

use crate::config::{CustomerProvider, ProviderSettings, SummaryConfig};
use crate::db::{Db, Tenant, TenantTx};
use crate::error::{Error, Result};
use crate::ids::SessionId;
use crate::summarize::{Budget, CallFact, Gemini, Limits, Outcome, Provider, Proxy, SessionFacts};
use crate::webhooks::events::{self, Event};
use crate::webhooks::payloads::SummaryReady;
use chrono::{DateTime, Datelike, NaiveDate, Utc};
use rust_decimal::Decimal;
use uuid::Uuid;

/// What the summariser may see of a session, and what decides who pays for it.
pub struct Loaded {
    pub facts: SessionFacts,
    /// `internal` or `customer`: internal accounts use the proxy.
    pub account_kind: String,
    /// Every call read the journal: nobody would read a paid summary of it.
    pub journal_only: bool,
}

struct SessionFactsRow {
    assistant: String,
    goal: Option<String>,
    outcome: Option<String>,
    kind: String,
    journal_only: bool,
}

struct CallRow {
    created_at: DateTime<Utc>,
    operation: String,
    purpose: Option<String>,
    ok: bool,
    wrote: bool,
    target_ids: Vec<String>,
    result_count: Option<i32>,
}

/// The facts of a session: purposes, goals, outcomes, operation names, ids and counts (all
/// scrubbed when stored). `None` when the session is gone.
#[tracing::instrument(skip_all, err)]
pub async fn load(tx: &mut TenantTx, session: Uuid) -> sqlx::Result<Option<Loaded>> {
    let row = sqlx::query_as!(
        SessionFactsRow,
        "SELECT s.assistant, s.goal, s.outcome, a.kind, s.journal_only FROM journal_sessions s
         JOIN accounts a ON a.account_id = s.account_id
         WHERE s.account_id = n8v_account() AND s.session_id = $1",
        session
    )
    .fetch_optional(tx.conn())
    .await?;
    let Some(row) = row else { return Ok(None) };
    let calls = sqlx::query_as!(
        CallRow,
        "SELECT created_at, operation, purpose, ok, wrote, target_ids, result_count FROM journal_calls
         WHERE account_id = n8v_account() AND session_id = $1 ORDER BY created_at, call_id",
        session
    )
    .fetch_all(tx.conn())
    .await?;
    let facts = SessionFacts {
        assistant: row.assistant,
        goal: row.goal,
        outcome: row.outcome,
        calls: calls
            .into_iter()
            .map(|c| CallFact {
                at: c.created_at,
                operation: c.operation,
                purpose: c.purpose,
                ok: c.ok,
                wrote: c.wrote,
                target_ids: c.target_ids,
                result_count: c.result_count,
            })
            .collect(),
        // Read only when a model will draft (`jobs::summary`): code never uses them.
        decisions_in_force: Vec::new(),
    };
    Ok(Some(Loaded {
        facts,
        account_kind: row.kind,
        journal_only: row.journal_only,
    }))
}

/// Whether the snapshot's summary is stored already.
#[tracing::instrument(skip_all, err)]
pub async fn stored(tx: &mut TenantTx, session: Uuid, snapshot: i32) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM session_summaries WHERE account_id = n8v_account()
                 AND session_id = $1 AND snapshot = $2) AS "stored!""#,
        session,
        snapshot
    )
    .fetch_one(tx.conn())
    .await
}

/// Stores the snapshot's summary, once, and puts it on the session, and tells of it
/// (`summary.ready`, with what it stored). `false`: another run stored it first.
#[tracing::instrument(skip_all, err)]
pub async fn store(
    tx: &mut TenantTx,
    session: Uuid,
    snapshot: i32,
    outcome: &Outcome,
    note: Option<&str>,
    now: DateTime<Utc>,
) -> Result<bool> {
    let summary = json(&outcome.summary)?;
    let stored = sqlx::query_scalar!(
        "INSERT INTO session_summaries (account_id, session_id, snapshot, summary, model,
             input_tokens, output_tokens, cost_usd, note, created_at)
         VALUES (n8v_account(), $1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (account_id, session_id, snapshot) DO NOTHING RETURNING snapshot",
        session,
        snapshot,
        &summary,
        &outcome.model,
        outcome.input_tokens as i64,
        outcome.output_tokens as i64,
        outcome.cost_usd,
        note,
        now
    )
    .fetch_optional(tx.conn())
    .await?;
    if stored.is_none() {
        return Ok(false);
    }
    set_on_session(tx, session, outcome, note, Some(snapshot)).await?;
    let ready = SummaryReady {
        session: SessionId(session),
        summary: Some(summary),
        summary_model: Some(outcome.model.clone()),
        summary_note: note.map(str::to_owned),
        snapshot: Some(snapshot),
    };
    events::emit(tx, Event::SummaryReady(ready), now).await?;
    Ok(true)
}

/// A summary as the JSON its columns and events hold.
pub fn json(summary: &crate::summarize::Summary) -> Result<serde_json::Value> {
    serde_json::to_value(summary).map_err(|e| Error::Internal(e.into()))
}

/// Puts a summary on its session (what reads show), with the snapshot it describes (none for an
/// episode's entry, which is its summary from the start).
#[tracing::instrument(skip_all, err)]
pub async fn set_on_session(
    tx: &mut TenantTx,
    session: Uuid,
    outcome: &Outcome,
    note: Option<&str>,
    snapshot: Option<i32>,
) -> Result<()> {
    let summary = json(&outcome.summary)?;
    sqlx::query!(
        "UPDATE journal_sessions SET summary = $2, summary_model = $3, summary_cost_usd = $4,
             summary_input_tokens = $5, summary_output_tokens = $6, summary_note = $7,
             summary_snapshot = $8
         WHERE account_id = n8v_account() AND session_id = $1",
        session,
        &summary,
        &outcome.model,
        outcome.cost_usd,
        outcome.input_tokens as i64,
        outcome.output_tokens as i64,
        note,
        snapshot
    )
    .execute(tx.conn())
    .await?;
    use rust_decimal::prelude::ToPrimitive;
    crate::telemetry::summary_recorded(
        &outcome.model,
        outcome.input_tokens,
        outcome.output_tokens,
        outcome.cost_usd.to_f64().unwrap_or(0.0),
    );
    Ok(())
}

/// The first day of `now`'s month (UTC): the budget's period.
pub fn month_of(now: DateTime<Utc>) -> NaiveDate {
    NaiveDate::from_ymd_opt(now.year(), now.month(), 1).expect("the first of a month exists")
}

/// Reserves `estimate` against the account's monthly budget, in its own committed
/// transaction so concurrent jobs see it at once, and counts it on the work's lease when there
/// is one. The row lock serialises reservations: of two jobs that together would pass the
/// budget, one is refused.
#[tracing::instrument(skip_all, err)]
pub async fn reserve(budget: &MonthlyBudget<'_>, estimate: Decimal) -> sqlx::Result<bool> {
    let mut tx = TenantTx::begin(budget.db, &Tenant::service(budget.account)).await?;
    sqlx::query!(
        "INSERT INTO summary_budget (account_id, month) VALUES (n8v_account(), $1)
         ON CONFLICT (account_id, month) DO NOTHING",
        budget.month
    )
    .execute(tx.conn())
    .await?;
    let reserved = sqlx::query_scalar!(
        "UPDATE summary_budget SET reserved_usd = reserved_usd + $2, model_calls = model_calls + 1
         WHERE account_id = n8v_account() AND month = $1
           AND spent_usd + reserved_usd + $2 <= $3
         RETURNING model_calls",
        budget.month,
        estimate,
        budget.limit
    )
    .fetch_optional(tx.conn())
    .await?;
    if let (Some(_), Some(subject)) = (reserved, &budget.work) {
        lease::reserved(&mut tx, subject, estimate).await?;
    }
    tx.commit().await?;
    Ok(reserved.is_some())
}

/// Turns a reservation into what the call really cost (its reservation when it timed out),
/// on the ledger and on the work's lease.
#[tracing::instrument(skip_all, err)]
pub async fn settle(
    budget: &MonthlyBudget<'_>,
    estimate: Decimal,
    actual: Decimal,
    timed_out: bool,
) -> sqlx::Result<()> {
    let mut tx = TenantTx::begin(budget.db, &Tenant::service(budget.account)).await?;
    sqlx::query!(
        "UPDATE summary_budget SET reserved_usd = GREATEST(reserved_usd - $2, 0),
             spent_usd = spent_usd + $3
         WHERE account_id = n8v_account() AND month = $1",
        budget.month,
        estimate,
        actual
    )
    .execute(tx.conn())
    .await?;
    if let Some(subject) = &budget.work {
        lease::settled(&mut tx, subject, estimate, actual, timed_out).await?;
    }
    tx.commit().await
}

/// The model an account's summaries and digests use: the proxy for internal accounts (at no
/// marginal cost); for customers, what `N8V_SUMMARY_CUSTOMER_PROVIDER` names — Gemini (the
/// default), the OpenAI-compatible endpoint (charged at the configured rates), or code. `None`
/// when that provider is not configured: code writes them.
pub fn model_for(config: &SummaryConfig, account_kind: &str) -> Option<Box<dyn Provider>> {
    let proxy = |s: &ProviderSettings| {
        Proxy::new(
            s.base_url.expose(),
            s.api_key.expose(),
            s.model.clone(),
            config.timeout,
        )
    };
    if account_kind == "internal" {
        return config
            .proxy
            .as_ref()
            .map(|s| Box::new(proxy(s)) as Box<dyn Provider>);
    }
    match config.customer_provider {
        CustomerProvider::Gemini => config.gemini.as_ref().map(|s| {
            Box::new(Gemini::new(
                s.base_url.expose(),
                s.api_key.expose(),
                s.model.clone(),
                config.timeout,
            )) as Box<dyn Provider>
        }),
        CustomerProvider::Proxy => config
            .proxy
            .as_ref()
            .map(|s| Box::new(proxy(s).charging()) as Box<dyn Provider>),
        CustomerProvider::Code => None,
    }
}

/// The model for the account the transaction acts for (see [`model_for`]).
#[tracing::instrument(skip_all, err)]
pub async fn account_model(
    tx: &mut TenantTx,
    config: &SummaryConfig,
) -> sqlx::Result<Option<Box<dyn Provider>>> {
    let kind = sqlx::query_scalar!("SELECT kind FROM accounts WHERE account_id = n8v_account()")
        .fetch_one(tx.conn())
        .await?;
    Ok(model_for(config, &kind))
}

/// The account's monthly budget in the database, shared by every job and worker.
pub struct MonthlyBudget<'a> {
    pub db: &'a Db,
    pub account: Uuid,
    pub month: NaiveDate,
    pub limit: Decimal,
    /// The leased work the calls are for (`lease::Lease::subject`), whose lease counts them.
    pub work: Option<String>,
}

impl<'a> MonthlyBudget<'a> {
    /// The account's budget for the month of `now`.
    pub fn of(db: &'a Db, config: &SummaryConfig, account: Uuid, now: DateTime<Utc>) -> Self {
        Self {
            db,
            account,
            month: month_of(now),
            limit: config.monthly_budget_usd,
            work: None,
        }
    }

    /// This budget, its calls counted on the lease of `subject` too.
    pub fn for_work(self, subject: &str) -> Self {
        Self {
            work: Some(subject.to_owned()),
            ..self
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
        match reserve(self, estimate).await {
            Ok(reserved) => reserved,
            Err(e) => {
                tracing::warn!(error = %e, "reserving summary budget failed; not paying a model");
                false
            }
        }
    }

    async fn settle(&self, estimate: Decimal, actual: Decimal, timed_out: bool) {
        if let Err(e) = settle(self, estimate, actual, timed_out).await {
            // The reservation stands: the budget errs on the side of spending less.
            tracing::warn!(error = %e, "settling summary budget failed");
        }
    }
}
