//! Digests: the entries of a week (or the week digests of a month) merged into one.
//!
//! One paid model call per digest, reserved from the budget like every other; a digest keeps
//! every decision and open question of its inputs whatever the model answered (code adds back
//! any it dropped). Unlike session summaries, a provider failure is an error: the caller keeps
//! the inputs as they are and tries again later. Without a provider, code merges the entries.

use super::{Limits, Outcome, Paid, Provider, Summary, prompt, summary_schema};
use rust_decimal::Decimal;

/// One entry to merge: its label (a day or a week) and its summary.
#[derive(Clone, Debug)]
pub struct DigestInput {
    pub label: String,
    pub summary: Summary,
}

/// The most characters of narrative a code digest keeps.
const CODE_NARRATIVE_CHARS: usize = 1_500;

/// Merges the entries. `Err` says why the model gave nothing usable (retry later).
pub async fn digest(
    provider: Option<&dyn Provider>,
    limits: &Limits<'_>,
    entries: &[DigestInput],
) -> Result<Outcome, String> {
    let Some(provider) = provider else {
        return Ok(code_outcome(entries, "no model provider is configured"));
    };
    let mut prompt = String::new();
    for entry in entries {
        // A digest speaks for its period; which decisions replaced which is the items' business.
        let summary = Summary {
            replaces: Vec::new(),
            ..entry.summary.clone()
        };
        let json = serde_json::to_string(&summary).map_err(|e| e.to_string())?;
        prompt.push_str(&format!("{}: {json}\n", entry.label));
    }
    let paid = Paid::of(provider, limits);
    let answer = match paid
        .generate(prompt::DIGEST_SYSTEM, &prompt, &summary_schema())
        .await
    {
        Err(()) => return Err(super::BUDGET_SPENT.to_owned()),
        Ok(Err(e)) => return Err(e.to_string()),
        Ok(Ok(answer)) => answer,
    };
    let mut summary = prompt::parse_summary(&answer.text)?;
    summary.replaces.clear();
    keep_every_decision_and_question(&mut summary, entries);
    let cost = if provider.charges() {
        super::cost_usd(limits.rates, answer.input_tokens, answer.output_tokens)
    } else {
        Decimal::ZERO
    };
    Ok(Outcome {
        summary,
        model: provider.model().to_owned(),
        input_tokens: answer.input_tokens,
        output_tokens: answer.output_tokens,
        cost_usd: cost,
        fallback: None,
        parts: 1,
    })
}

/// What no model may drop: decisions and open questions (corrections and preferences are
/// decisions here).
fn keep_every_decision_and_question(summary: &mut Summary, entries: &[DigestInput]) {
    for entry in entries {
        for d in &entry.summary.decisions {
            if !summary.decisions.contains(d) {
                summary.decisions.push(d.clone());
            }
        }
        for q in &entry.summary.open_questions {
            if !summary.open_questions.contains(q) {
                summary.open_questions.push(q.clone());
            }
        }
    }
}

/// The code digest: every list item once, the narrative cut to a paragraph.
pub fn code_digest(entries: &[DigestInput]) -> Summary {
    let mut out = Summary::default();
    let mut narrative = String::new();
    for entry in entries {
        let s = &entry.summary;
        if !s.summary.is_empty() && narrative.chars().count() < CODE_NARRATIVE_CHARS {
            if !narrative.is_empty() {
                narrative.push(' ');
            }
            narrative.push_str(&format!("{}: {}", entry.label, s.summary));
        }
        for (into, items) in [
            (&mut out.work_started, &s.work_started),
            (&mut out.work_finished, &s.work_finished),
        ] {
            for item in items {
                if !into.contains(item) {
                    into.push(item.clone());
                }
            }
        }
    }
    out.work_started.retain(|w| !out.work_finished.contains(w));
    out.summary = narrative.chars().take(CODE_NARRATIVE_CHARS).collect();
    keep_every_decision_and_question(&mut out, entries);
    out
}

/// The code digest as an outcome holding no model call; `why` says why code wrote it.
pub fn code_outcome(entries: &[DigestInput], why: &str) -> Outcome {
    Outcome {
        summary: code_digest(entries),
        model: super::CODE_MODEL.to_owned(),
        input_tokens: 0,
        output_tokens: 0,
        cost_usd: Decimal::ZERO,
        fallback: Some(why.to_owned()),
        parts: 1,
    }
}
