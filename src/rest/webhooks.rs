//! Webhook endpoints over REST: `/api/v1/webhooks` (make, list), `/api/v1/webhooks/{id}`
//! (read, change, delete), `…/rotate-secret`, `…/deliveries`, `…/test` and `…/maker`. The request bodies are the
//! operations' own input types.

use crate::http::call::handler;
use crate::http::openapi::JournalHeaders;
use crate::http::{ApiJson, ApiQuery};
use crate::ids::WebhookId;
use crate::ops::Op;
use crate::ops::webhooks::{
    CreateWebhook, CreatedWebhook, DeleteWebhook, DeletedWebhook, DeliveryList, GetWebhook,
    ListDeliveries, ListWebhooks, RotateWebhookSecret, RotatedSecret, SendTestEvent,
    TakeOverWebhook, TestEventSent, UpdateWebhook, WebhookList,
};
use crate::webhooks::endpoints::Webhook;
use axum::extract::Path;

handler! {
    /// Make a webhook endpoint.
    ///
    /// Registers a URL to be sent the account's events, signed as Standard Webhooks specifies
    /// (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,…` over `id.timestamp.body`
    /// with HMAC-SHA256): verify them with the `standardwebhooks` libraries and the `secret`
    /// answered here, which is shown this once. Only `https` URLs on public addresses (loopback,
    /// private and link-local ones are refused, now and again at each delivery). Each event is
    /// retried with exponential backoff for about a day; an endpoint failing many attempts in a
    /// row is disabled (and `endpoint.disabled` sent to the others). Needs `webhooks:write`.
    #[utoipa::path(
        post,
        path = "/api/v1/webhooks",
        operation_id = CreateWebhook::SPEC.id,
        tag = "webhooks",
        params(JournalHeaders),
        request_body(content = CreateWebhook, content_type = "application/json"),
        responses(
            (status = "2XX", description = "The endpoint, with its secret (shown once)",
                body = CreatedWebhook),
        ),
        security(("bearer" = []))
    )]
    pub fn create(body: ApiJson<CreateWebhook>) -> CreatedWebhook
        = reply_body(body)
}

handler! {
    /// List webhook endpoints.
    ///
    /// The account's endpoints, oldest first, without their secrets. Needs `webhooks:write`.
    #[utoipa::path(
        get,
        path = "/api/v1/webhooks",
        operation_id = ListWebhooks::SPEC.id,
        tag = "webhooks",
        params(JournalHeaders),
        responses(
            (status = "2XX", description = "The endpoints", body = WebhookList),
        ),
        security(("bearer" = []))
    )]
    pub fn list() -> WebhookList
        = reply(ListWebhooks)
}

handler! {
    /// Read a webhook endpoint.
    ///
    /// One endpoint of the account: its URL, events, description, whether it is enabled, its
    /// failures in a row, and when it was made; never its signing secret. Needs `webhooks:write`.
    #[utoipa::path(
        get,
        path = "/api/v1/webhooks/{id}",
        operation_id = GetWebhook::SPEC.id,
        tag = "webhooks",
        params(("id" = WebhookId, Path, description = "The endpoint (`whk_…`)"), JournalHeaders),
        responses(
            (status = "2XX", description = "The endpoint", body = Webhook),
        ),
        security(("bearer" = []))
    )]
    pub fn get(id: Path<String>) -> Webhook
        = reply(GetWebhook { webhook: id })
}

handler! {
    /// Change a webhook endpoint.
    ///
    /// Changes the fields sent: `url` (checked as when made), `events`, `description` (an empty
    /// string removes it), `enabled` (`true` turns a disabled endpoint on again: its run of
    /// failures starts over and its pending deliveries go out).
    #[utoipa::path(
        patch,
        path = "/api/v1/webhooks/{id}",
        operation_id = UpdateWebhook::SPEC.id,
        tag = "webhooks",
        params(("id" = WebhookId, Path, description = "The endpoint (`whk_…`)"), JournalHeaders),
        request_body(content = UpdateWebhook, content_type = "application/json"),
        responses(
            (status = "2XX", description = "The endpoint, changed", body = Webhook),
        ),
        security(("bearer" = []))
    )]
    pub fn update(id: Path<String>, body: ApiJson<UpdateWebhook>) -> Webhook
        = reply_body(UpdateWebhook { webhook: id, ..body })
}

