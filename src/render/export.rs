//! The export: the caller's whole visible journal (the sessions the list shows, their calls,
//! their summaries, and the week and month digests) merged in time order, read a page at a
//! time from one snapshot, so an account at the caps (20,000 sessions, 100,000 calls) streams
//! out in bounded memory: at most [`PAGE`] rows of each kind are held at once.
//!
//! Visibility is the policies' business, as for every read: the statements run in the caller's
//! tenant transaction and name the same sessions the list names (`visible_sessions`, without
//! the sessions that only read the journal); a call or summary is exported with its session.

use crate::db::{Db, Tenant, TenantTx};
use crate::error::Result;
use crate::ids::{AccountId, SessionId};
use crate::journal::session_reads;
use crate::journal::views::{Call, Session};
use crate::loops::{self, Loop};
use crate::summaries::digests::{self, Digest};
use crate::summarize::Summary;
use chrono::{DateTime, NaiveDate, Utc};
use futures_util::Stream;
use serde::Serialize;
use std::collections::VecDeque;
use uuid::Uuid;

mod markdown;
mod pages;

/// Rows one statement reads, per kind.
pub const PAGE: i64 = 500;

/// How the export is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One JSON object per line, each with its `type` (the default).
    Ndjson,
    /// One readable document.
    Markdown,
}

impl Format {
    /// `ndjson` (or nothing) or `markdown`.
    pub fn parse(text: Option<&str>) -> std::result::Result<Self, String> {
        match text.map(str::trim) {
            None | Some("") | Some("ndjson") => Ok(Format::Ndjson),
            Some("markdown") => Ok(Format::Markdown),
            Some(other) => Err(format!(
                "format {:?} is neither ndjson nor markdown",
                crate::ids::shown(other)
            )),
        }
    }
}

/// One line of the export: the object the API answers with for it, and its `type`. (Its
/// OpenAPI description is [`ExportLine`]: generators take a `oneOf` of tagged `allOf`s badly.)
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ExportItem {
    /// A session, as `GET /api/v1/journal/sessions/{id}` answers it; at its start.
    Session(Box<Session>),
    /// A call of an exported session, as `GET /api/v1/journal/entries/{id}` answers it.
    Call(Call),
    /// The stored summary of an exported session; at the time it was stored.
    Summary(SessionSummary),
    /// A week or month digest, as `GET /api/v1/journal/digests` answers it; when it was made.
    Digest(Digest),
    /// An item (an open question, next step or decision a session handed on), as
    /// `GET /api/v1/journal/loops` answers a loop, in its state now; when it was opened.
    Loop(Loop),
}

// Written as `ExportItem` (which adds the `type`); described untagged, as a plain `oneOf` of
// the four objects, since the SDK generators take a `oneOf` of tagged `allOf`s badly.
/// One NDJSON line of the export: a JSON object whose `type` (`session`, `call`, `summary`,
/// `digest` or `loop`) says which of these it is, with that object's fields besides.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(untagged)]
#[allow(dead_code)] // documentation only
pub enum ExportLine {
    Session(Box<Session>),
    Call(Call),
    Summary(SessionSummary),
    Digest(Digest),
    Loop(Loop),
}

/// A session's stored summary, with what wrote it and what it cost.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SessionSummary {
    /// The session summarised (`ses_…`).
    pub session_id: SessionId,
    pub summary: Summary,
    /// The model that wrote it, or `code`.
    pub model: Option<String>,
    /// What it cost, in US dollars (an exact decimal).
    pub cost_usd: Option<String>,
    pub input_tokens: Option<i64>,
    pub output_tokens: Option<i64>,
    /// Why a code summary was written instead, if it was.
    pub note: Option<String>,
    /// When it was stored (an episode's, written with its session: when the session ended).
    pub at: DateTime<Utc>,
}

impl ExportItem {
    /// Where the item sits in the export: its time, its kind, its id. Within a kind this is
    /// the order its statement reads in (time, id), so the last key read is the next cursor.
    fn key(&self) -> (DateTime<Utc>, u8, Uuid) {
        match self {
            ExportItem::Session(s) => (s.started_at, 0, s.id.0),
            ExportItem::Call(c) => (c.at, 1, c.id.0),
            ExportItem::Summary(s) => (s.at, 2, s.session_id.0),
            ExportItem::Digest(d) => (d.created_at, 3, d.id.0),
            ExportItem::Loop(l) => (l.created_at, 4, l.id.0),
        }
    }
}

