//! Deliveries: one event to one endpoint. Listed by the endpoint's account (tenant work, under
//! row-level security); claimed by the workers on the owner's connection, across accounts
//! (sending needs the secrets, which no tenant transaction reads), and settled as the service's
//! own work for the endpoint's account, in a tenant transaction.
//!
//! A worker claims due deliveries with `FOR UPDATE SKIP LOCKED` and leases them (commits
//! `leased_until`) before it sends anything, so workers in several processes never send one
//! delivery at once, and a worker killed mid-delivery leaves a lease that runs out: the next
//! worker sends it again, with the same `webhook-id`. A result is recorded only while the lease
//! is still the worker's.

use super::events::{self, Event};
use super::payloads::EndpointDisabled;
use crate::config::WebhookConfig;
use crate::cursor::Cursor;
use crate::db::{Db, Tenant, TenantTx};
use crate::error::{Error, Result};
use crate::ids::{DeliveryId, EventId, WebhookId};
use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::PgPool;
use uuid::Uuid;

pub const MAX_DELIVERIES_PAGE: i64 = 100;
pub const MAX_EXCERPT_CHARS: usize = 200;

/// One event's delivery to an endpoint.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct Delivery {
    pub id: DeliveryId,
    /// The event: the `webhook-id` every attempt carried.
    pub event: EventId,
    #[schema(example = "session.ended")]
    pub event_type: String,
    /// `pending` (to be tried, again or for the first time), `delivered` (a 2xx came back)
    /// or `failed` (every attempt failed).
    #[schema(example = "delivered")]
    pub status: String,
    pub attempts: i32,
    /// When it is tried next (`pending` only).
    pub next_attempt_at: Option<DateTime<Utc>>,
    pub last_attempt_at: Option<DateTime<Utc>>,
    /// The receiver's last HTTP status; absent when no answer came (refused, unreachable,
    /// timed out).
    pub last_status: Option<i32>,
    /// At most 200 characters of the receiver's last answer, or of why there was none,
    /// scrubbed.
    pub last_excerpt: Option<String>,
    pub delivered_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

struct Row {
    delivery_id: Uuid,
    event_id: Uuid,
    event_type: String,
    status: String,
    attempts: i32,
    next_attempt_at: DateTime<Utc>,
    last_attempt_at: Option<DateTime<Utc>>,
    last_status: Option<i32>,
    last_excerpt: Option<String>,
    delivered_at: Option<DateTime<Utc>>,
    created_at: DateTime<Utc>,
}

impl From<Row> for Delivery {
    fn from(r: Row) -> Self {
        Self {
            id: DeliveryId(r.delivery_id),
            event: EventId(r.event_id),
            event_type: r.event_type,
            next_attempt_at: (r.status == "pending").then_some(r.next_attempt_at),
            status: r.status,
            attempts: r.attempts,
            last_attempt_at: r.last_attempt_at,
            last_status: r.last_status,
            last_excerpt: r.last_excerpt,
            delivered_at: r.delivered_at,
            created_at: r.created_at,
        }
    }
}

/// A page of an endpoint's deliveries, newest first.
pub struct Page {
    pub deliveries: Vec<Delivery>,
    pub next_cursor: Option<String>,
}

pub async fn list(
    tx: &mut TenantTx,
    endpoint: WebhookId,
    limit: i64,
    cursor: Option<Cursor>,
) -> Result<Page> {
    super::endpoints::get(tx, endpoint).await?;
    let (at, id) = cursor.map_or((None, None), |c| (Some(c.at), Some(c.id)));
    let mut rows = sqlx::query_as!(
        Row,
        r#"SELECT delivery_id, event_id, event_type, status, attempts, next_attempt_at,
                  last_attempt_at, last_status, last_excerpt, delivered_at, created_at
             FROM webhook_deliveries
            WHERE account_id = n8v_account() AND endpoint_id = $1
              AND ($2::timestamptz IS NULL OR (created_at, delivery_id) < ($2, $3))
            ORDER BY created_at DESC, delivery_id DESC LIMIT $4"#,
        endpoint.0,
        at,
        id,
        limit + 1
    )
    .fetch_all(tx.conn())
    .await?;
    let next_cursor = if rows.len() as i64 > limit {
        rows.truncate(limit as usize);
        rows.last().map(|r| {
            Cursor {
                at: r.created_at,
                id: r.delivery_id,
            }
            .encode()
        })
    } else {
        None
    };
    Ok(Page {
        deliveries: rows.into_iter().map(Delivery::from).collect(),
        next_cursor,
    })
}

