//! Background jobs as rows: what the workers run, enqueued in the caller's own transaction so
//! the business change and its job commit together (or neither does). Stored in apalis-postgres's
//! `apalis.jobs`, claimed by workers with `FOR UPDATE SKIP LOCKED`.

use crate::error::{Error, Result};
use apalis::prelude::TaskBuilder;
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;
use uuid::Uuid;

pub const SUMMARIZE_QUEUE: &str = "n8v::summarize_session";
/// Attempts before apalis gives a job up (each failure is a database fault: providers never fail
/// a job, they fall back to the code summary).
pub const SUMMARIZE_MAX_ATTEMPTS: usize = 5;

/// Summarise one closed session, as it stood when it closed (`snapshot` = its call count then).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SummarizeSession {
    pub account_id: Uuid,
    pub session_id: Uuid,
    pub snapshot: i32,
}

/// Enqueues `job` on `conn` (the caller's transaction). The queue's only fault is its
/// statement's, kept as the database error it is; anything else apalis reports is internal.
pub async fn enqueue_summary(conn: &mut PgConnection, job: &SummarizeSession) -> Result<()> {
    let payload = serde_json::to_vec(job).map_err(|e| Error::Internal(e.into()))?;
    let task = TaskBuilder::new(payload)
        .max_attempts(SUMMARIZE_MAX_ATTEMPTS)
        .build();
    match apalis_postgres::queries::push_tasks(conn, SUMMARIZE_QUEUE, vec![task]).await {
        Ok(()) => Ok(()),
        Err(apalis_postgres::Error::Database(e)) => Err(e.into()),
        Err(e) => Err(Error::Internal(
            anyhow::Error::new(e).context("enqueueing a summary job"),
        )),
    }
}
