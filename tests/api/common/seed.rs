//! Rows in every tenant table: the catalog's list of tables that carry an `account_id`, and
//! the rows only the service's workers write (a month's summary budget, a week's digest, a
//! session's summary), inserted as the owner. The tenancy and account-deletion tests both seed
//! every table with them, so a new table is missed by neither.

use super::TestApp;
use uuid::Uuid;

/// Every table of the public schema with an `account_id` column, from the catalog.
pub async fn account_tables(owner: &sqlx::PgPool) -> Vec<String> {
    sqlx::query_scalar(
        "SELECT c.relname::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
          WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') \
            AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid \
                         AND a.attname = 'account_id' AND NOT a.attisdropped) \
          ORDER BY 1",
    )
    .fetch_all(owner)
    .await
    .unwrap()
}

/// The rows only the service writes for `account`: a summary budget, a week's digest, a
/// summary of `session` at `snapshot`, an open item `session` handed on (as the quiet sweep
/// opens them) with its source, an exposure seen in `session`, a dismissal of another
/// account's item, and a webhook endpoint with its secret, an event and its delivery (not due).
pub async fn worker_rows(app: &TestApp, account: Uuid, session: Uuid, snapshot: i32) {
    webhook_rows(app, account).await;
    sqlx::query(
        "WITH e AS (INSERT INTO journal_exposures (account_id, exposure_id, rule, fingerprint, \
             created_at) \
           VALUES ($1, gen_random_uuid(), 'github-pat', sha256(uuid_send($2)), now()) \
           RETURNING exposure_id) \
         INSERT INTO journal_exposure_sightings (account_id, exposure_id, session_id, field, \
             count, first_seen, last_seen) \
         SELECT $1, e.exposure_id, $2, 'purpose', 1, now(), now() FROM e",
    )
    .bind(account)
    .bind(session)
    .execute(&app.owner)
    .await
    .unwrap();
    // A summary run's lease and a part it stored (0036).
    sqlx::query(
        "INSERT INTO model_leases (account_id, subject, holder, lease_until) \
         VALUES ($1, 'summary:' || $2 || ':9', gen_random_uuid(), now())",
    )
    .bind(account)
    .bind(session)
    .execute(&app.owner)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO summary_parts (account_id, session_id, snapshot, part, summary, \
             input_tokens, output_tokens, cost_usd) VALUES ($1, $2, 9, 0, '{}', 0, 0, 0)",
    )
    .bind(account)
    .bind(session)
    .execute(&app.owner)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO summary_budget (account_id, month, spent_usd) VALUES ($1, '2026-11-01', 1)",
    )
    .bind(account)
    .execute(&app.owner)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO journal_digests (account_id, digest_id, period, period_start, period_end, \
             scopes, session_count, summary, model, created_at) \
         VALUES ($1, gen_random_uuid(), 'week', '2026-11-02', '2026-11-09', '{chats:read}', 1, \
             '{}', 'code', now())",
    )
    .bind(account)
    .execute(&app.owner)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO session_summaries (account_id, session_id, snapshot, summary, model, \
             input_tokens, output_tokens, cost_usd, created_at) \
         VALUES ($1, $2, $3, '{}', 'code', 0, 0, 0, now())",
    )
    .bind(account)
    .bind(session)
    .bind(snapshot)
    .execute(&app.owner)
    .await
    .unwrap();
    sqlx::query(
        "WITH item AS (INSERT INTO journal_loops (account_id, loop_id, kind, item_key, text, \
             stated, session_id, created_at) \
           VALUES ($1, gen_random_uuid(), 'question', 'who reviews it', 'Who reviews it?', \
             false, $2, now()) RETURNING loop_id), \
         source AS (INSERT INTO journal_loop_sources (account_id, loop_id, session_id, kind, \
             item_key, text, stated, created_at) \
           SELECT $1, loop_id, $2, 'question', 'who reviews it', 'Who reviews it?', false, now() \
             FROM item) \
         INSERT INTO journal_releases (account_id, loop_id, text, credential_id, released_at) \
         SELECT $1, loop_id, 'Who reviews it?', gen_random_uuid(), now() FROM item",
    )
    .bind(account)
    .bind(session)
    .execute(&app.owner)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO journal_loop_dismissals (account_id, loop_account_id, loop_id, \
             dismissed_at) VALUES ($1, gen_random_uuid(), gen_random_uuid(), now())",
    )
    .bind(account)
    .execute(&app.owner)
    .await
    .unwrap();
}

/// A webhook endpoint of `account`, its secret, an event and its delivery (due in a year).
async fn webhook_rows(app: &TestApp, account: Uuid) {
    sqlx::query(
        "WITH e AS (INSERT INTO webhook_endpoints (account_id, endpoint_id, url, events, \
             credential_id, scopes, repository_restricted, created_at, updated_at) \
           VALUES ($1, gen_random_uuid(), 'https://hooks.example.com/in', '{session.ended}', \
             gen_random_uuid(), '{chats:read}', false, now(), now()) RETURNING endpoint_id), \
         s AS (INSERT INTO webhook_secrets (account_id, endpoint_id, secret_id, secret, \
             created_at) SELECT $1, endpoint_id, gen_random_uuid(), 'whsec_c2VlZA==', now() \
             FROM e), \
         ev AS (INSERT INTO webhook_events (account_id, event_id, type, payload, created_at) \
           VALUES ($1, gen_random_uuid(), 'session.ended', '{}', now()) RETURNING event_id) \
         INSERT INTO webhook_deliveries (account_id, delivery_id, endpoint_id, \
             event_account_id, event_id, event_type, next_attempt_at, created_at) \
         SELECT $1, gen_random_uuid(), e.endpoint_id, $1, ev.event_id, 'session.ended', \
             now() + interval '1 year', now() FROM e, ev",
    )
    .bind(account)
    .execute(&app.owner)
    .await
    .unwrap();
}
