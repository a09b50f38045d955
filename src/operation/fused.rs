//! The journalled append in one statement (issue 56): the tenant's opening, the Record
//! statement and the audit + call statement in `n8v_append_journalled` (migration 0039), run
//! alone in a transaction of its own, so the append costs one round trip where the general
//! path takes five (`BEGIN; SAVEPOINT`, the opening, the Record statement, the audit + call
//! statement, `COMMIT`). It commits all of it or nothing.
//!
//! It keeps every rule of the general path by doing only the common case and handing every
//! other one back: [`append`] answers `None` (and the caller runs the general path, from
//! `BEGIN`) before it starts when the journal flag is not cached, a scope is missing, or
//! the purpose or targets held a credential (their exposures are recorded by the general path);
//! and when the statement refuses (SQLSTATE `N8VSL`: no such Record visible, no fresh session
//! to join, the session's row due to be written, a named session that is not the caller's open
//! one) or fails for any reason the database reports, since then nothing of it was stored.

use super::{CallContext, Spec, checks, forget_refused, journal_read, millis_since};
use crate::db::{Db, Tenant};
use crate::error::{Error, Result};
use crate::flags::Flag;
use crate::ids::{self, AccountId, EntryId, RecordId, SessionId};
use crate::journal::SessionRules;
use crate::records::Entry;
use crate::sessions::calls::Windows;
use crate::sqlstate::SLOW_PATH;
use chrono::{DateTime, Utc};
use std::time::Instant;

/// What the one-statement append answered: the entry, and the session its call went into
/// (`None` with the journal off).
pub struct Appended {
    pub entry: Entry,
    pub session: Option<SessionId>,
}

/// Appends `line` (already checked and cleaned) to `record` as one statement, for `tenant`,
/// recording the call `context` describes; `None`: the general path must do it (nothing was
/// stored). A connection lost under it answers as the general path's commit does: the outcome
/// is not known.
#[allow(clippy::too_many_arguments)]
pub async fn append(
    db: &Db,
    now: DateTime<Utc>,
    rules: SessionRules,
    tenant: &Tenant,
    spec: Spec,
    context: &CallContext,
    record: RecordId,
    line: &str,
) -> Option<Result<Appended>> {
    let started = Instant::now();
    let on = db
        .cache()
        .flag(tenant.account_id, Flag::AssistantJournal.name())?;
    if checks(spec, on, tenant).is_err() || !context.exposed.is_empty() {
        return None;
    }
    let w = Windows::at(now, rules);
    let entry_id = ids::new_id();
    let results = [EntryId(entry_id).to_string()];
    let o = db.opening(tenant);
    let scopes = tenant.scopes.names();
    let status = i32::from(spec.success_status());
    let journal_read = journal_read(spec, context);
    let elapsed = millis_since(started);
    let query = sqlx::query!(
        r#"SELECT entry_id AS "entry_id!", line AS "line!", author AS "author!",
                  created_at AS "created_at!",
                  session_id AS "session_id?: SessionId"
             FROM n8v_append_journalled($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13,
                  $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29,
                  $30, $31, $32, $33, $34, $35)"#,
        o.role,
        o.idle,
        o.lock,
        o.account,
        o.credential,
        Flag::AssistantJournal.name(),
        on,
        o.scopes,
        o.repository,
        o.service,
        record.0,
        entry_id,
        line,
        now,
        ids::new_id(),
        &context.request_id,
        &context.method,
        &context.path,
        status,
        context.session.map(|s| s.0),
        &scopes,
        w.fresh_after,
        w.slack_after,
        w.born_after,
        ids::new_id(),
        spec.name(context.via),
        context.purpose.as_ref().map(|p| p.as_str()),
        &context.targets,
        context.input_shape.as_ref(),
        &results,
        true,
        journal_read,
        elapsed,
        w.due_before,
        &context.assistant,
    );
    let answered = if db.pooled() {
        // Behind a pooler the statement is prepared and run in two messages, which only a
        // transaction keeps on one server connection: three round trips, not one.
        let mut tx = match db.begin_bare().await {
            Ok(tx) => tx,
            Err(e) => return Some(Err(Error::from(e))),
        };
        match query.fetch_one(&mut *tx).await {
            Ok(row) => tx.commit().await.map(|()| row),
            Err(e) => Err(e),
        }
    } else {
        query.fetch_one(db.tenant_pool()).await
    };
    let row = match answered {
        Ok(row) => row,
        Err(e) => return refused(db, tenant, e),
    };
    Some(Ok(Appended {
        entry: Entry {
            id: EntryId(row.entry_id),
            record_id: record,
            line: row.line,
            author_account_id: AccountId(row.author),
            created_at: row.created_at,
        },
        session: row.session_id,
    }))
}

/// What a failed one-statement operation comes to. A refusal or failure the database reports
/// stored nothing: the general path runs (and finds again what the cache had wrong). An
/// unavailable database the database itself reports (a terminated backend, a shutdown), or a
/// pool with no connection to give, stored nothing either: the request is refused as the
/// general path refuses it. A connection lost under the statement (a socket gone, no answer)
/// may have lost it after the commit: the outcome is not known.
fn refused<T>(db: &Db, tenant: &Tenant, e: sqlx::Error) -> Option<Result<T>> {
    let code = forget_refused(db, tenant, &e);
    let unavailable = crate::error::is_unavailable(&e);
    match e {
        sqlx::Error::Database(_) if code.as_deref() == Some(SLOW_PATH) || !unavailable => None,
        sqlx::Error::Database(_) | sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed => {
            Some(Err(Error::from(e)))
        }
        e => Some(Err(Error::at_commit(e))),
    }
}
