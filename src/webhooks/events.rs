//! The events, and the outbox: each is written with its deliveries by `n8v_webhook_emit`
//! (migration 0023) in the transaction of what caused it, so it commits with its cause or not
//! at all. The bodies carry ids and the fields the REST resources show, as stored (scrubbed).
//!
//! Who hears of one is the database's decision: the acting account's endpoints whose maker
//! could read what it is about, and for an organization's session the owner's endpoints made
//! with `orgs:read` (never for an exposure: the credential is the member's to rotate).

use super::payloads::{self, DigestReady, ExposureSeen, LoopChanged, SessionEnded, SummaryReady};
use crate::db::TenantTx;
use crate::ids::{self, DigestId, EventId, ExposureId, ItemId, OrganizationId, SessionId};
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
    ExposureSeen,
    DigestReady,
    EndpointDisabled,
}

impl EventType {
    pub const ALL: [EventType; 7] = [
        EventType::SessionEnded,
        EventType::SummaryReady,
        EventType::LoopOpened,
        EventType::LoopClosed,
        EventType::ExposureSeen,
        EventType::DigestReady,
        EventType::EndpointDisabled,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            EventType::SessionEnded => "session.ended",
            EventType::SummaryReady => "summary.ready",
            EventType::LoopOpened => "loop.opened",
            EventType::LoopClosed => "loop.closed",
            EventType::ExposureSeen => "exposure.seen",
            EventType::DigestReady => "digest.ready",
            EventType::EndpointDisabled => "endpoint.disabled",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == text)
    }
}

/// The whole body of an event: `{"type", "timestamp", "data"}`.
pub fn body(kind: EventType, data: Value, now: DateTime<Utc>) -> Value {
    json!({
        "type": kind.as_str(),
        "timestamp": now.to_rfc3339_opts(SecondsFormat::Millis, true),
        "data": data,
    })
}

/// What an event is about, for who may hear of it.
pub enum About {
    /// A session: its readers (`shared`: the organization's owner too, for its sessions).
    Session { id: Uuid, shared: bool },
    /// Something read under these recorded scopes (a digest).
    Scoped(Vec<String>),
    /// The account itself.
    Account,
}