/// A claimed delivery, with what sending it needs.
pub struct Claimed {
    pub account_id: Uuid,
    pub delivery_id: Uuid,
    pub endpoint_id: Uuid,
    pub event_id: Uuid,
    pub attempts: i32,
    pub url: String,
    pub body: serde_json::Value,
    /// The secrets still signing, newest first.
    pub secrets: Vec<String>,
    pub leased_until: DateTime<Utc>,
}

/// Claims up to `batch` due deliveries of enabled endpoints whose maker is live, leased until
/// `lease`. (Revoking a maker ends its endpoints' pending deliveries, 0029; the check here
/// keeps one that escaped that, made while the revocation committed, from being sent.)
#[tracing::instrument(skip_all, err)]
pub async fn claim(
    pool: &PgPool,
    now: DateTime<Utc>,
    lease: DateTime<Utc>,
    batch: i64,
) -> sqlx::Result<Vec<Claimed>> {
    let rows = sqlx::query!(
        r#"WITH due AS (
               SELECT d.account_id, d.delivery_id FROM webhook_deliveries d
                 JOIN webhook_endpoints e
                   ON e.account_id = d.account_id AND e.endpoint_id = d.endpoint_id
                WHERE d.status = 'pending' AND d.next_attempt_at <= $1
                  AND (d.leased_until IS NULL OR d.leased_until <= $1) AND e.enabled
                  AND EXISTS (SELECT 1 FROM credentials m
                               WHERE m.account_id = e.account_id
                                 AND m.credential_id = e.credential_id AND m.revoked_at IS NULL)
                ORDER BY d.next_attempt_at LIMIT $3
                  FOR UPDATE OF d SKIP LOCKED),
           claimed AS (
               UPDATE webhook_deliveries d SET leased_until = $2, attempts = d.attempts + 1,
                      last_attempt_at = $1
                 FROM due
                WHERE d.account_id = due.account_id AND d.delivery_id = due.delivery_id
               RETURNING d.*)
           SELECT c.account_id AS "account_id!", c.delivery_id AS "delivery_id!",
                  c.endpoint_id AS "endpoint_id!", c.event_id AS "event_id!",
                  c.attempts AS "attempts!", e.url AS "url!", ev.payload AS "payload!",
                  ARRAY(SELECT s.secret FROM webhook_secrets s
                         WHERE s.account_id = c.account_id AND s.endpoint_id = c.endpoint_id
                           AND (s.expires_at IS NULL OR s.expires_at > $1)
                         ORDER BY s.created_at DESC, s.secret_id DESC) AS "secrets!"
             FROM claimed c
             JOIN webhook_endpoints e
               ON e.account_id = c.account_id AND e.endpoint_id = c.endpoint_id
             JOIN webhook_events ev
               ON ev.account_id = c.event_account_id AND ev.event_id = c.event_id"#,
        now,
        lease,
        batch
    )
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| Claimed {
            account_id: r.account_id,
            delivery_id: r.delivery_id,
            endpoint_id: r.endpoint_id,
            event_id: r.event_id,
            attempts: r.attempts,
            url: r.url,
            body: r.payload,
            secrets: r.secrets,
            leased_until: lease,
        })
        .collect())
}

/// What one attempt came to.
pub struct Attempt {
    pub ok: bool,
    pub status: Option<u16>,
    pub excerpt: String,
}

