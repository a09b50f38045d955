//! Webhook endpoints: an account's own rows (`webhook_endpoints`, under row-level security),
//! and their secrets, added through `n8v_webhook_add_secret` and never read back.

use super::events::EventType;
use super::signing;
use crate::db::TenantTx;
use crate::error::{Error, Result};
use crate::ids::{Kind, WebhookId};
use chrono::{DateTime, Utc};
use serde::Serialize;
use uuid::Uuid;

pub const MAX_DESCRIPTION_CHARS: usize = 500;
/// Endpoints one account may have.
pub const MAX_ENDPOINTS: i64 = 20;

/// A webhook endpoint, as its account sees it (never its secret).
#[derive(Clone, Debug, Serialize, serde::Deserialize, utoipa::ToSchema)]
pub struct Webhook {
    pub id: WebhookId,
    /// Where events are sent (`https`).
    #[schema(example = "https://hooks.example.com/n8v")]
    pub url: String,
    /// The event types it is sent.
    #[schema(example = json!(["session.ended", "loop.opened"]))]
    pub events: Vec<String>,
    pub description: Option<String>,
    /// False once disabled (by a run of failed deliveries, or on purpose); nothing is sent to
    /// a disabled endpoint. `PATCH` with `"enabled": true` turns it on again.
    pub enabled: bool,
    pub disabled_at: Option<DateTime<Utc>>,
    /// Failed attempts in a row (reset by a success).
    pub failures: i32,
    /// True once the key that made it (whose reach is the endpoint's ceiling) is revoked:
    /// nothing is sent to it, and its deliveries pending then ended unsent. A live key of the
    /// account holding `webhooks:write` takes it over with `POST /api/v1/webhooks/{id}/maker`.
    pub maker_revoked: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

struct Row {
    endpoint_id: Uuid,
    url: String,
    events: Vec<String>,
    description: Option<String>,
    enabled: bool,
    disabled_at: Option<DateTime<Utc>>,
    failures: i32,
    maker_revoked: bool,
    created_at: DateTime<Utc>,
    updated_at: DateTime<Utc>,
}

impl From<Row> for Webhook {
    fn from(r: Row) -> Self {
        Self {
            id: WebhookId(r.endpoint_id),
            url: r.url,
            events: r.events,
            description: r.description,
            enabled: r.enabled,
            disabled_at: r.disabled_at,
            failures: r.failures,
            maker_revoked: r.maker_revoked,
            created_at: r.created_at,
            updated_at: r.updated_at,
        }
    }
}

/// The event names asked for, checked and without repeats (in the order of [`EventType::ALL`]).
pub fn events(names: &[String]) -> Result<Vec<String>> {
    if names.is_empty() {
        return Err(Error::BadRequest(
            "events must name at least one event type".into(),
        ));
    }
    let mut kinds = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let kind = EventType::parse(name.trim()).ok_or_else(|| {
            let known: Vec<_> = EventType::ALL.iter().map(|t| t.as_str()).collect();
            Error::BadRequest(format!(
                "events[{i}] {:?} is no event type; known: {}",
                crate::ids::shown(name),
                known.join(", ")
            ))
        })?;
        kinds.push(kind);
    }
    Ok(EventType::ALL
        .into_iter()
        .filter(|k| kinds.contains(k))
        .map(|k| k.as_str().to_owned())
        .collect())
}

/// A description: trimmed, scrubbed, at most [`MAX_DESCRIPTION_CHARS`]; empty is none. One
/// line without control characters, as every other stored one-line text (a NUL, which
/// PostgreSQL text cannot hold, among them): a 400, never a 500.
pub fn description(text: Option<&str>) -> Result<Option<String>> {
    let Some(text) = text.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    if text.chars().count() > MAX_DESCRIPTION_CHARS {
        return Err(Error::BadRequest(format!(
            "description is longer than {MAX_DESCRIPTION_CHARS} characters"
        )));
    }
    if text.chars().any(char::is_control) {
        return Err(Error::BadRequest(
            "description must be one line without control characters (a NUL, a newline…)".into(),
        ));
    }
    Ok(Some(crate::scrub::scrub(text).into_owned()))
}

/// What a new endpoint is.
pub struct NewEndpoint {
    pub url: String,
    pub events: Vec<String>,
    pub description: Option<String>,
}

/// Makes an endpoint for the acting credential, and its first secret (returned, shown once).
pub async fn create(
    tx: &mut TenantTx,
    new: NewEndpoint,
    now: DateTime<Utc>,
) -> Result<(Webhook, String)> {
    let count = sqlx::query_scalar!(
        r#"SELECT count(*) AS "n!" FROM webhook_endpoints WHERE account_id = n8v_account()"#
    )
    .fetch_one(tx.conn())
    .await?;
    if count >= MAX_ENDPOINTS {
        return Err(Error::Conflict(format!(
            "this account has {count} webhook endpoints, the most it may have; delete one first"
        )));
    }
    let row = sqlx::query_as!(
        Row,
        r#"INSERT INTO webhook_endpoints (account_id, endpoint_id, url, events, description,
             credential_id, scopes, repository_restricted, created_at, updated_at)
         VALUES (n8v_account(), $1, $2, $3, $4, n8v_credential(), n8v_scopes(),
                 n8v_repository() IS NOT NULL, $5, $5)
         RETURNING endpoint_id, url, events, description, enabled, disabled_at, failures,
                   NOT n8v_webhook_maker_live(credential_id) AS "maker_revoked!",
                   created_at, updated_at"#,
        crate::ids::new_id(),
        new.url,
        &new.events,
        new.description,
        now
    )
    .fetch_one(tx.conn())
    .await?;
    let webhook = Webhook::from(row);
    let secret = add_secret(tx, webhook.id, now, None).await?;
    Ok((webhook, secret))
}

