//! The turns of a posted episode as the entries use them: the user's and assistant's prose
//! kept (everything else dropped unread), scrubbed for the model, the lines they mark lifted
//! into a hand-off, and a digest of each part to tell a post of the same turns from a changed
//! one. Nothing here is stored but the hand-off (scrubbed) and the digest.

use super::EpisodeTurn;
use crate::journal::handoff::{Handoff, MAX_ITEM_CHARS, MAX_ITEMS};
use crate::scrub::Found;
use crate::summarize::ConversationTurn;
use crate::summarize::marked::{Marked, Source};
use sha2::{Digest, Sha256};
use uuid::Uuid;

/// A turn kept: who said it, and its text as [`visible`] reads it (not yet scrubbed).
pub(super) struct Kept {
    pub from_user: bool,
    pub visible: String,
}

/// Keeps the user and assistant prose, dropping everything else unread.
/// The turns kept (see [`visible`]), how many were dropped unread, and how many characters
/// that hide or reorder text (`ids::hides_text`) were stripped from those kept.
pub(super) fn kept_turns(turns: Vec<EpisodeTurn>) -> (Vec<Kept>, usize, usize) {
    let total = turns.len();
    let mut hidden = 0;
    let kept: Vec<Kept> = turns
        .into_iter()
        .filter(|t| !t.private)
        .filter(|t| matches!(t.kind.as_deref(), None | Some("message") | Some("text")))
        .filter(|t| t.role == "user" || t.role == "assistant")
        .map(|t| {
            hidden += t
                .text
                .chars()
                .filter(|c| crate::ids::hides_text(*c))
                .count();
            Kept {
                from_user: t.role == "user",
                visible: visible(&t.text),
            }
        })
        .filter(|t| !t.visible.is_empty())
        .collect();
    let dropped = total - kept.len();
    (kept, dropped, hidden)
}

/// A turn's text as everything after reads it: control characters other than whitespace (a
/// NUL, an escape, DEL, the C1 controls) and format characters dropped, then trimmed.
///
/// Dropped, not refused. A harness posts the whole conversation at every turn, so a turn
/// refused for one character would refuse every later post of the conversation: it would be
/// lost for good, as it was when a NUL reached code's entry (which quotes the first request
/// and the last reply into a `jsonb` column, where PostgreSQL refuses `\u0000`) and answered
/// 500. The characters carry nothing a reader of an entry needs (tabs and line breaks stay),
/// and dropping them before the scrub, like format characters, keeps them from splitting a
/// credential out of its rules' sight. Text that is not Unicode at all (a lone surrogate,
/// `\ud800`) never gets here: the JSON is refused with a `400` as it is read.
fn visible(text: &str) -> String {
    let shown = |c: &char| !c.is_control() || c.is_whitespace();
    let text: String = text.chars().filter(shown).collect();
    crate::scrub::strip_format_chars(&text).trim().to_owned()
}

/// The turns as a model may see them: credentials scrubbed.
pub(super) fn scrubbed(kept: &[Kept]) -> Vec<ConversationTurn> {
    kept.iter()
        .map(|t| ConversationTurn {
            from_user: t.from_user,
            text: crate::scrub::clean_text(&t.visible),
        })
        .collect()
}

/// The decisions and open questions the turns mark, by the rules purposes follow
/// (`summarize::marked`: the markers only, never a bare question, since a conversation asks
/// many), each scrubbed, then cut to one hand-off item; the newest 20 of each list. Also the
/// credentials scrubbed from the items kept.
pub(super) fn marked_handoff(kept: &[Kept]) -> (Option<Handoff>, Vec<Found>) {
    let mut marked = Marked::default();
    for turn in kept {
        marked.read(&turn.visible, Source::Purpose);
    }
    let mut found = Vec::new();
    let mut items = |list: Vec<String>| -> Vec<String> {
        let skip = list.len().saturating_sub(MAX_ITEMS);
        list.into_iter()
            .skip(skip)
            .map(|item| {
                let clean = crate::scrub::clean(&item);
                found.extend(clean.found);
                cut(&clean.text, MAX_ITEM_CHARS)
            })
            .collect()
    };
    // A marked replacement keeps its decision's words as the list keeps them (scrubbed, cut).
    let mut replaces = marked.replacing;
    for r in &mut replaces {
        r.decision = cut(&crate::scrub::clean(&r.decision).text, MAX_ITEM_CHARS);
    }
    let handoff = Handoff {
        decisions: items(marked.decisions),
        open_questions: items(marked.open_questions),
        next_steps: Vec::new(),
        replaces,
    };
    ((!handoff.is_empty()).then_some(handoff), found)
}

