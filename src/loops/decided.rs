//! Decisions as readers are given them: each session's decision lines, with a replaced
//! decision left out and a current one carrying its id and what it replaced, so that nothing
//! replaced is ever presented as current (the brief, `/journal.md`, the resources, the export's
//! markdown). A line that is no item (a model summary's own, an open session's marked text) is
//! left out too when its text is that of a decision replaced.
//!
//! Where a decision's own line is shown as its session's (a session's `decisions`, a digest's
//! lines, the pages), it carries its state instead ([`DecisionState`]): `current`, or
//! `replaced` and by which decision, named only when the reader can read it (the statements
//! run under the policies).
//!
//! A model's summary may say which decisions in force its session replaced (it is shown those
//! its session's credential can read, [`in_force`]). That is its reading, not the assistant's
//! word: it is shown under the session's decision with `stated: false` and is never applied, so
//! the earlier decision stays current until the session's assistant or the person replaces it.

use super::Sources;
use super::rows::{LoopRow, loop_rows, loops_seen};
use super::{Loop, view};
use crate::db::TenantTx;
use crate::error::Result;
use crate::handover::provenance::{Provenance, Stamp, Tier};
use crate::ids::{AccountId, ItemId, SessionId};
use crate::journal::handoff::{Carried, DecisionState, Line, Replaced, Replacing};
use crate::journal::views::Session;
use crate::summarize::InForce;
use crate::summarize::marked::item_key;
use chrono::{DateTime, Utc};
use std::collections::{HashMap, HashSet};
use uuid::Uuid;

/// Most decisions in force a summary's model is shown (the newest).
pub const MAX_IN_FORCE: i64 = 20;

/// The current decisions of other sessions, made by the time `session` ended, that its
/// credential can read and so could replace — its account's own, opened in sessions whose
/// scopes it holds, and only its own sessions' when it is restricted to a repository (as
/// `journal_sessions_visible` reads) — newest first, at most [`MAX_IN_FORCE`]: what a model
/// drafting `session`'s summary is shown and may say it replaced. Written out rather than left
/// to the policies, because the summary job reads as the service, which sees every session of
/// the account.
#[tracing::instrument(skip_all, err)]
pub async fn in_force(tx: &mut TenantTx, session: SessionId) -> sqlx::Result<Vec<InForce>> {
    let rows = sqlx::query!(
        "SELECT l.loop_id, l.text FROM journal_loops l
           JOIN journal_sessions o ON o.account_id = l.account_id AND o.session_id = l.session_id
           JOIN journal_sessions s ON s.account_id = l.account_id AND s.session_id = $1
          WHERE l.account_id = n8v_account() AND l.kind = 'decision' AND l.state = 'open'
            AND l.created_at <= COALESCE(s.ended_at, 'infinity')
            AND o.scopes <@ s.scopes
            AND (s.repository IS NULL OR o.credential_id = s.credential_id)
            AND NOT EXISTS (SELECT 1 FROM journal_loop_sources x
                             WHERE x.account_id = l.account_id AND x.loop_id = l.loop_id
                               AND x.session_id = $1)
          ORDER BY l.created_at DESC, l.loop_id DESC LIMIT $2",
        session.0,
        MAX_IN_FORCE,
    )
    .fetch_all(tx.conn())
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| InForce {
            id: ItemId(r.loop_id),
            text: r.text,
        })
        .collect())
}

/// The decision items of some sessions, and what the current ones replaced.
#[derive(Default)]
pub struct Decisions {
    /// Each session's decision items, by item key.
    of: HashMap<SessionId, HashMap<String, Loop>>,
    /// What each current decision replaced, oldest first.
    under: HashMap<ItemId, Vec<Loop>>,
    /// The keys of the replaced decisions read.
    gone: HashSet<String>,
    /// The keys of the current decisions read.
    current: HashSet<String>,
    /// What sessions' summaries say they replaced, by the key of the session's decision that
    /// replaced it: derived, never applied (`summarize::Summary::replaces`), and only current
    /// decisions the reader can read.
    said: HashMap<SessionId, Vec<(String, Replaced)>>,
    /// The text of every decision read, by id: what a replaced decision's state names of the
    /// decision that replaced it.
    texts: HashMap<ItemId, String>,
}

