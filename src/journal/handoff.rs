//! Hand-offs: what the assistant ending a session says it decided, left open and would do
//! next, in its own words; and the items a reader is given of a session, those stated by the
//! assistant first, then those its summary derived (or, before there is one, those its own text
//! marks), each once.

use super::meta::{at_most, single_line};
use crate::error::Result;
use crate::ids::ItemId;
use crate::scrub::Found;
pub use crate::summarize::marked::Replacing;
use crate::summarize::marked::{item_key, push_new};
use serde::{Deserialize, Serialize};

/// Most items in one list.
pub const MAX_ITEMS: usize = 20;
/// Most characters in one item.
pub const MAX_ITEM_CHARS: usize = 300;

/// The lists an assistant hands to the next conversation when it ends a session.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[schema(example = json!({
    "decisions": ["Keep the session cookie SameSite=Lax"],
    "open_questions": ["Should the retry policy be configurable?"],
    "next_steps": ["Write the migration note for the v1 endpoint"]
}))]
pub struct Handoff {
    /// Decisions made in the session.
    #[serde(default)]
    pub decisions: Vec<String>,
    /// Questions left for the person or the next conversation.
    #[serde(default)]
    pub open_questions: Vec<String>,
    /// What the next conversation should do first.
    #[serde(default)]
    pub next_steps: Vec<String>,
    /// Earlier decisions (`itm_…`) that decisions of this list replace: those `session_end`'s
    /// `replaces` named (replaced by its first decision), and those its text marked
    /// `Replaces itm_…:`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replaces: Vec<Replacing>,
}

impl Handoff {
    /// The three lists as given: each item one line of at most 300 characters (credentials
    /// scrubbed), at most 20 items per list; blank and repeated items dropped. `None` when
    /// nothing is left. Also the credentials scrubbed, once per item they were scrubbed from.
    pub fn parse(
        decisions: Option<&[String]>,
        open_questions: Option<&[String]>,
        next_steps: Option<&[String]>,
    ) -> Result<(Option<Self>, Vec<Found>), String> {
        let mut found = Vec::new();
        let handoff = Self {
            decisions: list(decisions, "decisions", &mut found)?,
            open_questions: list(open_questions, "open_questions", &mut found)?,
            next_steps: list(next_steps, "next_steps", &mut found)?,
            replaces: Vec::new(),
        };
        Ok(((!handoff.is_empty()).then_some(handoff), found))
    }

    pub fn is_empty(&self) -> bool {
        self.decisions.is_empty() && self.open_questions.is_empty() && self.next_steps.is_empty()
    }
}

fn list(
    items: Option<&[String]>,
    name: &str,
    found: &mut Vec<Found>,
) -> Result<Vec<String>, String> {
    let items = items.unwrap_or_default();
    if items.len() > MAX_ITEMS {
        return Err(format!(
            "{name} holds {} items; give at most {MAX_ITEMS}, one line each",
            items.len()
        ));
    }
    let mut out: Vec<String> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let what = format!("{name}[{i}]");
        at_most(item, MAX_ITEM_CHARS, &what)?;
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        let text = single_line(item, &what)?;
        if push_new(&mut out, &text.text) {
            found.extend(text.found);
        }
    }
    Ok(out)
}

/// One item a reader is given, and whether the assistant stated it at the end of the session
/// (rather than a summary deriving it, or code lifting it from marked text).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Line {
    pub text: String,
    pub stated: bool,
    /// For a decision that is an item: its id (`loops::decided`).
    pub id: Option<ItemId>,
    /// For a current decision: the earlier decisions it replaced, oldest first.
    pub replaces: Vec<Replaced>,
}

/// An earlier decision a current one replaced (or, `stated: false`, that its session's summary
/// says it replaced), as the brief and `/journal.md` show it under the current one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Replaced {
    /// The decision replaced (`itm_…`).
    pub id: ItemId,
    /// In the words of the session that made it.
    pub text: String,
    /// The session that made it.
    pub session_id: crate::ids::SessionId,
    /// True when it was replaced (by `session_end`'s `replaces`, a `Replaces itm_…:` line or
    /// the replace operation): it is no longer current. False when only a model's summary of
    /// the session says so (derived): never applied, the earlier decision stays current until
    /// its assistant or the person replaces it.
    pub stated: bool,
}