/// `text` cut to at most `max` characters, `…` marking a cut.
fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let kept: String = text.chars().take(max - 1).collect();
    format!("{}\u{2026}", kept.trim_end())
}

/// The digest stored on a part's entry: SHA-256 of its text as a model is sent it, salted with
/// the account, the episode and the part so that equal turns elsewhere give unrelated digests.
pub(super) fn digest(account: Uuid, episode_id: &str, part: i32, text: &str) -> Vec<u8> {
    let mut hash = Sha256::new();
    hash.update(b"n8v-episode-part-v1\0");
    hash.update(account.as_bytes());
    hash.update(episode_id.as_bytes());
    hash.update([0]);
    hash.update(part.to_be_bytes());
    hash.update(text.as_bytes());
    hash.finalize().to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(from_user: bool, text: &str) -> Kept {
        Kept {
            from_user,
            visible: text.to_owned(),
        }
    }

    #[test]
    fn control_characters_are_dropped_and_whitespace_kept() {
        assert_eq!(
            visible(" a\u{0}b\u{1b}[0m\u{7f}c\u{9b}\td\r\ne\u{200b}f\u{0} "),
            "ab[0mc\td\r\nef"
        );
        let turn = |text: &str| EpisodeTurn {
            role: "user".into(),
            text: text.into(),
            kind: None,
            private: false,
        };
        let (kept, dropped, hidden) = kept_turns(vec![
            turn("\u{0}\u{1}\u{200b}"),
            turn("o\u{E0041}\u{E0042}k\u{202E}\u{0}"),
        ]);
        assert_eq!(
            (kept.len(), dropped),
            (1, 1),
            "a turn of nothing visible is dropped"
        );
        assert_eq!(kept[0].visible, "ok");
        assert_eq!(
            hidden, 3,
            "two tag characters and an override, stripped and counted"
        );
    }

    #[test]
    fn the_markers_of_either_side_become_a_scrubbed_handoff_and_bare_questions_do_not() {
        let token = "ghp_Abcdefghijklmnopqrstuvwxyz0123456789";
        let turns = [
            kept(
                true,
                "Can you fix the login? Decided: no more SameSite=Strict.",
            ),
            kept(
                false,
                &format!(
                    "Done.\n- Decision: rotate {token} weekly\nTODO: remove the old route\n\
                     Open question: keep v1 for a month?"
                ),
            ),
        ];
        let (handoff, found) = marked_handoff(&turns);
        let handoff = handoff.unwrap();
        assert_eq!(
            handoff.decisions,
            [
                "no more SameSite=Strict",
                "rotate [REDACTED:github-pat] weekly"
            ]
        );
        assert_eq!(
            handoff.open_questions,
            ["TODO: remove the old route", "keep v1 for a month?"]
        );
        assert!(handoff.next_steps.is_empty());
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].rule, "github-pat");
        assert_eq!(marked_handoff(&[kept(false, "Why? It works.")]).0, None);
    }

    #[test]
    fn items_are_cut_and_the_newest_kept() {
        let many: String = (0..30).map(|i| format!("Decided: choice {i}\n")).collect();
        let long = format!("TODO: {}", "x".repeat(400));
        let (handoff, _) = marked_handoff(&[kept(false, &many), kept(false, &long)]);
        let handoff = handoff.unwrap();
        assert_eq!(handoff.decisions.len(), MAX_ITEMS);
        assert_eq!(handoff.decisions[0], "choice 10");
        assert_eq!(handoff.open_questions[0].chars().count(), MAX_ITEM_CHARS);
        assert!(handoff.open_questions[0].ends_with('\u{2026}'));
    }

    #[test]
    fn digests_tell_turns_apart_and_depend_on_where_they_are() {
        let account = Uuid::nil();
        let one = digest(account, "ep", 0, "User: hi\n");
        assert_eq!(one, digest(account, "ep", 0, "User: hi\n"));
        assert_ne!(one, digest(account, "ep", 0, "User: hi!\n"));
        assert_ne!(one, digest(account, "ep", 1, "User: hi\n"));
        assert_ne!(one, digest(Uuid::from_u128(1), "ep", 0, "User: hi\n"));
        assert_eq!(one.len(), 32);
    }
}