/// The decision items `sessions` opened or joined (`sources`, read with
/// [`super::sources_of`]), as the caller reads them, the decisions the current ones among them
/// replaced, and what the sessions' summaries say they replaced: one statement reads them all.
#[tracing::instrument(skip_all, err)]
pub async fn of_sessions(
    tx: &mut TenantTx,
    sessions: &[Session],
    sources: &Sources,
    now: DateTime<Utc>,
) -> Result<Decisions> {
    // What the summaries say their sessions' decisions replaced (derived, never applied).
    let claims: Vec<(SessionId, &Replacing)> = sessions
        .iter()
        .flat_map(|s| {
            s.summary
                .iter()
                .flat_map(move |x| x.replaces.iter().map(move |r| (s.id, r)))
        })
        .collect();
    let mut ids: Vec<Uuid> = sources.decisions.iter().map(|(_, item, _)| *item).collect();
    ids.extend(claims.iter().map(|(_, r)| r.replaces.0));
    ids.sort_unstable();
    ids.dedup();
    if ids.is_empty() {
        return Ok(Decisions::default());
    }
    // The items themselves and those they replaced, oldest first, as the caller sees them.
    let rows: Vec<Loop> = loops_seen!(visible
        "(loop_id = ANY ($1) OR replaced_by = ANY ($1))"
        "created_at, loop_id" "ORDER BY created_at, loop_id", &ids)
    .fetch_all(tx.conn())
    .await?
    .into_iter()
    .map(|r| view(r, now))
    .collect();
    let by_id: HashMap<ItemId, &Loop> = rows.iter().map(|l| (l.id, l)).collect();
    let mut decisions = Decisions {
        texts: texts_with_replacements(tx, &rows, now).await?,
        ..Decisions::default()
    };
    for (session, item, key) in &sources.decisions {
        if let Some(item) = by_id.get(&ItemId(*item)) {
            decisions
                .of
                .entry(*session)
                .or_default()
                .insert(key.clone(), Loop::clone(item));
        }
    }
    // Every decision item the sessions name (one may be named twice).
    let items: Vec<&Loop> = sources
        .decisions
        .iter()
        .filter_map(|(_, item, _)| by_id.get(&ItemId(*item)).copied())
        .collect();
    let current: HashSet<ItemId> = items
        .iter()
        .filter(|i| i.replaced_by.is_none() && i.state == "current")
        .map(|i| i.id)
        .collect();
    for replaced in &rows {
        if let Some(by) = replaced.replaced_by.filter(|by| current.contains(by)) {
            decisions
                .under
                .entry(by)
                .or_default()
                .push(replaced.clone());
        }
    }
    decisions.said = said(claims, &by_id);
    for item in items.into_iter().chain(decisions.under.values().flatten()) {
        let key = item_key(&item.text);
        if item.state == "current" {
            decisions.current.insert(key);
        } else {
            decisions.gone.insert(key);
        }
    }
    Ok(decisions)
}

/// `sessions` with their decisions as they stand now ([`Session::decisions`]): read as the
/// caller, as the brief reads them.
#[tracing::instrument(skip_all, err)]
pub async fn with_states(
    tx: &mut TenantTx,
    sessions: &mut [Session],
    now: DateTime<Utc>,
) -> Result<()> {
    let sources = super::sources_of(tx, sessions).await?;
    let decisions = of_sessions(tx, sessions, &sources, now).await?;
    for s in sessions {
        s.decisions = decisions.states(s.id);
    }
    Ok(())
}