/// A new secret for `id`; the ones before it keep signing until `expires`.
pub async fn add_secret(
    tx: &mut TenantTx,
    id: WebhookId,
    now: DateTime<Utc>,
    expires: Option<DateTime<Utc>>,
) -> Result<String> {
    let secret = signing::generate();
    let added = sqlx::query_scalar!(
        r#"SELECT n8v_webhook_add_secret($1, $2, $3, $4, $5) AS "added!""#,
        id.0,
        crate::ids::new_id(),
        secret,
        now,
        expires
    )
    .fetch_one(tx.conn())
    .await?;
    if !added {
        return Err(not_found(id));
    }
    Ok(secret)
}

pub fn not_found(id: WebhookId) -> Error {
    Error::not_found(Kind::Webhook, &id.to_string())
}

/// The account's endpoints, oldest first.
pub async fn list(tx: &mut TenantTx) -> Result<Vec<Webhook>> {
    let rows = sqlx::query_as!(
        Row,
        r#"SELECT endpoint_id, url, events, description, enabled, disabled_at, failures,
                NOT n8v_webhook_maker_live(credential_id) AS "maker_revoked!",
                created_at, updated_at
           FROM webhook_endpoints WHERE account_id = n8v_account()
          ORDER BY created_at, endpoint_id"#
    )
    .fetch_all(tx.conn())
    .await?;
    Ok(rows.into_iter().map(Webhook::from).collect())
}

pub async fn get(tx: &mut TenantTx, id: WebhookId) -> Result<Webhook> {
    let row = sqlx::query_as!(
        Row,
        r#"SELECT endpoint_id, url, events, description, enabled, disabled_at, failures,
                NOT n8v_webhook_maker_live(credential_id) AS "maker_revoked!",
                created_at, updated_at
           FROM webhook_endpoints WHERE account_id = n8v_account() AND endpoint_id = $1"#,
        id.0
    )
    .fetch_optional(tx.conn())
    .await?;
    row.map(Webhook::from).ok_or_else(|| not_found(id))
}

/// What a `PATCH` changes; `None` leaves a field as it is.
#[derive(Default)]
pub struct Changes {
    pub url: Option<String>,
    pub events: Option<Vec<String>>,
    /// `Some(None)` removes the description.
    pub description: Option<Option<String>>,
    pub enabled: Option<bool>,
}

pub async fn update(
    tx: &mut TenantTx,
    id: WebhookId,
    changes: Changes,
    now: DateTime<Utc>,
) -> Result<Webhook> {
    let row = sqlx::query_as!(
        Row,
        r#"UPDATE webhook_endpoints SET
             url = COALESCE($2, url),
             events = COALESCE($3, events),
             description = CASE WHEN $4 THEN $5 ELSE description END,
             enabled = COALESCE($6, enabled),
             disabled_at = CASE WHEN $6 IS NULL THEN disabled_at
                                WHEN $6 THEN NULL ELSE COALESCE(disabled_at, $7) END,
             failures = CASE WHEN $6 THEN 0 ELSE failures END,
             updated_at = $7
         WHERE account_id = n8v_account() AND endpoint_id = $1
         RETURNING endpoint_id, url, events, description, enabled, disabled_at, failures,
                   NOT n8v_webhook_maker_live(credential_id) AS "maker_revoked!",
                   created_at, updated_at"#,
        id.0,
        changes.url,
        changes.events.as_deref(),
        changes.description.is_some(),
        changes.description.flatten(),
        changes.enabled,
        now
    )
    .fetch_optional(tx.conn())
    .await?;
    row.map(Webhook::from).ok_or_else(|| not_found(id))
}

/// Makes the acting credential the endpoint's maker: its scopes and repository restriction
/// become the endpoint's ceiling, as when an endpoint is made ([`create`]). How an endpoint
/// whose maker was revoked is sent events again; deliveries already ended stay so.
pub async fn hand_to_caller(
    tx: &mut TenantTx,
    id: WebhookId,
    now: DateTime<Utc>,
) -> Result<Webhook> {
    let row = sqlx::query_as!(
        Row,
        r#"UPDATE webhook_endpoints SET credential_id = n8v_credential(), scopes = n8v_scopes(),
               repository_restricted = n8v_repository() IS NOT NULL, updated_at = $2
         WHERE account_id = n8v_account() AND endpoint_id = $1
         RETURNING endpoint_id, url, events, description, enabled, disabled_at, failures,
                   NOT n8v_webhook_maker_live(credential_id) AS "maker_revoked!",
                   created_at, updated_at"#,
        id.0,
        now
    )
    .fetch_optional(tx.conn())
    .await?;
    row.map(Webhook::from).ok_or_else(|| not_found(id))
}

/// Deletes an endpoint with its secrets and deliveries.
pub async fn delete(tx: &mut TenantTx, id: WebhookId) -> Result<WebhookId> {
    let gone = sqlx::query_scalar!(
        "DELETE FROM webhook_endpoints WHERE account_id = n8v_account() AND endpoint_id = $1
         RETURNING endpoint_id",
        id.0
    )
    .fetch_optional(tx.conn())
    .await?;
    gone.map(WebhookId).ok_or_else(|| not_found(id))
}
