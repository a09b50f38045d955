//! The session read model: a session as every read answers it, with its exact last activity,
//! its call and write counts and its recent purposes. What those are is defined once, by the
//! view `journal_session_reads` (migration 0025); every statement that reads sessions whole
//! reads that view, and all but the list's (whose filters are optional, so built at run time)
//! are here and checked at compile time.
//!
//! A part of an episode whose conversation has not settled (`episode_open`, migration 0024)
//! reads as open, without an end, whatever its row keeps; the rules (join, sweep, retention)
//! see the row's own end, so no call joins it and the sweep leaves it alone.
//!
//! The view's `last_activity_at` is the exact last activity; `activity_bound` is the stored
//! lower bound (at most [`ACTIVITY_SLACK`] behind), which the statements
//! filter on first, as an index serves it.

use super::handoff::Handoff;
use super::views::{Provisional, Session};
use crate::db::TenantTx;
use crate::ids::{AccountId, KeyId, OrganizationId, SessionId};
use chrono::{DateTime, Utc};
use std::collections::HashMap;
use uuid::Uuid;

/// How far a session's stored `last_activity_at` may lag its newest call: a call moves it only
/// when it is further behind than this, so concurrent calls do not queue on the session's row.
/// The exact value is the read model's `last_activity_at` (`journal_session_reads`, migration
/// 0025): the later of the stored bound (its `activity_bound`) and the newest call, so `stored
/// <= exact <= stored + ACTIVITY_SLACK`. Rules filter on the stored bound (an index serves it)
/// and read the exact value only in the band where the bound alone cannot decide.
pub const ACTIVITY_SLACK: chrono::Duration = chrono::Duration::seconds(60);

/// One row of `journal_session_reads`, as the reads take it.
#[derive(sqlx::FromRow)]
pub(crate) struct SessionRow {
    pub account_id: Uuid,
    pub session_id: Uuid,
    pub credential_id: Uuid,
    pub kind: String,
    pub assistant: String,
    pub organization_id: Option<Uuid>,
    pub repository: Option<String>,
    pub scopes: Vec<String>,
    pub goal: Option<String>,
    pub outcome: Option<String>,
    pub handoff: Option<sqlx::types::Json<Handoff>>,
    pub started_at: DateTime<Utc>,
    pub last_activity_at: DateTime<Utc>,
    pub ended_at: Option<DateTime<Utc>>,
    pub end_reason: Option<String>,
    pub call_count: i32,
    pub write_count: i32,
    pub summary: Option<serde_json::Value>,
    pub summary_model: Option<String>,
    pub summary_cost_usd: Option<rust_decimal::Decimal>,
    pub summary_input_tokens: Option<i64>,
    pub summary_output_tokens: Option<i64>,
    pub summary_note: Option<String>,
    pub recent_purposes: Vec<String>,
}

impl From<SessionRow> for Session {
    fn from(r: SessionRow) -> Self {
        Session {
            id: SessionId(r.session_id),
            kind: r.kind,
            status: if r.ended_at.is_some() {
                "closed"
            } else {
                "open"
            }
            .into(),
            assistant: r.assistant,
            account_id: AccountId(r.account_id),
            key_id: KeyId(r.credential_id),
            organization_id: r.organization_id.map(OrganizationId),
            repository: r.repository,
            scopes: r.scopes,
            goal: r.goal,
            outcome: r.outcome,
            handoff: r.handoff.map(|h| h.0),
            started_at: r.started_at,
            last_activity_at: r.last_activity_at,
            ended_at: r.ended_at,
            end_reason: r.end_reason,
            call_count: r.call_count,
            write_count: r.write_count,
            provisional: r.summary.is_none().then_some(Provisional {
                calls: r.call_count,
                writes: r.write_count,
                recent_purposes: r.recent_purposes,
            }),
            summary: r.summary.and_then(|s| serde_json::from_value(s).ok()),
            summary_model: r.summary_model,
            summary_cost_usd: r.summary_cost_usd.map(|c| c.normalize().to_string()),
            summary_input_tokens: r.summary_input_tokens,
            summary_output_tokens: r.summary_output_tokens,
            summary_note: r.summary_note,
            decisions: Vec::new(),
        }
    }
}

/// The columns of [`SessionRow`], for the statements built at run time (the list's filters).
pub(crate) const COLUMNS: &str = "account_id, session_id, credential_id, kind, assistant, \
    organization_id, repository, scopes, goal, outcome, handoff, started_at, last_activity_at, \
    CASE WHEN episode_open THEN NULL ELSE ended_at END AS ended_at, \
    CASE WHEN episode_open THEN NULL ELSE end_reason END AS end_reason, call_count, write_count, summary, summary_model, summary_cost_usd, \
    summary_input_tokens, summary_output_tokens, summary_note, recent_purposes";