/// `item`, a decision, as it stands: `texts` holds the words of the decisions read, among them
/// the one that replaced it when the reader can read it.
fn state(item: &Loop, texts: &HashMap<ItemId, String>) -> DecisionState {
    DecisionState {
        id: item.id,
        text: item.text.clone(),
        state: item.state.clone(),
        replaced_by: item.replaced_by,
        replaced_by_text: item.replaced_by.and_then(|by| texts.get(&by).cloned()),
    }
}

/// Decisions read by id as they stand now, for text stored with the ids of the decisions it
/// holds (a digest's, `summaries::digests::decision_ids`).
#[derive(Default)]
pub struct Standing(HashMap<ItemId, DecisionState>);

impl Standing {
    /// Of the decisions `ids` (one digest's), the one said as `text`, compared as items are.
    pub fn said_as(&self, ids: &[ItemId], text: &str) -> Option<&DecisionState> {
        let key = item_key(text);
        ids.iter()
            .filter_map(|id| self.0.get(id))
            .find(|d| item_key(&d.text) == key)
    }
}

/// The decisions `ids`, and the words of those that replaced them, as the caller reads them
/// at `now`: a decision the caller cannot read is left out, and so is a replacement.
#[tracing::instrument(skip_all, err)]
pub async fn standing(tx: &mut TenantTx, ids: &[ItemId], now: DateTime<Utc>) -> Result<Standing> {
    let mut ids: Vec<Uuid> = ids.iter().map(|i| i.0).collect();
    ids.sort_unstable();
    ids.dedup();
    if ids.is_empty() {
        return Ok(Standing::default());
    }
    let rows = decisions_read(tx, &ids, now).await?;
    let texts = texts_with_replacements(tx, &rows, now).await?;
    Ok(Standing(
        rows.iter().map(|l| (l.id, state(l, &texts))).collect(),
    ))
}

/// The decisions `ids` the caller reads.
async fn decisions_read(tx: &mut TenantTx, ids: &[Uuid], now: DateTime<Utc>) -> Result<Vec<Loop>> {
    let rows = loops_seen!(visible "kind = 'decision' AND loop_id = ANY ($1)"
        "loop_id" "ORDER BY loop_id", ids)
    .fetch_all(tx.conn())
    .await?;
    Ok(rows.into_iter().map(|r| view(r, now)).collect())
}

/// The text of each of `rows`, and of each decision that replaced one of them that the caller
/// reads (those not among `rows` are read here, in one statement, when there are any).
async fn texts_with_replacements(
    tx: &mut TenantTx,
    rows: &[Loop],
    now: DateTime<Utc>,
) -> Result<HashMap<ItemId, String>> {
    let mut texts: HashMap<ItemId, String> = rows.iter().map(|l| (l.id, l.text.clone())).collect();
    let mut missing: Vec<Uuid> = rows
        .iter()
        .filter_map(|l| l.replaced_by)
        .filter(|by| !texts.contains_key(by))
        .map(|by| by.0)
        .collect();
    missing.sort_unstable();
    missing.dedup();
    if !missing.is_empty() {
        let replacing = decisions_read(tx, &missing, now).await?;
        texts.extend(replacing.into_iter().map(|l| (l.id, l.text)));
    }
    Ok(texts)
}

/// What the sessions' summaries say they replaced (`claims`), as [`Decisions::said`] keeps
/// it: each still current and readable by the caller (among `read`).
fn said(
    claims: Vec<(SessionId, &Replacing)>,
    read: &HashMap<ItemId, &Loop>,
) -> HashMap<SessionId, Vec<(String, Replaced)>> {
    let mut said: HashMap<SessionId, Vec<(String, Replaced)>> = HashMap::new();
    for (session, r) in claims {
        let Some(d) = read.get(&r.replaces).filter(|d| d.state == "current") else {
            continue;
        };
        let replaced = Replaced {
            id: d.id,
            text: d.text.clone(),
            session_id: d.session_id,
            stated: false,
        };
        said.entry(session)
            .or_default()
            .push((item_key(&r.decision), replaced));
    }
    said
}

