//! The workers: summaries of closed sessions (apalis on PostgreSQL, claimed with SKIP LOCKED),
//! and the cron passes — the quiet-session sweep, retention and caps, audit retention — each
//! idempotent, so every replica may run them.

pub mod digests;
pub mod summary;
pub mod sweep;
pub mod webhooks;

use crate::config::Config;
use crate::db::Db;
use crate::journal::retention;
use crate::liveness::WorkerStatus;
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
    let result = summary::summarize_session(&state, &job).await;
    let outcome = match &result {
        Ok(true) => "ok",
        Ok(false) => "skipped",
        Err(_) => "error",
    };
    crate::telemetry::job_finished("summarize_session", outcome);
    result.map(|_| ()).map_err(|e| Box::new(e) as BoxDynError)
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

/// One quiet-sweep pass now; returns how many sessions it closed.
pub async fn sweep(state: &WorkerState) -> sqlx::Result<usize> {
    sweep::close_quiet_sessions(
        &state.db,
        state.clock.now(),
        state.config.summaries.quiet_after,
    )
    .await
}

/// A cron pass's result, with its outcome recorded for the job metrics and its counts logged.
fn pass<T: std::fmt::Debug>(job: &'static str, result: sqlx::Result<T>) -> Result<T, BoxDynError> {
    match result {
        Ok(counts) => {
            crate::telemetry::job_finished(job, "ok");
            tracing::info!(job, ?counts, "pass done");
            Ok(counts)
        }
        Err(e) => {
            crate::telemetry::job_finished(job, "error");
            Err(Box::new(e))
        }
    }
}

async fn run_retention(_tick: Tick, state: Data<WorkerState>) -> Result<(), BoxDynError> {
    pass("retention", retention(&state).await).map(drop)
}

async fn run_digests(_tick: Tick, state: Data<WorkerState>) -> Result<(), BoxDynError> {
    pass("digests", digests::roll_up(&state).await).map(drop)
}

async fn run_webhooks(_tick: Tick, state: Data<WorkerState>) -> Result<(), BoxDynError> {
    let counts = webhooks::deliver_due(&state).await;
    if let Ok(c) = &counts
        && c == &webhooks::Counts::default()
    {
        return Ok(()); // nothing was due: no log line every two seconds
    }
    pass("webhooks", counts).map(drop)
}

async fn run_audit_retention(_tick: Tick, state: Data<WorkerState>) -> Result<(), BoxDynError> {
    pass("audit_retention", audit_retention(&state).await).map(drop)
}

async fn run_sweep(_tick: Tick, state: Data<WorkerState>) -> Result<(), BoxDynError> {
    let closed = pass("quiet_sweep", sweep(&state).await)?;
    crate::telemetry::sessions_closed("quiet", closed as u64);
    Ok(())
}

/// The wait before restart number `failures` (1, 2, …) of a worker that keeps failing:
/// 1 s, doubling up to [`MAX_BACKOFF`], with ±20 % jitter so replicas do not restart in step.
/// There is no last attempt: a database outage delays the workers, it never ends them.
pub fn backoff(failures: u32) -> Duration {
    let base = Duration::from_secs(1) * 2u32.pow(failures.saturating_sub(1).min(6));
    let base = base.min(MAX_BACKOFF);
    base.mul_f64(rand::random_range(0.8..1.2))
}

pub const MAX_BACKOFF: Duration = Duration::from_secs(60);

/// A worker that ran this long before failing starts its backoff from the beginning again.
const HEALTHY_RUN: Duration = Duration::from_secs(60);

type WorkerRun =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<(), WorkerError>> + Send>>;

/// Runs one worker until `stopped` turns true, restarting it with [`backoff`] whenever it fails
/// (or panics), forever, and reporting its state in the database handle's liveness.
async fn supervise(
    kind: &'static str,
    db: Db,
    mut stopped: tokio::sync::watch::Receiver<bool>,
    start: impl Fn(u32, tokio::sync::watch::Receiver<bool>) -> WorkerRun,
) {
    let mut failures = 0u32;
    let mut attempt = 0u32;
    loop {
        db.liveness().set(kind, WorkerStatus::Running);
        let started = std::time::Instant::now();
        let run = tokio::spawn(start(attempt, stopped.clone())).await;
        attempt += 1;
        if *stopped.borrow() {
            break;
        }
        let error = match run {
            Ok(Ok(())) => "the worker stopped by itself".to_owned(),
            Ok(Err(e)) => e.to_string(),
            Err(e) => format!("the worker panicked: {e}"),
        };
        failures = if started.elapsed() >= HEALTHY_RUN {
            1
        } else {
            failures + 1
        };
        let wait = backoff(failures);
        tracing::warn!(worker = kind, failures, retry_in = ?wait, %error, "worker failed; restarting after a pause");
        db.liveness().set(
            kind,
            WorkerStatus::Restarting {
                failures,
                retry_at: std::time::Instant::now() + wait,
            },
        );
        tokio::select! {
            _ = tokio::time::sleep(wait) => {}
            _ = stopped.wait_for(|s| *s) => break,
        }
    }
    db.liveness().set(kind, WorkerStatus::Stopped);
}