/// A statement reading [`SessionRow`]s, `SELECT` its columns `FROM` the pieces given (string
/// literals naming `journal_session_reads`): `session_rows!(checked ["…" "…"], args…)` is the
/// compile-checked query (the view's columns are all nullable to the macros; these say which
/// are not), `session_rows!(text ["…" "…"])` its text (for the plan tests, `tests/api/plans.rs`).
macro_rules! session_rows {
    (@checked [$first:tt $($piece:tt)*] $(, $arg:expr)* $(,)?) => {
        sqlx::query_as!(SessionRow, $first $(+ $piece)* $(, $arg)*)
    };
    (@text [$($piece:tt)+]) => { std::concat!($($piece),+) };
    ($how:ident [$($piece:tt)+] $($rest:tt)*) => {
        session_rows!(@$how [
            r#"SELECT account_id AS "account_id!", session_id AS "session_id!",
                   credential_id AS "credential_id!", kind AS "kind!", assistant AS "assistant!",
                   organization_id, repository, scopes AS "scopes!", goal, outcome,
                   handoff AS "handoff: sqlx::types::Json<Handoff>",
                   started_at AS "started_at!", last_activity_at AS "last_activity_at!",
                   CASE WHEN episode_open THEN NULL ELSE ended_at END AS ended_at,
                   CASE WHEN episode_open THEN NULL ELSE end_reason END AS end_reason,
                   call_count AS "call_count!",
                   write_count AS "write_count!", summary, summary_model, summary_cost_usd,
                   summary_input_tokens, summary_output_tokens, summary_note,
                   recent_purposes AS "recent_purposes!"
                 FROM "#
            $($piece)+] $($rest)*)
    };
}

/// The visible sessions active since `$1`, the first `$2` of them in `$order` (descending,
/// then by id): the caller's own, then other accounts' sessions of the organizations it owns,
/// each from its own index and stopping at the page (see `sql::visible_sessions`). `$3` is
/// `$1` less the activity slack: the stored bound lags the exact last activity by at most that.
macro_rules! active_sessions {
    ($how:ident $order:tt $(, $arg:expr)* $(,)?) => {
        session_rows!($how [
            "((SELECT * FROM journal_session_reads
                WHERE account_id = n8v_account() AND NOT journal_only AND activity_bound >= $3
                  AND (activity_bound >= $1 OR last_activity_at >= $1)
                ORDER BY " $order " DESC, session_id DESC LIMIT $2)
              UNION ALL
              (SELECT * FROM journal_session_reads
                WHERE account_id <> n8v_account()
                  AND organization_id = ANY (CAST((SELECT n8v_owned_organizations()) AS uuid[]))
                  AND NOT journal_only AND activity_bound >= $3
                  AND (activity_bound >= $1 OR last_activity_at >= $1)
                ORDER BY " $order " DESC, session_id DESC LIMIT $2)) journal_sessions
             ORDER BY " $order " DESC, session_id DESC LIMIT $2"
        ] $(, $arg)*)
    };
}

/// The brief's sessions (`active_sessions`), most recently active first.
pub const ACTIVE_BY_ACTIVITY: &str = active_sessions!(text "activity_bound");
/// The window's sessions (`active_sessions`), newest first.
pub const ACTIVE_BY_START: &str = active_sessions!(text "started_at");

/// A session the caller may read.
#[tracing::instrument(skip_all, err)]
pub(crate) async fn one(tx: &mut TenantTx, id: SessionId) -> sqlx::Result<Option<Session>> {
    let row = session_rows!(checked["journal_session_reads WHERE session_id = $1"], id.0)
        .fetch_optional(tx.conn())
        .await?;
    Ok(row.map(Session::from))
}

/// The caller's own sessions of `ids` that are in the list (not only journal reads), by
/// credential and id: those a close opens items from (`loops::open_from_closed`).
#[tracing::instrument(skip_all, err)]
pub(crate) async fn own_listed(tx: &mut TenantTx, ids: &[Uuid]) -> sqlx::Result<Vec<Session>> {
    let rows = session_rows!(
        checked["journal_session_reads WHERE account_id = n8v_account() AND session_id = ANY ($1)
            AND NOT journal_only ORDER BY credential_id, session_id"],
        ids
    )
    .fetch_all(tx.conn())
    .await?;
    Ok(rows.into_iter().map(Session::from).collect())
}

/// The order of [`active`]'s sessions.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Active {
    /// The brief's: most recently active first ([`ACTIVE_BY_ACTIVITY`]).
    ByActivity,
    /// The window's: newest first ([`ACTIVE_BY_START`]).
    ByStart,
}

