//! Dismissing an organization member's item from the reader's own view (migration 0021): the
//! owner of an organization reads its members' items but does not close them (they are the
//! members' to close); dismissing one takes it out of the owner's list, brief, `/journal.md`,
//! page and export, and leaves the member's item as it is. A dismissal is the reader account's
//! own row, which only that account reads.

use super::{Loop, view};
use crate::db::TenantTx;
use crate::error::{Error, Remedy, Result};
use crate::ids::ItemId;
use chrono::{DateTime, Utc};

/// Dismisses another account's item the caller reads, at `now`; dismissing it again changes
/// nothing. 409 for an item of the caller's own account (close it instead); 404 when the
/// caller reads no such item.
#[tracing::instrument(skip_all, err(level = "info"))]
pub async fn dismiss(tx: &mut TenantTx, id: ItemId, now: DateTime<Utc>) -> Result<Loop> {
    // Read as the list reads, dismissed or not, so dismissing it again answers the same.
    let Some(row) = super::rows::readable(tx, id).await? else {
        return Err(Error::NotFound(format!(
            "no item with id {:?} is visible to this credential",
            id.to_string()
        )));
    };
    if row.own {
        return Err(Error::Conflict(format!("item {id} is your own account's"))
            .with_remedy(Remedy::CloseItem(id)));
    }
    // The insert policy checks again that the caller reads the item.
    sqlx::query!(
        "INSERT INTO journal_loop_dismissals (account_id, loop_account_id, loop_id, dismissed_at) \
         VALUES (n8v_account(), $1, $2, $3) \
         ON CONFLICT (account_id, loop_account_id, loop_id) DO NOTHING",
        row.account_id,
        row.loop_id,
        now,
    )
    .execute(tx.conn())
    .await?;
    Ok(view(row, now))
}
