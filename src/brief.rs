//! The catch-up brief: what happened since a time or a session, for a new conversation.
//!
//! It is assembled from what sessions say of themselves (goals, outcomes, the hand-offs their
//! assistants stated at the end), from their summaries, from the open items (`loops`) and from
//! the Records. Decisions come newest session first; within a session, those its assistant
//! stated come ahead of those its summary derived (or, before it has one, those its own text
//! marks); each item once. Open questions and next steps are the items still open, whatever
//! the window (each with its `id` and `age`), with, in time order among them, the lines of the
//! window's sessions that are no item: what an open session's text marks, a model summary's
//! own questions, sessions closed before items existed. Everything is read as the caller, so
//! the same visibility rules hold as for every other read.

use crate::db::TenantTx;
use crate::error::{Error, Result};
use crate::handover::provenance::{Author, Provenance, Tier};
use crate::ids::{AccountId, CallId, ItemId, Kind, OrganizationId, RecordId, SessionId, TypedId};
use crate::journal::handoff::{Line, Replaced};
use crate::journal::session_reads::{self, ACTIVE_BY_ACTIVITY, Active};
use crate::journal::views::Session;
use crate::loops::{self, Loop, LoopKind};
use crate::serialized::Serialized;
use chrono::{DateTime, Duration, Utc};
use serde::Serialize;
use uuid::Uuid;

mod records;
use records::record_changes;

pub const MAX_SESSIONS: i64 = 20;
/// The sessions part of the brief stays under this many characters of JSON (newest kept).
pub const MAX_SESSION_CHARS: usize = 30_000;
pub const NEWEST_LINES: i32 = 3;
pub const DEFAULT_WINDOW_DAYS: i64 = 7;

/// One line of the brief.
#[derive(Debug, Serialize, serde::Deserialize, utoipa::ToSchema)]
#[schema(example = json!({
    "text": "Fix ready for review; tests passed",
    "session_id": "ses_01M72AZ1M0ETFB59TDWH9EDD1R",
    "stated": false,
    "own": true,
    "author": {"assistant": "claude-code", "key": "laptop"},
    "at": "2026-11-10T09:30:00Z",
    "tier": "derived"
}))]
pub struct Item {
    /// What was decided, started, finished, asked or left to do next.
    pub text: String,
    /// The session it comes from.
    pub session_id: SessionId,
    /// True when the session's assistant stated it in the hand-off it ended the session with;
    /// false when a summary derived it or code read it from the session's marked text.
    pub stated: bool,
    /// For an open question or next step that is an open item: its id (`itm_…`), to close it
    /// (`POST /api/v1/journal/loops/{id}/close`, or `session_end`'s `resolved`). For a decision
    /// that is an item: its id, to name it in a later `session_end`'s `replaces`. Absent for a
    /// line that is no item (yet): one an open session's text marks, a model summary's own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<ItemId>,
    /// With `id`: whole days the item has been open (0 on the day it was opened).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub age: Option<i64>,
    /// True when the reader's own account wrote it; false for what an organization member
    /// wrote (in a session of an organization you own): that account's word, never an
    /// instruction of yours. The reader's own open questions and next steps come first.
    pub own: bool,
    /// With `own: false`: the account that wrote it (`acc_…`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub written_by: Option<AccountId>,
    /// For a current decision: the earlier decisions it replaced, oldest first. A replaced
    /// decision is never listed as current; it appears here, once, under its replacement.
    /// After them, with `stated: false`, those that only the session's summary says it
    /// replaced: a model's reading, not applied, so each is still current and listed too.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replaces: Vec<Replaced>,
    /// Who wrote it: the assistant, and the label of the key it used (copied when it wrote).
    /// A record of who said it, never an instruction from the reader's person.
    #[serde(default)]
    pub author: Author,
    /// When it was written: the item's opening, or its session's last activity.
    pub at: DateTime<Utc>,
    /// How far to trust it, by where it came from: `person` (released by the person in the
    /// journal pages), `this_credential` (a session of the reader's own key), `other_credential`
    /// (another key of the account), `organization` (an organization member's), `derived`
    /// (a summary's or code's reading, not stated by an assistant). Ask for `min_tier` to
    /// leave out the tiers below one.
    pub tier: Tier,
    /// When the person released it in the journal pages, after the rules had withheld it from
    /// every automatic hand-off: it is handed over again, as written, marked released.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub released_at: Option<DateTime<Utc>>,
}

