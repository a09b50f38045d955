//! Webhook endpoints' operations: make, list, read, change, delete, rotate the secret, list the
//! deliveries, hand an endpoint to the calling key. All need `webhooks:write` (an endpoint
//! hears of the account's journal, and its secret is shown once). Each input is the one type the request deserializes into and the
//! OpenAPI document describes. See `webhooks` for what an endpoint is told and when.

use super::{Op, Operation, Services, Target, named, target_of};
use crate::auth::Scope;
use crate::error::{Error, Result};
use crate::ids::WebhookId;
use crate::operation::{Effect, JournalUse, Refusal, Spec};
use crate::webhooks::address;
use crate::webhooks::deliveries::{self, Delivery};
use crate::webhooks::endpoints::{self, Changes, NewEndpoint, Webhook};
use serde::{Deserialize, Serialize};

const fn spec(id: &'static str, title: &'static str, creates: bool, effect: Effect) -> Spec {
    Spec {
        id,
        tool: None,
        journal: JournalUse::None,
        scopes: &[Scope::WebhooksWrite],
        needs_journal: false,
        creates,
        title,
        effect,
        errors: &[],
    }
}

/// The not-found of every operation on one endpoint.
const NO_ENDPOINT: Refusal = Refusal::not_found("no webhook endpoint with this id in this account");

/// `url` in its normal form, after the address checks.
async fn checked_url(url: &str, services: &Services) -> Result<String> {
    address::check(url, services.config.webhooks.allow_private)
        .await
        .map_err(Error::BadRequest)
}

/// Make a webhook endpoint.
#[derive(Debug, Clone, Deserialize, Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"url": "https://hooks.example.com/n8v",
    "events": ["session.ended", "loop.opened"], "description": "team channel"}))]
pub struct CreateWebhook {
    /// Where to send events: an `https` URL on a public address.
    #[schema(max_length = 2000)]
    pub url: String,
    /// The event types to send: `session.ended`, `summary.ready`, `loop.opened`,
    /// `loop.closed`, `decision.replaced`, `exposure.seen`, `digest.ready`,
    /// `endpoint.disabled`.
    #[schema(min_items = 1)]
    pub events: Vec<String>,
    #[schema(max_length = 500)]
    pub description: Option<String>,
}

/// A new endpoint, with its signing secret: shown this once.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct CreatedWebhook {
    #[serde(flatten)]
    pub webhook: Webhook,
    /// The signing secret (`whsec_…`), for the Standard Webhooks libraries. Never shown again.
    pub secret: String,
}

impl Op for CreateWebhook {
    const SPEC: Spec = Spec {
        errors: &[
            Refusal::bad_request("a URL that is not https, not public or does not resolve"),
            Refusal::bad_request("an unknown event type"),
            Refusal::bad_request("a description too long"),
            Refusal::conflict("the account has as many endpoints as it may"),
        ],
        ..spec(
            "createWebhook",
            "Make a webhook endpoint",
            true,
            Effect::Writes { idempotent: false },
        )
    };
    type Output = CreatedWebhook;

    async fn run(self, op: &mut Operation, services: &Services) -> Result<CreatedWebhook> {
        let url = checked_url(&self.url, services).await?;
        let new = NewEndpoint {
            url,
            events: endpoints::events(&self.events)?,
            description: endpoints::description(self.description.as_deref())?,
        };
        let now = op.now();
        let (webhook, secret) = endpoints::create(op.tx(), new, now).await?;
        op.results([webhook.id.to_string()], None);
        op.wrote();
        Ok(CreatedWebhook { webhook, secret })
    }
}

/// List the account's webhook endpoints.
#[derive(Debug, Clone, Default)]
pub struct ListWebhooks;

#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct WebhookList {
    /// Oldest first.
    pub webhooks: Vec<Webhook>,
}

impl Op for ListWebhooks {
    const SPEC: Spec = spec(
        "listWebhooks",
        "List webhook endpoints",
        false,
        Effect::Reads,
    );
    type Output = WebhookList;

    async fn run(self, op: &mut Operation, _: &Services) -> Result<WebhookList> {
        let webhooks = endpoints::list(op.tx()).await?;
        op.results(
            webhooks.iter().map(|w| w.id.to_string()),
            Some(webhooks.len()),
        );
        Ok(WebhookList { webhooks })
    }
}

/// Read one webhook endpoint.
#[derive(Debug, Clone, Default)]
pub struct GetWebhook {
    pub webhook: String,
}

impl Op for GetWebhook {
    const SPEC: Spec = Spec {
        errors: &[NO_ENDPOINT],
        ..spec(
            "getWebhook",
            "Read a webhook endpoint",
            false,
            Effect::Reads,
        )
    };
    type Output = Webhook;

    fn targets(&self) -> Vec<Target> {
        vec![target_of::<WebhookId>(&self.webhook)]
    }

