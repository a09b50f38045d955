//! The statements that read items whole, as [`LoopRow`]s: which items a caller sees, and the
//! columns each is read with, defined here once. Every statement is checked at compile time
//! (the [`loop_rows!`] and [`loops_seen!`] macros), except the list's, whose state filter and
//! cursor are optional and so become conditions only when given ([`list_page`]).
//!
//! **Which items.** The account's own through its index, then members' items of organizations
//! it owns through their sessions (as `sql::visible_sessions` splits the sessions; the
//! policies still decide), each branch cut to the page; `visible` leaves out what the reader
//! dismissed ([`super::dismissal`]), `readable` keeps it.

use super::{Loop, LoopCursor, LoopKind, MAX_CARRIED, stale_after, view};
use crate::db::TenantTx;
use crate::error::Result;
use crate::ids::{ItemId, SessionId};
use crate::journal::sql::{OWNED_ORGANIZATIONS, conditions};
use crate::webhooks::payloads::LoopChanged;
use chrono::{DateTime, Utc};
use uuid::Uuid;

#[derive(sqlx::FromRow)]
pub(super) struct LoopRow {
    pub account_id: Uuid,
    pub own: bool,
    pub loop_id: Uuid,
    pub kind: String,
    pub text: String,
    pub state: String,
    pub session_id: Uuid,
    pub stated: bool,
    pub created_at: DateTime<Utc>,
    pub closed_at: Option<DateTime<Utc>>,
    pub closed_session_id: Option<Uuid>,
    pub replaced_by: Option<Uuid>,
}

/// An item as the statement that opened or closed it returned it: what its `loop.opened` or
/// `loop.closed` event tells.
pub(super) struct ChangedRow {
    pub loop_id: Uuid,
    pub kind: String,
    pub text: String,
    pub state: String,
    pub session_id: Uuid,
    pub created_at: DateTime<Utc>,
    pub closed_at: Option<DateTime<Utc>>,
}

impl ChangedRow {
    /// Its event's payload; `closing` is the session that closed it (none while open).
    pub(super) fn changed(self, closing: Option<SessionId>) -> LoopChanged {
        LoopChanged {
            item: ItemId(self.loop_id),
            kind: self.kind,
            text: self.text,
            state: self.state,
            session: SessionId(self.session_id),
            created_at: self.created_at,
            closed_at: self.closed_at,
            closed_session: closing,
        }
    }
}

impl LoopRow {
    /// What its `loop.closed` event tells, closed in `closing`.
    pub(super) fn closed_in(&self, closing: SessionId) -> LoopChanged {
        ChangedRow {
            loop_id: self.loop_id,
            kind: self.kind.clone(),
            text: self.text.clone(),
            state: self.state.clone(),
            session_id: self.session_id,
            created_at: self.created_at,
            closed_at: self.closed_at,
        }
        .changed(Some(closing))
    }
}

/// A compile-checked statement reading [`LoopRow`]s: the pieces `before` (string literals),
/// the item columns, then the pieces `after`. The closing session, and the decision that
/// replaced it, are named only when the reader can read them (the subqueries run under the
/// policies).
macro_rules! loop_rows {
    ([$($before:tt)*] [$($after:tt)*] $(, $arg:expr)* $(,)?) => {
        sqlx::query_as!(
            LoopRow,
            $($before +)*
            r#"account_id AS "account_id!", account_id = n8v_account() AS "own!",
                   loop_id AS "loop_id!", kind AS "kind!", text AS "text!", state AS "state!",
                   session_id AS "session_id!", stated AS "stated!",
                   created_at AS "created_at!", closed_at,
                   (SELECT r.loop_id FROM journal_loops r
                     WHERE r.account_id = journal_loops.account_id
                       AND r.loop_id = journal_loops.replaced_by) AS replaced_by,
                   (SELECT s.session_id FROM journal_sessions s
                     WHERE s.account_id = journal_loops.account_id
                       AND s.session_id = journal_loops.closed_session_id) AS closed_session_id"#
            $(+ $after)*
            $(, $arg)*
        )
    };
}
pub(super) use loop_rows;

