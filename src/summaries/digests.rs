//! Week and month digests' SQL: which periods are due, their inputs, the claim a digest job
//! takes before paying a model, the stored digest, and the reads and deletions over them. The
//! orchestration lives in `jobs::digests`.
//!
//! A week (Monday to Monday, UTC) is due once its end is `week_after` (14 days) old; a month
//! once its end is `month_after` (90 days) old, from the week digests that start in it. A digest
//! is claimed by inserting its row in a transaction held while the model works (the period is
//! unique per account): a second job waits, then finds it taken; a failed or killed job rolls
//! the claim back and leaves its inputs as they are for the next night.

use crate::db::TenantTx;
use crate::error::{Error, Result};
use crate::ids::{self, DigestId};
use crate::summarize::marked::Marked;
use crate::summarize::{DigestInput, Outcome, Summary};
use crate::webhooks::events::{self, Event};
use crate::webhooks::payloads::DigestReady;
use chrono::{DateTime, Duration, NaiveDate, Utc};
use serde::Serialize;
use uuid::Uuid;

/// A digest of a week or a month.
#[derive(Debug, Clone, Serialize, serde::Deserialize, utoipa::ToSchema)]
pub struct Digest {
    /// The digest (`dig_…`).
    pub id: DigestId,
    /// `week` or `month`.
    pub period: String,
    /// The first day of the period (a Monday for weeks).
    pub period_start: NaiveDate,
    /// The day after the period's last day.
    pub period_end: NaiveDate,
    /// How many sessions the period held.
    pub session_count: i32,
    /// Every decision and open question of the period, and a short narrative.
    pub summary: Summary,
    /// The model that wrote it, or `code`.
    pub model: String,
    /// What it cost, in US dollars (an exact decimal).
    pub cost_usd: String,
    /// When it was made.
    pub created_at: DateTime<Utc>,
}

/// A stored digest, as the statements read it.
struct DigestRow {
    digest_id: Uuid,
    period: String,
    period_start: NaiveDate,
    period_end: NaiveDate,
    session_count: i32,
    summary: serde_json::Value,
    model: String,
    cost_usd: rust_decimal::Decimal,
    created_at: DateTime<Utc>,
}

impl From<DigestRow> for Digest {
    fn from(r: DigestRow) -> Self {
        Digest {
            id: DigestId(r.digest_id),
            period: r.period,
            period_start: r.period_start,
            period_end: r.period_end,
            session_count: r.session_count,
            summary: serde_json::from_value(r.summary).unwrap_or_default(),
            model: r.model,
            cost_usd: r.cost_usd.normalize().to_string(),
            created_at: r.created_at,
        }
    }
}

/// Weeks with sessions (beyond journal reads) whose end is `week_after` old and that have no
/// digest yet, oldest first.
#[tracing::instrument(skip_all, err)]
pub async fn due_weeks(
    tx: &mut TenantTx,
    now: DateTime<Utc>,
    week_after: Duration,
) -> sqlx::Result<Vec<NaiveDate>> {
    sqlx::query_scalar!(
        r#"SELECT DISTINCT w.week AS "week!" FROM journal_sessions s
           CROSS JOIN LATERAL (SELECT date_trunc('week', s.started_at AT TIME ZONE 'UTC')::date AS week) w
           WHERE s.account_id = n8v_account() AND NOT s.journal_only
             AND w.week + 7 <= ($1 AT TIME ZONE 'UTC')::date - $2::int
             AND NOT EXISTS (SELECT 1 FROM journal_digests d WHERE d.account_id = s.account_id
                              AND d.period = 'week' AND d.period_start = w.week)
           ORDER BY 1"#,
        now,
        week_after.num_days() as i32
    )
    .fetch_all(tx.conn())
    .await
}

/// Months whose end is `month_after` old, with week digests and no month digest yet.
#[tracing::instrument(skip_all, err)]
pub async fn due_months(
    tx: &mut TenantTx,
    now: DateTime<Utc>,
    month_after: Duration,
) -> sqlx::Result<Vec<NaiveDate>> {
    sqlx::query_scalar!(
        r#"SELECT DISTINCT m.month AS "month!" FROM journal_digests w
           CROSS JOIN LATERAL (SELECT date_trunc('month', w.period_start)::date AS month) m
           WHERE w.account_id = n8v_account() AND w.period = 'week'
             AND (m.month + interval '1 month')::date <= ($1 AT TIME ZONE 'UTC')::date - $2::int
             AND NOT EXISTS (SELECT 1 FROM journal_digests d WHERE d.account_id = w.account_id
                              AND d.period = 'month' AND d.period_start = m.month)
           ORDER BY 1"#,
        now,
        month_after.num_days() as i32
    )
    .fetch_all(tx.conn())
    .await
}

