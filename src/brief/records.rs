//! The brief's Record changes: which Records the caller can read changed since the window
//! began, with their newest lines.

use super::{NEWEST_LINES, RecordChange};
use crate::db::TenantTx;
use crate::error::Result;
use crate::ids::{OrganizationId, RecordId};
use chrono::{DateTime, Utc};
use uuid::Uuid;

struct ChangeRow {
    record_id: Uuid,
    name: String,
    organization_id: Option<Uuid>,
    count: i64,
    newest: DateTime<Utc>,
    newest_lines: Vec<String>,
}

/// The Records the caller can read that changed since `since`, most recently changed first:
/// its own account's, then (only when it can read other accounts' Records, as an organization's
/// member) those. Each Record's entries are counted from its own index, the caller's account
/// named as a value: otherwise the planner, unable to tell one account's entries from another's,
/// expected every account's entries since `since` under the entries' policy (a plan costed so
/// high that it was compiled, `jit`), which made the brief cost ten session lists next to a busy
/// neighbour (`bench/run` scenario 3, issue 35).
#[tracing::instrument(skip_all, err)]
pub(super) async fn record_changes(
    tx: &mut TenantTx,
    since: DateTime<Utc>,
) -> Result<Vec<RecordChange>> {
    let me = tx.tenant().account_id;
    let own = sqlx::query!(
        r#"WITH changed AS (
               SELECT r.record_id, r.name, r.organization_id, c.count, c.newest, c.newest_lines
                 FROM records r CROSS JOIN LATERAL (
                      SELECT count(*) AS count, max(e.created_at) AS newest,
                             (array_agg(e.line ORDER BY e.created_at DESC, e.entry_id DESC))[1:$2]
                               AS newest_lines
                        FROM record_entries e
                       WHERE e.account_id = $3 AND e.record_id = r.record_id
                         AND e.created_at >= $1) c
                WHERE r.account_id = $3 AND c.count > 0)
           SELECT c.record_id AS "record_id?", c.name AS "name?", c.organization_id,
                  c.count AS "count?", c.newest AS "newest?", c.newest_lines AS "newest_lines?",
                  EXISTS (SELECT 1 FROM records o WHERE o.account_id <> $3) AS "others!"
             FROM (SELECT) one LEFT JOIN changed c ON true"#,
        since,
        NEWEST_LINES,
        me
    )
    .fetch_all(tx.conn())
    .await?;
    let others = own.first().is_some_and(|r| r.others);
    let mut rows: Vec<ChangeRow> = own
        .into_iter()
        .filter_map(|r| {
            Some(ChangeRow {
                record_id: r.record_id?,
                name: r.name?,
                organization_id: r.organization_id,
                count: r.count?,
                newest: r.newest?,
                newest_lines: r.newest_lines?,
            })
        })
        .collect();
    if others {
        rows.extend(others_record_changes(tx, since, me).await?);
    }
    rows.sort_by(|a, b| b.newest.cmp(&a.newest).then(a.record_id.cmp(&b.record_id)));
    Ok(rows
        .into_iter()
        .map(|r| RecordChange {
            record_id: RecordId(r.record_id),
            name: r.name,
            organization_id: r.organization_id.map(OrganizationId),
            count: r.count,
            newest_lines: r.newest_lines,
        })
        .collect())
}

/// [`record_changes`] of the other accounts' Records the caller can read (an organization's, as
/// a member).
async fn others_record_changes(
    tx: &mut TenantTx,
    since: DateTime<Utc>,
    me: Uuid,
) -> Result<Vec<ChangeRow>> {
    Ok(sqlx::query_as!(
        ChangeRow,
        r#"SELECT r.record_id, r.name, r.organization_id, c.count AS "count!",
                  c.newest AS "newest!", c.newest_lines AS "newest_lines!"
             FROM records r CROSS JOIN LATERAL (
                  SELECT count(*) AS count, max(e.created_at) AS newest,
                         (array_agg(e.line ORDER BY e.created_at DESC, e.entry_id DESC))[1:$2]
                           AS newest_lines
                    FROM record_entries e
                   WHERE e.account_id = r.account_id AND e.record_id = r.record_id
                     AND e.created_at >= $1) c
            WHERE r.account_id <> $3 AND c.count > 0"#,
        since,
        NEWEST_LINES,
        me
    )
    .fetch_all(tx.conn())
    .await?)
}
