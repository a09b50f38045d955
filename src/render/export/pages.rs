//! The export's pages of calls and summaries: each kind oldest first after a `(time, id)`, at
//! most a page, in compile-checked statements. (Sessions' pages are the read model's,
//! `session_reads::export_page`; items' are `loops::export_page`, digests'
//! `digests::export_page`.)
//!
//! Each statement names the sessions the list names, split as `sql::visible_sessions`
//! splits them (the caller's own through its index, then the organizations it owns through
//! theirs); the policies still decide what is visible.

use super::SessionSummary;
use crate::db::TenantTx;
use crate::ids::SessionId;
use crate::journal::reads::CallRow;
use crate::journal::views::Call;
use chrono::{DateTime, Utc};
use uuid::Uuid;

type After = (DateTime<Utc>, Uuid);

/// The calls of the exported sessions: the account's own from its time index, then those of
/// the organizations it owns from their sessions. The own session's check is a scalar
/// subquery, not `EXISTS`: the planner turned `EXISTS` into a join over every session and
/// sorted all the calls left for each page (220 ms a page half way through the caps account,
/// 38 s in all); this way the time index is read in order and stops at the page (an invisible
/// session gives NULL, which keeps the call out).
#[tracing::instrument(skip_all, err)]
pub(super) async fn calls(
    tx: &mut TenantTx,
    after: After,
    limit: i64,
) -> crate::error::Result<Vec<Call>> {
    let rows = sqlx::query_as!(
        CallRow,
        r#"SELECT call_id AS "call_id!", session_id AS "session_id!", operation AS "operation!",
                purpose, target_ids AS "target_ids!", status AS "status!", ok AS "ok!",
                input_shape, result_ids AS "result_ids!", result_count, wrote AS "wrote!",
                journal_read AS "journal_read!", duration_ms AS "duration_ms!", audit_id,
                organization_id, created_at AS "created_at!"
           FROM ((SELECT c.* FROM journal_calls c
                   WHERE c.account_id = n8v_account()
                     AND c.created_at >= $1 AND (c.created_at, c.call_id) > ($1, $2)
                     AND NOT (SELECT s.journal_only FROM journal_sessions s
                              WHERE s.account_id = c.account_id AND s.session_id = c.session_id)
                   ORDER BY c.created_at, c.call_id LIMIT $3)
                 UNION ALL
                 (SELECT c.* FROM journal_sessions s JOIN journal_calls c
                     ON c.account_id = s.account_id AND c.session_id = s.session_id
                   WHERE s.account_id <> n8v_account()
                     AND s.organization_id = ANY (CAST((SELECT n8v_owned_organizations()) AS uuid[]))
                     AND NOT s.journal_only
                     AND c.created_at >= $1 AND (c.created_at, c.call_id) > ($1, $2)
                   ORDER BY c.created_at, c.call_id LIMIT $3)) journal_calls
          ORDER BY created_at, call_id LIMIT $3"#,
        after.0,
        after.1,
        limit,
    )
    .fetch_all(tx.conn())
    .await?;
    // What a call handed over is named only when the reader can read it.
    crate::journal::reads::shown_results(tx, rows.into_iter().map(Call::from).collect()).await
}

/// A stored summary as the export reads it.
struct SummaryRow {
    session_id: Uuid,
    summary: serde_json::Value,
    summary_model: Option<String>,
    summary_cost_usd: Option<rust_decimal::Decimal>,
    summary_input_tokens: Option<i64>,
    summary_output_tokens: Option<i64>,
    summary_note: Option<String>,
    stored_at: DateTime<Utc>,
}

impl From<SummaryRow> for SessionSummary {
    fn from(r: SummaryRow) -> Self {
        SessionSummary {
            session_id: SessionId(r.session_id),
            summary: serde_json::from_value(r.summary).unwrap_or_default(),
            model: r.summary_model,
            cost_usd: r.summary_cost_usd.map(|c| c.normalize().to_string()),
            input_tokens: r.summary_input_tokens,
            output_tokens: r.summary_output_tokens,
            note: r.summary_note,
            at: r.stored_at,
        }
    }
}

/// The stored summaries of the exported sessions, in the order they were stored. The time is
/// the ledger's for the snapshot the summary describes; an episode's summary has none (it came
/// with the session) and takes the session's end.
#[tracing::instrument(skip_all, err)]
pub(super) async fn summaries(
    tx: &mut TenantTx,
    after: After,
    limit: i64,
) -> sqlx::Result<Vec<SessionSummary>> {
    let rows = sqlx::query_as!(
        SummaryRow,
        r#"SELECT session_id AS "session_id!", summary AS "summary!", summary_model,
                summary_cost_usd, summary_input_tokens, summary_output_tokens, summary_note,
                stored_at AS "stored_at!"
           FROM (SELECT s.session_id, s.summary, s.summary_model, s.summary_cost_usd,
                        s.summary_input_tokens, s.summary_output_tokens, s.summary_note,
                        COALESCE(l.created_at, s.ended_at, s.started_at) AS stored_at
                   FROM ((SELECT * FROM journal_sessions
                           WHERE account_id = n8v_account()
                             AND NOT journal_only AND summary IS NOT NULL)
                         UNION ALL
                         (SELECT * FROM journal_sessions
                           WHERE account_id <> n8v_account()
                             AND organization_id = ANY (CAST((SELECT n8v_owned_organizations()) AS uuid[]))
                             AND NOT journal_only AND summary IS NOT NULL)) s
                   LEFT JOIN session_summaries l ON l.account_id = s.account_id
                        AND l.session_id = s.session_id AND l.snapshot = s.summary_snapshot) t
          WHERE (stored_at, session_id) > ($1, $2)
          ORDER BY stored_at, session_id LIMIT $3"#,
        after.0,
        after.1,
        limit,
    )
    .fetch_all(tx.conn())
    .await?;
    Ok(rows.into_iter().map(SessionSummary::from).collect())
}