/// What a digest is made from: its entries, the scopes they were recorded with, how many
/// sessions they cover.
pub struct Inputs {
    pub entries: Vec<DigestInput>,
    pub scopes: Vec<String>,
    pub session_count: i32,
}

struct WeekSession {
    started_at: DateTime<Utc>,
    assistant: String,
    summary: Option<serde_json::Value>,
    goal: Option<String>,
    outcome: Option<String>,
    handoff: Option<sqlx::types::Json<crate::journal::handoff::Handoff>>,
    scopes: Vec<String>,
}

/// The sessions of the week starting on `week` (their stored summaries, else their goal and
/// outcome and what those mark), each led by the decisions and open questions its assistant
/// stated, so a digest keeps those too.
#[tracing::instrument(skip_all, err)]
pub async fn week_inputs(tx: &mut TenantTx, week: NaiveDate) -> sqlx::Result<Inputs> {
    let rows = sqlx::query_as!(
        WeekSession,
        r#"SELECT started_at, assistant, summary, goal, outcome,
                  handoff AS "handoff: sqlx::types::Json<crate::journal::handoff::Handoff>", scopes
           FROM journal_sessions
           WHERE account_id = n8v_account() AND NOT journal_only
             AND started_at >= ($1::date)::timestamp AT TIME ZONE 'UTC'
             AND started_at < ($1::date + 7)::timestamp AT TIME ZONE 'UTC'
           ORDER BY started_at, session_id"#,
        week
    )
    .fetch_all(tx.conn())
    .await?;
    let mut scopes: Vec<String> = Vec::new();
    let entries = rows
        .into_iter()
        .map(|r| {
            for scope in r.scopes {
                if !scopes.contains(&scope) {
                    scopes.push(scope);
                }
            }
            let mut summary = r
                .summary
                .and_then(|s| serde_json::from_value(s).ok())
                .unwrap_or_else(|| {
                    let marked =
                        Marked::lift(r.goal.iter().chain(&r.outcome).map(String::as_str), []);
                    Summary {
                        summary: [r.goal.as_deref(), r.outcome.as_deref()]
                            .into_iter()
                            .flatten()
                            .collect::<Vec<_>>()
                            .join(" "),
                        decisions: marked.decisions,
                        work_started: r.goal.into_iter().collect(),
                        work_finished: r.outcome.into_iter().collect(),
                        open_questions: marked.open_questions,
                        replaces: Vec::new(),
                    }
                });
            if let Some(handoff) = r.handoff {
                crate::journal::handoff::lead_with(&mut summary, &handoff);
            }
            DigestInput {
                label: format!(
                    "{} ({})",
                    r.started_at.format("%Y-%m-%d %H:%M"),
                    r.assistant
                ),
                summary,
            }
        })
        .collect::<Vec<_>>();
    Ok(Inputs {
        session_count: entries.len() as i32,
        entries,
        scopes,
    })
}

struct WeekDigest {
    period_start: NaiveDate,
    summary: serde_json::Value,
    scopes: Vec<String>,
    session_count: i32,
}

/// The week digests that start in the month starting on `month`.
#[tracing::instrument(skip_all, err)]
pub async fn month_inputs(tx: &mut TenantTx, month: NaiveDate) -> sqlx::Result<Inputs> {
    let rows = sqlx::query_as!(
        WeekDigest,
        "SELECT period_start, summary, scopes, session_count FROM journal_digests
         WHERE account_id = n8v_account() AND period = 'week'
           AND period_start >= $1 AND period_start < ($1 + interval '1 month')::date
         ORDER BY period_start",
        month
    )
    .fetch_all(tx.conn())
    .await?;
    let mut inputs = Inputs {
        entries: Vec::new(),
        scopes: Vec::new(),
        session_count: 0,
    };
    for r in rows {
        for scope in r.scopes {
            if !inputs.scopes.contains(&scope) {
                inputs.scopes.push(scope);
            }
        }
        inputs.session_count += r.session_count;
        inputs.entries.push(DigestInput {
            label: format!("week of {}", r.period_start),
            summary: serde_json::from_value(r.summary).unwrap_or_default(),
        });
    }
    Ok(inputs)
}

