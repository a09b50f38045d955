//! Session summaries: the text facts of one session in, a work-log entry and its exact cost out.
//!
//! A leaf: it knows nothing of sessions, the database or HTTP handlers. The caller passes facts
//! already scrubbed, and only those reach the model — purposes, goal, outcome, operation names,
//! IDs and counts, never payloads.
//!
//! Per part of the session, two model calls: a draft, then a much smaller edit that sees only the
//! draft and may only cut (checked, see `cut`), because a short entry that keeps decisions and
//! open questions reads better than a long one, and a cut cannot invent. Long sessions are split
//! into parts of about 30,000 characters so later work is not squeezed out of one short entry;
//! at most `max_parts` of them go to the model, and code summarises the rest.
//!
//! Cost is bounded before it is spent: every paid model call first reserves the most it can
//! cost from a [`Budget`] (the prompt's bytes as input tokens, the output cap as output tokens,
//! for every attempt the retries allow) and settles to the real cost after. A refused
//! reservation ends the model's part of the work. Whatever goes wrong, a code-written summary
//! remains, at zero model cost.

mod budget;
mod conversation;
mod cost;
mod cut;
mod digest;
mod gemini;
pub mod marked;
mod parts;
mod prompt;
mod provider;
mod proxy;
mod render;

pub use budget::{Budget, Unlimited};
pub use conversation::{
    ConversationPart, ConversationTurn, code_entry, conversation_entry, split_conversation,
};
pub use cost::{Rates, cost_usd};
pub use digest::{DigestInput, code_digest, code_outcome as code_digest_outcome, digest};
pub use gemini::Gemini;
pub use marked::Replacing;
pub use parts::{HeldPart, Plan, assemble, code_outcome, draft_part};
pub use prompt::summary_schema;
pub use provider::{ATTEMPTS, Generated, Provider, ProviderError};
pub use proxy::Proxy;
pub use render::{code_summary, render_parts};

use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// Characters of rendered calls per part: enough for a few hundred calls, small enough that one
/// short entry per part still covers its work.
pub const PART_CHARS: usize = 30_000;

/// The model name recorded when code wrote the summary.
pub const CODE_MODEL: &str = "code";

/// Most parts one summary sends to a model (`N8V_SUMMARY_MAX_PARTS`); code summarises the rest.
pub const DEFAULT_MAX_PARTS: usize = 8;

/// The output tokens a model call may produce (its request says so), which bounds what a
/// reservation must cover.
pub const MAX_OUTPUT_TOKENS: u64 = 4_096;

/// Why the model stopped early when the budget refused a reservation.
pub const BUDGET_SPENT: &str = "the monthly summary budget is spent";

/// One call as the journal keeps it: no payloads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CallFact {
    pub at: DateTime<Utc>,
    pub operation: String,
    pub purpose: Option<String>,
    pub ok: bool,
    pub wrote: bool,
    pub target_ids: Vec<String>,
    pub result_count: Option<i32>,
}

/// What is known of one session, already scrubbed by the caller; calls in time order.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SessionFacts {
    pub assistant: String,
    pub goal: Option<String>,
    pub outcome: Option<String>,
    pub calls: Vec<CallFact>,
    /// The current decisions of earlier sessions that the session's credential can read: the
    /// model is shown them and may say which of them the session replaced (`Summary::replaces`).
    #[serde(default)]
    pub decisions_in_force: Vec<InForce>,
}

/// A current decision the model is shown, by its id and in its session's words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InForce {
    pub id: crate::ids::ItemId,
    pub text: String,
}

/// The entry stored for a session: a few sentences and the lists the catch-up brief shows.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Summary {
    /// A few sentences on what the session did.
    pub summary: String,
    /// Decisions made.
    pub decisions: Vec<String>,
    /// Work started and not finished.
    pub work_started: Vec<String>,
    /// Work finished.
    pub work_finished: Vec<String>,
    /// Questions waiting for you.
    pub open_questions: Vec<String>,
    /// Earlier decisions (`itm_…`) this summary says its session replaced, each with the
    /// decision of `decisions` that replaced it: the model's reading, derived (`stated: false`
    /// where the brief shows it), never applied. The earlier decision stays current until the
    /// session's assistant or the person replaces it (`session_end`'s `replaces`, a
    /// `Replaces itm_…:` line, or `POST /api/v1/journal/decisions/{id}/replace`). Only ids of
    /// decisions the model was shown, which the session's credential can read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replaces: Vec<Replacing>,
}

