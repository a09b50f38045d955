//! Settings' webhooks: the account's endpoints with their recent deliveries, and
//! "send a test event" for each; an endpoint whose maker was revoked says so, and offers to be
//! handed to the signed-in key. Shown when the signed-in key holds `webhooks:write`.

use super::CsrfKey;
use super::user::PageUser;
use crate::ops::Services;
use crate::ops::webhooks::{ListDeliveries, ListWebhooks, SendTestEvent, TakeOverWebhook};
use axum::Form;
use axum::extract::State;
use axum::response::Response;
use serde::Deserialize;
use serde_json::{Value, json};

const RECENT: i64 = 5;

fn when(t: chrono::DateTime<chrono::Utc>) -> String {
    t.format("%Y-%m-%d %H:%M UTC").to_string()
}

/// The endpoints as the settings page shows them; `None` when the key may not manage them.
pub async fn listed(state: &Services, user: &PageUser) -> Option<Vec<Value>> {
    let webhooks = match user.run(state, ListWebhooks).await.result {
        Ok(list) => list.webhooks,
        Err(_) => return None,
    };
    let mut shown = Vec::new();
    for w in webhooks {
        let input = ListDeliveries {
            webhook: w.id.to_string(),
            limit: Some(RECENT),
            cursor: None,
        };
        let deliveries = match user.run(state, input).await.result {
            Ok(page) => page.deliveries,
            Err(_) => Vec::new(),
        };
        shown.push(json!({
            "id": w.id,
            "url": w.url,
            "events": w.events.join(", "),
            "description": w.description,
            "enabled": w.enabled,
            "maker_revoked": w.maker_revoked,
            "deliveries": deliveries.iter().map(|d| json!({
                "event_type": d.event_type,
                "status": d.status,
                "attempts": d.attempts,
                "last_status": d.last_status,
                "last_excerpt": d.last_excerpt,
                "created": when(d.created_at),
            })).collect::<Vec<_>>(),
        }));
    }
    Some(shown)
}

/// The form of each endpoint's buttons: which endpoint.
#[derive(Deserialize)]
pub struct TestForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    webhook: String,
}

/// An endpoint's button: the operation it runs on the endpoint the form names.
pub trait Button: crate::ops::Op {
    fn on(webhook: String) -> Self;
}

/// `POST /journal/webhooks/test`: queues a test event for one endpoint.
impl Button for SendTestEvent {
    fn on(webhook: String) -> Self {
        SendTestEvent { webhook }
    }
}

/// `POST /journal/webhooks/maker`: hands one endpoint to the signed-in key (its reach becomes
/// the endpoint's ceiling), as `POST /api/v1/webhooks/{id}/maker` does.
impl Button for TakeOverWebhook {
    fn on(webhook: String) -> Self {
        TakeOverWebhook { webhook }
    }
}

/// Runs one endpoint's button once its CSRF token holds, and goes back to the endpoints.
pub async fn press<B: Button>(
    State(state): State<Services>,
    user: PageUser,
    axum::Extension(key): axum::Extension<CsrfKey>,
    Form(form): Form<TestForm>,
) -> Response {
    let input = B::on(form.webhook);
    user.press(
        &state,
        &key,
        &form.csrf,
        input,
        "/journal/settings#webhooks",
    )
    .await
}
