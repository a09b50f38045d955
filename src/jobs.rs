//! The workers: summaries of closed sessions (apalis on PostgreSQL, claimed with SKIP LOCKED),
//! and the cron passes — the quiet-session sweep, retention and caps, audit retention — each
//! idempotent, so every replica may run them.

pub mod digests;
pub mod summary;
pub mod sweep;
pub mod webhooks;

use crate::config::Config;
use crate::db::Db;
use crate::liveness::WorkerStatus;
use crate::queue::{SUMMARIZE_QUEUE, SummarizeSession};
use crate::retention;
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
pub async fn sweep(state: &WorkerState) -> crate::error::Result<usize> {
    sweep::close_quiet_sessions(
        &state.db,
        state.clock.now(),
        state.config.summaries.quiet_after,
    )
    .await
}

/// A cron pass's result, with its outcome recorded for the job metrics and its counts logged.
fn pass<T, E>(job: &'static str, result: Result<T, E>) -> Result<T, BoxDynError>
where
    T: std::fmt::Debug,
    E: std::error::Error + Send + Sync + 'static,
{
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

/// The cron passes, each run by a worker of its own on its own schedule.
#[derive(Clone, Copy, Debug)]
enum CronJob {
    Sweep,
    Retention,
    AuditRetention,
    Digests,
    Webhooks,
}

impl CronJob {
    const ALL: [CronJob; 5] = [
        CronJob::Sweep,
        CronJob::Retention,
        CronJob::AuditRetention,
        CronJob::Digests,
        CronJob::Webhooks,
    ];

    /// The worker's name (liveness, logs).
    fn worker(self) -> &'static str {
        match self {
            CronJob::Sweep => "quiet-sweep",
            CronJob::Retention => "retention",
            CronJob::AuditRetention => "audit-retention",
            CronJob::Digests => "digests",
            CronJob::Webhooks => "webhooks",
        }
    }

    fn schedule(self, config: &Config) -> &str {
        match self {
            CronJob::Sweep => &config.summaries.sweep_schedule,
            CronJob::Retention => &config.lifecycle.retention_schedule,
            CronJob::AuditRetention => &config.lifecycle.audit_retention_schedule,
            CronJob::Digests => &config.lifecycle.digest_schedule,
            CronJob::Webhooks => &config.webhooks.schedule,
        }
    }
}

/// One tick of a cron pass: the pass, its outcome in the job metrics, its counts logged.
async fn run_cron(
    _tick: Tick,
    state: Data<WorkerState>,
    job: Data<CronJob>,
) -> Result<(), BoxDynError> {
    match *job {
        CronJob::Sweep => {
            let closed = pass("quiet_sweep", sweep(&state).await)?;
            crate::telemetry::sessions_closed("quiet", closed as u64);
        }
        CronJob::Retention => pass("retention", retention(&state).await).map(drop)?,
        CronJob::AuditRetention => {
            pass("audit_retention", audit_retention(&state).await).map(drop)?
        }
        CronJob::Digests => pass("digests", digests::roll_up(&state).await).map(drop)?,
        CronJob::Webhooks => {
            let counts = webhooks::deliver_due(&state).await;
            // Nothing was due: no log line every two seconds.
            if !matches!(&counts, Ok(c) if c == &webhooks::Counts::default()) {
                pass("webhooks", counts).map(drop)?;
            }
        }
    }
    Ok(())
}

/// `job` as a supervised worker ticking on its schedule.
fn cron_worker(
    job: CronJob,
    state: &WorkerState,
    process: &str,
    stopped: &tokio::sync::watch::Receiver<bool>,
) -> anyhow::Result<impl std::future::Future<Output = ()> + use<>> {
    let text = job.schedule(&state.config);
    let schedule = cron::Schedule::from_str(text)
        .map_err(|e| anyhow::anyhow!("the {} schedule {text:?}: {e}", job.worker()))?;
    let (state, process) = (state.clone(), process.to_owned());
    Ok(supervise(
        job.worker(),
        state.db.clone(),
        stopped.clone(),
        move |attempt, stopped| {
            let worker = WorkerBuilder::new(format!("{}-{process}-{attempt}", job.worker()))
                .backend(CronScheduler::new(schedule.clone()))
                .data(state.clone())
                .data(job)
                .build(run_cron);
            Box::pin(worker.run_until(until_stopped(stopped)))
        },
    ))
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
    let crons = CronJob::ALL
        .into_iter()
        .map(|job| cron_worker(job, &state, &process, &stopped))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let workers = tokio::spawn(async move {
        tokio::join!(summaries, futures_util::future::join_all(crons));
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
