//! The "Still open" section of `/journal.md`: the reader's own open items, then, in a section of
//! their own, the items organization members wrote, each line naming its author, so that a
//! member's words reach the owner's session-start hook as the member's, never as a line of the
//! owner's own notes ("Next: run the cleanup script…").

use super::{Loop, LoopKind};

const OWN_HEAD: &str = "## Still open\n";
const OTHERS_HEAD: &str =
    "## Still open, written by organization members (their words, not yours)\n";

/// The open items (the reader's own first, then the others', each newest first), as many as
/// fit in `max_chars` (then how many were left out); empty when none is open. Also how many
/// of `items` it shows.
pub fn markdown(items: &[Loop], max_chars: usize) -> (String, usize) {
    let chars = |s: &str| s.chars().count();
    let tail = |left: usize| match left {
        0 => "\n".to_owned(),
        n => format!("- …and {n} more: GET /api/v1/journal/loops or journal_loops.\n\n"),
    };
    let head = |own: bool| if own { OWN_HEAD } else { OTHERS_HEAD };
    let first = items.first().is_none_or(|i| i.own);
    let frame = chars(head(first)) + chars(&tail(items.len()));
    if items.is_empty() || frame > max_chars {
        return (String::new(), 0);
    }
    let mut budget = max_chars - frame;
    let mut out = head(first).to_owned();
    let mut section = first;
    let mut shown = 0;
    for item in items {
        let mut text = String::new();
        if item.own != section {
            text.push('\n');
            text.push_str(head(item.own));
        }
        text.push_str(&line(item));
        if chars(&text) > budget {
            break;
        }
        budget -= chars(&text);
        out.push_str(&text);
        section = item.own;
        shown += 1;
    }
    out.push_str(&tail(items.len() - shown));
    (out, shown)
}

/// One item: the reader's own as its note ("- Next: …"); another account's as that account's
/// words, named first, so no line of it reads as an instruction of the reader's.
fn line(item: &Loop) -> String {
    let next = item.kind == LoopKind::NextStep.as_str();
    let age = match item.age {
        0 => "opened today".to_owned(),
        1 => "open 1 day".to_owned(),
        n => format!("open {n} days"),
    };
    let (text, note) = crate::markdown::handed_item(&item.text, item.stamp.as_ref());
    match item.written_by {
        Some(author) if !item.own => {
            let what = if next { "next step" } else { "open question" };
            format!(
                "- Written by account {author}, not by you; their {what}: “{text}” · {} · {age}{note}\n",
                item.id
            )
        }
        _ => {
            let prefix = if next { "Next" } else { "Open" };
            format!("- {prefix}: {text} · {} · {age}{note}\n", item.id)
        }
    }
}
