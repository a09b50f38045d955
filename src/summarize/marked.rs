//! Decisions and open questions an assistant marked in its own text, lifted without a model.
//!
//! The rules are conservative: nothing is guessed from unmarked prose. A clause (a line, or a
//! sentence ending in `.`, `!`, `?` or `;` followed by a space) counts when it
//!
//! - starts with `Decided:` or `Decision:` → a decision (the text after the marker, without
//!   its closing full stop);
//! - starts with `Replaces itm_…:` → a decision (the text after the colon) that replaces the
//!   earlier decision `itm_…` (`loops::replacing` applies it as the session closes);
//! - starts with `Open question:` or `Question:` → an open question (the text after it);
//! - starts with `TODO:` → an open question, kept as `TODO: …` so it reads as work left;
//! - in the goal or the outcome only, ends with `?` → an open question (the whole sentence).
//!
//! Markers are matched case-insensitively, after a list bullet (`-`, `*`, `•`) if any. A purpose
//! phrased as a question is not lifted: it is the question that call set out to answer, not
//! one left waiting, so only its explicit markers count.
//!
//! An episode's turns (`ops::episodes`) are read as purposes are: a conversation asks many
//! questions on the way, so only its explicit markers count.

use crate::ids::{ItemId, TypedId};
use serde::{Deserialize, Serialize};

/// What the text marks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marked {
    pub decisions: Vec<String>,
    pub open_questions: Vec<String>,
    /// The decisions marked `Replaces itm_…:`, with the decision each replaces.
    pub replacing: Vec<Replacing>,
}

/// Where a text comes from: bare questions count in what the assistant says of the whole
/// session (goal, outcome), not in a single call's purpose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Statement,
    Purpose,
}

impl Marked {
    /// Lifts the marked items of `text` into `self`, skipping ones already there.
    pub fn read(&mut self, text: &str, source: Source) {
        for clause in clauses(text) {
            let clause = clause.trim_start_matches(['-', '*', '•', ' ', '\t']).trim();
            if let Some((id, rest)) = replaces(clause) {
                push_new(&mut self.decisions, rest);
                self.replacing.extend(Replacing::by(rest, &[id]));
            } else if let Some(rest) = after_marker(clause, &["decided:", "decision:"]) {
                push_new(&mut self.decisions, rest);
            } else if let Some(rest) = after_marker(clause, &["open question:", "question:"]) {
                push_new(&mut self.open_questions, rest);
            } else if let Some(rest) = after_marker(clause, &["todo:"]) {
                push_new(&mut self.open_questions, &format!("TODO: {rest}"));
            } else if source == Source::Statement && is_question(clause) {
                push_new(&mut self.open_questions, clause);
            }
        }
    }

    /// The items marked in a session's goal, outcome and call purposes.
    pub fn lift<'a>(
        statements: impl IntoIterator<Item = &'a str>,
        purposes: impl IntoIterator<Item = &'a str>,
    ) -> Self {
        let mut marked = Self::default();
        statements
            .into_iter()
            .for_each(|t| marked.read(t, Source::Statement));
        purposes
            .into_iter()
            .for_each(|t| marked.read(t, Source::Purpose));
        marked
    }
}

/// The text's lines, each cut after `.`, `!`, `?` or `;` where a space or the end follows.
fn clauses(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for line in text.lines() {
        let mut start = 0;
        let mut chars = line.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            let ends = matches!(c, '.' | '!' | '?' | ';')
                && chars.peek().is_none_or(|(_, next)| next.is_whitespace());
            if ends {
                // `;` separates clauses but is not part of either; the others end a sentence.
                let end = if c == ';' { i } else { i + c.len_utf8() };
                out.push(&line[start..end]);
                start = i + c.len_utf8();
            }
        }
        out.push(&line[start..]);
    }
    out.into_iter()
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect()
}

/// The text after one of `markers` (lowercase) at the start of `clause`, if it says anything.
fn after_marker<'a>(clause: &'a str, markers: &[&str]) -> Option<&'a str> {
    markers.iter().find_map(|marker| {
        let head = clause.get(..marker.len())?;
        if !head.eq_ignore_ascii_case(marker) {
            return None;
        }
        let rest = clause[marker.len()..]
            .trim()
            .trim_end_matches('.')
            .trim_end();
        (rest.chars().any(char::is_alphanumeric)).then_some(rest)
    })
}

/// `Replaces itm_…: the new decision`: the id and the decision, if the clause says one.
fn replaces(clause: &str) -> Option<(ItemId, &str)> {
    let marker = "replaces ";
    let head = clause.get(..marker.len())?;
    if !head.eq_ignore_ascii_case(marker) {
        return None;
    }
    let rest = &clause[marker.len()..];
    let (id, decision) = rest.split_once(':')?;
    let id = ItemId::parse(id.trim())?;
    let decision = decision.trim().trim_end_matches('.').trim_end();
    decision
        .chars()
        .any(char::is_alphanumeric)
        .then_some((id, decision))
}

