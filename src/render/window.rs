//! The markdown window for session-start hooks: the recent sessions as a short work log, cut
//! to a character budget (newest kept, oldest left out whole), ending with a pointer to the
//! journal tools for the rest.

use crate::db::TenantTx;
use crate::error::Result;
use crate::handover::provenance::{Provenance, Stamp, Tier};
use crate::ids::{AccountId, ItemId, SessionId};
use crate::journal::handoff::{Carried, DecisionState, Line};
use crate::journal::session_reads::{self, ACTIVE_BY_START, Active};
use crate::journal::views::Session;
use crate::loops::{self, LoopKind};
use crate::markdown::{bullet, counted, inert};
use crate::summaries::digests::{self, Digest};
use chrono::{DateTime, Duration, Utc};
use std::collections::HashMap;

pub const MIN_CHARS: usize = 1_000;
pub const MAX_CHARS: usize = 400_000;
pub const WINDOW_DAYS: i64 = 14;
const MAX_SESSIONS: i64 = 500;

/// The window's title and the notice that it is a record, not instructions.
fn header() -> String {
    format!(
        "# Assistant journal: the last 14 days\n\n> {}\n\n",
        crate::markdown::RECORD_NOTICE
    )
}

fn footer(left_out: usize) -> String {
    let older = match left_out {
        0 => String::new(),
        1 => "1 older session was left out. ".into(),
        n => format!("{n} older sessions were left out. "),
    };
    format!(
        "---\n{older}For the rest, use the journal tools: journal_catch_up, journal_sessions, \
         journal_session, journal_digests (or GET /api/v1/journal/sessions).\n"
    )
}

/// One entry: time range, assistant, project, then the summary's bullets (or, without a summary
/// yet, the goal, outcome and latest purposes), then what it `carried` (see
/// `Session::carried`): decisions, open questions, next steps. A session of another
/// account (an organization member's, read by the organization's owner) says whose it is, so a
/// hook never presents it as the reader's own notes.
pub fn entry(
    s: &Session,
    reader: AccountId,
    carried: &Carried,
    stamp: Option<&Stamp>,
    min: Option<Tier>,
) -> String {
    let end = s.ended_at.unwrap_or(s.last_activity_at);
    let project = s
        .repository
        .clone()
        .or(s.organization_id.map(|o| o.to_string()))
        .unwrap_or_else(|| "-".into());
    // Who wrote it: the key's label and the tier after the assistant and project.
    let by = stamp.map_or_else(String::new, |st| {
        let key = st.author.key.as_deref().map_or_else(String::new, |k| {
            format!(" · key “{}”", crate::markdown::handed(k))
        });
        format!("{key} {}", st.tier.mark())
    });
    let mut out = format!(
        "## {} {}–{} · {} · {}{by}\n",
        s.started_at.format("%Y-%m-%d"),
        s.started_at.format("%H:%M"),
        end.format("%H:%M"),
        crate::markdown::handed(&s.assistant),
        inert(&project)
    );
    let derived_too = min.is_none_or(|m| m <= Tier::Derived);
    if s.account_id != reader {
        let organization = s
            .organization_id
            .map_or_else(|| "an organization you own".to_owned(), |o| o.to_string());
        out.push_str(&format!(
            "- Written by account {} (a member of {organization}), not by you.\n",
            s.account_id
        ));
    }
    let mut put = |prefix: &str, text: &str| bullet(&mut out, prefix, text);
    match &s.summary {
        Some(summary) if !summary.summary.is_empty() && derived_too => {
            put(Tier::Derived.mark(), &format!(" {}", summary.summary))
        }
        Some(_) => {}
        None => {
            if let Some(goal) = &s.goal {
                put("Goal: ", goal);
            }
            if let Some(outcome) = &s.outcome {
                put("Outcome: ", outcome);
            }
            if let Some(p) = &s.provisional {
                p.recent_purposes
                    .iter()
                    .take(3)
                    .for_each(|purpose| put("", purpose));
                if s.status == "open" {
                    put(
                        "",
                        &format!(
                            "Still open: {} so far, {} of them {}.",
                            count(p.calls, "call", "calls"),
                            p.writes,
                            if p.writes == 1 { "a write" } else { "writes" }
                        ),
                    );
                }
            }
        }
    }
    // A line no assistant stated (a summary's or code's reading) is marked derived, or left out
    // for a reader asking for more.
    let texts = |lines: &[Line]| -> Vec<(bool, String)> {
        lines
            .iter()
            .filter(|l| l.stated || derived_too)
            .map(|l| (l.stated, l.text.clone()))
            .collect()
    };
    let done = s.summary.as_ref().map_or(&[][..], |x| &x.work_finished);
    // Each replaced decision once, as "replaces: …" under the decision that replaced it.
    // What only a summary says it replaced stays current, and says so.
    let decided = carried.decisions.iter().filter(|d| d.stated || derived_too);
    let decided: Vec<(bool, String)> = decided
        .map(|d| {
            let note = loops::decided::replaces_note(&d.replaces, str::to_owned);
            (d.stated, format!("{}{note}", d.text))
        })
        .collect();
    let done = done
        .iter()
        .filter(|_| derived_too)
        .map(|t| (false, t.clone()));
    let sections = [
        ("Decided: ", decided),
        ("Done: ", done.collect()),
        ("Open: ", texts(&carried.open_questions)),
        ("Next: ", texts(&carried.next_steps)),
    ];
    for (prefix, items) in sections {
        for (stated, text) in items {
            let mark = if stated { "" } else { "[derived] " };
            put(&format!("{mark}{prefix}"), &text);
        }
    }
    out.push('\n');
    out
}