/// Writes the event of `kind` with `data` for the acting account; returns how many deliveries
/// it made (none when no endpoint listens, and then no event is kept).
pub async fn emit(
    tx: &mut TenantTx,
    kind: EventType,
    data: Value,
    about: About,
    now: DateTime<Utc>,
) -> sqlx::Result<i32> {
    let id = ids::new_id();
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
        "data": {"webhook": webhook, "message": "A test event from n8v-journal."},
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

/// Where a `session.ended` event's summary stands.
#[derive(Clone, Copy, Debug)]
pub enum SummaryState {
    /// A closed session's: a `summary.ready` event follows once its summary is stored.
    Pending,
    /// A settled episode part's: its entry was drafted as it settled, and is in the journal.
    Written,
}

/// `session.ended`: a session closed (ended, swept quiet, or retired), or an episode's part
/// settled, with its hand-off and where its summary stands.
pub async fn session_ended(
    tx: &mut TenantTx,
    session: Uuid,
    summary: SummaryState,
    now: DateTime<Utc>,
) -> sqlx::Result<()> {
    let Some(r) = sqlx::query!(
        r#"SELECT session_id AS "session_id!", organization_id, kind AS "kind!",
                  assistant AS "assistant!", goal, outcome, handoff, end_reason,
                  started_at AS "started_at!", ended_at, call_count AS "call_count!",
                  write_count AS "write_count!", journal_only AS "journal_only!"
             FROM journal_session_reads
            WHERE account_id = n8v_account() AND session_id = $1"#,
        session
    )
    .fetch_optional(tx.conn())
    .await?
    else {
        return Ok(());
    };
    let data = payloads::data(&SessionEnded {
        session: SessionId(r.session_id),
        organization: r.organization_id.map(OrganizationId),
        kind: r.kind,
        assistant: r.assistant,
        goal: r.goal,
        outcome: r.outcome,
        handoff: r.handoff,
        end_reason: r.end_reason,
        started_at: r.started_at,
        ended_at: r.ended_at,
        call_count: r.call_count,
        write_count: r.write_count,
        journal_only: r.journal_only,
        summary_state: match summary {
            SummaryState::Pending => "pending",
            SummaryState::Written => "written",
        }
        .into(),
    });
    let about = About::Session {
        id: session,
        shared: true,
    };
    emit(tx, EventType::SessionEnded, data, about, now)
        .await
        .map(drop)
}

/// `summary.ready`: a closed session's summary was stored.
pub async fn summary_ready(
    tx: &mut TenantTx,
    session: Uuid,
    now: DateTime<Utc>,
) -> sqlx::Result<()> {
    let Some(r) = sqlx::query!(
        r#"SELECT session_id, summary, summary_model, summary_note, summary_snapshot
             FROM journal_sessions WHERE account_id = n8v_account() AND session_id = $1"#,
        session
    )
    .fetch_optional(tx.conn())
    .await?
    else {
        return Ok(());
    };
    let data = payloads::data(&SummaryReady {
        session: SessionId(r.session_id),
        summary: r.summary,
        summary_model: r.summary_model,
        summary_note: r.summary_note,
        snapshot: r.summary_snapshot,
    });
    let about = About::Session {
        id: session,
        shared: true,
    };
    emit(tx, EventType::SummaryReady, data, about, now)
        .await
        .map(drop)
}

/// `loop.opened` or `loop.closed`, once for each of `items` (as they stand now).
pub async fn loops(
    tx: &mut TenantTx,
    kind: EventType,
    items: &[Uuid],
    now: DateTime<Utc>,
) -> sqlx::Result<()> {
    if items.is_empty() {
        return Ok(());
    }
    let rows = sqlx::query!(
        r#"SELECT loop_id, kind, text, state, session_id, created_at, closed_at, closed_session_id
             FROM journal_loops WHERE account_id = n8v_account() AND loop_id = ANY ($1)
            ORDER BY created_at, loop_id"#,
        items
    )
    .fetch_all(tx.conn())
    .await?;
    for r in rows {
        let data = payloads::data(&LoopChanged {
            item: ItemId(r.loop_id),
            kind: r.kind,
            text: r.text,
            state: r.state,
            session: SessionId(r.session_id),
            created_at: r.created_at,
            closed_at: r.closed_at,
            closed_session: r.closed_session_id.map(SessionId),
        });
        let about = About::Session {
            id: r.session_id,
            shared: true,
        };
        emit(tx, kind, data, about, now).await?;
    }
    Ok(())
}

/// `exposure.seen`: a credential was scrubbed in `session`, in a kind of text it had not been
/// seen in there before: the rule and its label, never the credential nor any part of it. Only
/// the session's own account hears of it.
pub async fn exposure_seen(
    tx: &mut TenantTx,
    session: SessionId,
    seen: &[(Uuid, String)],
    now: DateTime<Utc>,
) -> sqlx::Result<()> {
    let mut by_exposure: std::collections::BTreeMap<Uuid, Vec<String>> = Default::default();
    for (exposure, field) in seen {
        by_exposure
            .entry(*exposure)
            .or_default()
            .push(field.clone());
    }
    for (exposure, fields) in by_exposure {
        let rule = sqlx::query_scalar!(
            "SELECT rule FROM journal_exposures
              WHERE account_id = n8v_account() AND exposure_id = $1",
            exposure
        )
        .fetch_one(tx.conn())
        .await?;
        let data = payloads::data(&ExposureSeen {
            exposure: ExposureId(exposure),
            label: crate::scrub::label(&rule),
            rule,
            fields,
            session,
            seen_at: now,
        });
        let about = About::Session {
            id: session.0,
            shared: false,
        };
        emit(tx, EventType::ExposureSeen, data, about, now).await?;
    }
    Ok(())
}

/// `digest.ready`: a week's or month's digest was stored.
pub async fn digest_ready(
    tx: &mut TenantTx,
    digest: DigestId,
    now: DateTime<Utc>,
) -> sqlx::Result<()> {
    let Some(r) = sqlx::query!(
        r#"SELECT period, period_start, period_end, scopes, session_count, summary, model
             FROM journal_digests WHERE account_id = n8v_account() AND digest_id = $1"#,
        digest.0
    )
    .fetch_optional(tx.conn())
    .await?
    else {
        return Ok(());
    };
    let data = payloads::data(&DigestReady {
        digest,
        period: r.period,
        period_start: r.period_start,
        period_end: r.period_end,
        session_count: r.session_count,
        summary: r.summary,
        model: r.model,
    });
    emit(
        tx,
        EventType::DigestReady,
        data,
        About::Scoped(r.scopes),
        now,
    )
    .await
    .map(drop)
}
