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

/// A turn kept: who said it, and its text without format characters (not yet scrubbed).
pub(super) struct Kept {
    pub from_user: bool,
    pub visible: String,
}

/// Keeps the user and assistant prose, dropping everything else unread.
pub(super) fn kept_turns(turns: Vec<EpisodeTurn>) -> (Vec<Kept>, usize) {
    let total = turns.len();
    let kept: Vec<Kept> = turns
        .into_iter()
        .filter(|t| !t.private)
        .filter(|t| matches!(t.kind.as_deref(), None | Some("message") | Some("text")))
        .filter(|t| t.role == "user" || t.role == "assistant")
        .map(|t| Kept {
            from_user: t.role == "user",
            visible: crate::scrub::strip_format_chars(t.text.trim())
                .trim()
                .to_owned(),
        })
        .filter(|t| !t.visible.is_empty())
        .collect();
    let dropped = total - kept.len();
    (kept, dropped)
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
    let handoff = Handoff {
        decisions: items(marked.decisions),
        open_questions: items(marked.open_questions),
        next_steps: Vec::new(),
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