#[derive(Clone, Copy)]
enum Kind {
    Session,
    Call,
    Summary,
    Digest,
    Loop,
}

/// One kind's rows: the page read and not yet sent, and where the next page starts.
struct Source {
    kind: Kind,
    page: VecDeque<ExportItem>,
    after: (DateTime<Utc>, Uuid),
    done: bool,
    /// When the export began: items' stale state and age are read at this time.
    now: DateTime<Utc>,
}

/// Before anything the journal holds.
fn start() -> DateTime<Utc> {
    NaiveDate::from_ymd_opt(1, 1, 1)
        .expect("a date")
        .and_time(chrono::NaiveTime::MIN)
        .and_utc()
}

impl Source {
    fn new(kind: Kind, now: DateTime<Utc>) -> Self {
        Self {
            kind,
            page: VecDeque::new(),
            after: (start(), Uuid::nil()),
            done: false,
            now,
        }
    }

    /// Reads the next page once the last one is sent.
    async fn fill(&mut self, tx: &mut TenantTx) -> Result<()> {
        if self.done || !self.page.is_empty() {
            return Ok(());
        }
        let after = self.after;
        let items: Vec<ExportItem> = match self.kind {
            Kind::Session => session_reads::export_page(tx, after, PAGE)
                .await?
                .into_iter()
                .map(|s| ExportItem::Session(Box::new(s)))
                .collect(),
            Kind::Call => pages::calls(tx, after, PAGE)
                .await?
                .into_iter()
                .map(ExportItem::Call)
                .collect(),
            Kind::Summary => pages::summaries(tx, after, PAGE)
                .await?
                .into_iter()
                .map(ExportItem::Summary)
                .collect(),
            Kind::Digest => digests::export_page(tx, after, PAGE)
                .await?
                .into_iter()
                .map(ExportItem::Digest)
                .collect(),
            Kind::Loop => loops::export_page(tx, after, PAGE, self.now)
                .await?
                .into_iter()
                .map(ExportItem::Loop)
                .collect(),
        };
        self.done = (items.len() as i64) < PAGE;
        if let Some(last) = items.last() {
            let (at, _, id) = last.key();
            self.after = (at, id);
        }
        self.page.extend(items);
        Ok(())
    }
}

/// The merge of every kind's pages in time order.
pub struct Export {
    sources: Vec<Source>,
}

impl Export {
    /// An export read at `now` (the clock items' stale state and age are derived from).
    pub fn new(now: DateTime<Utc>) -> Self {
        let kinds = [
            Kind::Session,
            Kind::Call,
            Kind::Summary,
            Kind::Digest,
            Kind::Loop,
        ];
        Self {
            sources: kinds.into_iter().map(|k| Source::new(k, now)).collect(),
        }
    }

    /// The next items in time order, at most [`PAGE`]; none once everything is read.
    pub async fn next(&mut self, tx: &mut TenantTx) -> Result<Vec<ExportItem>> {
        let mut out = Vec::new();
        while out.len() < PAGE as usize {
            for source in &mut self.sources {
                source.fill(tx).await?;
            }
            let first = self
                .sources
                .iter_mut()
                .filter(|s| !s.page.is_empty())
                .min_by_key(|s| s.page[0].key());
            match first.and_then(|s| s.page.pop_front()) {
                Some(item) => out.push(item),
                None => break,
            }
        }
        Ok(out)
    }
}

/// What the stream has done so far.
enum Progress {
    Begin(Db, Tenant, DateTime<Utc>),
    Reading(Box<Reading>),
    Done,
}

struct Reading {
    tx: TenantTx,
    export: Export,
    tally: markdown::Tally,
    now: DateTime<Utc>,
}