/// What recording an attempt did to the endpoint.
#[derive(Debug, PartialEq, Eq)]
pub enum Settled {
    /// The lease ran out first: another worker owns the delivery now; nothing recorded.
    Lost,
    Recorded,
    /// This failure disabled the endpoint.
    Disabled,
}

/// Records `attempt` of `claimed` while its lease is still this worker's: delivered, or tried
/// again later (backoff), or failed for good after the last attempt; and the endpoint's run of
/// failures, disabling it (with an `endpoint.disabled` event) at the limit. Tenant work: a
/// transaction acting for the endpoint's account (the service's own), so the event is written
/// as every event is ([`events::emit`]) and the policies keep it to that account.
#[tracing::instrument(skip_all, err)]
pub async fn settle(
    db: &Db,
    claimed: &Claimed,
    attempt: &Attempt,
    now: DateTime<Utc>,
    config: &WebhookConfig,
) -> sqlx::Result<Settled> {
    let mut tx = TenantTx::begin(db, &Tenant::service(claimed.account_id)).await?;
    let wait = chrono::Duration::from_std(config.retry_wait(claimed.attempts))
        .unwrap_or(chrono::Duration::hours(10));
    let next = now + wait;
    let excerpt = excerpt(&attempt.excerpt);
    let status = attempt.status.map(i32::from);
    let kept = sqlx::query_scalar!(
        r#"UPDATE webhook_deliveries SET leased_until = NULL, last_status = $3, last_excerpt = $4,
               status = CASE WHEN $2 THEN 'delivered'
                             WHEN attempts >= $6 THEN 'failed' ELSE 'pending' END,
               delivered_at = CASE WHEN $2 THEN $5::timestamptz END,
               next_attempt_at = CASE WHEN $2 THEN next_attempt_at ELSE $7 END
            WHERE account_id = n8v_account() AND delivery_id = $1 AND leased_until = $8
           RETURNING delivery_id"#,
        claimed.delivery_id,
        attempt.ok,
        status,
        excerpt,
        now,
        config.max_attempts,
        next,
        claimed.leased_until
    )
    .fetch_optional(tx.conn())
    .await?;
    if kept.is_none() {
        return Ok(Settled::Lost);
    }
    let settled = endpoint_run(&mut tx, claimed, attempt.ok, now, config).await?;
    tx.commit().await?;
    Ok(settled)
}

/// The endpoint's run of failures after this attempt; disabled at the limit, and told of
/// (`endpoint.disabled`, to the account's other endpoints that ask for it).
async fn endpoint_run(
    tx: &mut TenantTx,
    claimed: &Claimed,
    ok: bool,
    now: DateTime<Utc>,
    config: &WebhookConfig,
) -> sqlx::Result<Settled> {
    let disabled = sqlx::query!(
        r#"UPDATE webhook_endpoints SET
               failures = CASE WHEN $2 THEN 0 ELSE failures + 1 END,
               enabled = enabled AND ($2 OR failures + 1 < $3),
               disabled_at = CASE WHEN enabled AND NOT $2 AND failures + 1 >= $3 THEN $4
                                  ELSE disabled_at END
            WHERE account_id = n8v_account() AND endpoint_id = $1
           RETURNING url, failures, (disabled_at = $4 AND NOT enabled) AS "now_disabled!""#,
        claimed.endpoint_id,
        ok,
        config.disable_after,
        now
    )
    .fetch_optional(tx.conn())
    .await?;
    let Some(row) = disabled.filter(|r| r.now_disabled) else {
        return Ok(Settled::Recorded);
    };
    tracing::warn!(endpoint = %WebhookId(claimed.endpoint_id), failures = row.failures,
        "webhook endpoint disabled after a run of failures");
    let disabled = EndpointDisabled {
        webhook: WebhookId(claimed.endpoint_id),
        url: row.url,
        failures: row.failures,
        disabled_at: now,
    };
    events::emit(tx, Event::EndpointDisabled(disabled), now).await?;
    Ok(Settled::Disabled)
}

/// How long an event is kept once none of its deliveries is pending: its body holds a
/// session's words, which should not outlive the session by much (its deliveries go with it).
pub const KEPT_FOR: chrono::Duration = chrono::Duration::days(30);