    async fn run(self, op: &mut Operation, _: &Services) -> Result<Webhook> {
        let webhook = endpoints::get(op.tx(), named::<WebhookId>(&self.webhook)?).await?;
        op.results([webhook.id.to_string()], None);
        Ok(webhook)
    }
}

/// Change a webhook endpoint: only the fields sent change.
#[derive(Debug, Clone, Default, Deserialize, Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"events": ["session.ended"], "enabled": true}))]
pub struct UpdateWebhook {
    /// The endpoint (from the path).
    #[serde(skip)]
    #[schema(ignore)]
    pub webhook: String,
    #[schema(max_length = 2000)]
    pub url: Option<String>,
    #[schema(min_items = 1)]
    pub events: Option<Vec<String>>,
    /// An empty string removes it.
    #[schema(max_length = 500)]
    pub description: Option<String>,
    /// `true` turns a disabled endpoint on again (its run of failures starts over, and its
    /// pending deliveries go out); `false` stops deliveries to it.
    pub enabled: Option<bool>,
}

impl Op for UpdateWebhook {
    const SPEC: Spec = Spec {
        errors: &[
            Refusal::bad_request("a refused URL"),
            Refusal::bad_request("an unknown event type"),
            NO_ENDPOINT,
        ],
        ..spec(
            "updateWebhook",
            "Change a webhook endpoint",
            false,
            Effect::Writes { idempotent: true },
        )
    };
    type Output = Webhook;

    fn targets(&self) -> Vec<Target> {
        vec![target_of::<WebhookId>(&self.webhook)]
    }

    async fn run(self, op: &mut Operation, services: &Services) -> Result<Webhook> {
        let id = named::<WebhookId>(&self.webhook)?;
        let url = match &self.url {
            Some(url) => Some(checked_url(url, services).await?),
            None => None,
        };
        let changes = Changes {
            url,
            events: self.events.as_deref().map(endpoints::events).transpose()?,
            description: match &self.description {
                Some(d) => Some(endpoints::description(Some(d))?),
                None => None,
            },
            enabled: self.enabled,
        };
        let now = op.now();
        let webhook = endpoints::update(op.tx(), id, changes, now).await?;
        op.results([webhook.id.to_string()], None);
        op.wrote();
        Ok(webhook)
    }
}

/// Delete a webhook endpoint, its secrets and its deliveries.
#[derive(Debug, Clone, Default)]
pub struct DeleteWebhook {
    pub webhook: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct DeletedWebhook {
    pub deleted: WebhookId,
}

impl Op for DeleteWebhook {
    const SPEC: Spec = Spec {
        errors: &[NO_ENDPOINT],
        ..spec(
            "deleteWebhook",
            "Delete a webhook endpoint",
            false,
            Effect::Deletes,
        )
    };
    type Output = DeletedWebhook;

    fn targets(&self) -> Vec<Target> {
        vec![target_of::<WebhookId>(&self.webhook)]
    }

    async fn run(self, op: &mut Operation, _: &Services) -> Result<DeletedWebhook> {
        let deleted = endpoints::delete(op.tx(), named::<WebhookId>(&self.webhook)?).await?;
        op.results([deleted.to_string()], None);
        op.wrote();
        Ok(DeletedWebhook { deleted })
    }
}

/// Rotate a webhook endpoint's signing secret.
#[derive(Debug, Clone, Default)]
pub struct RotateWebhookSecret {
    pub webhook: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct RotatedSecret {
    pub webhook: WebhookId,
    /// The new signing secret (`whsec_…`): shown this once.
    pub secret: String,
    /// Until when the secrets before it keep signing beside it (each delivery carries one
    /// `v1,` signature per secret), so receivers can switch without losing a delivery.
    pub previous_valid_until: chrono::DateTime<chrono::Utc>,
}

impl Op for RotateWebhookSecret {
    const SPEC: Spec = Spec {
        errors: &[NO_ENDPOINT],
        ..spec(
            "rotateWebhookSecret",
            "Rotate a webhook endpoint's secret",
            false,
            Effect::Writes { idempotent: false },
        )
    };
    type Output = RotatedSecret;

    fn targets(&self) -> Vec<Target> {
        vec![target_of::<WebhookId>(&self.webhook)]
    }

