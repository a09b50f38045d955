//! Receipts: what a conversation was told. A read that hands the journal over — the catch-up
//! brief (REST, MCP, the brief resource) and `/journal.md` (and the window resource) — keeps
//! with its call the sessions and items it handed over (`result_ids`) and how many characters
//! it answered (`result_chars`, migration 0033), so the call is the receipt. Read as the
//! caller: the calls' policies decide which receipts it sees.

use crate::db::TenantTx;
use crate::error::Result;
use crate::ids::{AccountId, CallId, ItemId, SessionId, TypedId};
use chrono::{DateTime, Utc};
use serde::Serialize;
use std::collections::HashMap;

/// Most receipts a session's read shows (the oldest: what it was told when it started).
pub const MAX_TOLD: i64 = 20;
/// Most later sessions an item names as given it (the newest).
pub const MAX_GIVEN: usize = 20;

/// One hand-over to a conversation: what it was told, and from where.
#[derive(Debug, Clone, Serialize, serde::Deserialize, utoipa::ToSchema)]
#[schema(example = json!({
    "call_id": "call_01M72B7C00EDV8XKQ3RN1Z3H6B",
    "operation": "journal_catch_up",
    "purpose": "Catch up before starting",
    "at": "2026-11-10T10:42:10Z",
    "chars": 4210,
    "unreadable": 0,
    "sessions": ["ses_01M72AZ1M0ETFB59TDWH9EDD1R"],
    "items": ["itm_01M72B6Q00EDV8XKQ3RN1Z3H6A"]
}))]
pub struct Told {
    /// The read (`call_…`); `GET /api/v1/journal/entries/{id}` shows it whole.
    pub call_id: CallId,
    /// How it was read: `getCatchUp` (REST), `journal_catch_up` (MCP, and the brief resource),
    /// `getJournalMarkdown` (`/journal.md`, and the window resource).
    pub operation: String,
    /// Why, as the assistant said (a resource read says which resource).
    pub purpose: Option<String>,
    pub at: DateTime<Utc>,
    /// How many characters it answered; absent when it handed over what this reader cannot
    /// read (its size would tell of it).
    pub chars: Option<i32>,
    /// The sessions it handed over (`ses_…`) that this reader can read, newest first.
    pub sessions: Vec<SessionId>,
    /// The items it handed over (`itm_…`) that this reader can read: decisions, open questions
    /// and next steps.
    pub items: Vec<ItemId>,
    /// How many sessions and items it handed over that this reader cannot read (an
    /// organization's owner reading a member's session): counted, never named.
    #[serde(default)]
    pub unreadable: usize,
}

/// What `session` (of `account`: an organization member's, read by its owner, too) was told,
/// oldest first (at most [`MAX_TOLD`]).
#[tracing::instrument(skip_all, err)]
pub async fn of_session(
    tx: &mut TenantTx,
    account: AccountId,
    session: SessionId,
) -> Result<Vec<Told>> {
    let rows = sqlx::query!(
        r#"SELECT call_id, operation, purpose, created_at, result_ids,
                  result_chars AS "result_chars!"
             FROM journal_calls
            WHERE account_id = $3 AND session_id = $1 AND result_chars IS NOT NULL
            ORDER BY created_at, call_id LIMIT $2"#,
        session.0,
        MAX_TOLD,
        account.0,
    )
    .fetch_all(tx.conn())
    .await?;
    let ids: Vec<String> = rows.iter().flat_map(|r| r.result_ids.clone()).collect();
    let shown = if ids.is_empty() {
        Default::default()
    } else {
        crate::journal::reads::readable(tx, &ids).await?
    };
    Ok(rows
        .into_iter()
        .map(|r| {
            let (readable, unreadable): (Vec<&String>, Vec<&String>) =
                r.result_ids.iter().partition(|i| shown.contains(*i));
            Told {
                call_id: CallId(r.call_id),
                operation: r.operation,
                purpose: r.purpose,
                at: r.created_at,
                chars: unreadable.is_empty().then_some(r.result_chars),
                sessions: readable
                    .iter()
                    .filter_map(|i| SessionId::parse(i))
                    .collect(),
                items: readable.iter().filter_map(|i| ItemId::parse(i)).collect(),
                unreadable: unreadable.len(),
            }
        })
        .collect())
}

/// For each of `items`, the sessions that were handed it, newest first (at most
/// [`MAX_GIVEN`] each): the later conversations given it.
#[tracing::instrument(skip_all, err)]
pub async fn given(tx: &mut TenantTx, items: &[ItemId]) -> Result<HashMap<ItemId, Vec<SessionId>>> {
    if items.is_empty() {
        return Ok(HashMap::new());
    }
    let names: Vec<String> = items.iter().map(ItemId::to_string).collect();
    let rows = sqlx::query!(
        r#"SELECT i.item AS "item!", c.session_id
             FROM journal_calls c
             CROSS JOIN LATERAL unnest(c.result_ids) AS i(item)
            WHERE c.result_chars IS NOT NULL AND c.result_ids && $1 AND i.item = ANY ($1)
            GROUP BY i.item, c.session_id
            ORDER BY max(c.created_at) DESC, c.session_id"#,
        &names,
    )
    .fetch_all(tx.conn())
    .await?;
    let mut given: HashMap<ItemId, Vec<SessionId>> = HashMap::new();
    for r in rows {
        let Some(item) = ItemId::parse(&r.item) else {
            continue;
        };
        let sessions = given.entry(item).or_default();
        if sessions.len() < MAX_GIVEN {
            sessions.push(SessionId(r.session_id));
        }
    }
    Ok(given)
}
