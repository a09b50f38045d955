//! The workers: summaries of closed sessions (apalis on PostgreSQL, claimed with SKIP LOCKED),
//! and the cron passes — the quiet-session sweep, retention and caps, audit retention — each
//! idempotent, so every replica may run them.

pub mod summary;
pub mod sweep;

use crate::config::Config;
use crate::db::Db;
use crate::journal::retention;
use crate::queue::{SUMMARIZE_QUEUE, SummarizeSession};
use apalis::layers::retry::RetryPolicy;
use apalis::prelude::*;
use apalis_cron::{CronScheduler, Tick};
use apalis_postgres::{PostgresStorage, Pubsub};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

/// Everything a job needs.
#[derive(Clone)]
pub struct WorkerState {
    pub db: Db,
    pub config: Arc<Config>,
    pub clock: Arc<dyn crate::clock::Clock>,
}

fn storage(db: &Db) -> PostgresStorage<SummarizeSession> {
    let config = apalis_postgres::Config::default()
        .queue(SUMMARIZE_QUEUE)
        .batch_size(4)
        .heartbeat_interval(Duration::from_secs(10))
        .missed_heartbeats(6);
    PostgresStorage::<SummarizeSession>::new(db.pool()).with_config(config)
}

async fn run_summary(job: SummarizeSession, state: Data<WorkerState>) -> Result<(), BoxDynError> {
    summary::summarize_session(&state, &job)
        .await
        .map(|_| ())
        .map_err(|e| Box::new(e) as BoxDynError)
}

/// One retention pass (calls, sessions, caps) now.
pub async fn retention(state: &WorkerState) -> sqlx::Result<retention::Counts> {
    retention::expire(
        &state.db,
        state.clock.now(),
        &state.config.lifecycle.retention,
    )
    .await
}

/// One audit retention pass now.
pub async fn audit_retention(state: &WorkerState) -> sqlx::Result<retention::AuditCounts> {
    let lifecycle = &state.config.lifecycle;
    retention::expire_audit(
        &state.db,
        state.clock.now(),
        lifecycle.audit_retention,
        lifecycle.retention.batch,
    )
    .await
}

async fn run_retention(_tick: Tick, state: Data<WorkerState>) -> Result<(), BoxDynError> {
    let counts = retention(&state)
        .await
        .map_err(|e| Box::new(e) as BoxDynError)?;
    tracing::info!(?counts, "retention pass done");
    Ok(())
}

async fn run_audit_retention(_tick: Tick, state: Data<WorkerState>) -> Result<(), BoxDynError> {
    let counts = audit_retention(&state)
        .await
        .map_err(|e| Box::new(e) as BoxDynError)?;
    tracing::info!(?counts, "audit retention pass done");
    Ok(())
}

async fn run_sweep(_tick: Tick, state: Data<WorkerState>) -> Result<(), BoxDynError> {
    let closed = sweep::close_quiet_sessions(
        &state.db,
        state.clock.now(),
        state.config.summaries.quiet_after,
    )
    .await
    .map_err(|e| Box::new(e) as BoxDynError)?;
    if closed > 0 {
        tracing::info!(closed, "closed quiet sessions");
    }
    Ok(())
}

/// Runs the workers until `shutdown` resolves; running jobs finish first.
pub async fn run(
    state: WorkerState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let schedule = cron::Schedule::from_str(&state.config.summaries.sweep_schedule)?;
    let retention_schedule = cron::Schedule::from_str(&state.config.lifecycle.retention_schedule)?;
    let audit_schedule =
        cron::Schedule::from_str(&state.config.lifecycle.audit_retention_schedule)?;
    let retention_state = state.clone();
    let audit_state = state.clone();
    // A unique name per process: apalis tracks liveness by worker name.
    let name = format!("summaries-{}", uuid::Uuid::now_v7().simple());
    let summary_state = state.clone();
    let sweep_state = state.clone();
    Monitor::new()
        .register(move |restarts| {
            let db = &summary_state.db;
            let backend = storage(db).poll_with_strategy(
                Strategy::new()
                    .stream(Pubsub::new(db.pool().clone(), SUMMARIZE_QUEUE.to_string()))
                    .interval(Duration::from_secs(2)),
            );
            WorkerBuilder::new(format!("{name}-{restarts}"))
                .backend(backend)
                .data(summary_state.clone())
                .concurrency(4)
                .retry(RetryPolicy::retries(2))
                .catch_panic()
                .build(run_summary)
        })
        .register(move |restarts| {
            WorkerBuilder::new(format!(
                "quiet-sweep-{}-{restarts}",
                uuid::Uuid::now_v7().simple()
            ))
            .backend(CronScheduler::new(schedule.clone()))
            .data(sweep_state.clone())
            .build(run_sweep)
        })
        .register(move |restarts| {
            WorkerBuilder::new(format!(
                "retention-{}-{restarts}",
                uuid::Uuid::now_v7().simple()
            ))
            .backend(CronScheduler::new(retention_schedule.clone()))
            .data(retention_state.clone())
            .build(run_retention)
        })
        .register(move |restarts| {
            WorkerBuilder::new(format!(
                "audit-retention-{}-{restarts}",
                uuid::Uuid::now_v7().simple()
            ))
            .backend(CronScheduler::new(audit_schedule.clone()))
            .data(audit_state.clone())
            .build(run_audit_retention)
        })
        .should_restart(|worker, error| {
            tracing::warn!(worker = %worker.name(), %error, "worker failed; restarting");
            worker.restarts() < 100
        })
        .shutdown_timeout(Duration::from_secs(30))
        .run_with_signal(async move {
            shutdown.await;
            Ok(())
        })
        .await?;
    Ok(())
}
