//! The summary job: summarise one closed session snapshot, claimed before any model is paid,
//! with nothing held while a model works.
//!
//! A run takes the snapshot's lease (`summaries::lease`) in a short transaction it commits
//! before the first model call, then drafts the parts still missing, [`PART_CONCURRENCY`] at a
//! time, and stores each as it arrives in a short transaction that checks and renews the lease.
//! The summary is assembled from the stored parts and stored once. A second run for the same
//! snapshot waits for the lease and then finds the summary stored; a run that dies leaves its
//! parts stored and its lease to expire, and the next run pays only for the parts missing.
//!
//! Bounds, per run: at most `N8V_SUMMARY_MAX_PARTS` parts (8) × 2 calls (draft and edit) × the
//! provider's attempts per call (3), and a part already stored is never drafted again; at most
//! ⌈parts / 4⌉ × one part's time (2 calls × 3 attempts × `N8V_SUMMARY_TIMEOUT_SECONDS`) — with
//! the defaults, 3 minutes a part and 6 for the longest session. After [`lease::CLAIMS`] runs,
//! or when the last one fails, code writes what no model did. Sessions that only read the
//! journal never go to a paid provider. Each paid model call reserves its most possible cost
//! from the account's monthly budget first.

use super::WorkerState;
use crate::db::{Tenant, TenantTx};
use crate::error::Result;
use crate::ids::SessionId;
use crate::loops::decided;
use crate::queue::SummarizeSession;
use crate::summaries::lease::{self, Claim, Lease};
use crate::summaries::{self, Loaded, MonthlyBudget, model_for, parts};
use crate::summarize::{self, BUDGET_SPENT, CODE_MODEL, HeldPart, Outcome, Plan};
use futures_util::StreamExt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

pub const BUDGET_NOTE: &str = "the monthly summary budget is spent: summary written by code";
pub const JOURNAL_ONLY_NOTE: &str =
    "the session only read the journal: summary written by code, no model paid";

/// How many parts of one session are drafted at once.
pub const PART_CONCURRENCY: usize = 4;

/// How often a run waiting for another run's lease looks again.
const POLL: Duration = Duration::from_millis(500);

/// Summarises the session snapshot unless it is already summarised. Returns whether this run
/// stored the summary.
#[tracing::instrument(skip_all)]
pub async fn summarize_session(state: &WorkerState, job: &SummarizeSession) -> Result<bool> {
    let Some((lease, loaded, held)) = claim(state, job).await? else {
        return Ok(false);
    };
    // Which calls each part holds: the same for every run of the snapshot.
    let plan = Plan::of(&loaded.facts, state.config.summaries.max_parts);
    let run = Run {
        state,
        job,
        lease: &lease,
        loaded: &loaded,
        plan: &plan,
    };
    match summarize_claimed(&run, held).await {
        Ok(stored) => Ok(stored),
        Err(e) if lease.claims >= lease::CLAIMS => {
            // The last run failed: code writes what the model did not, if the database lets it.
            tracing::warn!(session = %job.session_id, error = %e, "summary run failed; storing code's");
            let why = format!("the summary failed {} times", lease.claims);
            finish(&run, None, &why).await
        }
        Err(e) => {
            // Let the retry claim at once; if even this fails, the lease expires.
            let tenant = Tenant::service(job.account_id);
            if let Ok(mut tx) = TenantTx::begin(&state.db, &tenant).await
                && lease::release(&mut tx, &lease).await.is_ok()
            {
                let _ = tx.commit().await;
            }
            Err(e)
        }
    }
}

type Claimed = (Lease, Loaded, Vec<(usize, HeldPart)>);

/// Takes the snapshot's lease, waiting while another run holds it; with it, what the summary
/// is made from and the parts stored so far. `None`: stored already, or the session is gone.
async fn claim(state: &WorkerState, job: &SummarizeSession) -> Result<Option<Claimed>> {
    let tenant = Tenant::service(job.account_id);
    let subject = subject(job);
    let length = lease::length(state.config.summaries.timeout);
    loop {
        let now = state.clock.now();
        let mut tx = TenantTx::begin(&state.db, &tenant).await?;
        if summaries::stored(&mut tx, job.session_id, job.snapshot).await? {
            return Ok(None);
        }
        let lease = match lease::claim(&mut tx, &subject, now, length).await? {
            Claim::Taken(lease) => lease,
            Claim::Held(_) => {
                tx.commit().await?;
                tokio::time::sleep(POLL).await;
                continue;
            }
        };
        let Some(mut loaded) = summaries::load(&mut tx, job.session_id).await? else {
            lease::end(&mut tx, &subject).await?;
            tx.commit().await?;
            return Ok(None); // deleted meanwhile (retention or the account)
        };
        if !loaded.journal_only {
            // What the model is shown and may say its session replaced.
            let session = SessionId(job.session_id);
            loaded.facts.decisions_in_force = decided::in_force(&mut tx, session).await?;
        }
        let held = parts::held(&mut tx, job.session_id, job.snapshot).await?;
        tx.commit().await?;
        return Ok(Some((lease, loaded, held)));
    }
}

fn subject(job: &SummarizeSession) -> String {
    format!("summary:{}:{}", job.session_id, job.snapshot)
}

/// One run of the summary job, with its lease on the snapshot.
struct Run<'a> {
    state: &'a WorkerState,
    job: &'a SummarizeSession,
    lease: &'a Lease,
    loaded: &'a Loaded,
    plan: &'a Plan,
}