/// Claims the period for this transaction; `None` when another job made it already.
#[tracing::instrument(skip_all, err)]
pub async fn claim(
    tx: &mut TenantTx,
    period: &str,
    start: NaiveDate,
    end: NaiveDate,
    now: DateTime<Utc>,
) -> sqlx::Result<Option<DigestId>> {
    sqlx::query_scalar!(
        r#"INSERT INTO journal_digests (account_id, digest_id, period, period_start, period_end,
               scopes, session_count, summary, model, created_at)
           VALUES (n8v_account(), $1, $2, $3, $4, '{}', 0, '{}', '', $5)
           ON CONFLICT (account_id, period, period_start) DO NOTHING
           RETURNING digest_id AS "digest_id: DigestId""#,
        ids::new_id(),
        period,
        start,
        end,
        now
    )
    .fetch_optional(tx.conn())
    .await
}

/// Stores the digest in its claimed row, and tells of it (`digest.ready`, with what the
/// statement stored, to the endpoints whose maker holds the scopes it was read under).
#[tracing::instrument(skip_all, err)]
pub async fn store(
    tx: &mut TenantTx,
    id: DigestId,
    inputs: &Inputs,
    outcome: &Outcome,
    note: Option<&str>,
    now: DateTime<Utc>,
) -> Result<()> {
    let summary = crate::summaries::json(&outcome.summary)?;
    let stored = sqlx::query!(
        "UPDATE journal_digests SET scopes = $2, session_count = $3, summary = $4, model = $5,
             input_tokens = $6, output_tokens = $7, cost_usd = $8, note = $9
         WHERE account_id = n8v_account() AND digest_id = $1
         RETURNING period, period_start, period_end, scopes, session_count, summary, model",
        id.0,
        &inputs.scopes,
        inputs.session_count,
        &summary,
        &outcome.model,
        outcome.input_tokens as i64,
        outcome.output_tokens as i64,
        outcome.cost_usd,
        note
    )
    .fetch_optional(tx.conn())
    .await?;
    let Some(r) = stored else { return Ok(()) };
    keep_decision_ids(tx, id).await?;
    let ready = DigestReady {
        digest: id,
        period: r.period,
        period_start: r.period_start,
        period_end: r.period_end,
        session_count: r.session_count,
        summary: r.summary,
        model: r.model,
    };
    events::emit(tx, Event::DigestReady(ready, r.scopes), now).await?;
    Ok(())
}

/// The digests the caller can read, newest first.
#[tracing::instrument(skip_all, err)]
pub async fn list(
    tx: &mut TenantTx,
    period: Option<&str>,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
    limit: i64,
) -> Result<Vec<Digest>> {
    let rows = sqlx::query_as!(
        DigestRow,
        "SELECT digest_id, period, period_start, period_end, session_count, summary, model,
                cost_usd, created_at
         FROM journal_digests
         WHERE ($1::text IS NULL OR period = $1)
           AND ($2::date IS NULL OR period_start >= $2)
           AND ($3::date IS NULL OR period_start < $3)
         ORDER BY period_start DESC, period LIMIT $4",
        period,
        from,
        to,
        limit
    )
    .fetch_all(tx.conn())
    .await?;
    Ok(rows.into_iter().map(Digest::from).collect())
}

/// Deletes one digest on purpose; 404 unless the caller may (the delete policy).
#[tracing::instrument(skip_all, err(level = "info"))]
pub async fn delete(tx: &mut TenantTx, id: DigestId) -> Result<DigestId> {
    let gone = sqlx::query_scalar!(
        r#"DELETE FROM journal_digests WHERE account_id = n8v_account() AND digest_id = $1
           RETURNING digest_id AS "digest_id: DigestId""#,
        id.0
    )
    .fetch_optional(tx.conn())
    .await?;
    gone.ok_or_else(|| Error::not_found(ids::Kind::Digest, &id.to_string()))
}

/// The digests the caller may read, in the order they were made, after `after`, `limit` of
/// them: the export's pages.
#[tracing::instrument(skip_all, err)]
pub(crate) async fn export_page(
    tx: &mut TenantTx,
    after: (DateTime<Utc>, Uuid),
    limit: i64,
) -> sqlx::Result<Vec<Digest>> {
    let rows = sqlx::query_as!(
        DigestRow,
        "SELECT digest_id, period, period_start, period_end, session_count, summary, model,
                cost_usd, created_at
           FROM journal_digests WHERE (created_at, digest_id) > ($1, $2)
          ORDER BY created_at, digest_id LIMIT $3",
        after.0,
        after.1,
        limit,
    )
    .fetch_all(tx.conn())
    .await?;
    Ok(rows.into_iter().map(Digest::from).collect())
}

