//! Closing items: one by its id (`POST /api/v1/journal/loops/{id}/close`), or those a
//! session's end names as resolved.

use super::rows::{ChangedRow, LoopRow, loop_rows};
use super::{Closing, Loop, LoopKind, view};
use crate::db::TenantTx;
use crate::error::{Error, Remedy, Result};
use crate::ids::{ItemId, SessionId};
use crate::webhooks::events::{self, Event};
use chrono::{DateTime, Utc};
use std::collections::HashSet;
use uuid::Uuid;

/// Closes one item the caller may close, as `closing`, in `session`. 404 when there is no such
/// item for the caller (or it may read but not close it); 409 when it is closed already.
#[tracing::instrument(skip_all, err(level = "info"))]
pub async fn close(
    tx: &mut TenantTx,
    id: ItemId,
    closing: Closing,
    session: SessionId,
    now: DateTime<Utc>,
) -> Result<Loop> {
    let closed = loop_rows!(
        [
            "UPDATE journal_loops SET state = $2, closed_at = $3, closed_session_id = $4
              WHERE account_id = n8v_account() AND loop_id = $1 AND state = 'open'
                AND kind <> 'decision'
              RETURNING "
        ] [],
        id.0,
        closing.as_str(),
        now,
        session.0,
    )
    .fetch_optional(tx.conn())
    .await?;
    if let Some(row) = closed {
        events::emit(tx, Event::LoopClosed(row.closed_in(session)), now).await?;
        return Ok(view(row, now));
    }
    let found = closable(tx, &[id]).await?;
    Err(match found.first() {
        Some((_, kind, _)) if kind == LoopKind::Decision.as_str() => Error::Conflict(format!(
            "item {id} is a decision, not a loop: a decision is not closed but replaced \
             (POST /api/v1/journal/decisions/{id}/replace, or session_end's replaces)"
        )),
        Some((_, _, state)) => Error::Conflict(format!(
            "item {id} is closed already ({state}); a new statement of it opens a new item"
        )),
        _ => not_closable(id),
    })
}

fn not_closable(id: ItemId) -> Error {
    Error::NotFound(format!(
        "no item with id {:?} that this credential may close is visible to it (an \
         organization's owner reads its members' items but does not close them)",
        id.to_string()
    ))
    .with_remedy(Remedy::DismissItem(id))
}

/// Of `ids`, those the caller can read in its own account, with their kind and stored state.
async fn closable(tx: &mut TenantTx, ids: &[ItemId]) -> Result<Vec<(ItemId, String, String)>> {
    let ids: Vec<Uuid> = ids.iter().map(|i| i.0).collect();
    let rows = sqlx::query!(
        "SELECT loop_id, kind, state FROM journal_loops \
         WHERE account_id = n8v_account() AND loop_id = ANY ($1)",
        &ids,
    )
    .fetch_all(tx.conn())
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| (ItemId(r.loop_id), r.kind, r.state))
        .collect())
}

/// Closes the open items among `ids` in `session` (`session_end`'s `resolved`): a question as
/// `answered`, a next step as `done`. Items closed already stay as they were closed; the ids
/// that name no item the caller may close (deleted, another account's, an organization
/// member's) are skipped and returned, in the order given, once each.
#[tracing::instrument(skip_all, err(level = "info"))]
pub async fn resolve(
    tx: &mut TenantTx,
    ids: &[ItemId],
    session: SessionId,
    now: DateTime<Utc>,
) -> Result<Vec<ItemId>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    // A decision is replaced, never resolved: an id naming one is skipped like any other.
    let known: HashSet<ItemId> = closable(tx, ids)
        .await?
        .into_iter()
        .filter(|(_, kind, _)| kind != LoopKind::Decision.as_str())
        .map(|k| k.0)
        .collect();
    let mut skipped = HashSet::new();
    let not_resolved: Vec<ItemId> = ids
        .iter()
        .filter(|id| !known.contains(id) && skipped.insert(**id))
        .copied()
        .collect();
    let uuids: Vec<Uuid> = known.iter().map(|i| i.0).collect();
    // Locked in id order first, as every transaction locks items (migration 0020), then
    // closed: an `UPDATE … = ANY` alone would lock them in the order it finds them.
    let mut closed = sqlx::query_as!(
        ChangedRow,
        "WITH locked AS (SELECT loop_id FROM journal_loops \
                          WHERE account_id = n8v_account() AND loop_id = ANY ($1) \
                            AND state = 'open' AND kind <> 'decision' \
                          ORDER BY loop_id FOR UPDATE) \
         UPDATE journal_loops \
         SET state = CASE kind WHEN 'question' THEN $2 ELSE $3 END, \
             closed_at = $4, closed_session_id = $5 \
         WHERE account_id = n8v_account() AND loop_id IN (SELECT loop_id FROM locked) \
           AND state = 'open' \
         RETURNING loop_id, kind, text, state, session_id, created_at, closed_at",
        &uuids,
        LoopKind::Question.resolved().as_str(),
        LoopKind::NextStep.resolved().as_str(),
        now,
        session.0,
    )
    .fetch_all(tx.conn())
    .await?;
    closed.sort_by_key(|r| (r.created_at, r.loop_id));
    for row in closed {
        events::emit(tx, Event::LoopClosed(row.changed(Some(session))), now).await?;
    }
    Ok(not_resolved)
}