impl Summary {
    /// Keeps of `replaces` only what may stand: an id among `shown`, replaced by a decision
    /// this summary states, each pair once.
    pub fn keep_shown_replaces(&mut self, shown: &[InForce]) {
        let decisions: Vec<String> = self.decisions.iter().map(|d| marked::item_key(d)).collect();
        let said = std::mem::take(&mut self.replaces);
        let kept: Vec<Replacing> = said
            .into_iter()
            .filter(|r| shown.iter().any(|d| d.id == r.replaces))
            .filter(|r| decisions.contains(&marked::item_key(&r.decision)))
            .collect();
        self.replaces = Replacing::all(&kept, &[]);
    }
}

/// A summary and what it cost.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Outcome {
    pub summary: Summary,
    /// The provider's model, or `"code"` when code wrote the summary.
    pub model: String,
    /// Summed over the model calls whose work it holds (a part's draft and edit). What a
    /// failed call was billed is in the ledger, and named in the stored summary's note.
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// At `Rates` when the provider charges; 0 for the proxy and when no call was billed.
    pub cost_usd: Decimal,
    /// Why the code summary was used, if it was.
    pub fallback: Option<String>,
    /// How many parts the summary was made from (1 for the code summary).
    pub parts: usize,
}

/// Tokens spent so far, across parts and steps.
#[derive(Default)]
struct Spent {
    input: u64,
    output: u64,
}

impl Spent {
    fn add(&mut self, (input, output): (u64, u64)) {
        self.input = self.input.saturating_add(input);
        self.output = self.output.saturating_add(output);
    }
}

/// How a summary may use its model.
pub struct Limits<'a> {
    pub rates: &'a Rates,
    pub budget: &'a dyn Budget,
    pub max_parts: usize,
}

/// Summarises a session, part after part, holding nothing while the model works. Never fails:
/// any provider failure (HTTP error, timeout, malformed output) or a refused budget reservation
/// leaves that part and the ones after it to code, with `fallback` saying why; without any part
/// from the model it is code's summary of the whole session.
///
/// The outcome's tokens and cost are those of what it holds. What a failed call was billed is
/// in the ledger (the [`Budget`] it settled with), not in the summary. A failure of the edit
/// step alone is not a failure: the draft is kept.
pub async fn summarize(
    provider: Option<&dyn Provider>,
    limits: &Limits<'_>,
    facts: &SessionFacts,
) -> Outcome {
    let Some(provider) = provider else {
        return code_outcome(facts, "no model provider is configured");
    };
    let plan = Plan::of(facts, limits.max_parts);
    if plan.is_empty() {
        // Nothing a model could add to the goal and outcome; don't pay for it.
        return code_outcome(facts, "the session has no calls");
    }
    let mut held = Vec::with_capacity(plan.len());
    let mut failure = None;
    for index in 0..plan.len() {
        match draft_part(provider, limits, facts, &plan, index).await {
            Ok(part) => held.push(Some(part)),
            Err(why) => {
                failure = Some(why);
                break;
            }
        }
    }
    assemble(&plan, facts, provider.model(), &held, failure)
}

/// A provider with the budget its calls are reserved from.
struct Paid<'a> {
    provider: &'a dyn Provider,
    rates: &'a Rates,
    budget: &'a dyn Budget,
}

impl<'a> Paid<'a> {
    /// `provider`, its calls reserved from `limits`' budget at its rates.
    fn of(provider: &'a dyn Provider, limits: &Limits<'a>) -> Self {
        Paid {
            provider,
            rates: limits.rates,
            budget: limits.budget,
        }
    }