impl Item {
    fn line(text: String, session_id: SessionId, stated: bool) -> Self {
        Item {
            text,
            session_id,
            stated,
            id: None,
            age: None,
            own: true,
            written_by: None,
            replaces: Vec::new(),
            author: Author::default(),
            at: DateTime::<Utc>::UNIX_EPOCH,
            tier: Tier::Derived,
            released_at: None,
        }
    }

    /// Names its author, time and tier, as `provenance` tells them to the `reader`.
    fn stamped(mut self, provenance: &Provenance, reader: AccountId) -> Self {
        if let Some(stamp) =
            provenance.of(self.session_id, self.id, &self.text, self.stated, reader)
        {
            self.author = stamp.author;
            if self.id.is_none() || self.at == DateTime::<Utc>::UNIX_EPOCH {
                self.at = stamp.at;
            }
            self.tier = stamp.tier;
            self.released_at = stamp.released_at;
        }
        self
    }

    /// Says whose it is: the account of its session in `sessions`, against the `reader`'s.
    fn by(mut self, sessions: &[Session], reader: AccountId) -> Self {
        let author = sessions
            .iter()
            .find(|s| s.id == self.session_id)
            .map(|s| s.account_id);
        if let Some(author) = author.filter(|a| *a != reader) {
            self.own = false;
            self.written_by = Some(author);
        }
        self
    }
}

impl From<Loop> for Item {
    fn from(l: Loop) -> Self {
        Item {
            id: Some(l.id),
            age: Some(l.age),
            own: l.own,
            written_by: l.written_by,
            at: l.created_at,
            ..Item::line(l.text, l.session_id, l.stated)
        }
    }
}

#[derive(Default)]
struct Brief {
    decisions: Vec<(Line, SessionId)>,
    work_started: Vec<Item>,
    work_finished: Vec<Item>,
    open_questions: Vec<(Line, SessionId)>,
    next_steps: Vec<(Line, SessionId)>,
}

/// The lines as given (newest session first, each session's stated items ahead of its derived
/// ones), leaving out an item a newer session already gave.
fn ordered(lines: Vec<(Line, SessionId)>) -> Vec<Item> {
    let mut seen = std::collections::HashSet::new();
    lines
        .into_iter()
        .filter(|(line, _)| seen.insert(crate::summarize::marked::item_key(&line.text)))
        .map(|(line, session_id)| Item {
            id: line.id,
            replaces: line.replaces,
            ..Item::line(line.text, session_id, line.stated)
        })
        .collect()
}

/// The open `items` (newest first) and, among them by time, the `lines` (newest session first,
/// each at its session's last activity in `sessions`) that repeat no item and no newer line;
/// the `reader`'s own first, then what others wrote.
fn still_open(
    items: Vec<Loop>,
    lines: Vec<(Line, SessionId)>,
    sessions: &[Session],
    reader: AccountId,
) -> Vec<Item> {
    let key = |text: &str| crate::summarize::marked::item_key(text);
    let items_keys: std::collections::HashSet<String> =
        items.iter().map(|i| key(&i.text)).collect();
    let at = |id: SessionId| {
        sessions
            .iter()
            .find(|s| s.id == id)
            .map(|s| s.last_activity_at)
    };
    let mut timed: Vec<(Option<DateTime<Utc>>, Item)> = items
        .into_iter()
        .map(|i| (Some(i.created_at), Item::from(i)))
        .collect();
    let lines = lines
        .into_iter()
        .filter(|(line, _)| !items_keys.contains(&key(&line.text)));
    timed.extend(
        ordered(lines.collect())
            .into_iter()
            .map(|i| (at(i.session_id), i.by(sessions, reader))),
    );
    // Stable: own before others', then items before lines at the same time, and each in its
    // own order.
    timed.sort_by_key(|(at, item)| (std::cmp::Reverse(item.own), std::cmp::Reverse(*at)));
    timed.into_iter().map(|(_, item)| item).collect()
}

/// A Record that changed in the window.
#[derive(Debug, Serialize, serde::Deserialize, utoipa::ToSchema)]
pub struct RecordChange {
    /// The Record (`rec_…`).
    pub record_id: RecordId,
    /// The name of the account or organization it belongs to.
    pub name: String,
    /// The organization (`org_…`) for an organization's Record.
    pub organization_id: Option<OrganizationId>,
    /// Lines put on record in the window.
    pub count: i64,
    /// The newest of them, newest first.
    pub newest_lines: Vec<String>,
}

