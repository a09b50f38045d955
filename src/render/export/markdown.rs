//! The export as one readable document: sessions as `/journal.md` writes them, each call as a
//! line naming its session, summaries and digests as short sections, all in time order. Every
//! text from the journal goes through `window::inert`, as in `/journal.md`.

use super::ExportItem;
use crate::ids::{AccountId, SessionId};
use crate::loops::decided::Decisions;
use crate::markdown::{bullet, counted, inert};
use crate::render::window::entry;
use std::collections::HashMap;

pub const HEADER: &str = "# Assistant journal: export\n\n\
    Everything this credential can read, oldest first: each session where it started, its \
    calls as they were made (each names its session), summaries when they were stored, \
    week and month digests when they were made, and open loops (the questions and next steps \
    sessions handed on, in their state now) when they were opened.\n\n";

/// How many items of each kind were written: the document's last line says so, which also
/// tells a reader that it is complete.
#[derive(Default)]
pub struct Tally {
    sessions: usize,
    calls: usize,
    summaries: usize,
    digests: usize,
    loops: usize,
}

impl Tally {
    pub fn footer(&self) -> String {
        let n = |count: usize| count as i64;
        format!(
            "---\nEnd of the export: {}, {}, {}, {}, {}.\n",
            counted(n(self.sessions), "session", "sessions"),
            counted(n(self.calls), "call", "calls"),
            counted(n(self.summaries), "summary", "summaries"),
            counted(n(self.digests), "digest", "digests"),
            counted(n(self.loops), "loop", "loops"),
        )
    }
}

/// Items as markdown; `purposes` holds the marked purposes of the sessions among them without
/// a summary (see `session_reads::marked_purposes`).
pub fn render(
    items: &[ExportItem],
    reader: AccountId,
    purposes: &HashMap<SessionId, Vec<String>>,
    decisions: &Decisions,
    tally: &mut Tally,
) -> String {
    let mut out = String::new();
    for item in items {
        match item {
            ExportItem::Session(s) => {
                tally.sessions += 1;
                let carried = s.carried(purposes.get(&s.id).map_or(&[], Vec::as_slice));
                let text = entry(s, reader, &decisions.decided(s.id, carried), None, None);
                // The heading, then the id the session's calls and summary name.
                let (heading, rest) = text.split_once('\n').unwrap_or((text.as_str(), ""));
                out.push_str(&format!("\n{heading}\n- Session {}\n{rest}", s.id));
            }
            ExportItem::Call(c) => {
                tally.calls += 1;
                let purpose = c.purpose.as_deref().map(inert).unwrap_or_default();
                out.push_str(&format!(
                    "- {} · {} · {} · {} {}{}{purpose}\n",
                    c.at.format("%Y-%m-%d %H:%M:%S"),
                    c.session_id,
                    inert(&c.operation),
                    c.outcome,
                    c.status,
                    if purpose.is_empty() { "" } else { " · " },
                ));
            }
            ExportItem::Summary(s) => {
                tally.summaries += 1;
                out.push_str(&format!(
                    "\n### Summary of {} ({}, {})\n",
                    s.session_id,
                    inert(s.model.as_deref().unwrap_or("-")),
                    s.at.format("%Y-%m-%d %H:%M")
                ));
                bullets(&mut out, &s.summary);
            }
            ExportItem::Digest(d) => {
                tally.digests += 1;
                let period = if d.period == "month" { "Month" } else { "Week" };
                out.push_str(&format!(
                    "\n## {period} of {} · {} (digest)\n",
                    d.period_start,
                    counted(d.session_count.into(), "session", "sessions")
                ));
                bullets(&mut out, &d.summary);
            }
            ExportItem::Loop(l) => {
                tally.loops += 1;
                let kind = match l.kind.as_str() {
                    "next_step" => "Next",
                    "decision" => "Decision",
                    _ => "Open",
                };
                let by = l
                    .replaced_by
                    .map_or(String::new(), |by| format!(" by {by}"));
                let closed = l.closed_at.map_or(String::new(), |at| {
                    format!(" {}", at.format("%Y-%m-%d %H:%M"))
                });
                // A member's item names its author, so it never reads as the reader's own.
                let author = l.written_by.map_or(String::new(), |a| {
                    format!("written by account {a}, not by you · ")
                });
                out.push_str(&format!(
                    "- {} · {} · {author}{kind}: {} · {}{by}{closed}\n",
                    l.created_at.format("%Y-%m-%d %H:%M:%S"),
                    l.id,
                    inert(&l.text),
                    l.state,
                ));
            }
        }
    }
    out
}

fn bullets(out: &mut String, summary: &crate::summarize::Summary) {
    let mut put = |prefix: &str, text: &str| bullet(out, prefix, text);
    if !summary.summary.is_empty() {
        put("", &summary.summary);
    }
    let sections = [
        ("Decided: ", &summary.decisions),
        ("Started: ", &summary.work_started),
        ("Done: ", &summary.work_finished),
        ("Open: ", &summary.open_questions),
    ];
    for (prefix, items) in sections {
        items.iter().for_each(|text| put(prefix, text));
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::Tally;

    #[test]
    fn the_footer_counts_in_words_singular_for_one() {
        let one = Tally {
            sessions: 1,
            calls: 1,
            summaries: 1,
            digests: 1,
            loops: 1,
        };
        assert_eq!(
            one.footer(),
            "---\nEnd of the export: 1 session, 1 call, 1 summary, 1 digest, 1 loop.\n"
        );
        let some = Tally {
            sessions: 2,
            summaries: 3,
            ..Tally::default()
        };
        assert_eq!(
            some.footer(),
            "---\nEnd of the export: 2 sessions, 0 calls, 3 summaries, 0 digests, 0 loops.\n"
        );
    }
}
