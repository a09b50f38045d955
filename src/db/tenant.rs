//! The tenant transaction, on the login role's connection: the application role and the
//! tenant settings, all transaction-local (`set_config(…, true)`), so nothing leaks to the next
//! user of the connection, and a `RESET ROLE` returns to the login role, which reaches nothing.

use super::Db;
use crate::scopes::Scopes;
use sqlx::{PgConnection, Postgres, Transaction};
use std::sync::Arc;
use std::time::Duration;
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
    /// What the opening set, to set again after [`TenantTx::rollback_to_savepoint`].
    role: Arc<str>,
    idle: Duration,
    lock: bool,
}

/// What the transaction checks as it opens, in the same statement (see [`TenantTx::begin_with`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Checks {
    /// The flag (by name) and the value the caller believes it has; a different value fails
    /// the begin with SQLSTATE `N8VFL`.
    pub flag: Option<(&'static str, bool)>,
    /// Opens `SAVEPOINT operation` right after `BEGIN`.
    pub savepoint: bool,
    /// Holds the account's lock shared ([`ACCOUNT_LOCK`]), as operations do.
    pub account_lock: bool,
}

/// The account's lock: an advisory lock on the key `n8v-account:<account id>`, held to the
/// end of the transaction. Operations take it shared, as their opening's first step (before
/// the credential is checked); the account's deletion takes it alone
/// (`accounts::delete_rows`). So a deletion waits for the operations under way, the next
/// ones wait for it and then find their credential gone (a 401), and the two never deadlock.
/// Without it the deletion, which locks every row of the account and then its row, and an
/// operation, which locks a few rows and then the account's row through a foreign key, took
/// their locks in opposite orders, and under load one of them lost again and again (a 503).
/// The service's own work (sweeps, summaries, digests) takes no part: a digest holds its
/// claim's transaction while it opens another for the same account, which would wait behind
/// a waiting deletion for ever.
pub const ACCOUNT_LOCK: &str = "n8v-account:";

/// The key of `account`'s lock ([`ACCOUNT_LOCK`]), as a value bound to a statement.
pub fn account_lock_key(account: Uuid) -> String {
    format!("{ACCOUNT_LOCK}{account}")
}

/// How a transaction begins: `BEGIN` (with the savepoint, when asked) as one constant
/// simple-protocol message. Behind a pooler the server connection is whoever's last
/// transaction left it, so its prepared statements are dropped first, and ours (`sqlx_s_<n>`,
/// numbered per client connection, never reused by it) cannot meet a name already taken.
fn begin_statement(pooled: bool, savepoint: bool) -> &'static str {
    match (pooled, savepoint) {
        (false, false) => "BEGIN",
        (false, true) => "BEGIN; SAVEPOINT operation",
        (true, false) => "DEALLOCATE ALL; BEGIN",
        (true, true) => "DEALLOCATE ALL; BEGIN; SAVEPOINT operation",
    }
}

impl TenantTx {
    pub async fn begin(db: &Db, tenant: &Tenant) -> sqlx::Result<Self> {
        Self::begin_with(db, tenant, Checks::default()).await
    }

    /// Begins the transaction, then opens it for the tenant in one checked statement with
    /// bound values (`n8v_open_tenant`, migration 0026): the application role, the account's
    /// lock, the check that the credential (if any) is still live and the flag still has the
    /// expected value, and the tenant's settings, all transaction-local. Two round trips:
    /// sqlx waits for `BEGIN` before it sends the next statement. A revoked credential fails
    /// with SQLSTATE N8VRV (a 401), so a cached credential is never acted on once revoked; the
    /// refused transaction is rolled back as it is dropped.
    ///
    /// The savepoint comes before the opening (a savepoint is a statement of its own; after
    /// the opening it would cost a third round trip), so rolling back to it undoes the
    /// opening's settings too, and [`TenantTx::rollback_to_savepoint`] sets them again.
    pub async fn begin_with(db: &Db, tenant: &Tenant, checks: Checks) -> sqlx::Result<Self> {
        let tx = begin_live(db, begin_statement(db.pooled, checks.savepoint)).await?;
        let mut tx = Self {
            tx,
            tenant: tenant.clone(),
            role: db.app_role.clone(),
            idle: db.idle_in_transaction,
            lock: checks.account_lock,
        };
        let flag = checks.flag.map(|(name, _)| name);
        let expected = checks.flag.map(|(_, on)| on);
        tx.open(flag, expected).await?;
        Ok(tx)
    }