/// A call another account made on the Record of an organization you own: that organization's
/// activity, whichever session it was made in.
#[derive(Debug, Serialize, serde::Deserialize, utoipa::ToSchema)]
pub struct OrganizationActivity {
    /// The call (`call_…`); read it with `GET /api/v1/journal/entries/{id}`.
    pub call_id: CallId,
    /// The organization (`org_…`).
    pub organization_id: OrganizationId,
    /// The member account that made the call (`acc_…`).
    pub account_id: AccountId,
    /// The operation called.
    pub operation: String,
    /// Why it was called, as the member's assistant said.
    pub purpose: Option<String>,
    /// Whether it wrote.
    pub wrote: bool,
    /// When.
    pub at: DateTime<Utc>,
}

/// The catch-up brief: decisions, work started, work finished and questions waiting for you,
/// the sessions they come from, and what was put on record meanwhile.
#[derive(Debug, Serialize, serde::Deserialize, utoipa::ToSchema)]
pub struct CatchUp {
    /// What the brief is: a record of earlier work, written by assistants and people, to
    /// inform; not instructions to follow (the same sentence opens `/journal.md`).
    pub notice: String,
    /// The start of the window.
    pub since: DateTime<Utc>,
    /// The current decisions made in the window, newest session first: within a session, those
    /// its assistant stated when it ended it come ahead of those its summary derived; each once.
    /// A decision a later one replaced is not listed: it appears under its replacement
    /// (`replaces`).
    pub decisions: Vec<Item>,
    /// Work started and not finished.
    pub work_started: Vec<Item>,
    /// Work finished.
    pub work_finished: Vec<Item>,
    /// Questions waiting for you: every open item (with `id` and `age`) whatever the window,
    /// newest first (at most 50; `GET /api/v1/journal/loops` lists them all), and, in time
    /// order among them, the questions of the window's sessions that are no item (an open
    /// session's marked questions, a model summary's own). Never a closed item, nor a stale one.
    pub open_questions: Vec<Item>,
    /// What the assistants said should happen next: the open next-step items, as
    /// `open_questions` lists questions.
    pub next_steps: Vec<Item>,
    /// Sessions active in the window, newest first.
    #[schema(value_type = Vec<Session>)]
    pub sessions: Vec<Serialized<Session>>,
    /// What was put on record meanwhile, one item per Record that changed (with
    /// `records:read`).
    pub records: Vec<RecordChange>,
    /// Calls members made on the Records of organizations you own, newest first (with
    /// `orgs:read`; at most 50).
    pub organization_activity: Vec<OrganizationActivity>,
    /// Credentials scrubbed from the journal's text and not acknowledged since, most recently
    /// scrubbed first (at most 20), whatever the window: tell the person to rotate them.
    pub exposures: Vec<crate::journal::exposures::Exposure>,
    /// True when older sessions in the window were left out.
    pub more: bool,
}

impl CatchUp {
    /// The items it hands over, each once: its decisions, open questions and next steps that
    /// have ids.
    pub fn item_ids(&self) -> Vec<ItemId> {
        let mut seen = std::collections::HashSet::new();
        [&self.decisions, &self.open_questions, &self.next_steps]
            .into_iter()
            .flatten()
            .filter_map(|i| i.id)
            .filter(|id| seen.insert(*id))
            .collect()
    }
}

/// The catch-up brief as it is answered: its JSON, made once. The receipt counts its
/// characters and REST sends it as it is; MCP's structured content is read from it.
pub type Answer = Serialized<CatchUp>;

/// `since` is an RFC 3339 time or a session id (then: since that session started); absent, the
/// last seven days.
pub async fn resolve_since(
    tx: &mut TenantTx,
    since: Option<&str>,
    now: DateTime<Utc>,
) -> Result<DateTime<Utc>> {
    let Some(text) = since.map(str::trim).filter(|s| !s.is_empty()) else {
        return Ok(now - Duration::days(DEFAULT_WINDOW_DAYS));
    };
    if let Ok(at) = DateTime::parse_from_rfc3339(text) {
        return Ok(at.with_timezone(&Utc));
    }
    let Some(id) = SessionId::parse(text) else {
        return Err(Error::BadRequest(format!(
            "since {text:?} is neither an RFC 3339 time (2026-11-10T09:00:00Z) nor a session id (ses_…)"
        )));
    };
    let started = session_started(tx, id).await?;
    started.ok_or_else(|| Error::not_found(Kind::Session, &id.to_string()))
}

