//! Whether the background workers of this process are running, for `/readyz`. The workers
//! report here ([`crate::jobs`]); the HTTP layer reads it through [`crate::db::Db`], which both
//! share. A process that runs no workers (`api`) reports none, and is ready without them.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WorkerStatus {
    Running,
    /// Failed `failures` times in a row; the next attempt is at `retry_at`.
    Restarting {
        failures: u32,
        retry_at: Instant,
    },
    /// Stopped for shutdown.
    Stopped,
}

#[derive(Default, Debug)]
pub struct Liveness {
    workers: Mutex<BTreeMap<String, WorkerStatus>>,
}

impl Liveness {
    pub fn set(&self, worker: &str, status: WorkerStatus) {
        let mut workers = self.workers.lock().unwrap_or_else(|e| e.into_inner());
        workers.insert(worker.to_owned(), status);
    }

    /// Every worker that is not running, described for an operator (no error text: `/readyz`
    /// is public; the cause is in the log).
    pub fn not_running(&self) -> Vec<String> {
        let workers = self.workers.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        workers
            .iter()
            .filter_map(|(name, status)| match status {
                WorkerStatus::Running => None,
                WorkerStatus::Stopped => Some(format!("worker {name} is stopped")),
                WorkerStatus::Restarting { failures, retry_at } => {
                    let wait = retry_at.saturating_duration_since(now);
                    Some(format!(
                        "worker {name} is not running: it failed {failures} time(s) in a row \
                         and restarts in {} s (see the log)",
                        wait.as_secs() + u64::from(wait > Duration::from_secs(wait.as_secs()))
                    ))
                }
            })
            .collect()
    }
}
