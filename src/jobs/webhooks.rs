//! The delivery worker: each pass claims the due deliveries (`FOR UPDATE SKIP LOCKED`, leased;
//! see `webhooks::deliveries`), sends them concurrently, and settles each, until none is due.
//! Safe in several processes at once; a pass killed half-way loses nothing (its leases run out
//! and the next pass sends those deliveries again).

use super::WorkerState;
use crate::webhooks::deliveries::{self, Settled};
use crate::webhooks::send;

/// What one pass did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub delivered: usize,
    pub retried_or_failed: usize,
    pub disabled: usize,
    /// Old events deleted (see `webhooks::deliveries::KEPT_FOR`).
    pub pruned: u64,
}

/// How long past its timeout a claimed delivery stays leased: a worker that dies mid-delivery
/// holds it no longer than this.
const LEASE_MARGIN: chrono::Duration = chrono::Duration::seconds(30);

/// Delivers every due delivery now.
#[tracing::instrument(skip_all)]
pub async fn deliver_due(state: &WorkerState) -> sqlx::Result<Counts> {
    let config = &state.config.webhooks;
    let mut counts = Counts::default();
    loop {
        let now = state.clock.now();
        let timeout = chrono::Duration::from_std(config.timeout).unwrap_or_default();
        let lease = now + timeout + LEASE_MARGIN;
        let claimed = deliveries::claim(state.db.pool(), now, lease, config.batch).await?;
        if claimed.is_empty() {
            counts.pruned = deliveries::prune(state.db.pool(), now, 500).await?;
            return Ok(counts);
        }
        let attempts =
            futures_util::future::join_all(claimed.iter().map(|c| send::send(c, config))).await;
        let done = state.clock.now();
        for (claimed, attempt) in claimed.iter().zip(&attempts) {
            let settled = deliveries::settle(&state.db, claimed, attempt, done, config).await?;
            match (attempt.ok, settled) {
                (_, Settled::Lost) => {}
                (true, _) => counts.delivered += 1,
                (false, Settled::Disabled) => {
                    counts.retried_or_failed += 1;
                    counts.disabled += 1;
                }
                (false, _) => counts.retried_or_failed += 1,
            }
        }
    }
}