    async fn run(self, op: &mut Operation, services: &Services) -> Result<RotatedSecret> {
        let id = named::<WebhookId>(&self.webhook)?;
        let now = op.now();
        let grace =
            chrono::Duration::from_std(services.config.webhooks.secret_grace).unwrap_or_default();
        let until = now + grace;
        let secret = endpoints::add_secret(op.tx(), id, now, Some(until)).await?;
        op.results([id.to_string()], None);
        op.wrote();
        Ok(RotatedSecret {
            webhook: id,
            secret,
            previous_valid_until: until,
        })
    }
}

/// List an endpoint's deliveries, newest first.
#[derive(Debug, Clone, Default, Deserialize, Serialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ListDeliveries {
    /// The endpoint (from the path).
    #[serde(skip)]
    #[param(ignore)]
    pub webhook: String,
    /// How many deliveries to return, from 1 to 100 (default 20).
    #[param(minimum = 1, maximum = 100, example = 20)]
    pub limit: Option<i64>,
    /// The `next_cursor` of the previous page.
    pub cursor: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct DeliveryList {
    pub deliveries: Vec<Delivery>,
    /// Pass it as `cursor` for the next page; absent on the last page.
    pub next_cursor: Option<String>,
}

impl Op for ListDeliveries {
    const SPEC: Spec = Spec {
        errors: &[
            Refusal::bad_request("a bad `limit` or `cursor`"),
            NO_ENDPOINT,
        ],
        ..spec(
            "listWebhookDeliveries",
            "List webhook deliveries",
            false,
            Effect::Reads,
        )
    };
    type Output = DeliveryList;

    fn targets(&self) -> Vec<Target> {
        vec![target_of::<WebhookId>(&self.webhook)]
    }

    async fn run(self, op: &mut Operation, _: &Services) -> Result<DeliveryList> {
        let id = named::<WebhookId>(&self.webhook)?;
        let (limit, cursor) = deliveries::page_args(self.limit, super::cursor_given(&self.cursor))?;
        let page = deliveries::list(op.tx(), id, limit, cursor).await?;
        op.results(
            page.deliveries.iter().map(|d| d.id.to_string()),
            Some(page.deliveries.len()),
        );
        Ok(DeliveryList {
            deliveries: page.deliveries,
            next_cursor: page.next_cursor,
        })
    }
}

/// Hand an endpoint to the calling key: the caller's credential becomes its maker, whose
/// scopes and repository restriction are its ceiling from now on, as when an endpoint is made.
/// How an endpoint whose maker was revoked (`maker_revoked`) is sent events again. Any key of
/// the account that may manage endpoints (`webhooks:write`) may do it: such a key could as well
/// delete the endpoint and make another to the same URL, with its own reach; owner-level in this
/// product is that scope, not another. An OAuth grant holding it may too (its credential is the
/// maker then, and revoking the grant stops the endpoint again).
#[derive(Debug, Clone, Default)]
pub struct TakeOverWebhook {
    pub webhook: String,
}

impl Op for TakeOverWebhook {
    const SPEC: Spec = Spec {
        errors: &[NO_ENDPOINT],
        ..spec(
            "takeOverWebhook",
            "Hand a webhook endpoint to the calling key",
            false,
            Effect::Writes { idempotent: true },
        )
    };
    type Output = Webhook;

    fn targets(&self) -> Vec<Target> {
        vec![target_of::<WebhookId>(&self.webhook)]
    }

    async fn run(self, op: &mut Operation, _: &Services) -> Result<Webhook> {
        let id = named::<WebhookId>(&self.webhook)?;
        let now = op.now();
        let webhook = endpoints::hand_to_caller(op.tx(), id, now).await?;
        op.results([webhook.id.to_string()], None);
        op.wrote();
        Ok(webhook)
    }
}

/// Send a test event (`webhook.test`) to one endpoint, whatever events it asked for.
#[derive(Debug, Clone, Default)]
pub struct SendTestEvent {
    pub webhook: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct TestEventSent {
    /// The event (its `webhook-id`); its delivery is listed with the endpoint's deliveries.
    pub event: crate::ids::EventId,
}

impl Op for SendTestEvent {
    const SPEC: Spec = Spec {
        errors: &[
            NO_ENDPOINT,
            Refusal::conflict(
                "the key that made the endpoint is revoked (`maker_revoked`: hand it to a live key first)",
            ),
        ],
        ..spec(
            "sendWebhookTestEvent",
            "Send a test event to a webhook endpoint",
            false,
            Effect::Writes { idempotent: false },
        )
    };
    type Output = TestEventSent;

    fn targets(&self) -> Vec<Target> {
        vec![target_of::<WebhookId>(&self.webhook)]
    }

    async fn run(self, op: &mut Operation, _: &Services) -> Result<TestEventSent> {
        let id = named::<WebhookId>(&self.webhook)?;
        if endpoints::get(op.tx(), id).await?.maker_revoked {
            return Err(Error::Conflict(
                "the key that made this endpoint is revoked, so nothing is sent to it; hand it \
                 to a live key first (POST /api/v1/webhooks/{id}/maker)"
                    .into(),
            ));
        }
        let now = op.now();
        let event = crate::webhooks::events::test(op.tx(), id, now)
            .await?
            .ok_or_else(|| endpoints::not_found(id))?;
        op.results([event.to_string()], None);
        op.wrote();
        Ok(TestEventSent { event })
    }
}