/// Why a disabled endpoint's delivery ended without being sent (its `last_excerpt`).
pub const ENDED_DISABLED: &str =
    "not sent: the endpoint stayed disabled until the event was 30 days old";

/// Why a delivery ended unsent when its endpoint's maker was revoked (its `last_excerpt`; the
/// same text as migration 0029's).
pub const ENDED_MAKER_REVOKED: &str = "not sent: the key that made the endpoint was revoked";

/// Deletes the events older than [`KEPT_FOR`] with no pending delivery (their deliveries go
/// with them), at most `batch` of them; returns how many. A disabled endpoint's deliveries of
/// such events end first, as failed with the reason ([`ENDED_DISABLED`]): nothing is sent to it
/// while it is disabled, so they would otherwise keep its events for as long as it stays so.
/// (Turned on again within the 30 days, it is sent what is still pending.) So do those of an
/// endpoint whose maker is revoked ([`ENDED_MAKER_REVOKED`]), should one have escaped the
/// revocation's own ending of them.
#[tracing::instrument(skip_all, err)]
pub async fn prune(pool: &PgPool, now: DateTime<Utc>, batch: i64) -> sqlx::Result<u64> {
    let cutoff = now - KEPT_FOR;
    sqlx::query!(
        "WITH ended AS (
             SELECT d.account_id, d.delivery_id,
                    NOT EXISTS (SELECT 1 FROM credentials m
                                 WHERE m.account_id = e.account_id
                                   AND m.credential_id = e.credential_id
                                   AND m.revoked_at IS NULL) AS maker_revoked
               FROM webhook_deliveries d, webhook_endpoints e, webhook_events v
              WHERE d.status = 'pending'
                AND e.account_id = d.account_id AND e.endpoint_id = d.endpoint_id
                AND v.account_id = d.event_account_id AND v.event_id = d.event_id
                AND v.created_at < $1)
         UPDATE webhook_deliveries d SET status = 'failed', leased_until = NULL,
                last_status = NULL,
                last_excerpt = CASE WHEN ended.maker_revoked THEN $3 ELSE $2 END
           FROM ended, webhook_endpoints e
          WHERE d.account_id = ended.account_id AND d.delivery_id = ended.delivery_id
            AND e.account_id = d.account_id AND e.endpoint_id = d.endpoint_id
            AND (NOT e.enabled OR ended.maker_revoked)",
        cutoff,
        ENDED_DISABLED,
        ENDED_MAKER_REVOKED
    )
    .execute(pool)
    .await?;
    let done = sqlx::query!(
        "DELETE FROM webhook_events e
          WHERE (e.account_id, e.event_id) IN (
                SELECT v.account_id, v.event_id FROM webhook_events v
                 WHERE v.created_at < $1
                   AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d
                                    WHERE d.event_account_id = v.account_id
                                      AND d.event_id = v.event_id AND d.status = 'pending')
                 LIMIT $2)",
        cutoff,
        batch
    )
    .execute(pool)
    .await?;
    Ok(done.rows_affected())
}

/// At most [`MAX_EXCERPT_CHARS`] of `text`, scrubbed.
pub fn excerpt(text: &str) -> Option<String> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    let scrubbed = crate::scrub::scrub(text);
    Some(scrubbed.chars().take(MAX_EXCERPT_CHARS).collect())
}

/// `limit` and `cursor` of a deliveries page, checked.
pub fn page_args(limit: Option<i64>, cursor: Option<&str>) -> Result<(i64, Option<Cursor>)> {
    let limit = limit.unwrap_or(20);
    if !(1..=MAX_DELIVERIES_PAGE).contains(&limit) {
        return Err(Error::BadRequest(format!(
            "limit must be between 1 and {MAX_DELIVERIES_PAGE}"
        )));
    }
    let cursor = cursor
        .map(Cursor::decode)
        .transpose()
        .map_err(Error::BadRequest)?;
    Ok((limit, cursor))
}
