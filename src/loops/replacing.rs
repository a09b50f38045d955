//! Replacing decisions (migration 0032): a later decision says which earlier ones it replaces,
//! and they stop being current. Three ways, one statement ([`replace_with`]):
//!
//! - a session's end names them (`session_end`'s `replaces`: replaced by the first decision it
//!   states);
//! - its text marks a decision `Replaces itm_…: …` (a purpose, the outcome, an episode's turns;
//!   `summarize::marked`), applied by the close step with the session's other items;
//! - `POST /api/v1/journal/decisions/{id}/replace` names the decision that replaces it.
//!
//! **Who may.** Only a credential that can read a decision replaces it: the close policy of
//! the items decides (the caller's own account, a decision it can read). The service's own
//! closes (the quiet sweep) cannot know the credential's repository restriction, so there the
//! statement also asks what joining an item asks: that the session's credential opened the
//! decision in a session whose scopes it holds. A replaced decision stays replaced; naming it
//! again replaces nothing.

use super::LoopKind;
use super::rows::{LoopRow, loop_rows};
use super::{Loop, view};
use crate::db::TenantTx;
use crate::error::{Error, Result};
use crate::ids::{ItemId, SessionId};
use crate::journal::handoff::Replacing;
use crate::journal::views::Session;
use crate::summarize::marked::item_key;
use crate::webhooks::events::{self, Event};
use crate::webhooks::payloads::DecisionReplaced;
use chrono::{DateTime, Utc};
use uuid::Uuid;

/// Applies `replacing`, the replacements `session` (just closed, its items opened) names: each
/// of its decisions replaces the earlier current decisions it names that its credential may
/// replace. Names that replace nothing (unknown, unreadable, replaced already, itself) are
/// skipped, as `resolved` skips what it cannot close.
#[tracing::instrument(skip_all, err)]
pub async fn replace(
    tx: &mut TenantTx,
    session: &Session,
    replacing: &[Replacing],
    now: DateTime<Utc>,
) -> sqlx::Result<()> {
    for r in replacing {
        let Some(by) = decision_of(tx, session.id, &r.decision).await? else {
            continue;
        };
        let writer = Some((session.key_id.0, session.scopes.as_slice()));
        replace_with(tx, &[r.replaces], by, session.id, writer, now).await?;
    }
    Ok(())
}

/// The current decision item that `session` stated or marked as `text`.
async fn decision_of(
    tx: &mut TenantTx,
    session: SessionId,
    text: &str,
) -> sqlx::Result<Option<(Uuid, String)>> {
    let found = sqlx::query!(
        "SELECT l.loop_id, l.text FROM journal_loops l
          WHERE l.account_id = n8v_account() AND l.kind = 'decision' AND l.state = 'open'
            AND l.loop_id IN (SELECT s.loop_id FROM journal_loop_sources s
                               WHERE s.account_id = n8v_account() AND s.session_id = $1
                                 AND s.kind = 'decision' AND s.item_key = $2)
          LIMIT 1",
        session.0,
        item_key(text),
    )
    .fetch_optional(tx.conn())
    .await?;
    Ok(found.map(|r| (r.loop_id, r.text)))
}

/// Of `ids`, those that `session` did not replace (in the order given, once each): what its
/// end's `replaces` named that replaced nothing.
pub async fn not_replaced(
    tx: &mut TenantTx,
    ids: &[ItemId],
    session: SessionId,
) -> Result<Vec<ItemId>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let uuids: Vec<Uuid> = ids.iter().map(|i| i.0).collect();
    let replaced: std::collections::HashSet<Uuid> = sqlx::query_scalar!(
        "SELECT loop_id FROM journal_loops
          WHERE account_id = n8v_account() AND loop_id = ANY ($1) AND state = 'replaced'
            AND closed_session_id = $2",
        &uuids,
        session.0,
    )
    .fetch_all(tx.conn())
    .await?
    .into_iter()
    .collect();
    let mut seen = std::collections::HashSet::new();
    Ok(ids
        .iter()
        .filter(|id| !replaced.contains(&id.0) && seen.insert(**id))
        .copied()
        .collect())
}