/// Keeps with the digest `id` the ids of the decision items it holds (migration 0037): for a
/// week, those its sessions opened or joined; for a month, those of its week digests. A reader
/// is told beside each of its decision lines how that decision stands now
/// (`loops::decided::standing`): the digest's text is stored, the decisions' states are not.
///
/// Digests stored before migration 0037 got their ids from it, the same way, from the sessions
/// of their period still held: nothing is matched by text at read time. A decision whose
/// sessions are all gone is gone too (an item lives as long as a session stating it), so its
/// line says nothing new, and neither does a line of a digest stored without ids.
#[tracing::instrument(skip_all, err)]
pub async fn keep_decision_ids(tx: &mut TenantTx, id: DigestId) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE journal_digests d
            SET decision_ids = CASE WHEN d.period = 'week' THEN ARRAY(
                    SELECT DISTINCT src.loop_id FROM journal_loop_sources src
                      JOIN journal_sessions s ON s.account_id = src.account_id
                                             AND s.session_id = src.session_id
                     WHERE src.account_id = d.account_id AND src.kind = 'decision'
                       AND NOT s.journal_only
                       AND s.started_at >= d.period_start::timestamp AT TIME ZONE 'UTC'
                       AND s.started_at < d.period_end::timestamp AT TIME ZONE 'UTC'
                     ORDER BY 1)
                ELSE ARRAY(
                    SELECT DISTINCT x FROM journal_digests w
                     CROSS JOIN LATERAL unnest(w.decision_ids) x
                     WHERE w.account_id = d.account_id AND w.period = 'week'
                       AND w.period_start >= d.period_start AND w.period_start < d.period_end
                     ORDER BY 1) END
          WHERE d.account_id = n8v_account() AND d.digest_id = $1",
        id.0,
    )
    .execute(tx.conn())
    .await?;
    Ok(())
}

/// The ids of the decision items each of the digests `ids` holds, for those the caller can
/// read (none for a digest stored without them: it says nothing new of its decisions).
#[tracing::instrument(skip_all, err)]
async fn decision_ids(
    tx: &mut TenantTx,
    ids: &[DigestId],
) -> sqlx::Result<std::collections::HashMap<DigestId, Vec<crate::ids::ItemId>>> {
    let ids: Vec<Uuid> = ids.iter().map(|d| d.0).collect();
    let rows = sqlx::query!(
        r#"SELECT digest_id, decision_ids AS "decision_ids!" FROM journal_digests
            WHERE digest_id = ANY ($1) AND decision_ids IS NOT NULL"#,
        &ids,
    )
    .fetch_all(tx.conn())
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| {
            let held = r.decision_ids.into_iter().map(crate::ids::ItemId).collect();
            (DigestId(r.digest_id), held)
        })
        .collect())
}

/// Each of `digests`' decision lines that says one of its decision items (see
/// [`keep_decision_ids`]), as that decision stands now for the caller: what the window and the
/// digest list say beside the line. A line that says none (a model's own words, a decision
/// gone with its sessions) has no state.
#[tracing::instrument(skip_all, err)]
pub async fn decisions_now(
    tx: &mut TenantTx,
    digests: &[Digest],
    now: DateTime<Utc>,
) -> Result<std::collections::HashMap<DigestId, Vec<crate::journal::handoff::DecisionState>>> {
    let held = decision_ids(tx, &digests.iter().map(|d| d.id).collect::<Vec<_>>()).await?;
    let all: Vec<crate::ids::ItemId> = held.values().flatten().copied().collect();
    let standing = crate::loops::decided::standing(tx, &all, now).await?;
    Ok(digests
        .iter()
        .map(|d| {
            let ids = held.get(&d.id).map_or(&[][..], Vec::as_slice);
            let mut states: Vec<_> = Vec::new();
            for text in &d.summary.decisions {
                let Some(state) = standing.said_as(ids, text) else {
                    continue;
                };
                if !states.contains(state) {
                    states.push(state.clone());
                }
            }
            (d.id, states)
        })
        .collect())
}
