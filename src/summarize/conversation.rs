//! Entries for conversations held outside the API (episodes): the prose of the user and
//! assistant turns in, one work-log entry per ~30,000-character part out. The caller filters
//! and scrubs the turns; nothing here keeps them.

use super::{
    CODE_MODEL, InForce, Limits, Outcome, Paid, Provider, Spent, Summary, draft_and_edit, price,
    prompt,
};
use std::ops::Range;

/// One turn that may be summarised: said by the user or by the assistant.
#[derive(Clone, Debug)]
pub struct ConversationTurn {
    pub from_user: bool,
    pub text: String,
}

/// One part of a conversation: its text as a model is sent it, and the turns it holds (a turn
/// longer than a part is in each part that holds a piece of it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConversationPart {
    pub text: String,
    pub turns: Range<usize>,
}

/// Splits the turns into parts of about `max_chars` characters, at turn boundaries (a single
/// longer turn is cut into pieces of its own). Greedy, from the first turn on: turns added at
/// the end change only the last part and the ones after it, so a conversation that grows keeps
/// its earlier parts as they were.
pub fn split_conversation(turns: &[ConversationTurn], max_chars: usize) -> Vec<ConversationPart> {
    let mut parts = Vec::new();
    let mut current = ConversationPart {
        text: String::new(),
        turns: 0..0,
    };
    let mut chars = 0;
    for (index, turn) in turns.iter().enumerate() {
        let who = if turn.from_user { "User" } else { "Assistant" };
        let text: Vec<char> = turn.text.chars().collect();
        for piece in text.chunks(max_chars.saturating_sub(20).max(1)) {
            let line = format!("{who}: {}\n", piece.iter().collect::<String>());
            let length = line.chars().count();
            if !current.text.is_empty() && chars + length > max_chars {
                let next = ConversationPart {
                    text: String::new(),
                    turns: index..index,
                };
                parts.push(std::mem::replace(&mut current, next));
                chars = 0;
            }
            current.text.push_str(&line);
            current.turns.end = index + 1;
            chars += length;
        }
    }
    if !current.text.is_empty() {
        parts.push(current);
    }
    parts
}

/// Most characters of the request and of the reply a code-written entry quotes.
pub const QUOTE_CHARS: usize = 160;

/// What code says of a part without a model: what was asked (the part's first request) and
/// done (its last reply), each one line cut to [`QUOTE_CHARS`]. The turns come scrubbed, and
/// are cut after the scrub, so no cut leaves a piece of a credential the scrub would have found.
pub fn asked_and_done(turns: &[ConversationTurn]) -> String {
    let asked = turns.iter().find(|t| t.from_user).map(|t| quote(&t.text));
    let done = turns
        .iter()
        .rev()
        .find(|t| !t.from_user)
        .map(|t| quote(&t.text));
    let said =
        |what: &str, text: Option<String>| text.map(|t| format!("{what} \u{201c}{t}\u{201d}"));
    [said("asked", asked), said("last reply", done)]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join("; ")
}

/// One line (whitespace collapsed) of at most [`QUOTE_CHARS`] characters, cut at a word when
/// there is one in its second half.
fn quote(text: &str) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() <= QUOTE_CHARS {
        return line;
    }
    let cut: String = line.chars().take(QUOTE_CHARS - 1).collect();
    let at_word = match cut.rfind(' ') {
        Some(space) if space > cut.len() / 2 => &cut[..space],
        _ => cut.as_str(),
    };
    format!("{}\u{2026}", at_word.trim_end())
}

/// The entry for one part (`turns`: the conversation's turns, of which the part holds its
/// range; `in_force`: the decisions in force its credential can read, which the model is shown
/// and may say it replaced). Never fails: without a usable model answer, code writes the entry
/// (see [`code_entry`]).
pub async fn conversation_entry(
    provider: Option<&dyn Provider>,
    limits: &Limits<'_>,
    about: &str,
    in_force: &[InForce],
    turns: &[ConversationTurn],
    part: &ConversationPart,
    (index, total): (usize, usize),
) -> Outcome {
    let mut spent = Spent::default();
    let failed = match provider {
        None => "no model provider is configured".to_owned(),
        Some(provider) => {
            let paid = Paid::of(provider, limits);
            let mut text = format!("{about}\n{}", super::render::in_force(in_force));
            if total > 1 {
                text.push_str(&format!(
                    "Part {} of {total}; the other parts are summarised separately.\n",
                    index + 1
                ));
            }
            text.push_str(&part.text);
            let system = prompt::CONVERSATION_SYSTEM;
            match draft_and_edit(&paid, system, &text, in_force, &mut spent).await {
                Ok(summary) => {
                    return Outcome {
                        summary,
                        model: provider.model().to_owned(),
                        input_tokens: spent.input,
                        output_tokens: spent.output,
                        cost_usd: price(limits.rates, provider.charges(), &spent),
                        fallback: None,
                        parts: total,
                    };
                }
                Err(reason) => reason,
            }
        }
    };
    // What a failed draft was billed is in the ledger; code's entry holds none of it.
    code_entry(about, turns, part, (index, total), &failed)
}

