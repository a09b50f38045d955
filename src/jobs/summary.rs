//! The summary job: summarise one closed session snapshot and store it exactly once.
//!
//! The model call happens outside any transaction. The result is stored with
//! `INSERT … ON CONFLICT DO NOTHING` on `(account_id, session_id, snapshot)`, so a job that runs
//! twice, or two workers racing, leave one summary. Providers never fail the job (they fall back
//! to the code summary), so only database faults are retried.

use super::WorkerState;
use crate::config::{ProviderSettings, SummaryConfig};
use crate::db::{Tenant, TenantTx};
use crate::queue::SummarizeSession;
use crate::summarize::{self, CallFact, Gemini, Provider, Proxy, SessionFacts};
use chrono::{DateTime, Datelike, TimeZone, Utc};
use rust_decimal::Decimal;
use uuid::Uuid;

pub const BUDGET_NOTE: &str = "the monthly summary budget is spent: summary written by code";

#[derive(sqlx::FromRow)]
struct SessionFactsRow {
    assistant: String,
    goal: Option<String>,
    outcome: Option<String>,
    kind: String,
}

#[derive(sqlx::FromRow)]
struct CallRow {
    created_at: DateTime<Utc>,
    operation: String,
    purpose: Option<String>,
    ok: bool,
    wrote: bool,
    target_ids: Vec<String>,
    result_count: Option<i32>,
}

/// The facts of a session, as the summariser may see them: purposes, goals, outcomes, operation
/// names, ids and counts (all scrubbed when stored). `None` when the session is gone.
pub async fn load_facts(
    tx: &mut TenantTx,
    session: Uuid,
) -> sqlx::Result<Option<(SessionFacts, String)>> {
    let row: Option<SessionFactsRow> = sqlx::query_as(
        "SELECT s.assistant, s.goal, s.outcome, a.kind FROM journal_sessions s \
         JOIN accounts a ON a.account_id = s.account_id \
         WHERE s.account_id = n8v_account() AND s.session_id = $1",
    )
    .bind(session)
    .fetch_optional(tx.conn())
    .await?;
    let Some(row) = row else { return Ok(None) };
    let calls: Vec<CallRow> = sqlx::query_as(
        "SELECT created_at, operation, purpose, ok, wrote, target_ids, result_count FROM journal_calls \
         WHERE account_id = n8v_account() AND session_id = $1 ORDER BY created_at, call_id",
    )
    .bind(session)
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
    };
    Ok(Some((facts, row.kind)))
}

fn month_start(now: DateTime<Utc>) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(now.year(), now.month(), 1, 0, 0, 0)
        .single()
        .unwrap_or(now)
}

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

/// Summarises the session snapshot unless it is already summarised. Returns whether this run
/// stored the summary.
pub async fn summarize_session(state: &WorkerState, job: &SummarizeSession) -> sqlx::Result<bool> {
    let tenant = Tenant::service(job.account_id);
    let now = state.clock.now();
    let mut tx = TenantTx::begin(&state.db, &tenant).await?;
    let done: Option<i32> = sqlx::query_scalar(
        "SELECT snapshot FROM session_summaries WHERE account_id = n8v_account() AND session_id = $1 AND snapshot = $2",
    )
    .bind(job.session_id)
    .bind(job.snapshot)
    .fetch_optional(tx.conn())
    .await?;
    if done.is_some() {
        return Ok(false);
    }
    let Some((facts, kind)) = load_facts(&mut tx, job.session_id).await? else {
        return Ok(false); // deleted meanwhile (retention or the account)
    };
    let spent: Decimal = sqlx::query_scalar(
        "SELECT COALESCE(sum(cost_usd), 0) FROM session_summaries \
         WHERE account_id = n8v_account() AND created_at >= $1",
    )
    .bind(month_start(now))
    .fetch_one(tx.conn())
    .await?;
    tx.commit().await?;

    let config = &state.config.summaries;
    let internal = kind == "internal";
    let settings = if internal {
        config.proxy.as_ref()
    } else {
        config.gemini.as_ref()
    };
    let chosen = settings.map(|s| provider(s, config, !internal));
    let over_budget =
        chosen.as_ref().is_some_and(|p| p.charges()) && spent >= config.monthly_budget_usd;
    let usable = if over_budget { None } else { chosen.as_deref() };
    let outcome = summarize::summarize(usable, &config.rates, &facts).await;
    let note = if over_budget {
        Some(BUDGET_NOTE.to_owned())
    } else {
        outcome
            .fallback
            .clone()
            .map(|why| format!("summary written by code: {why}"))
    };
    if let Some(why) = &outcome.fallback {
        tracing::warn!(session = %job.session_id, reason = %why, "summary fell back to code");
    }

    let mut tx = TenantTx::begin(&state.db, &tenant).await?;
    let summary =
        serde_json::to_value(&outcome.summary).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    let stored: Option<i32> = sqlx::query_scalar(
        "INSERT INTO session_summaries (account_id, session_id, snapshot, summary, model, input_tokens, \
             output_tokens, cost_usd, note, created_at) \
         VALUES (n8v_account(), $1, $2, $3, $4, $5, $6, $7, $8, $9) \
         ON CONFLICT (account_id, session_id, snapshot) DO NOTHING RETURNING snapshot",
    )
    .bind(job.session_id)
    .bind(job.snapshot)
    .bind(&summary)
    .bind(&outcome.model)
    .bind(outcome.input_tokens as i64)
    .bind(outcome.output_tokens as i64)
    .bind(outcome.cost_usd)
    .bind(&note)
    .bind(now)
    .fetch_optional(tx.conn())
    .await?;
    if stored.is_some() {
        sqlx::query(
            "UPDATE journal_sessions SET summary = $2, summary_model = $3, summary_cost_usd = $4, \
                 summary_input_tokens = $5, summary_output_tokens = $6, summary_note = $7, summary_snapshot = $8 \
             WHERE account_id = n8v_account() AND session_id = $1",
        )
        .bind(job.session_id)
        .bind(&summary)
        .bind(&outcome.model)
        .bind(outcome.cost_usd)
        .bind(outcome.input_tokens as i64)
        .bind(outcome.output_tokens as i64)
        .bind(&note)
        .bind(job.snapshot)
        .execute(tx.conn())
        .await?;
    }
    tx.commit().await?;
    Ok(stored.is_some())
}