/// The visible sessions active since `since`, the first `limit` of them (`active_sessions`).
#[tracing::instrument(skip_all, err)]
pub(crate) async fn active(
    tx: &mut TenantTx,
    since: DateTime<Utc>,
    limit: i64,
    order: Active,
) -> sqlx::Result<Vec<Session>> {
    let slack = since - ACTIVITY_SLACK;
    let rows = match order {
        Active::ByActivity => {
            active_sessions!(checked "activity_bound", since, limit, slack)
                .fetch_all(tx.conn())
                .await?
        }
        Active::ByStart => {
            active_sessions!(checked "started_at", since, limit, slack)
                .fetch_all(tx.conn())
                .await?
        }
    };
    Ok(rows.into_iter().map(Session::from).collect())
}

/// The sessions the list shows, oldest first, after `after`, `render::export::PAGE` of them:
/// the export's.
#[tracing::instrument(skip_all, err)]
pub(crate) async fn export_page(
    tx: &mut TenantTx,
    after: (DateTime<Utc>, Uuid),
    limit: i64,
) -> sqlx::Result<Vec<Session>> {
    let rows = session_rows!(
        checked["((SELECT * FROM journal_session_reads
            WHERE account_id = n8v_account() AND NOT journal_only
              AND (started_at, session_id) > ($1, $2)
            ORDER BY started_at, session_id LIMIT $3)
          UNION ALL
          (SELECT * FROM journal_session_reads
            WHERE account_id <> n8v_account()
              AND organization_id = ANY (CAST((SELECT n8v_owned_organizations()) AS uuid[]))
              AND NOT journal_only AND (started_at, session_id) > ($1, $2)
            ORDER BY started_at, session_id LIMIT $3)) journal_sessions
         ORDER BY started_at, session_id LIMIT $3"],
        after.0,
        after.1,
        limit
    )
    .fetch_all(tx.conn())
    .await?;
    Ok(rows.into_iter().map(Session::from).collect())
}

/// Hands [`MARKED`]'s text to a macro, after the tokens given with it.
macro_rules! marked_statement {
    ($($then:ident)::+ ! ($($before:tt)*) $(, $arg:expr)* $(,)?) => {
        $($then)::+!(
            $($before)*
            r#"SELECT s.session_id, n8v_marked_purposes(ARRAY(SELECT c.purpose
                   FROM journal_calls c
                   WHERE c.account_id = s.account_id AND c.session_id = s.session_id
                     AND c.created_at > s.counted_through AND c.purpose IS NOT NULL
                   ORDER BY c.created_at DESC, c.call_id DESC LIMIT $3),
                 s.folded_marked) AS "purposes!"
               FROM journal_sessions s
               WHERE (s.account_id, s.session_id) IN (SELECT * FROM unnest($1::uuid[], $2::uuid[]))"#
            $(, $arg)*
        )
    };
}

/// The statement [`marked_purposes`] runs (public for the plan test, `tests/api/plans.rs`):
/// `$1` the sessions' accounts, `$2` their ids, `$3` how many of each one's unfolded calls.
pub const MARKED: &str = marked_statement!(std::concat!());

/// How many of an unsummarised session's newest calls made since its last fold are read for
/// markers; the folded ones keep its newest 100 marked purposes (migration 0016).
pub const MARKED_PURPOSE_CALLS: i64 = 100;

/// For each session without a stored summary, its newest purposes that may hold a marker (a
/// code summary reads all of them once the session closes): those of its calls made since its
/// last fold, then the folded ones. Read as the caller, under the same policies as the sessions.
#[tracing::instrument(skip_all, err)]
pub async fn marked_purposes(
    tx: &mut TenantTx,
    sessions: &[Session],
) -> sqlx::Result<HashMap<SessionId, Vec<String>>> {
    let (accounts, ids): (Vec<Uuid>, Vec<Uuid>) = sessions
        .iter()
        .filter(|s| s.summary.is_none())
        .map(|s| (s.account_id.0, s.id.0))
        .unzip();
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let rows = marked_statement!(sqlx::query!(), &accounts, &ids, MARKED_PURPOSE_CALLS)
        .fetch_all(tx.conn())
        .await?;
    Ok(rows
        .into_iter()
        .filter(|r| !r.purposes.is_empty())
        .map(|r| (SessionId(r.session_id), r.purposes))
        .collect())
}