impl Decisions {
    /// The sessions and ids of the decisions it holds (what their provenance is read for).
    pub fn sessions_and_items(&self) -> (Vec<SessionId>, Vec<ItemId>) {
        let items = self.of.values().flat_map(|m| m.values());
        items.map(|i| (i.session_id, i.id)).unzip()
    }

    /// Stamps every decision it holds with its author, time and tier for the `reader`.
    pub fn stamp(&mut self, provenance: &Provenance, reader: AccountId) {
        super::stamp(
            self.of.values_mut().flat_map(|m| m.values_mut()),
            provenance,
            reader,
        );
    }

    /// `carried` with its decisions as they stand (see the module): `session`'s replaced ones
    /// gone, its current ones with their ids and what they replaced.
    pub fn decided(&self, session: SessionId, mut carried: Carried) -> Carried {
        let items = self.of.get(&session);
        let lines = std::mem::take(&mut carried.decisions);
        let mut shown = HashSet::new();
        carried.decisions = lines
            .into_iter()
            .filter_map(|line| {
                let key = item_key(&line.text);
                match items.and_then(|i| i.get(&key)) {
                    Some(item) if item.state != "current" => None,
                    Some(item) => {
                        shown.insert(item.id);
                        Some(self.line(session, item, line))
                    }
                    None if self.gone.contains(&key) && !self.current.contains(&key) => None,
                    None => Some(Line {
                        replaces: self.said(session, &key, &[]),
                        ..line
                    }),
                }
            })
            .collect();
        // A current decision of the session that none of its lines says (its summary, written
        // later, speaks for it in other words, or not at all) is the session's all the same.
        let mut rest: Vec<&Loop> = items
            .into_iter()
            .flat_map(|i| i.values())
            .filter(|i| i.state == "current" && !shown.contains(&i.id))
            .collect();
        rest.sort_by_key(|i| i.id);
        for item in rest {
            let line = Line {
                text: item.text.clone(),
                stated: item.stated,
                id: None,
                replaces: Vec::new(),
            };
            carried.decisions.push(self.line(session, item, line));
        }
        carried
    }

    /// The decision items of `session`, current or replaced, each as it stands now (see
    /// [`Session::decisions`]), in the order they were opened.
    pub fn states(&self, session: SessionId) -> Vec<DecisionState> {
        let mut items: Vec<&Loop> = self
            .of
            .get(&session)
            .into_iter()
            .flat_map(|i| i.values())
            .collect();
        items.sort_by_key(|i| i.id);
        items.into_iter().map(|i| state(i, &self.texts)).collect()
    }

    /// `line`, said in `session` of the current decision `item`: with its id, what it replaced,
    /// then what the session's summary says it replaced (derived).
    fn line(&self, session: SessionId, item: &Loop, line: Line) -> Line {
        Line {
            id: Some(item.id),
            replaces: self.replaces(session, item),
            ..line
        }
    }

    /// What `item`, a current decision of `session`, replaced, then what the session's summary
    /// says it replaced and it did not (derived).
    fn replaces(&self, session: SessionId, item: &Loop) -> Vec<Replaced> {
        let mut replaced = self.replaced(item.id);
        let said = self.said(session, &item_key(&item.text), &replaced);
        replaced.extend(said);
        replaced
    }

    /// What `session`'s summary says its decision `key` replaced, leaving out `known` and the
    /// decision itself, each once.
    fn said(&self, session: SessionId, key: &str, known: &[Replaced]) -> Vec<Replaced> {
        let mut out: Vec<Replaced> = Vec::new();
        for (by, r) in self.said.get(&session).into_iter().flatten() {
            let new = !known.iter().chain(&out).any(|k| k.id == r.id);
            if by == key && new && item_key(&r.text) != key {
                out.push(r.clone());
            }
        }
        out
    }