    /// One model call, reserved first when the provider charges. `Err(None)`: the budget
    /// refused it, nothing was called.
    async fn generate(
        &self,
        system: &str,
        prompt: &str,
        schema: &serde_json::Value,
    ) -> Result<Result<Generated, ProviderError>, ()> {
        if !self.provider.charges() {
            return Ok(self.provider.generate(system, prompt, schema).await);
        }
        let bound_input = (system.len() + prompt.len() + schema.to_string().len()) as u64;
        let attempts = u64::from(provider::ATTEMPTS);
        let estimate = cost_usd(
            self.rates,
            bound_input.saturating_mul(attempts),
            MAX_OUTPUT_TOKENS.saturating_mul(attempts),
        );
        if !self.budget.reserve(estimate).await {
            return Err(());
        }
        let answer = self.provider.generate(system, prompt, schema).await;
        let (input, output, timed_out) = match &answer {
            Ok(a) => (a.input_tokens, a.output_tokens, a.timed_out),
            Err(e) => (e.spent().0, e.spent().1, e.timed_out()),
        };
        // A call that timed out may have been charged for what never came back: it is
        // counted at its reservation, the most it could have cost.
        let actual = match timed_out {
            true => estimate,
            false => cost_usd(self.rates, input, output),
        };
        self.budget.settle(estimate, actual, timed_out).await;
        Ok(answer)
    }
}

/// A draft from `system` and `prompt`, then the cut-only edit; `shown`: the decisions in force
/// the prompt showed, the only ones its `replaces` may name.
async fn draft_and_edit(
    paid: &Paid<'_>,
    system: &str,
    prompt: &str,
    shown: &[InForce],
    spent: &mut Spent,
) -> Result<Summary, String> {
    let schema = summary_schema();
    let draft = match paid.generate(system, prompt, &schema).await {
        Err(()) => return Err(BUDGET_SPENT.to_owned()),
        Ok(Ok(answer)) => {
            spent.add((answer.input_tokens, answer.output_tokens));
            let mut draft =
                prompt::parse_summary(&answer.text).map_err(|e| format!("draft: {e}"))?;
            draft.keep_shown_replaces(shown);
            draft
        }
        Ok(Err(e)) => {
            spent.add(e.spent());
            return Err(format!("draft: {e}"));
        }
    };
    // The edit sees only the draft, so it cannot reintroduce detail from the calls.
    let draft_json = serde_json::to_string(&draft).map_err(|e| format!("draft: {e}"))?;
    match paid
        .generate(prompt::EDIT_SYSTEM, &draft_json, &schema)
        .await
    {
        Err(()) => tracing::info!("summary edit skipped: {BUDGET_SPENT}; keeping the draft"),
        Ok(Ok(answer)) => {
            spent.add((answer.input_tokens, answer.output_tokens));
            match prompt::parse_summary(&answer.text) {
                Ok(mut edit) if cut::only_cuts(&draft, &edit) => {
                    edit.keep_shown_replaces(shown);
                    return Ok(edit);
                }
                Ok(_) => tracing::info!("summary edit added text; keeping the draft"),
                Err(e) => tracing::info!(error = %e, "summary edit unreadable; keeping the draft"),
            }
        }
        Ok(Err(e)) => {
            spent.add(e.spent());
            tracing::info!(error = %e, "summary edit failed; keeping the draft");
        }
    }
    Ok(draft)
}

/// Parts in order: summaries as paragraphs, lists concatenated without exact duplicates.
fn merge(parts: Vec<Summary>) -> Summary {
    let mut merged = Summary::default();
    let mut paragraphs = Vec::with_capacity(parts.len());
    for part in parts {
        paragraphs.push(part.summary);
        extend_unique(&mut merged.decisions, part.decisions);
        extend_unique(&mut merged.work_started, part.work_started);
        extend_unique(&mut merged.work_finished, part.work_finished);
        extend_unique(&mut merged.open_questions, part.open_questions);
        merged.replaces = Replacing::all(&merged.replaces, &part.replaces);
    }
    merged.summary = paragraphs.join("\n\n");
    merged
}

fn extend_unique(list: &mut Vec<String>, items: Vec<String>) {
    for item in items {
        if !list.contains(&item) {
            list.push(item);
        }
    }
}

fn price(rates: &Rates, charges: bool, spent: &Spent) -> Decimal {
    if charges {
        cost_usd(rates, spent.input, spent.output)
    } else {
        Decimal::ZERO
    }
}
