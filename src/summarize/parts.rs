//! A session summarised part by part: the plan (which calls each part holds), one part drafted
//! and edited on its own, and the summary assembled from the parts a model wrote, with code's
//! for the rest. The job (`jobs::summary`) stores each part as it arrives and drafts several at
//! once; [`super::summarize`] runs the same steps in order, holding nothing.

use super::{
    CODE_MODEL, Limits, Outcome, Paid, Provider, SessionFacts, Spent, Summary, code_summary,
    draft_and_edit, price, prompt, render,
};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// The parts of a session a model may draft: at most `max_parts`, each about
/// [`super::PART_CHARS`] characters of rendered calls, one line a call; code summarises the
/// calls after them.
pub struct Plan {
    parts: Vec<String>,
    /// The calls each part holds, as ranges into the session's calls.
    spans: Vec<Range<usize>>,
    /// How many parts the whole session makes (more than `parts` when it was cut).
    total: usize,
}

impl Plan {
    pub fn of(facts: &SessionFacts, max_parts: usize) -> Plan {
        let mut parts = render::render_parts(facts, super::PART_CHARS);
        let total = parts.len();
        parts.truncate(max_parts.max(1));
        let mut spans = Vec::with_capacity(parts.len());
        let mut start = 0;
        for part in &parts {
            let end = (start + part.lines().count()).min(facts.calls.len());
            spans.push(start..end);
            start = end;
        }
        Plan {
            parts,
            spans,
            total,
        }
    }

    /// How many parts go to the model.
    pub fn len(&self) -> usize {
        self.parts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    /// The session's facts with only the calls of `calls`.
    fn facts_of(&self, facts: &SessionFacts, calls: Range<usize>) -> SessionFacts {
        SessionFacts {
            calls: facts.calls[calls].to_vec(),
            ..facts.clone()
        }
    }

    /// The first call after the last part a model may see.
    fn rest_start(&self) -> usize {
        self.spans.last().map_or(0, |s| s.end)
    }
}

/// A part the model wrote, and what its calls were billed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeldPart {
    pub summary: Summary,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cost_usd: Decimal,
}

/// Drafts and edits part `index` of `plan`. `Err`: why the model gave no usable draft (its
/// billed calls are in the ledger, not in any summary).
pub async fn draft_part(
    provider: &dyn Provider,
    limits: &Limits<'_>,
    facts: &SessionFacts,
    plan: &Plan,
    index: usize,
) -> Result<HeldPart, String> {
    let paid = Paid::of(provider, limits);
    let prompt = render::draft_prompt(facts, &plan.parts[index], index, plan.total);
    let shown = &facts.decisions_in_force;
    let mut spent = Spent::default();
    let summary = draft_and_edit(&paid, prompt::DRAFT_SYSTEM, &prompt, shown, &mut spent)
        .await
        .map_err(|why| match plan.total {
            1 => why,
            total => format!("part {} of {total}: {why}", index + 1),
        })?;
    Ok(HeldPart {
        summary,
        input_tokens: spent.input,
        output_tokens: spent.output,
        cost_usd: price(limits.rates, provider.charges(), &spent),
    })
}

/// The summary from the parts held (`held[i]` for part `i`; `None`: no model wrote it), with
/// code's summary for the calls of every other part and of the calls past the last part;
/// `failure`: why a part has none. Without any part held it is code's summary of the whole
/// session. Its tokens and cost are those of the parts it holds.
pub fn assemble(
    plan: &Plan,
    facts: &SessionFacts,
    model: &str,
    held: &[Option<HeldPart>],
    failure: Option<String>,
) -> Outcome {
    let part = |i: usize| held.get(i).and_then(Option::as_ref);
    if (0..plan.len()).all(|i| part(i).is_none()) {
        let why = failure.unwrap_or_else(|| "no part was summarised by the model".into());
        return code_outcome(facts, &why);
    }
    let total = plan.total;
    let mut summaries = Vec::with_capacity(plan.len() + 1);
    let mut missing: Vec<usize> = Vec::new();
    let mut kept = Spent::default();
    let mut cost = Decimal::ZERO;
    let code_for = |missing: &[usize]| {
        let (first, last) = (missing[0], missing[missing.len() - 1]);
        let calls = plan.spans[first].start..plan.spans[last].end;
        let mut code = code_summary(&plan.facts_of(facts, calls));
        let which = match first == last {
            true => format!("part {} of {total}", first + 1),
            false => format!("parts {}\u{2013}{} of {total}", first + 1, last + 1),
        };
        code.summary = format!("Calls of {which}, summarised by code: {}", code.summary);
        code
    };
    for i in 0..plan.len() {
        match part(i) {
            None => missing.push(i),
            Some(p) => {
                if !missing.is_empty() {
                    summaries.push(code_for(&missing));
                    missing.clear();
                }
                summaries.push(p.summary.clone());
                kept.add((p.input_tokens, p.output_tokens));
                cost += p.cost_usd;
            }
        }
    }
    if !missing.is_empty() {
        summaries.push(code_for(&missing));
    }
    let rest = plan.rest_start();
    if rest < facts.calls.len() {
        let mut tail = code_summary(&plan.facts_of(facts, rest..facts.calls.len()));
        tail.summary = format!(
            "Calls after part {} of {total}, summarised by code: {}",
            plan.len(),
            tail.summary
        );
        summaries.push(tail);
    }
    let some_by_code = (0..plan.len()).any(|i| part(i).is_none());
    Outcome {
        summary: super::merge(summaries),
        model: model.to_owned(),
        input_tokens: kept.input,
        output_tokens: kept.output,
        cost_usd: cost,
        fallback: some_by_code.then(|| {
            let why = failure.unwrap_or_else(|| "the model stopped".into());
            format!("some parts summarised by code: {why}")
        }),
        parts: plan.len(),
    }
}

/// Code's summary of the whole session, holding no model call; `why` says why.
pub fn code_outcome(facts: &SessionFacts, why: &str) -> Outcome {
    Outcome {
        summary: code_summary(facts),
        model: CODE_MODEL.to_owned(),
        input_tokens: 0,
        output_tokens: 0,
        cost_usd: Decimal::ZERO,
        fallback: Some(why.to_owned()),
        parts: 1,
    }
}