/// Resolves once `stopped` is true: a worker's shutdown signal.
async fn until_stopped(mut stopped: tokio::sync::watch::Receiver<bool>) -> std::io::Result<()> {
    let _ = stopped.wait_for(|s| *s).await;
    Ok(())
}

/// Runs the workers until `shutdown` resolves; running jobs finish first (for at most 30 s).
pub async fn run(
    state: WorkerState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let schedule = cron::Schedule::from_str(&state.config.summaries.sweep_schedule)?;
    let retention_schedule = cron::Schedule::from_str(&state.config.lifecycle.retention_schedule)?;
    let audit_schedule =
        cron::Schedule::from_str(&state.config.lifecycle.audit_retention_schedule)?;
    let digest_schedule = cron::Schedule::from_str(&state.config.lifecycle.digest_schedule)?;
    let webhook_schedule = cron::Schedule::from_str(&state.config.webhooks.schedule)?;
    // A unique name per process and attempt: apalis tracks liveness by worker name.
    let process = uuid::Uuid::now_v7().simple().to_string();
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let summary_state = state.clone();
    let summaries = supervise("summaries", state.db.clone(), stopped.clone(), {
        let process = process.clone();
        move |attempt, stopped| {
            let db = &summary_state.db;
            let backend = storage(db).poll_with_strategy(
                Strategy::new()
                    .stream(Pubsub::new(db.pool().clone(), SUMMARIZE_QUEUE.to_string()))
                    .interval(Duration::from_secs(2)),
            );
            let worker = WorkerBuilder::new(format!("summaries-{process}-{attempt}"))
                .backend(backend)
                .data(summary_state.clone())
                .concurrency(4)
                .retry(RetryPolicy::retries(2))
                .catch_panic()
                .build(run_summary);
            Box::pin(worker.run_until(until_stopped(stopped)))
        }
    });
    let sweep_state = state.clone();
    let process_ = process.clone();
    let sweep = supervise(
        "quiet-sweep",
        state.db.clone(),
        stopped.clone(),
        move |attempt, stopped| {
            let worker = WorkerBuilder::new(format!("quiet-sweep-{process_}-{attempt}"))
                .backend(CronScheduler::new(schedule.clone()))
                .data(sweep_state.clone())
                .build(run_sweep);
            Box::pin(worker.run_until(until_stopped(stopped)))
        },
    );
    let retention_state = state.clone();
    let process_ = process.clone();
    let retention = supervise(
        "retention",
        state.db.clone(),
        stopped.clone(),
        move |attempt, stopped| {
            let worker = WorkerBuilder::new(format!("retention-{process_}-{attempt}"))
                .backend(CronScheduler::new(retention_schedule.clone()))
                .data(retention_state.clone())
                .build(run_retention);
            Box::pin(worker.run_until(until_stopped(stopped)))
        },
    );
    let audit_state = state.clone();
    let process_ = process.clone();
    let audit = supervise(
        "audit-retention",
        state.db.clone(),
        stopped.clone(),
        move |attempt, stopped| {
            let worker = WorkerBuilder::new(format!("audit-retention-{process_}-{attempt}"))
                .backend(CronScheduler::new(audit_schedule.clone()))
                .data(audit_state.clone())
                .build(run_audit_retention);
            Box::pin(worker.run_until(until_stopped(stopped)))
        },
    );
    let digest_state = state.clone();
    let process_ = process.clone();
    let digest = supervise(
        "digests",
        state.db.clone(),
        stopped.clone(),
        move |attempt, stopped| {
            let worker = WorkerBuilder::new(format!("digests-{process_}-{attempt}"))
                .backend(CronScheduler::new(digest_schedule.clone()))
                .data(digest_state.clone())
                .build(run_digests);
            Box::pin(worker.run_until(until_stopped(stopped)))
        },
    );
    let webhook_state = state.clone();
    let process_ = process.clone();
    let webhooks = supervise(
        "webhooks",
        state.db.clone(),
        stopped.clone(),
        move |attempt, stopped| {
            let worker = WorkerBuilder::new(format!("webhooks-{process_}-{attempt}"))
                .backend(CronScheduler::new(webhook_schedule.clone()))
                .data(webhook_state.clone())
                .build(run_webhooks);
            Box::pin(worker.run_until(until_stopped(stopped)))
        },
    );
    let workers = tokio::spawn(async move {
        tokio::join!(summaries, sweep, retention, audit, digest, webhooks);
    });
    shutdown.await;
    let _ = stop.send(true);
    // Running jobs finish first, within bounds.
    if tokio::time::timeout(Duration::from_secs(30), workers)
        .await
        .is_err()
    {
        tracing::warn!("workers did not stop within 30 s");
    }
    Ok(())
}
