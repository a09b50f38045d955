//! The person's say over what the rules withhold (issue 53, part 3): the account's own items
//! (current decisions, open questions and next steps) whose text the rules keep out of every
//! automatic hand-off, listed for the journal pages; releasing one (it is handed over again,
//! marked released by the person, while its text stays the one released); deleting one.
//!
//! Releasing and deleting need `chats:release`, which the policies check (migration 0038): no
//! API route reaches them, OAuth grants never carry the scope, and a key holds it only when
//! made with it.

use super::rows::{LoopRow, loop_rows};
use super::{Loop, view};
use crate::db::TenantTx;
use crate::error::{Error, Result};
use crate::handover::provenance::Provenance;
use crate::ids::{AccountId, ItemId, Kind};
use chrono::{DateTime, Utc};

/// How many of the account's newest open items the list reads (and the rules judge).
pub const MAX_READ: i64 = 500;

/// The account's own open items the rules withhold, newest first, each stamped (a released
/// one with when), among its [`MAX_READ`] newest open items.
#[tracing::instrument(skip_all, err)]
pub async fn list(tx: &mut TenantTx, now: DateTime<Utc>) -> Result<Vec<Loop>> {
    let rows = loop_rows!(
        ["SELECT "][" FROM journal_loops WHERE account_id = n8v_account() AND state = 'open'
            ORDER BY created_at DESC, loop_id LIMIT $1"],
        MAX_READ
    )
    .fetch_all(tx.conn())
    .await?;
    let mut items: Vec<Loop> = rows
        .into_iter()
        .map(|r| view(r, now))
        .filter(|l| l.withheld.is_some())
        .collect();
    let sessions: Vec<_> = items.iter().map(|i| i.session_id).collect();
    let ids: Vec<_> = items.iter().map(|i| i.id).collect();
    let provenance = Provenance::read(tx, &sessions, &ids).await?;
    super::stamp(&mut items, &provenance, AccountId(tx.tenant().account_id));
    Ok(items)
}

/// The account's own item `id`, open and withheld, as the caller reads it; a 404 otherwise,
/// a 409 when the rules do not withhold it.
async fn own_withheld(tx: &mut TenantTx, id: ItemId, now: DateTime<Utc>) -> Result<Loop> {
    let row: Option<LoopRow> = loop_rows!(
        ["SELECT "][" FROM journal_loops WHERE account_id = n8v_account() AND loop_id = $1"],
        id.0
    )
    .fetch_optional(tx.conn())
    .await?;
    let item = row
        .map(|r| view(r, now))
        .ok_or_else(|| Error::not_found(Kind::Item, &id.to_string()))?;
    if item.withheld.is_none() {
        return Err(Error::Conflict(format!(
            "{id} is not withheld: it is handed over as it is"
        )));
    }
    Ok(item)
}

/// Releases the item `id`: from now on it is handed over as written, marked released by the
/// person, while its text is the one released. Releasing again records nothing more.
#[tracing::instrument(skip_all, err)]
pub async fn release(tx: &mut TenantTx, id: ItemId, now: DateTime<Utc>) -> Result<Loop> {
    let item = own_withheld(tx, id, now).await?;
    sqlx::query!(
        "INSERT INTO journal_releases (account_id, loop_id, text, credential_id, released_at)
         SELECT n8v_account(), $1, $2, n8v_credential(), $3
          WHERE NOT EXISTS (SELECT 1 FROM journal_releases
                             WHERE account_id = n8v_account() AND loop_id = $1 AND text = $2)",
        id.0,
        item.text,
        now
    )
    .execute(tx.conn())
    .await?;
    Ok(item)
}

/// Deletes the item `id` for good (its sources with it). The entry it came from keeps its
/// words until it is deleted too.
#[tracing::instrument(skip_all, err)]
pub async fn delete(tx: &mut TenantTx, id: ItemId, now: DateTime<Utc>) -> Result<Loop> {
    let item = own_withheld(tx, id, now).await?;
    sqlx::query!(
        "DELETE FROM journal_loops WHERE account_id = n8v_account() AND loop_id = $1",
        id.0
    )
    .execute(tx.conn())
    .await?;
    Ok(item)
}