/// Replaces the current decisions among `ids` by the decision `by` (its id and text), in
/// `session`; `writer` is the credential and scopes the service's own closes act for (a request
/// needs none: the policies decide). Tells of each (`decision.replaced`) and returns how many
/// it replaced.
async fn replace_with(
    tx: &mut TenantTx,
    ids: &[ItemId],
    by: (Uuid, String),
    session: SessionId,
    writer: Option<(Uuid, &[String])>,
    now: DateTime<Utc>,
) -> sqlx::Result<usize> {
    let (credential, scopes) = writer.unzip();
    let ids: Vec<Uuid> = ids.iter().map(|i| i.0).filter(|i| *i != by.0).collect();
    // The replaced decisions and `by` are locked together, in id order, as every transaction
    // locks items (migration 0020): two replacements racing in opposite directions (`P` by `Q`,
    // `Q` by `P`) take their locks one after the other, and the second finds its `by` replaced
    // already and replaces nothing, where both once committed a cycle (migration 0034).
    let replaced = sqlx::query!(
        "WITH locked AS (
             SELECT l.loop_id, l.loop_id = $2 AS is_by FROM journal_loops l
              WHERE l.account_id = n8v_account()
                AND (l.loop_id = $2
                     OR (l.loop_id = ANY ($1)
                         AND (NOT n8v_service()
                              OR EXISTS (SELECT 1 FROM journal_sessions o
                                          WHERE o.account_id = l.account_id
                                            AND o.session_id = l.session_id
                                            AND o.credential_id = $5 AND o.scopes <@ $6))))
                AND l.kind = 'decision' AND l.state = 'open'
              ORDER BY l.loop_id FOR UPDATE)
         UPDATE journal_loops
            SET state = 'replaced', replaced_by = $2, closed_at = $3, closed_session_id = $4
          WHERE account_id = n8v_account()
            AND loop_id IN (SELECT loop_id FROM locked WHERE NOT is_by)
            AND state = 'open' AND EXISTS (SELECT 1 FROM locked WHERE is_by)
          RETURNING loop_id, text, session_id",
        &ids,
        by.0,
        now,
        session.0,
        credential as Option<Uuid>,
        scopes as Option<&[String]>,
    )
    .fetch_all(tx.conn())
    .await?;
    let count = replaced.len();
    for r in replaced {
        let told = DecisionReplaced {
            item: ItemId(r.loop_id),
            text: r.text,
            session: SessionId(r.session_id),
            replaced_by: ItemId(by.0),
            replaced_by_text: by.1.clone(),
            replaced_in: session,
            replaced_at: now,
        };
        events::emit(tx, Event::DecisionReplaced(told), now).await?;
    }
    Ok(count)
}

/// Replaces the decision `id` by the current decision `by`, in `session` (the call's): the
/// replace operation. 404 when either is no decision the caller may replace or read; 409 when
/// `id` is replaced already, `by` is no longer current, or they are one.
#[tracing::instrument(skip_all, err(level = "info"))]
pub async fn replace_one(
    tx: &mut TenantTx,
    id: ItemId,
    by: ItemId,
    session: SessionId,
    now: DateTime<Utc>,
) -> Result<Loop> {
    if id == by {
        return Err(Error::Conflict(format!(
            "decision {id} cannot replace itself: name in `by` the later decision that replaces it"
        )));
    }
    let replacing = decision(tx, by).await?;
    // An organization's owner reads its members' decisions, but its own decision can be
    // replaced only by one of its own account's.
    if !replacing.own {
        return Err(not_replaceable(by));
    }
    let by_row = (replacing.loop_id, replacing.text.clone());
    if replace_with(tx, &[id], by_row, session, None, now).await? == 0 {
        // Nothing replaced: both are locked or gone now, so their states as they stand say why.
        if decision(tx, by).await?.state != "open" {
            return Err(Error::Conflict(format!(
                "decision {by} was replaced itself: name the decision that is current now"
            )));
        }
        if decision(tx, id).await?.state != "open" {
            return Err(Error::Conflict(format!(
                "decision {id} is replaced already; its replacement stands"
            )));
        }
        return Err(not_replaceable(id));
    }
    let row = super::rows::readable(tx, id)
        .await?
        .ok_or_else(|| not_replaceable(id))?;
    Ok(view(row, now))
}

/// The decision `id` as the caller reads it: 404 when it reads no such decision.
async fn decision(tx: &mut TenantTx, id: ItemId) -> Result<LoopRow> {
    let row: Option<LoopRow> = loop_rows!(
        ["SELECT "][" FROM journal_loops WHERE loop_id = $1 AND kind = $2"],
        id.0,
        LoopKind::Decision.as_str(),
    )
    .fetch_optional(tx.conn())
    .await?;
    row.ok_or_else(|| not_replaceable(id))
}

fn not_replaceable(id: ItemId) -> Error {
    Error::NotFound(format!(
        "no decision with id {:?} that this credential may replace is visible to it (an \
         organization's owner reads its members' decisions but does not replace them)",
        id.to_string()
    ))
}
