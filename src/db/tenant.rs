//! The tenant transaction, on the login role's connection: the application role and the
//! tenant settings, all transaction-local (`set_config(…, true)`), so nothing leaks to the next
//! user of the connection, and a `RESET ROLE` returns to the login role, which reaches nothing.

use super::Db;
use crate::scopes::Scopes;
use sqlx::{PgConnection, Postgres, Transaction};
use uuid::Uuid;

/// Who the transaction acts for. `auth` produces it; the policies read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tenant {
    pub account_id: Uuid,
    pub credential_id: Option<Uuid>,
    pub scopes: Scopes,
    /// Set for repository-restricted credentials.
    pub repository: Option<String>,
    /// Work the service itself does for the account (sweeps, summaries); never set for requests.
    pub service: bool,
}

impl Tenant {
    /// A tenant with no credential, for work done on an account's behalf by the service itself.
    pub fn account(account_id: Uuid) -> Self {
        Self {
            account_id,
            credential_id: None,
            scopes: Scopes::default(),
            repository: None,
            service: false,
        }
    }

    /// The service's own work for the account: reads and closes any of its sessions.
    pub fn service(account_id: Uuid) -> Self {
        Self {
            service: true,
            ..Self::account(account_id)
        }
    }
}

pub struct TenantTx {
    tx: Transaction<'static, Postgres>,
    tenant: Tenant,
}

/// What the transaction checks at `BEGIN`, in the same round trip (see [`TenantTx::begin_with`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Checks {
    /// The flag (by name) and the value the caller believes it has; a different value fails
    /// the begin with SQLSTATE `N8VFL`.
    pub flag: Option<(&'static str, bool)>,
    /// Opens `SAVEPOINT operation` right after the tenant is set.
    pub savepoint: bool,
    /// Holds the account's lock shared ([`ACCOUNT_LOCK`]), as operations do.
    pub account_lock: bool,
}

/// The account's lock: an advisory lock on the key `n8v-account:<account id>`, held to the
/// end of the transaction. Operations take it shared, first in their begin's batch (before
/// the credential is checked); the account's deletion takes it alone
/// (`ops::account::delete_rows`). So a deletion waits for the operations under way, the next
/// ones wait for it and then find their credential gone (a 401), and the two never deadlock.
/// Without it the deletion, which locks every row of the account and then its row, and an
/// operation, which locks a few rows and then the account's row through a foreign key, took
/// their locks in opposite orders, and under load one of them lost again and again (a 503).
/// The service's own work (sweeps, summaries, digests) takes no part: a digest holds its
/// claim's transaction while it opens another for the same account, which would wait behind
/// a waiting deletion for ever.
pub const ACCOUNT_LOCK: &str = "n8v-account:";

impl TenantTx {
    pub async fn begin(db: &Db, tenant: &Tenant) -> sqlx::Result<Self> {
        Self::begin_with(db, tenant, Checks::default()).await
    }

    /// Begins the transaction, sets the role and the tenant, checks that the credential (if
    /// any) is still live and the flag still has the expected value, and opens the savepoint:
    /// one round trip, one batch of simple-protocol statements. The values are written as
    /// escaped literals (the simple protocol has no parameters). A revoked credential fails
    /// with SQLSTATE N8VRV (a 401), so a cached credential is never acted on once revoked.
    pub async fn begin_with(db: &Db, tenant: &Tenant, checks: Checks) -> sqlx::Result<Self> {
        // The role comes first: the login role the connection is holds nothing, not even
        // the checks' function. Then the checks, in the implicit transaction that BEGIN then
        // turns into the real one: when they refuse, nothing after them runs and no
        // transaction stays open (and the role, local to it, is gone with it).
        let mut sql = leftovers(db).to_owned();
        sql.push_str(&format!(
            "SELECT set_config('role', {}, true); ",
            literal(db.app_role())
        ));
        if checks.account_lock {
            sql.push_str(&format!(
                "SELECT pg_advisory_xact_lock_shared(hashtextextended('{ACCOUNT_LOCK}{}', 0)); ",
                tenant.account_id
            ));
        }
        if tenant.credential_id.is_some() || checks.flag.is_some() {
            let credential = tenant
                .credential_id
                .map_or("NULL".to_owned(), |c| format!("'{c}'"));
            let (flag, expected) = checks.flag.map_or(("NULL".to_owned(), "NULL"), |(f, on)| {
                (literal(f), if on { "true" } else { "false" })
            });
            sql.push_str(&format!(
                "SELECT n8v_begin('{}', {credential}::uuid, {flag}, {expected}); ",
                tenant.account_id
            ));
        }
        sql.push_str("BEGIN; ");
        sql.push_str(&settings(db, tenant));
        if checks.savepoint {
            sql.push_str("; SAVEPOINT operation");
        }
        let tx = begin_live(db, sql).await?;
        Ok(Self {
            tx,
            tenant: tenant.clone(),
        })
    }

    /// A read-only transaction on one snapshot (`REPEATABLE READ`), for a read paged over many
    /// statements (the export) that must see the same data throughout. `BEGIN` comes first
    /// (the isolation level must precede any query), so it makes no checks that could refuse
    /// inside the open transaction: it is for work an operation has just checked and recorded.
    pub async fn begin_snapshot(db: &Db, tenant: &Tenant) -> sqlx::Result<Self> {
        let sql = format!(
            "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY; {}\
             SELECT set_config('role', {}, true); {}",
            leftovers(db),
            literal(db.app_role()),
            settings(db, tenant)
        );
        let tx = begin_live(db, sql).await?;
        Ok(Self {
            tx,
            tenant: tenant.clone(),
        })
    }

