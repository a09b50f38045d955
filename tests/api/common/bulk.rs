//! Many journal rows at once, inserted as the owner: enough for a read that pages (the
//! export reads 500 rows of a kind a statement) without thousands of requests.

use super::TestApp;
use chrono::{DateTime, Utc};
use uuid::Uuid;

/// `sessions` closed sessions of `account` made with `credential` (recorded with `scopes`),
/// each with `calls` calls, all started at `at` and their calls made at `at` plus one second:
/// equal times, so only the ids order them. Returns the sessions' ids.
pub async fn sessions_with_calls(
    app: &TestApp,
    account: Uuid,
    credential: Uuid,
    scopes: &[&str],
    sessions: i32,
    calls: i32,
    at: DateTime<Utc>,
) -> Vec<Uuid> {
    let ids: Vec<Uuid> = sqlx::query_scalar(
        "INSERT INTO journal_sessions (account_id, session_id, credential_id, kind, assistant, \
             scopes, goal, started_at, last_activity_at, ended_at, end_reason, journal_only) \
         SELECT $1, gen_random_uuid(), $2, 'explicit', 'bulk', $3, 'bulk goal ' || n, $4, \
             $4 + interval '1 second', $4 + interval '2 seconds', 'ended', false \
           FROM generate_series(1, $5) n RETURNING session_id",
    )
    .bind(account)
    .bind(credential)
    .bind(scopes)
    .bind(at)
    .bind(sessions)
    .fetch_all(&app.owner)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO journal_calls (account_id, call_id, session_id, credential_id, operation, \
             purpose, status, ok, wrote, journal_read, duration_ms, created_at) \
         SELECT $1, gen_random_uuid(), s, $2, 'appendRecordEntry', 'bulk call', 201, true, \
             true, false, 1, $4 + interval '1 second' \
           FROM unnest($3::uuid[]) s CROSS JOIN generate_series(1, $5) n",
    )
    .bind(account)
    .bind(credential)
    .bind(&ids)
    .bind(at)
    .bind(calls)
    .execute(&app.owner)
    .await
    .unwrap();
    ids
}