    /// The "Decided" section of `/journal.md`: the current decisions of `sessions` (newest
    /// first), each with what it replaced, as many as fit in `max_chars` (none: empty); and the
    /// ids it shows. It leads the window with "Still open", so that at a small budget the
    /// current decisions are there before any session's entry.
    pub fn markdown(
        &self,
        sessions: &[SessionId],
        max_chars: usize,
        min: Option<Tier>,
    ) -> (String, Vec<ItemId>) {
        const HEAD: &str = "## Decided (current)\n";
        let mut seen = HashSet::new();
        let mut items: Vec<(SessionId, &Loop)> = Vec::new();
        for session in sessions {
            let mut of = self.current_of(*session);
            of.retain(|i| Stamp::at_least(i.stamp.as_ref(), min) && seen.insert(i.id));
            of.sort_by_key(|i| (!i.stated, i.id));
            items.extend(of.into_iter().map(|i| (*session, i)));
        }
        let chars = |s: &str| s.chars().count();
        if items.is_empty() || chars(HEAD) + 1 > max_chars {
            return (String::new(), Vec::new());
        }
        let mut budget = max_chars - chars(HEAD) - 1;
        let (mut out, mut shown) = (HEAD.to_owned(), Vec::new());
        for (session, item) in items {
            let text = self.section_line(session, item);
            if chars(&text) > budget {
                break;
            }
            budget -= chars(&text);
            out.push_str(&text);
            shown.push(item.id);
        }
        if shown.is_empty() {
            return (String::new(), Vec::new());
        }
        out.push('\n');
        (out, shown)
    }

    /// One current decision of `session`: the reader's own as its note, another account's as
    /// that account's words (as "Still open" names them); what it replaced after it.
    fn section_line(&self, session: SessionId, item: &Loop) -> String {
        let (text, note) = crate::markdown::handed_item(&item.text, item.stamp.as_ref());
        let replaces = replaces_note(&self.replaces(session, item), crate::markdown::handed);
        match item.written_by {
            Some(author) if !item.own => format!(
                "- Written by account {author}, not by you; their decision: “{text}”{replaces} · {}{note}\n",
                item.id
            ),
            _ => format!("- Decided: {text}{replaces} · {}{note}\n", item.id),
        }
    }

    /// The current decisions of `session`, in no order.
    fn current_of(&self, session: SessionId) -> Vec<&Loop> {
        self.of
            .get(&session)
            .into_iter()
            .flat_map(|items| items.values())
            .filter(|i| i.state == "current")
            .collect()
    }

    /// The current decisions of `session` (what a reader shown its lines was handed).
    pub fn ids_of(&self, session: SessionId) -> Vec<ItemId> {
        let mut ids: Vec<ItemId> = self.current_of(session).iter().map(|i| i.id).collect();
        ids.sort();
        ids
    }

    fn replaced(&self, by: ItemId) -> Vec<Replaced> {
        self.under
            .get(&by)
            .into_iter()
            .flatten()
            .map(|r| Replaced {
                id: r.id,
                text: r.text.clone(),
                session_id: r.session_id,
                stated: true,
            })
            .collect()
    }
}

/// What a decision's line says of the decisions it replaced (`text` renders each): those it
/// replaced as "(replaces: …)", then those only its summary says it replaced as "(its summary
/// says it replaces, not applied: …)". Empty when there are none.
pub fn replaces_note(replaced: &[Replaced], text: impl Fn(&str) -> String) -> String {
    let said = |stated: bool| -> Vec<String> {
        replaced
            .iter()
            .filter(|r| r.stated == stated)
            .map(|r| text(&r.text))
            .collect()
    };
    let mut note = String::new();
    let (applied, derived) = (said(true), said(false));
    if !applied.is_empty() {
        note.push_str(&format!(" (replaces: {})", applied.join("; ")));
    }
    if !derived.is_empty() {
        note.push_str(&format!(
            " (its summary says it replaces, not applied: {})",
            derived.join("; ")
        ));
    }
    note
}
