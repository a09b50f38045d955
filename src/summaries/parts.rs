//! A summary's parts as they arrive (`summary_parts`): each stored in a short transaction that
//! checks the run's lease, read back by the run that assembles the summary (or by the next run,
//! which then pays only for the parts missing), and gone once the summary is stored.

use crate::db::TenantTx;
use crate::error::{Error, Result};
use crate::summarize::HeldPart;
use uuid::Uuid;

/// The parts stored for the snapshot, by part number.
#[tracing::instrument(skip_all, err)]
pub async fn held(
    tx: &mut TenantTx,
    session: Uuid,
    snapshot: i32,
) -> Result<Vec<(usize, HeldPart)>> {
    let rows = sqlx::query!(
        "SELECT part, summary, input_tokens, output_tokens, cost_usd FROM summary_parts
         WHERE account_id = n8v_account() AND session_id = $1 AND snapshot = $2 ORDER BY part",
        session,
        snapshot
    )
    .fetch_all(tx.conn())
    .await?;
    rows.into_iter()
        .map(|r| {
            let summary =
                serde_json::from_value(r.summary).map_err(|e| Error::Internal(e.into()))?;
            let part = HeldPart {
                summary,
                input_tokens: r.input_tokens as u64,
                output_tokens: r.output_tokens as u64,
                cost_usd: r.cost_usd,
            };
            Ok((r.part as usize, part))
        })
        .collect()
}

/// Stores part `index` (once: a part already stored stays as it is).
#[tracing::instrument(skip_all, err)]
pub async fn store(
    tx: &mut TenantTx,
    session: Uuid,
    snapshot: i32,
    index: usize,
    part: &HeldPart,
) -> Result<()> {
    let summary = super::json(&part.summary)?;
    sqlx::query!(
        "INSERT INTO summary_parts (account_id, session_id, snapshot, part, summary,
             input_tokens, output_tokens, cost_usd)
         VALUES (n8v_account(), $1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (account_id, session_id, snapshot, part) DO NOTHING",
        session,
        snapshot,
        index as i32,
        summary,
        part.input_tokens as i64,
        part.output_tokens as i64,
        part.cost_usd
    )
    .execute(tx.conn())
    .await?;
    Ok(())
}

/// Drops the snapshot's parts once its summary holds them.
#[tracing::instrument(skip_all, err)]
pub async fn clear(tx: &mut TenantTx, session: Uuid, snapshot: i32) -> sqlx::Result<()> {
    sqlx::query!(
        "DELETE FROM summary_parts
         WHERE account_id = n8v_account() AND session_id = $1 AND snapshot = $2",
        session,
        snapshot
    )
    .execute(tx.conn())
    .await?;
    Ok(())
}