/// A decision that is an item (`itm_…`), as it stands when read: beside its text wherever a
/// reader is shown it, so that a decision replaced since is never said as if it still stood.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[schema(example = json!({
    "id": "itm_01M72B6Q00EDV8XKQ3RN1Z3H6A",
    "text": "Use PostgreSQL advisory locks for the job queue",
    "state": "replaced",
    "replaced_by": "itm_01M72C0K00F3B2M1Q9QZ6X4W7T",
    "replaced_by_text": "Use SELECT FOR UPDATE SKIP LOCKED for the job queue"
}))]
pub struct DecisionState {
    /// The decision (`itm_…`).
    pub id: ItemId,
    /// In the words of the session that opened it.
    pub text: String,
    /// `current`, or `replaced` once a later decision replaced it.
    pub state: String,
    /// For a replaced decision: the decision that replaced it (`itm_…`), when the reader can
    /// read it (absent otherwise, and once it is deleted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaced_by: Option<ItemId>,
    /// With `replaced_by`: that decision's text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaced_by_text: Option<String>,
}

impl DecisionState {
    /// Of `states`, the decision said as `text` (compared as items are compared).
    pub fn said_as<'a>(states: &'a [DecisionState], text: &str) -> Option<&'a DecisionState> {
        let key = item_key(text);
        states.iter().find(|d| item_key(&d.text) == key)
    }

    /// What a line of text says of it after the decision's words: nothing while it is current;
    /// " (replaced by itm_…: …)" once replaced (`text` renders the replacement's words), or
    /// " (replaced since)" when the reader cannot read what replaced it.
    pub fn note(&self, text: impl Fn(&str) -> String) -> String {
        if self.state != "replaced" {
            return String::new();
        }
        match (&self.replaced_by, &self.replaced_by_text) {
            (Some(by), Some(words)) => format!(" (replaced by {by}: {})", text(words)),
            (Some(by), None) => format!(" (replaced by {by})"),
            _ => " (replaced since)".to_owned(),
        }
    }
}

/// What a session carries forward: stated items first, then derived ones, each once; and
/// which earlier decisions which of its decisions replace.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Carried {
    pub decisions: Vec<Line>,
    pub open_questions: Vec<Line>,
    pub next_steps: Vec<Line>,
    pub replacing: Vec<Replacing>,
}

/// Puts the stated decisions and open questions ahead of `summary`'s own, each item once.
pub fn lead_with(summary: &mut crate::summarize::Summary, handoff: &Handoff) {
    let texts = |lines: Vec<Line>| lines.into_iter().map(|l| l.text).collect();
    summary.decisions = texts(merge(&handoff.decisions, &summary.decisions));
    summary.open_questions = texts(merge(&handoff.open_questions, &summary.open_questions));
}

/// `stated` then `derived`, each item once (compared by [`item_key`]).
pub(crate) fn merge(stated: &[String], derived: &[String]) -> Vec<Line> {
    let mut out: Vec<Line> = Vec::new();
    let tagged = stated
        .iter()
        .map(|t| (t, true))
        .chain(derived.iter().map(|t| (t, false)));
    for (text, stated) in tagged {
        if !out.iter().any(|l| item_key(&l.text) == item_key(text)) {
            out.push(Line {
                text: text.clone(),
                stated,
                id: None,
                replaces: Vec::new(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn lists_are_capped_one_line_and_scrubbed() {
        let too_many = strings(&["x"; MAX_ITEMS + 1]);
        let err = Handoff::parse(Some(&too_many), None, None).unwrap_err();
        assert!(err.contains("at most 20"), "{err}");
        let long = strings(&["ok", &"y".repeat(MAX_ITEM_CHARS + 1)]);
        let err = Handoff::parse(None, Some(&long), None).unwrap_err();
        assert!(
            err.contains("open_questions[1]") && err.contains("300"),
            "{err}"
        );
        let two_lines = strings(&["first\nsecond"]);
        assert!(Handoff::parse(None, None, Some(&two_lines)).is_err());

        let secret = "rotate ghp_Abcdefghijklmnopqrstuvwxyz0123456789 next";
        let (parsed, found) = Handoff::parse(
            None,
            None,
            Some(&strings(&[secret, " ", "Rotate X", secret])),
        )
        .unwrap();
        let parsed = parsed.unwrap();
        assert!(!parsed.next_steps[0].contains("ghp_Abcd"), "{parsed:?}");
        assert_eq!(parsed.next_steps.len(), 2);
        assert_eq!(found.len(), 1, "once per item kept: {found:?}");
        assert_eq!(found[0].rule, "github-pat");
        assert_eq!(
            Handoff::parse(Some(&strings(&[" "])), None, None),
            Ok((None, Vec::new()))
        );
    }

    #[test]
    fn stated_items_come_first_and_duplicates_go() {
        let merged = merge(
            &strings(&["Use advisory locks", "Ship Friday"]),
            &strings(&["use advisory locks.", "Keep v1 for a month"]),
        );
        let texts: Vec<(&str, bool)> = merged.iter().map(|l| (l.text.as_str(), l.stated)).collect();
        assert_eq!(
            texts,
            [
                ("Use advisory locks", true),
                ("Ship Friday", true),
                ("Keep v1 for a month", false)
            ]
        );
    }
}