    /// A read-only transaction on one snapshot (`REPEATABLE READ`), for a read paged over many
    /// statements (the export) that must see the same data throughout, for work an operation
    /// has just checked and recorded: it checks the credential again and nothing else. The
    /// opening is its first statement, so the snapshot is taken there.
    pub async fn begin_snapshot(db: &Db, tenant: &Tenant) -> sqlx::Result<Self> {
        let begin = if db.pooled {
            // The isolation level must come before any statement of the transaction.
            "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY; DEALLOCATE ALL"
        } else {
            "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY"
        };
        let mut tx = Self {
            tx: begin_live(db, begin).await?,
            tenant: tenant.clone(),
            role: db.app_role.clone(),
            idle: db.idle_in_transaction,
            lock: false,
        };
        tx.open(None, None).await?;
        Ok(tx)
    }

    /// Sets the role, takes the account's lock (when this transaction holds it), checks that
    /// the credential (if any) is live and the flag (if given) has the `expected` value, and
    /// sets the tenant.
    #[tracing::instrument(name = "db.tenant.open", skip_all, err)]
    async fn open(&mut self, flag: Option<&str>, expected: Option<bool>) -> sqlx::Result<()> {
        let o = Opening::of(&self.role, self.idle, &self.tenant, self.lock);
        sqlx::query!(
            "SELECT FROM n8v_open_tenant($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            o.role,
            o.idle,
            o.lock,
            o.account,
            o.credential,
            flag,
            expected,
            o.scopes,
            o.repository,
            o.service,
        )
        .execute(&mut *self.tx)
        .await?;
        Ok(())
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

    /// Undoes everything since the savepoint [`Checks::savepoint`] opened at `BEGIN`, the
    /// opening's role, lock and settings with it, and sets those again (the credential is
    /// checked again, the flag not: the operation has read it); the transaction goes on (a
    /// failed operation is still recorded in it).
    #[tracing::instrument(name = "db.tenant.rollback_to_savepoint", skip_all, err)]
    pub async fn rollback_to_savepoint(&mut self) -> sqlx::Result<()> {
        sqlx::query!("ROLLBACK TO SAVEPOINT operation")
            .execute(&mut *self.tx)
            .await?;
        self.open(None, None).await
    }
}

/// What the opening binds (`n8v_open_tenant`'s parameters but the flag's), in its order: the
/// same for a [`TenantTx`] and for a statement that opens the tenant itself
/// (`n8v_append_journalled`, see [`Db::opening`]).
pub struct Opening<'a> {
    pub role: &'a str,
    pub idle: String,
    pub lock: Option<String>,
    pub account: Uuid,
    pub credential: Option<Uuid>,
    pub scopes: String,
    pub repository: &'a str,
    pub service: &'static str,
}

impl<'a> Opening<'a> {
    fn of(role: &'a str, idle: Duration, tenant: &'a Tenant, lock: bool) -> Self {
        Self {
            role,
            idle: format!("{}ms", idle.as_millis()),
            lock: lock.then(|| account_lock_key(tenant.account_id)),
            account: tenant.account_id,
            credential: tenant.credential_id,
            scopes: tenant.scopes.joined(),
            repository: tenant.repository.as_deref().unwrap_or_default(),
            service: if tenant.service { "on" } else { "" },
        }
    }
}

impl Db {
    /// The opening of an operation's transaction for `tenant` (the account's lock held), for
    /// a statement that opens the tenant itself and runs alone, in a transaction of its own,
    /// on [`Db::tenant_pool`].
    pub fn opening<'a>(&'a self, tenant: &'a Tenant) -> Opening<'a> {
        Opening::of(&self.app_role, self.idle_in_transaction, tenant, true)
    }

    /// The login role's pool, which reaches nothing until a statement opens the tenant: for
    /// the statements that do so themselves (see [`Db::opening`]).
    pub fn tenant_pool(&self) -> &sqlx::PgPool {
        &self.tenant
    }

    /// Whether the tenant pool goes through a pooler in transaction mode: a statement is then
    /// prepared and run in two messages, which only a transaction keeps on one server
    /// connection (see [`Db::begin_bare`]).
    pub fn pooled(&self) -> bool {
        self.pooled
    }

    /// A transaction on the tenant pool that opens nothing (the statement run in it opens the
    /// tenant itself, see [`Db::opening`]): for such a statement behind a pooler.
    pub async fn begin_bare(&self) -> sqlx::Result<Transaction<'static, Postgres>> {
        begin_live(self, begin_statement(self.pooled, false)).await
    }
}

/// Begins with `sql` on a pooled connection, passing over connections that died while idle (a
/// database restart, a terminated backend): the pool does not ping a connection before handing
/// it out (see `db::IDLE_CHECK`), so the begin is the first to find one dead, and nothing has
/// happened on it yet. sqlx closes such a connection when it comes back; the next one is
/// tried, at most once per connection the pool holds (and once more, for a fresh one).
async fn begin_live(db: &Db, sql: &'static str) -> sqlx::Result<Transaction<'static, Postgres>> {
    let mut left = db.tenant.size() + 1;
    loop {
        match db.tenant.begin_with(sql).await {
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
