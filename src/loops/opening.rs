//! Opening items as sessions close: every close (the end, a retired implicit session, the quiet
//! sweep, an episode's settled part) calls [`open_from_closed`] through the close step
//! (`sessions::close`) in the closing transaction, so a session's items exist exactly when its
//! close does. Never on the per-call write path. Each item opened is told of (`loop.opened`)
//! with the row its insert returned.

use super::rows::ChangedRow;
use super::{LoopKind, stale_after};
use crate::db::TenantTx;
use crate::ids::{self, ItemId, SessionId};
use crate::journal::session_reads;
use crate::journal::views::Session;
use crate::summarize::marked::item_key;
use crate::webhooks::events::{self, Event};
use crate::webhooks::payloads::ItemWithheld;
use chrono::{DateTime, Utc};
use uuid::Uuid;

/// One question or next step a closing session hands on.
struct Stated {
    kind: LoopKind,
    text: String,
    stated: bool,
    key: String,
}

/// Opens the items of `sessions`, just closed (those that only read the journal hand nothing
/// on, as they stay out of the list): their stated decisions, questions and next steps, then
/// the decisions and questions their goal, outcome and purposes mark; then replaces the
/// decisions they name as replaced (`replacing`). `pending` is a purpose not recorded yet
/// (the end call's own, recorded once the end commits), read as the newest. Each item joins
/// the open item with its text that the session's credential opened (see the module), or opens
/// a new one.
#[tracing::instrument(skip_all, err)]
pub async fn open_from_closed(
    tx: &mut TenantTx,
    sessions: &[SessionId],
    pending: Option<&str>,
    now: DateTime<Utc>,
) -> sqlx::Result<()> {
    if sessions.is_empty() {
        return Ok(());
    }
    let ids: Vec<Uuid> = sessions.iter().map(|s| s.0).collect();
    let sessions = session_reads::own_listed(tx, &ids).await?;
    let purposes = session_reads::marked_purposes(tx, &sessions).await?;
    for session in &sessions {
        let marked: Vec<String> = pending
            .map(str::to_owned)
            .into_iter()
            .chain(purposes.get(&session.id).into_iter().flatten().cloned())
            .collect();
        let carried = session.carried(&marked);
        let replacing = carried.replacing.clone();
        let lines: Vec<Stated> = [
            (LoopKind::Decision, carried.decisions),
            (LoopKind::Question, carried.open_questions),
            (LoopKind::NextStep, carried.next_steps),
        ]
        .into_iter()
        .flat_map(|(kind, lines)| {
            lines.into_iter().map(move |l| Stated {
                kind,
                key: item_key(&l.text),
                text: l.text,
                stated: l.stated,
            })
        })
        .collect();
        if !lines.is_empty() {
            open_lines(tx, session, &lines, now).await?;
        }
        super::replacing::replace(tx, session, &replacing, now).await?;
    }
    Ok(())
}

/// Opens or joins the items of one session's lines.
async fn open_lines(
    tx: &mut TenantTx,
    session: &Session,
    lines: &[Stated],
    now: DateTime<Utc>,
) -> sqlx::Result<()> {
    let credential = session.key_id.0;
    // One credential's closes queue here, so two concurrent ends stating the same text open
    // one item between them (transaction-scoped: released at commit).
    sqlx::query_scalar!(
        "SELECT pg_advisory_xact_lock(hashtextextended('n8v-loops:' || $1::uuid::text, 0))",
        credential
    )
    .fetch_one(tx.conn())
    .await?;
    // Each line as a new item first; the lines that join an item take its id below.
    let mut all = Rows::of(lines.iter().map(|l| (ids::new_id(), l)));
    let found = joinable(tx, &all, session, now).await?;
    let mut joined = vec![false; lines.len()];
    for (i, item) in found {
        all.ids[i] = item;
        joined[i] = true;
    }
    let new = Rows::of(
        (all.ids.iter().copied().zip(lines))
            .zip(&joined)
            .filter(|(_, joined)| !**joined)
            .map(|(line, _)| line),
    );
    let mut opened = sqlx::query!(
        "INSERT INTO journal_loops (account_id, loop_id, kind, item_key, text, stated,
             session_id, created_at)
         SELECT n8v_account(), t.id, t.kind, t.key, t.text, t.stated, $6, $7
           FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::bool[])
                AS t(id, kind, key, text, stated)
         RETURNING loop_id, kind, text, state, session_id, created_at",
        &new.ids,
        &new.kinds as &[&str],
        &new.keys as &[&str],
        &new.texts as &[&str],
        &new.stated,
        session.id.0,
        now
    )
    .fetch_all(tx.conn())
    .await?;
    opened.sort_by_key(|r| r.loop_id);
    // An item whose text the rules withhold from every hand-off is told of by id and rule.
    for r in &opened {
        if let Some(withheld) = crate::withhold::withheld(&r.text) {
            let told = ItemWithheld {
                item: ItemId(r.loop_id),
                kind: r.kind.clone(),
                rule: withheld.rule.id().to_owned(),
                reason: withheld.rule.reason().to_owned(),
                session: SessionId(r.session_id),
            };
            events::emit(tx, Event::ItemWithheld(told), now).await?;
        }
    }
    // A decision is no loop: `loop.opened` tells of questions and next steps.
    opened.retain(|r| r.kind != LoopKind::Decision.as_str());
    for r in opened {
        let row = ChangedRow {
            loop_id: r.loop_id,
            kind: r.kind,
            text: r.text,
            state: r.state,
            session_id: r.session_id,
            created_at: r.created_at,
            closed_at: None,
        };
        events::emit(tx, Event::LoopOpened(row.changed(None)), now).await?;
    }
    sqlx::query!(
        "INSERT INTO journal_loop_sources (account_id, loop_id, session_id, kind, item_key,
             text, stated, created_at)
         SELECT n8v_account(), t.id, $6, t.kind, t.key, t.text, t.stated, $7
           FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::bool[])
                AS t(id, kind, key, text, stated)
         ON CONFLICT DO NOTHING",
        &all.ids,
        &all.kinds as &[&str],
        &all.keys as &[&str],
        &all.texts as &[&str],
        &all.stated,
        session.id.0,
        now
    )
    .execute(tx.conn())
    .await?;
    Ok(())
}