fn count(n: i32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The window's sessions: `$1` since, `$2` how many, `$3` since less the activity slack, newest
/// first. Public for the plan tests (`tests/api/plans.rs`).
pub fn window_sql() -> String {
    ACTIVE_BY_START.to_owned()
}

/// The window as markdown, at most `max_chars` characters, and the sessions and items it
/// shows. The open items ("Still open", in up to half the budget) and the current decisions
/// ("Decided (current)", in up to a quarter) lead; a session's entry leaves their lines to
/// them.
#[tracing::instrument(skip_all, err)]
pub async fn render(
    tx: &mut TenantTx,
    now: DateTime<Utc>,
    max_chars: usize,
    min: Option<Tier>,
) -> Result<Window> {
    let since = now - Duration::days(WINDOW_DAYS);
    let sessions = session_reads::active(tx, since, MAX_SESSIONS, Active::ByStart).await?;
    let reader = AccountId(tx.tenant().account_id);
    let purposes = crate::journal::session_reads::marked_purposes(tx, &sessions).await?;
    let sources = loops::sources_of(tx, &sessions).await?;
    let mut decisions = loops::decided::of_sessions(tx, &sessions, &sources, now).await?;
    let mut open = loops::carried(tx, LoopKind::Question, now).await?;
    open.extend(loops::carried(tx, LoopKind::NextStep, now).await?);
    // Who wrote each session, decision and open item, read once.
    let (mut of_sessions, mut of_items) = decisions.sessions_and_items();
    of_sessions.extend(
        sessions
            .iter()
            .map(|s| s.id)
            .chain(open.iter().map(|i| i.session_id)),
    );
    of_items.extend(open.iter().map(|i| i.id));
    let provenance = Provenance::read(tx, &of_sessions, &of_items).await?;
    decisions.stamp(&provenance, reader);
    loops::stamp(&mut open, &provenance, reader);
    open.retain(|i| Stamp::at_least(i.stamp.as_ref(), min));
    let stamps: HashMap<SessionId, Stamp> = sessions
        .iter()
        .filter_map(|s| provenance.of_session(s.id, reader).map(|st| (s.id, st)))
        .collect();
    let sessions: Vec<Session> = sessions
        .into_iter()
        .filter(|s| Stamp::at_least(stamps.get(&s.id), min))
        .collect();
    let keys = sources.keys;
    // The current decisions lead, in a quarter of the budget (a small window keeps them); a
    // session's entry leaves those to the lead.
    let order: Vec<SessionId> = sessions.iter().map(|s| s.id).collect();
    let (decided, decided_shown) = decisions.markdown(&order, max_chars / 4, min);
    let led: std::collections::HashSet<ItemId> = decided_shown.iter().copied().collect();
    let entries: Vec<String> = sessions
        .iter()
        .map(|s| {
            let carried = s.carried(purposes.get(&s.id).map_or(&[], Vec::as_slice));
            let mut carried =
                decisions.decided(s.id, loops::without_items(carried, keys.get(&s.id)));
            carried
                .decisions
                .retain(|d| d.id.is_none_or(|id| !led.contains(&id)));
            entry(s, reader, &carried, stamps.get(&s.id), min)
        })
        .collect();
    // The reader's own first (members' items never push them out of the budget), each newest
    // first.
    open.sort_by(|a, b| {
        (b.own.cmp(&a.own))
            .then(b.created_at.cmp(&a.created_at))
            .then(a.id.cmp(&b.id))
    });
    let (still_open, open_shown) = loops::markdown(&open, max_chars / 2);
    let lead = still_open + &decided;
    let weeks = digests::list(tx, Some("week"), None, None, WEEK_DIGESTS).await?;
    let decided_now = digests::decisions_now(tx, &weeks, now).await?;
    let weeks: Vec<String> = weeks
        .iter()
        .map(|d| week_entry(d, decided_now.get(&d.id).map_or(&[], Vec::as_slice)))
        .collect();
    let (markdown, kept) = fit(&lead, &entries, &weeks, max_chars);
    let sessions: Vec<SessionId> = sessions.iter().take(kept).map(|s| s.id).collect();
    let mut seen = std::collections::HashSet::new();
    let items = open[..open_shown]
        .iter()
        .map(|i| i.id)
        .chain(decided_shown)
        .chain(sessions.iter().flat_map(|s| decisions.ids_of(*s)))
        .filter(|id| seen.insert(*id))
        .collect();
    Ok(Window {
        markdown,
        sessions,
        items,
    })
}

/// The window as [`render`] wrote it, and what it handed over (its receipt).
pub struct Window {
    pub markdown: String,
    /// The sessions whose entries it shows, newest first.
    pub sessions: Vec<SessionId>,
    /// The items it shows: the open ones of "Still open", then the current decisions of those
    /// sessions' entries.
    pub items: Vec<ItemId>,
}

/// How many week digests follow the session entries.
pub const WEEK_DIGESTS: i64 = 4;

/// One week digest: its narrative, then every decision and open question. Each decision line
/// that says one of the digest's decision items says how it stands now (`decided_now`, see
/// `digests::decisions_now`): one replaced since is no longer said as decided, but as
/// replaced, and by what when the reader can read it. Any other line is said as stored.
pub fn week_entry(d: &Digest, decided_now: &[DecisionState]) -> String {
    let mut out = format!(
        "## Week of {} · {} (digest)\n",
        d.period_start,
        counted(d.session_count.into(), "session", "sessions")
    );
    if !d.summary.summary.is_empty() {
        bullet(&mut out, "", &d.summary.summary);
    }
    for text in &d.summary.decisions {
        // The note's id stays as it is (ids are inert already); the words in it are made so.
        let note = DecisionState::said_as(decided_now, text)
            .map_or_else(String::new, |now| now.note(inert));
        out.push_str(&format!("- Decided: {}{note}\n", inert(text)));
    }
    for text in &d.summary.open_questions {
        bullet(&mut out, "Open: ", text);
    }
    out.push('\n');
    out
}

/// After the header and `lead` (the "Still open" section, already within its share), keeps the
/// newest entries (given newest first) that fit, shows them oldest first, then as many of
/// `weeks` (week digests, newest first) as still fit, after the session entries; also says how
/// many session entries it kept.
pub fn fit(
    lead: &str,
    newest_first: &[String],
    weeks: &[String],
    max_chars: usize,
) -> (String, usize) {
    let chars = |s: &str| s.chars().count();
    let frame = chars(&header()) + chars(lead) + chars(&footer(newest_first.len()));
    let mut budget = max_chars.saturating_sub(frame);
    let mut kept = Vec::new();
    for entry in newest_first {
        let size = chars(entry);
        if size > budget {
            break;
        }
        budget -= size;
        kept.push(entry.as_str());
    }
    let left_out = newest_first.len() - kept.len();
    let mut out = header();
    out.push_str(lead);
    if kept.is_empty() && left_out == 0 {
        out.push_str("No sessions in the last 14 days.\n\n");
    }
    kept.iter().rev().for_each(|e| out.push_str(e));
    for week in weeks {
        let size = chars(week);
        if size > budget {
            break;
        }
        budget -= size;
        out.push_str(week);
    }
    out.push_str(&footer(left_out));
    (out, kept.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_newest_whole_entries_within_the_budget() {
        let entries: Vec<String> = (0..50)
            .map(|i| format!("## entry {i:02}\n{}\n\n", "x".repeat(200)))
            .collect();
        let (out, kept) = fit("", &entries, &[], 1_000);
        assert!(kept > 0 && kept < 50);
        assert!(out.chars().count() <= 1_000, "{}", out.chars().count());
        assert!(out.contains("entry 00") && !out.contains("entry 49"));
        assert!(
            out.find("entry 01").unwrap() < out.find("entry 00").unwrap(),
            "oldest first"
        );
        assert!(
            out.contains("older sessions were left out")
                && out.ends_with("GET /api/v1/journal/sessions).\n")
        );
        let (all, _) = fit("", &entries, &[], MAX_CHARS);
        assert!(all.contains("entry 49") && !all.contains("left out"));
    }
}
