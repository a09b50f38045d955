//! Checking that the edit call only cut.
//!
//! The edit is trusted to delete, never to write: a model asked to shorten text sometimes
//! rephrases or adds, and a rephrasing can change meaning. So every sentence of the edit must be
//! a whole sentence of the draft (from any field, since moving a sentence between lists adds
//! nothing). Whole sentences, not substrings: cutting "do not delete the record" down to
//! "delete the record" is a substring and the opposite meaning.

use super::Summary;
use std::collections::HashSet;

/// Whether every sentence of every field of `edit` occurs as a sentence of `draft`, and every
/// replacement it names is one the draft named.
pub(crate) fn only_cuts(draft: &Summary, edit: &Summary) -> bool {
    let known: HashSet<String> = fields(draft).flat_map(units).collect();
    let replaced = |r: &super::Replacing| draft.replaces.iter().any(|d| d.same(r));
    fields(edit).flat_map(units).all(|s| known.contains(&s)) && edit.replaces.iter().all(replaced)
}

fn fields(s: &Summary) -> impl Iterator<Item = &str> {
    std::iter::once(s.summary.as_str())
        .chain(s.decisions.iter().map(String::as_str))
        .chain(s.work_started.iter().map(String::as_str))
        .chain(s.work_finished.iter().map(String::as_str))
        .chain(s.open_questions.iter().map(String::as_str))
}

/// A field's sentences (a list item without closing punctuation is one sentence),
/// whitespace-normalised and without closing punctuation, so that `Decided X.` as a list item
/// matches `Decided X` in the summary.
fn units(field: &str) -> Vec<String> {
    let normal = field.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out: Vec<String> = split_sentences(&normal).into_iter().map(key).collect();
    out.retain(|s| !s.is_empty());
    out
}

/// Splits on `.`, `!` or `?` followed by whitespace, keeping the punctuation with its sentence.
fn split_sentences(text: &str) -> Vec<&str> {
    let mut sentences = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if matches!(c, '.' | '!' | '?')
            && chars.peek().is_some_and(|(_, next)| next.is_whitespace())
        {
            sentences.push(text[start..i + c.len_utf8()].trim());
            start = i + c.len_utf8();
        }
    }
    sentences.push(text[start..].trim());
    sentences.retain(|s| !s.is_empty());
    sentences
}

fn key(sentence: &str) -> String {
    sentence
        .trim()
        .trim_end_matches(['.', '!', '?'])
        .trim_end()
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(summary: &str, decisions: &[&str]) -> Summary {
        Summary {
            summary: summary.into(),
            decisions: decisions.iter().map(|d| d.to_string()).collect(),
            ..Summary::default()
        }
    }

    #[test]
    fn cutting_sentences_and_items_passes() {
        let draft = entry(
            "Fixed the login.  Ran the tests!  Left X open?",
            &["Use Y.", "Keep Z"],
        );
        let edit = entry("Fixed the login. Left X open?", &["Keep Z."]);
        assert!(only_cuts(&draft, &edit));
        let moved = entry("Use Y.", &["Ran the tests"]);
        assert!(only_cuts(&draft, &moved));
    }

    #[test]
    fn adding_or_rewording_fails() {
        let draft = entry("Do not delete the record. Ran tests.", &[]);
        assert!(!only_cuts(&draft, &entry("Ran tests. Shipped it.", &[])));
        assert!(!only_cuts(&draft, &entry("delete the record.", &[])));
        assert!(!only_cuts(&draft, &entry("Ran tests.", &["New decision"])));
    }

    #[test]
    fn an_edit_may_drop_a_replacement_but_never_add_one() {
        use crate::ids::ItemId;
        use crate::summarize::Replacing;
        let old = ItemId(uuid::Uuid::now_v7());
        let other = ItemId(uuid::Uuid::now_v7());
        let mut draft = entry("Reworked the queue.", &["Use SKIP LOCKED"]);
        draft.replaces = Replacing::by("Use SKIP LOCKED", &[old]);
        let mut kept = draft.clone();
        kept.replaces = Replacing::by("use skip locked.", &[old]);
        assert!(only_cuts(&draft, &kept));
        assert!(only_cuts(&draft, &entry("Reworked the queue.", &[])));
        let mut added = draft.clone();
        added.replaces = Replacing::by("Use SKIP LOCKED", &[old, other]);
        assert!(!only_cuts(&draft, &added));
    }
}