    pub fn tenant(&self) -> &Tenant {
        &self.tenant
    }

    pub fn conn(&mut self) -> &mut PgConnection {
        &mut self.tx
    }

    pub async fn commit(self) -> sqlx::Result<()> {
        self.tx.commit().await
    }

    pub async fn rollback(self) -> sqlx::Result<()> {
        self.tx.rollback().await
    }

    /// Undoes everything since the savepoint [`Checks::savepoint`] opened at `BEGIN`; the
    /// transaction goes on (a failed operation is still recorded in it).
    #[tracing::instrument(name = "db.tenant.rollback_to_savepoint", skip_all, err)]
    pub async fn rollback_to_savepoint(&mut self) -> sqlx::Result<()> {
        sqlx::query!("ROLLBACK TO SAVEPOINT operation")
            .execute(&mut *self.tx)
            .await?;
        Ok(())
    }
}

/// Begins with `sql` on a pooled connection, passing over connections that died while idle (a
/// database restart, a terminated backend): the pool does not ping a connection before handing
/// it out (see `db::IDLE_CHECK`), so the begin is the first to find one dead, and nothing has
/// happened on it yet. sqlx closes such a connection when it comes back; the next one is
/// tried, at most once per connection the pool holds (and once more, for a fresh one).
async fn begin_live(db: &Db, sql: String) -> sqlx::Result<Transaction<'static, Postgres>> {
    let mut left = db.tenant.size() + 1;
    loop {
        match db.tenant.begin_with(sqlx::AssertSqlSafe(sql.clone())).await {
            Err(e) if left > 0 && gone(&e) => {
                tracing::info!(error = %e, "a pooled connection was gone; trying another");
                left -= 1;
            }
            begun => return begun,
        }
    }
}

/// Whether an error says the connection itself is gone (its socket, or a backend terminated
/// or shut down: SQLSTATE class 08, 57P01, 57P02), rather than the pool, the statement, or
/// the server refusing a new connection (which every other try would meet too).
fn gone(e: &sqlx::Error) -> bool {
    crate::error::is_unavailable(e)
        && !matches!(e, sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed)
        && !crate::error::is_refused_connection(e)
}

/// What a transaction's first message starts with: behind a pooler the server connection is
/// whoever's last transaction left it, so its prepared statements are dropped, and ours
/// (`sqlx_s_<n>`, numbered per client connection, never reused by it) cannot meet a name
/// already taken.
fn leftovers(db: &Db) -> &'static str {
    if db.pooled { "DEALLOCATE ALL; " } else { "" }
}

/// The statement that sets the tenant's settings for the rest of the transaction, and how long
/// it may sit idle (see `db::IDLE_IN_TRANSACTION`).
fn settings(db: &Db, tenant: &Tenant) -> String {
    format!(
        "SELECT set_config('idle_in_transaction_session_timeout', '{}ms', true), \
         set_config('app.account_id', '{}', true), \
         set_config('app.credential_id', '{}', true), set_config('app.scopes', {}, true), \
         set_config('app.repository', {}, true), set_config('app.service', '{}', true)",
        db.idle_in_transaction.as_millis(),
        tenant.account_id,
        tenant
            .credential_id
            .map(|c| c.to_string())
            .unwrap_or_default(),
        literal(&tenant.scopes.joined()),
        literal(tenant.repository.as_deref().unwrap_or_default()),
        if tenant.service { "on" } else { "" },
    )
}

/// A string as an SQL literal: `E'…'` with quotes and backslashes escaped, so the meaning
/// does not depend on `standard_conforming_strings`; NUL (which text cannot hold) is dropped.
fn literal(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 3);
    out.push_str("E'");
    for c in value.chars() {
        match c {
            '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            '\0' => {}
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// A transaction on the owner's `pool` acting for `account` (the operator's commands: they
/// also work where the owner is not a superuser and row-level security is forced on it).
pub async fn acting_for(
    pool: &sqlx::PgPool,
    account: Uuid,
) -> sqlx::Result<Transaction<'static, Postgres>> {
    let mut tx = pool.begin().await?;
    set_tenant(&mut tx, None, &Tenant::account(account)).await?;
    Ok(tx)
}

/// Sets the role (when given) and the tenant for the rest of the transaction in one round trip.
#[tracing::instrument(name = "db.tenant.set_tenant", skip_all, err)]
pub(crate) async fn set_tenant(
    conn: &mut PgConnection,
    role: Option<&str>,
    tenant: &Tenant,
) -> sqlx::Result<()> {
    // A checked statement with columns has no `execute`: its one row is fetched and dropped.
    sqlx::query!(
        "SELECT set_config('role', COALESCE($1::text, current_user), true) AS role,
                set_config('app.account_id', $2, true) AS account_id,
                set_config('app.credential_id', $3, true) AS credential_id,
                set_config('app.scopes', $4, true) AS scopes,
                set_config('app.repository', $5, true) AS repository,
                set_config('app.service', $6, true) AS service",
        role,
        tenant.account_id.to_string(),
        tenant
            .credential_id
            .map(|c| c.to_string())
            .unwrap_or_default(),
        tenant.scopes.joined(),
        tenant.repository.as_deref().unwrap_or_default(),
        if tenant.service { "on" } else { "" }
    )
    .fetch_one(conn)
    .await?;
    Ok(())
}
