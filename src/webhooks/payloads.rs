//! What each event's `data` holds: one type per event, serialized into the body and described
//! in the OpenAPI document's `webhooks` section (`http::openapi::add_webhooks`), so the SDKs
//! type them.

use crate::ids::{DigestId, ExposureId, ItemId, OrganizationId, SessionId, WebhookId};
use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use serde_json::Value;

/// `session.ended`: a session closed.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SessionEnded {
    pub session: SessionId,
    /// The organization the session belongs to, if any.
    pub organization: Option<OrganizationId>,
    /// `explicit` or `implicit`.
    pub kind: String,
    pub assistant: String,
    pub goal: Option<String>,
    pub outcome: Option<String>,
    /// The hand-off the assistant gave at the end (decisions, open questions, next steps).
    #[schema(value_type = Option<Object>)]
    pub handoff: Option<Value>,
    /// `ended`, `quiet` (swept after two quiet hours) or `retired` (an implicit session
    /// replaced by a new one).
    pub end_reason: Option<String>,
    pub started_at: DateTime<Utc>,
    pub ended_at: Option<DateTime<Utc>>,
    pub call_count: i32,
    pub write_count: i32,
    pub journal_only: bool,
    /// `pending`: a `summary.ready` event follows when the summary is stored; `written`: an
    /// episode's part settled and its entry (its summary) is written already.
    pub summary_state: String,
}

/// Where a `session.ended` event's summary stands (its `summary_state`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SummaryState {
    /// A closed session's: a `summary.ready` event follows once its summary is stored.
    Pending,
    /// A settled episode part's: its entry was drafted as it settled, and is in the journal.
    Written,
}

impl SummaryState {
    pub const fn as_str(self) -> &'static str {
        match self {
            SummaryState::Pending => "pending",
            SummaryState::Written => "written",
        }
    }
}

/// `summary.ready`: a closed session's summary was stored.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SummaryReady {
    pub session: SessionId,
    #[schema(value_type = Option<Object>)]
    pub summary: Option<Value>,
    pub summary_model: Option<String>,
    pub summary_note: Option<String>,
    /// The session's call count the summary describes.
    pub snapshot: Option<i32>,
}

/// `loop.opened` and `loop.closed`: an open question or next step, as it stands.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct LoopChanged {
    pub item: ItemId,
    /// `question` or `next_step`.
    pub kind: String,
    pub text: String,
    /// `open`, `done`, `answered` or `dropped`.
    pub state: String,
    /// The session that opened it.
    pub session: SessionId,
    pub created_at: DateTime<Utc>,
    pub closed_at: Option<DateTime<Utc>>,
    pub closed_session: Option<SessionId>,
}

/// `item.withheld`: an item (a decision, an open question, a next step) was opened whose text the
/// rules withhold from every automatic hand-off (`withhold`). Its id and the rule, never its
/// text. Heard by those who may read its session.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ItemWithheld {
    pub item: ItemId,
    /// `decision`, `question` or `next_step`.
    pub kind: String,
    /// The rule (`override`, `role-marker`, `fetch-execute`, `exfiltration`, `claimed-approval`,
    /// `hidden-text`, `encoded-blob`, `active-link`).
    pub rule: String,
    /// The rule, in a sentence for a person.
    pub reason: String,
    /// The session that opened it.
    pub session: SessionId,
}

/// `decision.replaced`: a decision was replaced by a later one. Heard by those who may read the
/// replaced decision's session (`session`).
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct DecisionReplaced {
    /// The decision replaced (`itm_…`), in the words of the session that made it.
    pub item: ItemId,
    pub text: String,
    /// The session that made it.
    pub session: SessionId,
    /// The decision that replaced it.
    pub replaced_by: ItemId,
    pub replaced_by_text: String,
    /// The session that replaced it.
    pub replaced_in: SessionId,
    pub replaced_at: DateTime<Utc>,
}

/// `exposure.seen`: a credential was scrubbed in a session (never the credential itself).
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ExposureSeen {
    pub exposure: ExposureId,
    /// The rule that found it (`github-pat`, …).
    pub rule: String,
    /// What it is, in words (`a GitHub token`).
    pub label: String,
    /// The kinds of text it was scrubbed from: `purpose`, `goal`, `outcome`, `handoff`,
    /// `target`.
    pub fields: Vec<String>,
    pub session: SessionId,
    pub seen_at: DateTime<Utc>,
}

/// `digest.ready`: a week's or month's digest was stored.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct DigestReady {
    pub digest: DigestId,
    /// `week` or `month`.
    pub period: String,
    pub period_start: NaiveDate,
    pub period_end: NaiveDate,
    pub session_count: i32,
    #[schema(value_type = Object)]
    pub summary: Value,
    pub model: String,
}

/// `endpoint.disabled`: an endpoint was disabled after a run of failed attempts.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct EndpointDisabled {
    pub webhook: WebhookId,
    pub url: String,
    pub failures: i32,
    pub disabled_at: DateTime<Utc>,
}

/// `webhook.test`: sent to one endpoint on request (`POST /api/v1/webhooks/{id}/test`, or
/// Settings' "Send a test event"), whatever events it asked for.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct WebhookTest {
    pub webhook: WebhookId,
    pub message: String,
}

/// `data` as JSON.
pub fn data<T: Serialize>(payload: &T) -> Value {
    serde_json::to_value(payload).unwrap_or(Value::Null)
}