/// The items `all`'s lines join, by line index: for each, the open, fresh item of its text
/// that the session's credential opened in a session whose scopes the closing one holds.
async fn joinable(
    tx: &mut TenantTx,
    all: &Rows<'_>,
    session: &Session,
    now: DateTime<Utc>,
) -> sqlx::Result<Vec<(usize, Uuid)>> {
    // The items this close may join, locked (in id order, as migration 0018's trigger locks
    // them) until it commits: a concurrent deletion of their other sources then either finished
    // first (and the read below no longer finds an item it took) or waits and sees this
    // session's source, rather than deleting the item under it.
    sqlx::query!(
        "SELECT l.loop_id FROM journal_loops l
          WHERE l.account_id = n8v_account() AND l.state = 'open'
            AND (l.kind, l.item_key) IN (SELECT * FROM unnest($1::text[], $2::text[]))
          ORDER BY l.loop_id
            FOR SHARE",
        &all.kinds as &[&str],
        &all.keys as &[&str],
    )
    .fetch_all(tx.conn())
    .await?;
    // The open, fresh item of each line's text that this credential opened in a session whose
    // scopes the closing one holds: one it can surely read (see the module).
    let found = sqlx::query!(
        r#"SELECT DISTINCT ON (t.n) t.n AS "n!", l.loop_id
             FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(kind, key, n)
             JOIN journal_loops l ON l.account_id = n8v_account() AND l.kind = t.kind
                  AND l.item_key = t.key AND l.state = 'open' AND l.created_at > $5
             JOIN journal_sessions o ON o.account_id = l.account_id
                  AND o.session_id = l.session_id
            WHERE o.credential_id = $3 AND o.scopes <@ $4
            ORDER BY t.n, l.created_at, l.loop_id"#,
        &all.kinds as &[&str],
        &all.keys as &[&str],
        session.key_id.0,
        &session.scopes,
        now - stale_after()
    )
    .fetch_all(tx.conn())
    .await?;
    Ok(found
        .into_iter()
        .map(|row| ((row.n - 1) as usize, row.loop_id))
        .collect())
}

/// Lines as the columns of an insert.
struct Rows<'a> {
    ids: Vec<Uuid>,
    kinds: Vec<&'a str>,
    keys: Vec<&'a str>,
    texts: Vec<&'a str>,
    stated: Vec<bool>,
}

impl<'a> Rows<'a> {
    fn of(lines: impl Iterator<Item = (Uuid, &'a Stated)>) -> Self {
        let mut rows = Rows {
            ids: Vec::new(),
            kinds: Vec::new(),
            keys: Vec::new(),
            texts: Vec::new(),
            stated: Vec::new(),
        };
        for (id, line) in lines {
            rows.ids.push(id);
            rows.kinds.push(line.kind.as_str());
            rows.keys.push(&line.key);
            rows.texts.push(&line.text);
            rows.stated.push(line.stated);
        }
        rows
    }
}