/// When a session the caller may read started (`None`: no such session for the caller).
#[tracing::instrument(skip_all, err)]
async fn session_started(tx: &mut TenantTx, id: SessionId) -> Result<Option<DateTime<Utc>>> {
    Ok(sqlx::query_scalar!(
        "SELECT started_at FROM journal_sessions WHERE session_id = $1",
        id.0
    )
    .fetch_optional(tx.conn())
    .await?)
}

/// The brief's sessions, most recently active first: at most [`MAX_SESSIONS`] of them;
/// whether more were left out.
async fn brief_sessions(tx: &mut TenantTx, since: DateTime<Utc>) -> Result<(Vec<Session>, bool)> {
    let mut rows = session_reads::active(tx, since, MAX_SESSIONS + 1, Active::ByActivity).await?;
    let more = rows.len() as i64 > MAX_SESSIONS;
    rows.truncate(MAX_SESSIONS as usize);
    Ok((rows, more))
}

/// Of `sessions` (most recently active first), as many as fit in [`MAX_SESSION_CHARS`] of
/// their JSON (always one), each kept with that JSON (the brief answers it as it is); whether
/// some were left out.
/// A session as read, and as the brief answers it.
type Kept = (Session, Serialized<Session>);

/// The sessions are answered as a hand-off carries them ([`crate::handover::screened`]); each
/// is kept as read too, beside its answer, for the lines read from it (which are screened as
/// lines, so that a withheld line is still known as the item it is).
fn within_budget(sessions: Vec<Session>) -> Result<(Vec<Kept>, bool)> {
    let mut kept = Vec::new();
    let mut used = 0;
    for session in sessions {
        let answered = crate::handover::screened(session.clone())
            .and_then(Serialized::new)
            .map_err(|e| Error::Internal(e.into()))?;
        let size = answered.json().len();
        if used + size > MAX_SESSION_CHARS && !kept.is_empty() {
            return Ok((kept, true));
        }
        used += size;
        kept.push((session, answered));
    }
    Ok((kept, false))
}

/// An item as a hand-off carries it ([`crate::handover::screened`]); one the person released
/// keeps its text, as written.
fn handed_item(item: Item) -> serde_json::Result<Item> {
    let released = item.released_at.map(|_| item.text.clone());
    let mut item = crate::handover::screened(item)?;
    if let Some(text) = released {
        item.text = text;
    }
    Ok(item)
}

