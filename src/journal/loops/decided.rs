//! Decisions as readers are given them: each session's decision lines, with a replaced
//! decision left out and a current one carrying its id and what it replaced, so that nothing
//! replaced is ever presented as current (the brief, `/journal.md`, the resources, the export's
//! markdown). A line that is no item (a model summary's own, an open session's marked text) is
//! left out too when its text is that of a decision replaced.

use super::rows::{LoopRow, loop_rows, loops_seen};
use super::{Loop, view};
use crate::db::TenantTx;
use crate::error::Result;
use crate::ids::{ItemId, SessionId};
use crate::journal::handoff::{Carried, Line, Replaced};
use crate::journal::markdown::inert;
use crate::journal::views::Session;
use crate::summarize::marked::item_key;
use chrono::{DateTime, Utc};
use std::collections::{HashMap, HashSet};
use uuid::Uuid;

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
}

/// The decision items `sessions` opened or joined, as the caller reads them, and the
/// decisions the current ones among them replaced.
#[tracing::instrument(skip_all, err)]
pub async fn of_sessions(
    tx: &mut TenantTx,
    sessions: &[Session],
    now: DateTime<Utc>,
) -> Result<Decisions> {
    let (accounts, ids): (Vec<Uuid>, Vec<Uuid>) =
        sessions.iter().map(|s| (s.account_id.0, s.id.0)).unzip();
    if ids.is_empty() {
        return Ok(Decisions::default());
    }
    let sources = sqlx::query!(
        "SELECT session_id, loop_id, item_key FROM journal_loop_sources \
         WHERE (account_id, session_id) IN (SELECT * FROM unnest($1::uuid[], $2::uuid[])) \
           AND kind = 'decision'",
        &accounts,
        &ids,
    )
    .fetch_all(tx.conn())
    .await?;
    let items: Vec<Uuid> = sources.iter().map(|s| s.loop_id).collect();
    let rows = in_order(tx, &items, false).await?;
    let items: HashMap<Uuid, Loop> = rows
        .into_iter()
        .map(|r| (r.loop_id, view(r, now)))
        .collect();
    let mut decisions = Decisions::default();
    for s in sources {
        if let Some(item) = items.get(&s.loop_id) {
            decisions
                .of
                .entry(SessionId(s.session_id))
                .or_default()
                .insert(s.item_key, item.clone());
        }
    }
    let current: Vec<Uuid> = items
        .values()
        .filter(|i| i.replaced_by.is_none() && i.state == "current")
        .map(|i| i.id.0)
        .collect();
    for r in in_order(tx, &current, true).await? {
        let replaced = view(r, now);
        if let Some(by) = replaced.replaced_by {
            decisions.under.entry(by).or_default().push(replaced);
        }
    }
    for item in items.values().chain(decisions.under.values().flatten()) {
        let key = item_key(&item.text);
        if item.state == "current" {
            decisions.current.insert(key);
        } else {
            decisions.gone.insert(key);
        }
    }
    Ok(decisions)
}

/// The decisions among `ids` (`replaced_by`: those they replaced), oldest first, as the
/// caller sees them.
async fn in_order(tx: &mut TenantTx, ids: &[Uuid], replaced_by: bool) -> Result<Vec<LoopRow>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let rows = if replaced_by {
        loops_seen!(visible
            "replaced_by = ANY ($1)" "created_at, loop_id" "ORDER BY created_at, loop_id", ids)
        .fetch_all(tx.conn())
        .await?
    } else {
        loops_seen!(visible
            "loop_id = ANY ($1)" "created_at, loop_id" "ORDER BY created_at, loop_id", ids)
        .fetch_all(tx.conn())
        .await?
    };
    Ok(rows)
}

impl Decisions {
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
                        Some(self.line(item, line))
                    }
                    None if self.gone.contains(&key) && !self.current.contains(&key) => None,
                    None => Some(line),
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
            carried.decisions.push(self.line(item, line));
        }
        carried
    }

    /// `line`, said of the current decision `item`: with its id and what it replaced.
    fn line(&self, item: &Loop, line: Line) -> Line {
        Line {
            id: Some(item.id),
            replaces: self.replaced(item.id),
            ..line
        }
    }

    /// The "Decided" section of `/journal.md`: the current decisions of `sessions` (newest
    /// first), each with what it replaced, as many as fit in `max_chars` (none: empty); and the
    /// ids it shows. It leads the window with "Still open", so that at a small budget the
    /// current decisions are there before any session's entry.
    pub fn markdown(&self, sessions: &[SessionId], max_chars: usize) -> (String, Vec<ItemId>) {
        const HEAD: &str = "## Decided (current)\n";
        let mut seen = HashSet::new();
        let mut items: Vec<&Loop> = Vec::new();
        for session in sessions {
            let mut of: Vec<&Loop> = self
                .of
                .get(session)
                .into_iter()
                .flat_map(|i| i.values())
                .filter(|i| i.state == "current" && seen.insert(i.id))
                .collect();
            of.sort_by_key(|i| (!i.stated, i.id));
            items.extend(of);
        }
        let chars = |s: &str| s.chars().count();
        if items.is_empty() || chars(HEAD) + 1 > max_chars {
            return (String::new(), Vec::new());
        }
        let mut budget = max_chars - chars(HEAD) - 1;
        let (mut out, mut shown) = (HEAD.to_owned(), Vec::new());
        for item in items {
            let text = self.section_line(item);
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

    /// One current decision: the reader's own as its note, another account's as that
    /// account's words (as "Still open" names them); what it replaced after it.
    fn section_line(&self, item: &Loop) -> String {
        let text = inert(&item.text);
        let replaced: Vec<String> = self
            .replaced(item.id)
            .iter()
            .map(|r| inert(&r.text))
            .collect();
        let replaces = match replaced.as_slice() {
            [] => String::new(),
            _ => format!(" (replaces: {})", replaced.join("; ")),
        };
        match item.written_by {
            Some(author) if !item.own => format!(
                "- Written by account {author}, not by you; their decision: “{text}”{replaces} · {}\n",
                item.id
            ),
            _ => format!("- Decided: {text}{replaces} · {}\n", item.id),
        }
    }

    /// The current decisions of `session` (what a reader shown its lines was handed).
    pub fn ids_of(&self, session: SessionId) -> Vec<ItemId> {
        let mut ids: Vec<ItemId> = self
            .of
            .get(&session)
            .into_iter()
            .flat_map(|items| items.values())
            .filter(|i| i.state == "current")
            .map(|i| i.id)
            .collect();
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
            })
            .collect()
    }
}