/// Drafts the parts missing, each stored as it arrives, then stores the summary.
async fn summarize_claimed(run: &Run<'_>, held: Vec<(usize, HeldPart)>) -> Result<bool> {
    let Run {
        state,
        job,
        lease,
        loaded,
        plan,
    } = *run;
    let config = &state.config.summaries;
    let chosen = match loaded.journal_only {
        true => None,
        false => model_for(config, &loaded.account_kind),
    };
    let facts = &loaded.facts;
    let Some(provider) = chosen.as_deref() else {
        return finish(run, None, "no model provider is configured").await;
    };
    if plan.is_empty() {
        return finish(run, None, "the session has no calls").await;
    }
    if lease.claims > lease::CLAIMS {
        let why = format!("the summary was claimed {} times", lease.claims);
        return finish(run, Some(provider.model()), &why).await;
    }
    let budget = MonthlyBudget::of(&state.db, config, job.account_id, state.clock.now())
        .for_work(&lease.subject);
    let limits = budget.limits(config);
    let have: Vec<usize> = held.iter().map(|(i, _)| *i).collect();
    let stop = AtomicBool::new(false);
    let lost = AtomicBool::new(false);
    let drafted = futures_util::stream::iter((0..plan.len()).filter(|i| !have.contains(i)))
        .map(|index| {
            let (limits, stop, lost) = (&limits, &stop, &lost);
            async move {
                if stop.load(Ordering::SeqCst) {
                    return Ok(None);
                }
                match summarize::draft_part(provider, limits, facts, plan, index).await {
                    Ok(part) => {
                        if !store_part(state, job, lease, index, &part).await? {
                            lost.store(true, Ordering::SeqCst);
                            stop.store(true, Ordering::SeqCst);
                        }
                        Ok(None)
                    }
                    Err(why) => {
                        // No new part starts; those under way finish and are kept.
                        stop.store(true, Ordering::SeqCst);
                        Ok(Some((index, why)))
                    }
                }
            }
        })
        .buffer_unordered(PART_CONCURRENCY)
        .collect::<Vec<Result<Option<(usize, String)>>>>()
        .await;
    let mut failures = Vec::new();
    for result in drafted {
        failures.extend(result?);
    }
    if lost.load(Ordering::SeqCst) {
        return Ok(false); // another run took the lease over and finishes the work
    }
    failures.sort();
    let why = failures.into_iter().next().map(|(_, why)| why);
    let why = why.unwrap_or_default();
    finish(run, Some(provider.model()), &why).await
}

/// Stores one part if this run still holds the lease, renewing it. `false`: lost.
async fn store_part(
    state: &WorkerState,
    job: &SummarizeSession,
    lease: &Lease,
    index: usize,
    part: &HeldPart,
) -> Result<bool> {
    let mut tx = TenantTx::begin(&state.db, &Tenant::service(job.account_id)).await?;
    if !lease::renew(&mut tx, lease, state.clock.now()).await? {
        return Ok(false);
    }
    parts::store(&mut tx, job.session_id, job.snapshot, index, part).await?;
    tx.commit().await?;
    Ok(true)
}

/// Stores the summary from the parts stored (the model's, `model`) and code's for the rest,
/// its note naming what the ledger holds that it does not; `why`: why some or all of it is
/// code's. `false`: the lease or the summary was another run's.
async fn finish(run: &Run<'_>, model: Option<&str>, why: &str) -> Result<bool> {
    let Run {
        state,
        job,
        lease,
        loaded,
        plan,
    } = *run;
    let now = state.clock.now();
    let mut tx = TenantTx::begin(&state.db, &Tenant::service(job.account_id)).await?;
    if !lease::renew(&mut tx, lease, now).await? {
        return Ok(false);
    }
    let held = parts::held(&mut tx, job.session_id, job.snapshot).await?;
    let mut by_part: Vec<Option<HeldPart>> = vec![None; plan.len()];
    for (index, part) in held {
        if let Some(slot) = by_part.get_mut(index) {
            *slot = Some(part);
        }
    }
    let why = (!why.is_empty()).then(|| why.to_owned());
    // Without a part held (an empty plan among them), code's summary of the whole session.
    let model = model.unwrap_or(CODE_MODEL);
    let outcome = summarize::assemble(plan, &loaded.facts, model, &by_part, why);
    let calls = lease::calls(&mut tx, &lease.subject).await?;
    let note = calls.note(why_code(loaded, &outcome), outcome.cost_usd);
    if let Some(why) = &outcome.fallback
        && model != CODE_MODEL
    {
        tracing::warn!(session = %job.session_id, reason = %why, "summary fell back to code");
    }
    let stored = summaries::store(
        &mut tx,
        job.session_id,
        job.snapshot,
        &outcome,
        note.as_deref(),
        now,
    )
    .await?;
    if !stored {
        return Ok(false); // another run's; this transaction rolls back
    }
    parts::clear(&mut tx, job.session_id, job.snapshot).await?;
    lease::end(&mut tx, &lease.subject).await?;
    tx.commit().await?;
    Ok(true)
}

/// Why code wrote the stored summary, or some of it: its note's first words.
fn why_code(loaded: &Loaded, outcome: &Outcome) -> Option<String> {
    match outcome.fallback.as_deref() {
        _ if loaded.journal_only => Some(JOURNAL_ONLY_NOTE.to_owned()),
        Some(why) if outcome.model != CODE_MODEL => Some(why.to_owned()),
        Some(why) if why.ends_with(BUDGET_SPENT) => Some(BUDGET_NOTE.to_owned()),
        Some(why) => Some(format!("summary written by code: {why}")),
        None => None,
    }
}