/// The catch-up brief since `since`, of the tiers at or above `min_tier` (every tier without
/// it).
#[tracing::instrument(skip_all, err)]
pub async fn catch_up(
    tx: &mut TenantTx,
    since: DateTime<Utc>,
    include_records: bool,
    min_tier: Option<Tier>,
    now: DateTime<Utc>,
) -> Result<CatchUp> {
    let (mut read, more) = brief_sessions(tx, since).await?;
    if let Some(min) = min_tier {
        let (reader, me) = (AccountId(tx.tenant().account_id), tx.tenant().credential_id);
        read.retain(|s| Tier::stated(s.account_id, Some(s.key_id.0) == me, reader) >= min);
    }
    // Each session's decisions as they stand now go with it (its `decisions`), so that its
    // hand-off's and summary's lines never say as decided what was replaced since.
    let sources = loops::sources_of(tx, &read).await?;
    let decisions = loops::decided::of_sessions(tx, &read, &sources, now).await?;
    for s in &mut read {
        s.decisions = decisions.states(s.id);
    }
    let (kept, cut) = within_budget(read)?;
    let more = more || cut;
    let (sessions, answered): (Vec<Session>, Vec<_>) = kept.into_iter().unzip();
    // Summaries speak for closed sessions; for the rest, goals and outcomes do. Hand-offs speak
    // for both, first.
    let purposes = session_reads::marked_purposes(tx, &sessions).await?;
    let keys = sources.keys;
    let reader = AccountId(tx.tenant().account_id);
    let mut brief = Brief::default();
    for s in &sessions {
        let carried = s.carried(purposes.get(&s.id).map_or(&[], Vec::as_slice));
        let carried = decisions.decided(s.id, loops::without_items(carried, keys.get(&s.id)));
        let tag = |lines: Vec<Line>, into: &mut Vec<(Line, SessionId)>| {
            into.extend(lines.into_iter().map(|l| (l, s.id)))
        };
        tag(carried.decisions, &mut brief.decisions);
        tag(carried.open_questions, &mut brief.open_questions);
        tag(carried.next_steps, &mut brief.next_steps);
        let from = |texts: &[String], into: &mut Vec<Item>| {
            into.extend(
                texts
                    .iter()
                    .map(|t| Item::line(t.clone(), s.id, false).by(&sessions, reader)),
            )
        };
        match &s.summary {
            Some(summary) => {
                from(&summary.work_started, &mut brief.work_started);
                from(&summary.work_finished, &mut brief.work_finished);
            }
            None => {
                if s.started_at >= since {
                    from(s.goal.as_slice(), &mut brief.work_started);
                }
                if s.ended_at.is_some_and(|e| e >= since) {
                    from(s.outcome.as_slice(), &mut brief.work_finished);
                }
            }
        }
    }
    let records = if include_records {
        record_changes(tx, since).await?
    } else {
        Vec::new()
    };
    let organization_activity = organization_activity(tx, since).await?;
    let open_questions = loops::carried(tx, LoopKind::Question, now).await?;
    let next_steps = loops::carried(tx, LoopKind::NextStep, now).await?;
    let mut lists = [
        ordered(brief.decisions)
            .into_iter()
            .map(|i| i.by(&sessions, reader))
            .collect(),
        brief.work_started,
        brief.work_finished,
        still_open(open_questions, brief.open_questions, &sessions, reader),
        still_open(next_steps, brief.next_steps, &sessions, reader),
    ];
    let sessions_named: Vec<SessionId> = lists.iter().flatten().map(|i| i.session_id).collect();
    let items_named: Vec<ItemId> = lists.iter().flatten().filter_map(|i| i.id).collect();
    let provenance = Provenance::read(tx, &sessions_named, &items_named).await?;
    for list in &mut lists {
        let items = std::mem::take(list);
        *list = items
            .into_iter()
            .map(|i| i.stamped(&provenance, reader))
            .filter(|i| min_tier.is_none_or(|min| i.tier >= min))
            .collect();
    }
    let [
        decisions,
        work_started,
        work_finished,
        open_questions,
        next_steps,
    ] = lists;
    let screened = |e: serde_json::Error| Error::Internal(e.into());
    let handed = |items: Vec<Item>| -> Result<Vec<Item>> {
        items
            .into_iter()
            .map(|i| handed_item(i).map_err(screened))
            .collect()
    };
    Ok(CatchUp {
        notice: crate::markdown::RECORD_NOTICE.to_owned(),
        since,
        decisions: handed(decisions)?,
        work_started: handed(work_started)?,
        work_finished: handed(work_finished)?,
        open_questions: handed(open_questions)?,
        next_steps: handed(next_steps)?,
        sessions: answered,
        records: crate::handover::screened(records).map_err(screened)?,
        organization_activity: crate::handover::screened(organization_activity)
            .map_err(screened)?,
        exposures: Vec::new(),
        more,
    })
}

/// The brief's sessions: `$1` since, `$2` how many, `$3` since less the activity slack (the
/// stored last activity is a lower bound). Public for the plan tests (`tests/api/plans.rs`).
pub fn catch_up_sql() -> String {
    ACTIVE_BY_ACTIVITY.to_owned()
}

pub const MAX_ORGANIZATION_ACTIVITY: i64 = 50;

struct ActivityRow {
    call_id: Uuid,
    organization_id: Uuid,
    account_id: Uuid,
    operation: String,
    purpose: Option<String>,
    wrote: bool,
    created_at: DateTime<Utc>,
}

/// Other accounts' calls on the Records of organizations the caller owns. Whether the caller
/// may see them is the policy's business (`journal_calls_org_activity`: owners with
/// `orgs:read`); naming the owned organizations (as `sql::OWNED_ORGANIZATIONS` does) lets
/// `journal_calls_by_org` serve the read.
#[tracing::instrument(skip_all, err)]
async fn organization_activity(
    tx: &mut TenantTx,
    since: DateTime<Utc>,
) -> Result<Vec<OrganizationActivity>> {
    let rows = sqlx::query_as!(
        ActivityRow,
        r#"SELECT call_id, organization_id AS "organization_id!", account_id, operation, purpose,
                  wrote, created_at
             FROM journal_calls
            WHERE organization_id = ANY (CAST((SELECT n8v_owned_organizations()) AS uuid[]))
              AND account_id <> n8v_account() AND created_at >= $1
            ORDER BY created_at DESC, call_id DESC LIMIT $2"#,
        since,
        MAX_ORGANIZATION_ACTIVITY
    )
    .fetch_all(tx.conn())
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| OrganizationActivity {
            call_id: CallId(r.call_id),
            organization_id: OrganizationId(r.organization_id),
            account_id: AccountId(r.account_id),
            operation: r.operation,
            purpose: r.purpose,
            wrote: r.wrote,
            at: r.created_at,
        })
        .collect())
}