/// The entry code writes for a part, at no cost: the conversation's kind, and what was asked
/// and done ([`asked_and_done`]); `why` says why no model wrote it.
pub fn code_entry(
    about: &str,
    turns: &[ConversationTurn],
    part: &ConversationPart,
    (index, total): (usize, usize),
    why: &str,
) -> Outcome {
    let which = match total {
        1 => String::new(),
        _ => format!(", part {} of {total}", index + 1),
    };
    let said = asked_and_done(turns.get(part.turns.clone()).unwrap_or_default());
    let said = match said.is_empty() {
        true => String::new(),
        false => format!(": {said}"),
    };
    Outcome {
        summary: Summary {
            summary: format!("{about}{which}{said}. No model summary ({why})."),
            ..Summary::default()
        },
        model: CODE_MODEL.to_owned(),
        input_tokens: 0,
        output_tokens: 0,
        cost_usd: rust_decimal::Decimal::ZERO,
        fallback: Some(why.to_owned()),
        parts: total,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_end_at_turn_boundaries_and_stay_within_the_size() {
        let turns: Vec<ConversationTurn> = (0..100)
            .map(|i| ConversationTurn {
                from_user: i % 2 == 0,
                text: format!("{i:03} {}", "x".repeat(995)),
            })
            .collect();
        let parts = split_conversation(&turns, 30_000);
        assert_eq!(parts.len(), 4);
        for part in &parts {
            assert!(part.text.chars().count() <= 30_000);
            assert!(
                part.text
                    .lines()
                    .all(|l| l.chars().count() == 1_005 || l.chars().count() == 1_010)
            );
        }
        let lines: usize = parts.iter().map(|p| p.text.lines().count()).sum();
        assert_eq!(lines, 100, "every turn once, none cut");
        // A single turn longer than a part is cut into pieces of its own.
        let long = [ConversationTurn {
            from_user: true,
            text: "y".repeat(70_000),
        }];
        let parts = split_conversation(&long, 30_000);
        assert_eq!(parts.len(), 3);
        assert!(parts.iter().all(|p| p.text.chars().count() <= 30_000));
        assert!(parts.iter().all(|p| p.turns == (0..1)));
    }

    #[test]
    fn a_growing_conversation_keeps_its_earlier_parts() {
        let turns: Vec<ConversationTurn> = (0..60)
            .map(|i| ConversationTurn {
                from_user: i % 2 == 0,
                text: format!("{i:03} {}", "w ".repeat(400 + i * 37)),
            })
            .collect();
        let whole = split_conversation(&turns, 30_000);
        assert!(whole.len() >= 3, "{}", whole.len());
        for n in 1..turns.len() {
            let grown = split_conversation(&turns[..n], 30_000);
            let (last, earlier) = grown.split_last().unwrap();
            assert_eq!(earlier, &whole[..earlier.len()], "after {n} turns");
            assert_eq!(last.turns.end, n);
            assert_eq!(last.turns.start, whole[earlier.len()].turns.start);
        }
    }

    #[test]
    fn code_quotes_the_first_request_and_the_last_reply_cut_short() {
        let turn = |from_user, text: &str| ConversationTurn {
            from_user,
            text: text.to_owned(),
        };
        let long = format!("Then\n{} END-OF-REPLY", "fixed it ".repeat(40));
        let turns = [
            turn(true, "Fix the   login\nredirect loop."),
            turn(false, "Looking."),
            turn(true, "And the tests?"),
            turn(false, &long),
        ];
        let said = asked_and_done(&turns);
        assert!(
            said.starts_with("asked \u{201c}Fix the login redirect loop.\u{201d}; last reply \u{201c}Then fixed it"),
            "{said}"
        );
        assert!(
            !said.contains("END-OF-REPLY") && !said.contains('\n'),
            "{said}"
        );
        assert!(said.ends_with("it\u{2026}\u{201d}"), "{said}");
        let part = ConversationPart {
            text: String::new(),
            turns: 0..4,
        };
        let entry = code_entry("A codex conversation", &turns, &part, (1, 2), "why not");
        assert!(
            entry
                .summary
                .summary
                .starts_with("A codex conversation, part 2 of 2: asked"),
            "{}",
            entry.summary.summary
        );
        assert!(
            entry
                .summary
                .summary
                .ends_with(". No model summary (why not).")
        );
        assert_eq!(entry.model, CODE_MODEL);
    }
}