/// A compile-checked `SELECT` of the items a caller sees (`visible`) or reads (`readable`)
/// that meet `cond`, each branch in `order` (with its `LIMIT`), then `tail` (the whole
/// statement's order and limit). (Only the list, built at run time, puts a different condition
/// on each branch: its cursor.)
macro_rules! loops_seen {
    (visible $cond:tt $order:tt $tail:tt $(, $arg:expr)* $(,)?) => {
        loops_seen!(@seen $cond [$cond
            " AND NOT EXISTS (SELECT 1 FROM journal_loop_dismissals d
                WHERE d.account_id = n8v_account() AND d.loop_account_id = journal_loops.account_id
                  AND d.loop_id = journal_loops.loop_id)"] $order $tail $(, $arg)*)
    };
    (readable $cond:tt $order:tt $tail:tt $(, $arg:expr)* $(,)?) => {
        loops_seen!(@seen $cond [$cond] $order $tail $(, $arg)*)
    };
    (@seen $own:tt [$($others:tt)+] $order:tt $tail:tt $(, $arg:expr)*) => {
        loop_rows!(["SELECT "] [
            " FROM ((SELECT * FROM journal_loops WHERE account_id = n8v_account() AND "
            $own " ORDER BY " $order ")
              UNION ALL
              (SELECT * FROM journal_loops WHERE account_id <> n8v_account() AND "
            $($others)+ "
                 AND (account_id, session_id) IN (SELECT s.account_id, s.session_id
                      FROM journal_sessions s WHERE s.account_id <> n8v_account()
                        AND s.organization_id = ANY (CAST((SELECT n8v_owned_organizations()) AS uuid[])))
               ORDER BY " $order ")) journal_loops " $tail] $(, $arg)*)
    };
}
pub(super) use loops_seen;

/// The items of `kind` still open and not stale, the reader's own first, each newest first, at
/// most [`MAX_CARRIED`]: what the brief and `/journal.md` carry, whatever their window. Own
/// items first, so however many items members write, the reader's own stay in.
#[tracing::instrument(skip_all, err)]
pub async fn carried(tx: &mut TenantTx, kind: LoopKind, now: DateTime<Utc>) -> Result<Vec<Loop>> {
    let rows = loops_seen!(visible
        "state = 'open' AND created_at > $2 AND kind = $1"
        "created_at DESC, loop_id LIMIT $3"
        "ORDER BY account_id = n8v_account() DESC, created_at DESC, loop_id LIMIT $3",
        kind.as_str(),
        now - stale_after(),
        MAX_CARRIED,
    )
    .fetch_all(tx.conn())
    .await?;
    Ok(rows.into_iter().map(|r| view(r, now)).collect())
}

/// The items the caller can read, oldest first (items opened together in the order they were
/// stated), after `after`, `limit` of them: the export's rows (`render::export`), read at
/// `now`. (The index is read backwards, in time order; PostgreSQL's incremental sort puts the
/// few items of one time in id order.)
#[tracing::instrument(skip_all, err)]
pub async fn export_page(
    tx: &mut TenantTx,
    after: (DateTime<Utc>, Uuid),
    limit: i64,
    now: DateTime<Utc>,
) -> Result<Vec<Loop>> {
    let rows = loops_seen!(visible
        "(created_at, loop_id) > ($1, $2)"
        "created_at, loop_id LIMIT $3"
        "ORDER BY created_at, loop_id LIMIT $3",
        after.0,
        after.1,
        limit,
    )
    .fetch_all(tx.conn())
    .await?;
    Ok(rows.into_iter().map(|r| view(r, now)).collect())
}

/// The item `id` as the caller reads it, dismissed or not.
pub(super) async fn readable(tx: &mut TenantTx, id: ItemId) -> Result<Option<LoopRow>> {
    Ok(
        loops_seen!(readable "loop_id = $1" "loop_id LIMIT 1" "LIMIT 1", id.0)
            .fetch_optional(tx.conn())
            .await?,
    )
}

/// The columns of [`loop_rows!`], for the list's statement (built at run time).
const LOOP_COLUMNS: &str = "account_id, account_id = n8v_account() AS own, loop_id, kind, text, \
    state, session_id, stated, created_at, closed_at, (SELECT r.loop_id FROM journal_loops r \
     WHERE r.account_id = journal_loops.account_id AND r.loop_id = journal_loops.replaced_by) \
     AS replaced_by, (SELECT s.session_id FROM journal_sessions s \
     WHERE s.account_id = journal_loops.account_id \
       AND s.session_id = journal_loops.closed_session_id) AS closed_session_id";

/// The list's page: the visible items that meet `state` (SQL on the item, or every item), the
/// reader's own first, each newest first, `limit` of them after `cursor`. Written as
/// [`loops_seen!`] writes it, with only the conditions given (see `sql::visible_sessions`).
pub(super) async fn list_page(
    tx: &mut TenantTx,
    state: Option<&str>,
    cursor: Option<LoopCursor>,
    limit: i64,
    now: DateTime<Utc>,
) -> Result<Vec<Loop>> {
    let after = "(created_at < $1 OR (created_at = $1 AND loop_id > $2))";
    let branch = |after_cursor: bool, skip: bool| {
        conditions(
            // Decisions are items but no loops: the export reads them, the list does not.
            &[if skip { "FALSE" } else { "kind <> 'decision'" }],
            &[
                (state.is_some(), state.unwrap_or_default()),
                (after_cursor, after),
            ],
        )
    };
    // A cursor among the others' items: the own items were all read already.
    let in_others = cursor.is_some_and(|c| c.others);
    let own = branch(cursor.is_some() && !in_others, in_others);
    let others = branch(in_others, false);
    let order = "created_at DESC, loop_id LIMIT $3";
    let sql = format!(
        "SELECT {LOOP_COLUMNS} FROM ((SELECT * FROM journal_loops \
           WHERE account_id = n8v_account() AND {own} ORDER BY {order}) \
         UNION ALL \
         (SELECT * FROM journal_loops WHERE account_id <> n8v_account() AND {others} \
            AND NOT EXISTS (SELECT 1 FROM journal_loop_dismissals d \
                WHERE d.account_id = n8v_account() AND d.loop_account_id = journal_loops.account_id \
                  AND d.loop_id = journal_loops.loop_id) \
            AND (account_id, session_id) IN (SELECT s.account_id, s.session_id \
                 FROM journal_sessions s WHERE s.account_id <> n8v_account() \
                   AND s.organization_id = ANY ({OWNED_ORGANIZATIONS})) \
           ORDER BY {order})) journal_loops ORDER BY own DESC, {order}"
    );
    let rows: Vec<LoopRow> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(cursor.map(|c| c.at.at))
        .bind(cursor.map(|c| c.at.id))
        .bind(limit)
        .fetch_all(tx.conn())
        .await?;
    Ok(rows.into_iter().map(|r| view(r, now)).collect())
}
