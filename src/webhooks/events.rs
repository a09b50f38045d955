//! The events, and the outbox: each is written with its deliveries by `n8v_webhook_emit`
//! (migration 0023) in the transaction of what caused it, so it commits with its cause or not
//! at all. The bodies carry ids and the fields the REST resources show, as stored (scrubbed),
//! built by the cause where it writes the fact ([`Event`]): this room knows the event types,
//! [`emit`] and the body, never the journal's tables.
//!
//! Who hears of one is the database's decision: the acting account's endpoints whose maker
//! could read what it is about, and for an organization's session the owner's endpoints made
//! with `orgs:read` (never for an exposure: the credential is the member's to rotate).

use super::payloads::{
    self, DecisionReplaced, DigestReady, EndpointDisabled, ExposureSeen, ItemWithheld, LoopChanged,
    SessionEnded, SummaryReady,
};
use crate::db::TenantTx;
use crate::ids::{self, EventId, SessionId};
use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{Value, json};
use uuid::Uuid;

/// The kinds of event an endpoint may ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventType {
    SessionEnded,
    SummaryReady,
    LoopOpened,
    LoopClosed,
    DecisionReplaced,
    ExposureSeen,
    DigestReady,
    EndpointDisabled,
    ItemWithheld,
}

impl EventType {
    pub const ALL: [EventType; 9] = [
        EventType::SessionEnded,
        EventType::SummaryReady,
        EventType::LoopOpened,
        EventType::LoopClosed,
        EventType::DecisionReplaced,
        EventType::ExposureSeen,
        EventType::DigestReady,
        EventType::EndpointDisabled,
        EventType::ItemWithheld,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            EventType::SessionEnded => "session.ended",
            EventType::SummaryReady => "summary.ready",
            EventType::LoopOpened => "loop.opened",
            EventType::LoopClosed => "loop.closed",
            EventType::DecisionReplaced => "decision.replaced",
            EventType::ExposureSeen => "exposure.seen",
            EventType::DigestReady => "digest.ready",
            EventType::EndpointDisabled => "endpoint.disabled",
            EventType::ItemWithheld => "item.withheld",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == text)
    }
}

/// The whole body of an event: `{"type", "timestamp", "data"}`.
fn body(kind: EventType, data: Value, now: DateTime<Utc>) -> Value {
    json!({
        "type": kind.as_str(),
        "timestamp": now.to_rfc3339_opts(SecondsFormat::Millis, true),
        "data": data,
    })
}

/// What an event is about, for who may hear of it.
enum About {
    /// A session: its readers (`shared`: the organization's owner too, for its sessions).
    Session { id: Uuid, shared: bool },
    /// Something read under these recorded scopes (a digest).
    Scoped(Vec<String>),
    /// The account itself.
    Account,
}

/// An event, with the payload its cause built: the journal builds each where it writes the
/// fact (it holds the row), so this room never reads the journal's tables. Who may hear of it
/// follows from what it is about.
pub enum Event {
    SessionEnded(SessionEnded),
    SummaryReady(SummaryReady),
    LoopOpened(LoopChanged),
    LoopClosed(LoopChanged),
    DecisionReplaced(DecisionReplaced),
    /// Only the session's own account hears of it (the credential is the member's to rotate).
    ExposureSeen(ExposureSeen),
    /// With the scopes the digest was read under: endpoints whose maker holds them hear of it.
    DigestReady(DigestReady, Vec<String>),
    /// An operational event: the account's own endpoints hear of it.
    EndpointDisabled(EndpointDisabled),
    ItemWithheld(ItemWithheld),
}

impl Event {
    pub const fn kind(&self) -> EventType {
        match self {
            Event::SessionEnded(_) => EventType::SessionEnded,
            Event::SummaryReady(_) => EventType::SummaryReady,
            Event::LoopOpened(_) => EventType::LoopOpened,
            Event::LoopClosed(_) => EventType::LoopClosed,
            Event::DecisionReplaced(_) => EventType::DecisionReplaced,
            Event::ExposureSeen(_) => EventType::ExposureSeen,
            Event::DigestReady(..) => EventType::DigestReady,
            Event::EndpointDisabled(_) => EventType::EndpointDisabled,
            Event::ItemWithheld(_) => EventType::ItemWithheld,
        }
    }

    /// Its `data`, and what it is about.
    fn parts(self) -> (Value, About) {
        let session = |id: SessionId, shared| About::Session { id: id.0, shared };
        match self {
            Event::SessionEnded(p) => (payloads::data(&p), session(p.session, true)),
            Event::SummaryReady(p) => (payloads::data(&p), session(p.session, true)),
            Event::LoopOpened(p) | Event::LoopClosed(p) => {
                (payloads::data(&p), session(p.session, true))
            }
            Event::DecisionReplaced(p) => (payloads::data(&p), session(p.session, true)),
            Event::ExposureSeen(p) => (payloads::data(&p), session(p.session, false)),
            Event::DigestReady(p, scopes) => (payloads::data(&p), About::Scoped(scopes)),
            Event::EndpointDisabled(p) => (payloads::data(&p), About::Account),
            Event::ItemWithheld(p) => (payloads::data(&p), session(p.session, true)),
        }
    }
}

/// Writes `event` for the acting account, in the transaction of its cause, with its
/// deliveries (`n8v_webhook_emit`): the one way every event is written. Returns how many
/// deliveries it made (none when no endpoint listens, and then no event is kept).
pub async fn emit(tx: &mut TenantTx, event: Event, now: DateTime<Utc>) -> sqlx::Result<i32> {
    let id = ids::new_id();
    let kind = event.kind();
    let (mut data, about) = event.parts();
    // What an endpoint is told is handed over too: a withheld text's place holds the line
    // naming its rule (`item.withheld` names the item).
    crate::handover::screen_value(&mut data);
    let body = body(kind, data, now);
    let (session, scopes, shared) = match about {
        About::Session { id, shared } => (Some(id), None, shared),
        About::Scoped(scopes) => (None, Some(scopes), false),
        About::Account => (None, None, false),
    };
    let made = sqlx::query_scalar!(
        r#"SELECT n8v_webhook_emit($1, $2, $3, $4, $5, $6, $7) AS "made!""#,
        id,
        kind.as_str(),
        body,
        session,
        scopes.as_deref(),
        shared,
        now
    )
    .fetch_one(tx.conn())
    .await?;
    if made > 0 {
        tracing::debug!(event = %EventId(id), kind = kind.as_str(), deliveries = made, "webhook event");
    }
    Ok(made)
}

/// The test event's type: sent to one endpoint on request, whatever events it asked for.
pub const TEST_EVENT: &str = "webhook.test";

/// A `webhook.test` event for the acting account's endpoint `webhook`; its id, or `None` when
/// the account has no such endpoint.
pub async fn test(
    tx: &mut TenantTx,
    webhook: crate::ids::WebhookId,
    now: DateTime<Utc>,
) -> sqlx::Result<Option<EventId>> {
    let id = ids::new_id();
    let body = json!({
        "type": TEST_EVENT,
        "timestamp": now.to_rfc3339_opts(SecondsFormat::Millis, true),
        "data": payloads::data(&payloads::WebhookTest {
            webhook,
            message: "A test event from n8v-journal.".into(),
        }),
    });
    let made = sqlx::query_scalar!(
        r#"SELECT n8v_webhook_test($1, $2, $3, $4) AS "made!""#,
        webhook.0,
        id,
        body,
        now
    )
    .fetch_one(tx.conn())
    .await?;
    Ok(made.then_some(EventId(id)))
}
