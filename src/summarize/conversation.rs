//! Entries for conversations held outside the API (episodes): the prose of the user and
//! assistant turns in, one work-log entry per ~30,000-character part out. The caller filters
//! and scrubs the turns; nothing here keeps them.

use super::{
    CODE_MODEL, Limits, Outcome, Paid, Provider, Spent, Summary, draft_and_edit, price, prompt,
};

/// One turn that may be summarised: said by the user or by the assistant.
#[derive(Clone, Debug)]
pub struct ConversationTurn {
    pub from_user: bool,
    pub text: String,
}

/// Splits the turns into parts of about `max_chars` characters, at turn boundaries (a single
/// longer turn is cut into pieces of its own).
pub fn split_conversation(turns: &[ConversationTurn], max_chars: usize) -> Vec<String> {
    let mut parts = Vec::new();
    let mut current = String::new();
    for turn in turns {
        let who = if turn.from_user { "User" } else { "Assistant" };
        let text: Vec<char> = turn.text.chars().collect();
        for piece in text.chunks(max_chars.saturating_sub(20).max(1)) {
            let line = format!("{who}: {}\n", piece.iter().collect::<String>());
            if !current.is_empty() && current.chars().count() + line.chars().count() > max_chars {
                parts.push(std::mem::take(&mut current));
            }
            current.push_str(&line);
        }
    }
    if !current.is_empty() {
        parts.push(current);
    }
    parts
}

/// The entry for one part. Never fails: without a usable model answer, code writes an entry
/// that says what kind of conversation it was, and no word of it.
pub async fn conversation_entry(
    provider: Option<&dyn Provider>,
    limits: &Limits<'_>,
    about: &str,
    part: &str,
    index: usize,
    total: usize,
) -> Outcome {
    let mut spent = Spent::default();
    let failed = match provider {
        None => "no model provider is configured".to_owned(),
        Some(provider) => {
            let paid = Paid {
                provider,
                rates: limits.rates,
                budget: limits.budget,
            };
            let mut text = format!("{about}\n");
            if total > 1 {
                text.push_str(&format!(
                    "Part {} of {total}; the other parts are summarised separately.\n",
                    index + 1
                ));
            }
            text.push_str(part);
            match draft_and_edit(&paid, prompt::CONVERSATION_SYSTEM, &text, &mut spent).await {
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
    let turns = part.lines().count();
    let charges = provider.is_some_and(|p| p.charges());
    Outcome {
        summary: Summary {
            summary: format!(
                "{about}: part {} of {total}, {turns} turn lines; no model summary ({failed}).",
                index + 1
            ),
            ..Summary::default()
        },
        model: CODE_MODEL.to_owned(),
        input_tokens: spent.input,
        output_tokens: spent.output,
        cost_usd: price(limits.rates, charges, &spent),
        fallback: Some(failed),
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
            assert!(part.chars().count() <= 30_000);
            assert!(
                part.lines()
                    .all(|l| l.chars().count() == 1_005 || l.chars().count() == 1_010)
            );
        }
        let lines: usize = parts.iter().map(|p| p.lines().count()).sum();
        assert_eq!(lines, 100, "every turn once, none cut");
        // A single turn longer than a part is cut into pieces of its own.
        let long = [ConversationTurn {
            from_user: true,
            text: "y".repeat(70_000),
        }];
        let parts = split_conversation(&long, 30_000);
        assert_eq!(parts.len(), 3);
        assert!(parts.iter().all(|p| p.chars().count() <= 30_000));
    }
}
