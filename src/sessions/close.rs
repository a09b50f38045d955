//! The close step. Every way a session closes passes through [`closed`], in the closing
//! transaction: its end (`sessions::end`), a stale implicit session retired on the way to a new
//! one (`sessions::join_or_issue`), the quiet sweep (`sessions::close_quiet`), and an episode's
//! part that settled ([`settled_part`], from `ops::episodes`). Each tells of it
//! (`session.ended`, with the payload the closing statement returned), enqueues its summary
//! (unless its entry is written already) and opens the items it hands on (`loops`): so the
//! event, the summary job and the items exist exactly when the close does.

use crate::db::TenantTx;
use crate::error::Result;
use crate::ids::{OrganizationId, SessionId};
use crate::loops;
use crate::queue::SummarizeSession;
use crate::webhooks::events::{self, Event};
use crate::webhooks::payloads::{SessionEnded, SummaryState};
use chrono::{DateTime, Utc};

/// A compile-checked statement that writes sessions' rows (the pieces given, string literals
/// naming `journal_sessions`), returning each row it wrote as its `session.ended` event tells
/// it ([`SessionEnded`], its `summary_state` set by [`closed`]). The counts are
/// the read model's (`journal_session_reads`, migration 0025) of the row as the statement left
/// it: what every read answers, in the closing statement's own round trip.
macro_rules! closing {
    ([$($piece:tt)+] $(, $arg:expr)* $(,)?) => {
        sqlx::query_as!(
            SessionEnded,
            $($piece +)+
            r#" RETURNING session_id AS "session: SessionId",
                   organization_id AS "organization: OrganizationId", kind, assistant, goal,
                   outcome, handoff, end_reason, started_at, ended_at,
                   n8v_call_count(account_id, session_id, counted_through, counted_calls)
                       AS "call_count!",
                   n8v_write_count(account_id, session_id, counted_through, counted_writes)
                       AS "write_count!",
                   journal_only, '' AS "summary_state!""#
            $(, $arg)*
        )
    };
}
pub(super) use closing;

/// Closes `rows`, just closed by the transaction (their statement's [`closing!`] rows): each
/// one's `session.ended` event (with `summary` as its summary's state) and, while its summary
/// is `Pending`, its summary job of its call count; then the items they hand on. `pending` is
/// a purpose not recorded yet (the end call's own), which the items read as the newest.
pub(crate) async fn closed(
    tx: &mut TenantTx,
    mut rows: Vec<SessionEnded>,
    summary: SummaryState,
    pending: Option<&str>,
    now: DateTime<Utc>,
) -> Result<()> {
    rows.sort_by_key(|r| r.session);
    let mut sessions = Vec::with_capacity(rows.len());
    for mut row in rows {
        let (session, snapshot) = (row.session, row.call_count);
        sessions.push(session);
        row.summary_state = summary.as_str().into();
        events::emit(tx, Event::SessionEnded(row), now).await?;
        if summary == SummaryState::Pending {
            let job = SummarizeSession {
                account_id: tx.tenant().account_id,
                session_id: session.0,
                snapshot,
            };
            crate::queue::enqueue_summary(tx.conn(), &job).await?;
        }
    }
    loops::open_from_closed(tx, &sessions, pending, now).await?;
    Ok(())
}

/// Closes an episode's part whose conversation settled (its row and entry written by
/// `journal::episodes::write` and `summaries::set_on_session` just before): it ends as a closed
/// session does, with its entry written, so no summary job. The row is read back (as the read
/// model answers it), as the part's writes return nothing.
#[tracing::instrument(skip_all, err)]
pub async fn settled_part(tx: &mut TenantTx, session: SessionId, now: DateTime<Utc>) -> Result<()> {
    let row = sqlx::query_as!(
        SessionEnded,
        r#"SELECT session_id AS "session!: SessionId",
                  organization_id AS "organization: OrganizationId", kind AS "kind!",
                  assistant AS "assistant!", goal, outcome, handoff, end_reason,
                  started_at AS "started_at!", ended_at, call_count AS "call_count!",
                  write_count AS "write_count!", journal_only AS "journal_only!",
                  '' AS "summary_state!"
             FROM journal_session_reads
            WHERE account_id = n8v_account() AND session_id = $1"#,
        session.0
    )
    .fetch_optional(tx.conn())
    .await?;
    closed(
        tx,
        row.into_iter().collect(),
        SummaryState::Written,
        None,
        now,
    )
    .await
}