/// The export as text chunks (a page of items each), read in one read-only snapshot
/// transaction. The reading runs in a task of its own, a chunk ahead of the reader: when the
/// reader takes nothing for `limits.stall`, goes away, or the export passes `limits.longest`,
/// the task ends and the transaction is rolled back, so a stalled reader
/// holds a connection and a snapshot for a bounded time. `hold` (the export's slot) is kept
/// until the task ends.
pub fn stream(
    db: Db,
    tenant: Tenant,
    format: Format,
    now: DateTime<Utc>,
    limits: crate::config::ExportLimits,
    hold: impl Send + 'static,
) -> impl Stream<Item = Result<String>> {
    let (chunks, taken) = tokio::sync::mpsc::channel::<Result<String>>(1);
    // Set once the last chunk is sent: a body that ends without it ends with an error, so a
    // client never takes an export cut short for a whole one.
    let finished = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let finishes = finished.clone();
    tokio::spawn(async move {
        let _hold = hold;
        let ends = tokio::time::Instant::now() + limits.longest;
        let mut progress = Progress::Begin(db, tenant, now);
        loop {
            let chunk = tokio::time::timeout_at(ends, step(progress, format)).await;
            let (text, next) = match chunk {
                Ok(Ok(Some(step))) => step,
                Ok(Ok(None)) => {
                    finishes.store(true, std::sync::atomic::Ordering::Release);
                    return;
                }
                Ok(Err(e)) => {
                    let _ = chunks.send(Err(e)).await;
                    return;
                }
                Err(_) => {
                    tracing::warn!(
                        longest_secs = limits.longest.as_secs(),
                        "an export took longer than N8V_EXPORT_LONGEST_SECONDS; ended early"
                    );
                    return;
                }
            };
            if text.is_empty() {
                // Nothing to send (NDJSON's empty head): an empty chunk is no data for the reader.
                progress = next;
                continue;
            }
            let wait = (tokio::time::Instant::now() + limits.stall).min(ends);
            match tokio::time::timeout_at(wait, chunks.send(Ok(text))).await {
                Ok(Ok(())) => progress = next,
                // The reader went away.
                Ok(Err(_)) => return,
                Err(_) => {
                    tracing::warn!(
                        stall_secs = limits.stall.as_secs(),
                        "an export's reader took no data for N8V_EXPORT_STALL_SECONDS (or the \
                         export passed N8V_EXPORT_LONGEST_SECONDS); ended early"
                    );
                    return;
                }
            }
        }
    });
    futures_util::stream::unfold(Some(taken), move |taken| {
        let finished = finished.clone();
        async move {
            let mut taken = taken?;
            match taken.recv().await {
                Some(chunk) => Some((chunk, Some(taken))),
                None if finished.load(std::sync::atomic::Ordering::Acquire) => None,
                None => Some((
                    Err(crate::error::Error::Unavailable(
                        "the export ended early (its reader stalled, or it ran too long)".into(),
                    )),
                    None,
                )),
            }
        }
    })
}

/// The stream's next chunk: the markdown header first, then a page at a time, then the end.
async fn step(progress: Progress, format: Format) -> Result<Option<(String, Progress)>> {
    let mut reading = match progress {
        Progress::Done => return Ok(None),
        Progress::Reading(reading) => reading,
        Progress::Begin(db, tenant, now) => {
            let reading = Reading {
                tx: TenantTx::begin_snapshot(&db, &tenant).await?,
                export: Export::new(now),
                tally: markdown::Tally::default(),
                now,
            };
            let head = match format {
                Format::Ndjson => String::new(),
                Format::Markdown => markdown::HEADER.to_owned(),
            };
            return Ok(Some((head, Progress::Reading(Box::new(reading)))));
        }
    };
    let items = reading.export.next(&mut reading.tx).await?;
    if items.is_empty() {
        let Reading { tx, tally, .. } = *reading;
        tx.commit().await?;
        let tail = match format {
            Format::Ndjson => String::new(),
            Format::Markdown => tally.footer(),
        };
        return Ok(Some((tail, Progress::Done)));
    }
    let text = match format {
        Format::Ndjson => ndjson(&items),
        Format::Markdown => {
            let reader = AccountId(reading.tx.tenant().account_id);
            let sessions: Vec<Session> = items
                .iter()
                .filter_map(|i| match i {
                    ExportItem::Session(s) => Some(Session::clone(s)),
                    _ => None,
                })
                .collect();
            let purposes =
                crate::journal::session_reads::marked_purposes(&mut reading.tx, &sessions).await?;
            let sources = loops::sources_of(&mut reading.tx, &sessions).await?;
            let decisions =
                loops::decided::of_sessions(&mut reading.tx, &sessions, &sources, reading.now)
                    .await?;
            markdown::render(&items, reader, &purposes, &decisions, &mut reading.tally)
        }
    };
    Ok(Some((text, Progress::Reading(reading))))
}

/// Items as NDJSON: one object a line, each ending in a newline.
pub fn ndjson(items: &[ExportItem]) -> String {
    let mut out = String::new();
    for item in items {
        // Serializing our own types to a string cannot fail.
        out.push_str(&serde_json::to_string(item).unwrap_or_default());
        out.push('\n');
    }
    out
}