handler! {
    /// Delete a webhook endpoint.
    ///
    /// The endpoint goes with its secrets and deliveries; nothing more is sent to it.
    #[utoipa::path(
        delete,
        path = "/api/v1/webhooks/{id}",
        operation_id = DeleteWebhook::SPEC.id,
        tag = "webhooks",
        params(("id" = WebhookId, Path, description = "The endpoint (`whk_…`)"), JournalHeaders),
        responses(
            (status = "2XX", description = "The endpoint is gone", body = DeletedWebhook),
        ),
        security(("bearer" = []))
    )]
    pub fn delete(id: Path<String>) -> DeletedWebhook
        = reply(DeleteWebhook { webhook: id })
}

handler! {
    /// Rotate a webhook endpoint's secret.
    ///
    /// Makes a new signing secret (answered this once). The secrets before it keep signing beside
    /// it until `previous_valid_until` (`N8V_WEBHOOK_SECRET_GRACE_HOURS`, 24 by default): each
    /// delivery meanwhile carries a `v1,` signature under each, so a receiver verifies with either.
    #[utoipa::path(
        post,
        path = "/api/v1/webhooks/{id}/rotate-secret",
        operation_id = RotateWebhookSecret::SPEC.id,
        tag = "webhooks",
        params(("id" = WebhookId, Path, description = "The endpoint (`whk_…`)"), JournalHeaders),
        responses(
            (status = "2XX", description = "The new secret", body = RotatedSecret),
        ),
        security(("bearer" = []))
    )]
    pub fn rotate_secret(id: Path<String>) -> RotatedSecret
        = reply(RotateWebhookSecret { webhook: id })
}

handler! {
    /// List a webhook endpoint's deliveries.
    ///
    /// Newest first: each event sent (or to be sent) to the endpoint, with its status, attempts,
    /// the receiver's last status code and a short scrubbed excerpt of its answer, and the next
    /// try. Paged with `limit` and `cursor` (`next_cursor`).
    #[utoipa::path(
        get,
        path = "/api/v1/webhooks/{id}/deliveries",
        operation_id = ListDeliveries::SPEC.id,
        tag = "webhooks",
        params(("id" = WebhookId, Path, description = "The endpoint (`whk_…`)"), ListDeliveries,
            JournalHeaders),
        responses(
            (status = "2XX", description = "A page of deliveries, newest first",
                body = DeliveryList),
        ),
        security(("bearer" = []))
    )]
    pub fn deliveries(id: Path<String>, q: ApiQuery<ListDeliveries>) -> DeliveryList
        = reply(ListDeliveries { webhook: id, ..q })
}

handler! {
    /// Send a test event.
    ///
    /// Queues a `webhook.test` event for this endpoint, whatever events it asked for, signed and
    /// delivered like any other: a way to check the receiver and its verification. Refused while
    /// the key that made the endpoint is revoked (nothing is sent to it then).
    #[utoipa::path(
        post,
        path = "/api/v1/webhooks/{id}/test",
        operation_id = SendTestEvent::SPEC.id,
        tag = "webhooks",
        params(("id" = WebhookId, Path, description = "The endpoint (`whk_…`)"), JournalHeaders),
        responses(
            (status = "2XX", description = "The test event, queued", body = TestEventSent),
        ),
        security(("bearer" = []))
    )]
    pub fn test(id: Path<String>) -> TestEventSent
        = reply(SendTestEvent { webhook: id })
}

handler! {
    /// Hand a webhook endpoint to the calling key.
    ///
    /// Makes the calling credential the endpoint's maker: its scopes and repository restriction
    /// become the endpoint's ceiling (what it may hear of), as when an endpoint is made. An endpoint
    /// stops with its maker: once the key that made it is revoked (`admin revoke-key`, or the OAuth
    /// grant it was), nothing is sent to it (`maker_revoked: true`) and its pending deliveries end
    /// unsent; handed to a live key, it is sent the events from then on. Who may: any live key of
    /// the account holding `webhooks:write`, the scope that manages the account's endpoints (it
    /// could as well delete the endpoint and make another to the same URL). The secret, URL and
    /// events stay as they are. Needs `webhooks:write`.
    #[utoipa::path(
        post,
        path = "/api/v1/webhooks/{id}/maker",
        operation_id = TakeOverWebhook::SPEC.id,
        tag = "webhooks",
        params(("id" = WebhookId, Path, description = "The endpoint (`whk_…`)"), JournalHeaders),
        responses(
            (status = "2XX", description = "The endpoint, the calling key its maker",
                body = Webhook),
        ),
        security(("bearer" = []))
    )]
    pub fn take_over(id: Path<String>) -> Webhook
        = reply(TakeOverWebhook { webhook: id })
}