/// A sentence that asks something: ends with `?` and has at least two words.
fn is_question(clause: &str) -> bool {
    clause.ends_with('?') && clause.split_whitespace().count() >= 2
}

/// One decision of a session replacing an earlier one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Replacing {
    /// The session's decision, as one of its `decisions` lines.
    pub decision: String,
    /// The earlier decision it replaces (`itm_…`).
    pub replaces: ItemId,
}

impl Replacing {
    /// `decision` replacing each of `ids`.
    pub fn by(decision: &str, ids: &[ItemId]) -> Vec<Self> {
        ids.iter()
            .map(|id| Replacing {
                decision: decision.to_owned(),
                replaces: *id,
            })
            .collect()
    }

    /// Whether `other` is the same pair: the same id, replaced by the same decision (compared
    /// by [`item_key`]).
    pub fn same(&self, other: &Self) -> bool {
        self.replaces == other.replaces && item_key(&self.decision) == item_key(&other.decision)
    }

    /// `first` then `then`, each pair once.
    pub fn all(first: &[Self], then: &[Self]) -> Vec<Self> {
        let mut out: Vec<Self> = Vec::new();
        for r in first.iter().chain(then) {
            if !out.iter().any(|o| o.same(r)) {
                out.push(r.clone());
            }
        }
        out
    }
}

/// Appends `item` unless the list holds it already (compared by [`item_key`]); says whether it
/// did.
pub fn push_new(list: &mut Vec<String>, item: &str) -> bool {
    let new = !list.iter().any(|known| same_item(known, item));
    if new {
        list.push(item.to_owned());
    }
    new
}

/// The form two items are compared in: lowercase, spaces collapsed, closing punctuation gone,
/// so `Use advisory locks.` and `use advisory locks` are one item.
pub fn item_key(text: &str) -> String {
    let words: Vec<String> = text.split_whitespace().map(str::to_lowercase).collect();
    words
        .join(" ")
        .trim_end_matches(['.', '!', '?', ';', ':', ' '])
        .to_owned()
}

fn same_item(a: &str, b: &str) -> bool {
    item_key(a) == item_key(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn statement(text: &str) -> Marked {
        Marked::lift([text], [])
    }

    #[test]
    fn a_replaces_marker_is_a_decision_naming_the_one_it_replaces() {
        let old = "itm_01M72B6Q00EDV8XKQ3RN1Z3H6A";
        let m = Marked::lift(
            [],
            [format!(
                "Reworked the queue. replaces {old}: use SKIP LOCKED instead. \
                 Replaces itm_nonsense: not an id. Replaces {old}:  ."
            )
            .as_str()],
        );
        assert_eq!(m.decisions, ["use SKIP LOCKED instead"]);
        let id = ItemId::parse(old).unwrap();
        assert_eq!(
            m.replacing,
            [Replacing {
                decision: "use SKIP LOCKED instead".into(),
                replaces: id
            }]
        );
    }

    #[test]
    fn lifts_each_marker() {
        let m = statement(
            "Shipped the fix. Decided: keep SameSite=Lax for the session cookie. \
             Open question: should the retry policy be configurable?\n\
             - decision: drop the v1 endpoint; TODO: write the migration note\n\
             Question: who owns the billing job?",
        );
        assert_eq!(
            m.decisions,
            [
                "keep SameSite=Lax for the session cookie",
                "drop the v1 endpoint"
            ]
        );
        assert_eq!(
            m.open_questions,
            [
                "should the retry policy be configurable?",
                "TODO: write the migration note",
                "who owns the billing job?"
            ]
        );
    }

    #[test]
    fn a_question_in_the_outcome_is_open_but_not_in_a_purpose() {
        let m = Marked::lift(
            ["Tests pass. Should we remove the old login route?"],
            ["Is the invoice paid?", "Decided: bill monthly"],
        );
        assert_eq!(m.open_questions, ["Should we remove the old login route?"]);
        assert_eq!(m.decisions, ["bill monthly"]);
    }

    #[test]
    fn unmarked_prose_gives_nothing() {
        for text in [
            "We decided to use advisory locks after a long discussion.",
            "The decision was made to ship on Friday.",
            "Questions about billing were answered. Nothing is open.",
            "Indecision: none. Decided:",
            "Decided:   ...",
            "Fixed the redirect loop (see https://example.com/?q=1).",
            "Why?",
            "Refactored questionnaire: parser and todo-list widget.",
        ] {
            assert_eq!(statement(text), Marked::default(), "{text}");
        }
    }

    #[test]
    fn repeated_items_are_kept_once() {
        let m = Marked::lift(
            [
                "Decided: use advisory locks.",
                "decided: Use advisory locks",
            ],
            ["Decided: use  advisory locks!"],
        );
        assert_eq!(m.decisions, ["use advisory locks"]);
    }

    #[test]
    fn a_marker_needs_a_clause_start() {
        let m = statement("Outcome so far - Decided: ship it. Not decided: the name.");
        assert_eq!(m, Marked::default());
    }
}
