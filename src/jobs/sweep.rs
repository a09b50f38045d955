//! The quiet sweep: sessions left quiet for two hours (two hours exactly included) (explicit ones never closed included) are
//! closed, and their summary job is enqueued in the same transaction as each close.

use crate::db::{Db, Tenant, TenantTx};
use crate::error::Result;
use crate::sessions;
use chrono::{DateTime, Duration, Utc};

const BATCH: i32 = 500;

/// Closes every session quiet since before `now - quiet`; returns how many it closed. Safe to
/// run in several processes at once: a session is closed by exactly one of them.
#[tracing::instrument(skip_all)]
pub async fn close_quiet_sessions(db: &Db, now: DateTime<Utc>, quiet: Duration) -> Result<usize> {
    let cutoff = now - quiet;
    let mut closed = 0;
    loop {
        let found = sessions::quiet(db, cutoff, BATCH).await?;
        let mut progressed = false;
        for (account, session) in &found {
            let mut tx = TenantTx::begin(db, &Tenant::service(*account)).await?;
            if sessions::close_quiet(&mut tx, *session, cutoff, now).await? {
                closed += 1;
                progressed = true;
            }
            tx.commit().await?;
        }
        if found.len() < BATCH as usize || !progressed {
            return Ok(closed);
        }
    }
}
