//! The database: the pools, migrations, the application role, and the tenant transaction,
//! which is the only way to reach tenant tables.
//!
//! Two pools. The owner's (`DATABASE_URL`) serves what is not one tenant's work: the job
//! queue, the workers' passes across accounts, the operator console, credential lookups before
//! the tenant is known. Tenant transactions run on the login role's pool ([`login`]), whose
//! connections hold nothing until they become the application role.
//!
//! Behind a pooler in transaction mode ([`Db::connect_through_pooler`]) only the login role's
//! pool goes through it: its work is whole transactions. The owner's pool and the listener
//! connect straight to PostgreSQL: they run statements outside transactions (the job queue,
//! the workers' passes, credential lookups) and `LISTEN`, which need a session of their own.

pub mod app_role;
pub mod cache;
pub mod embedded;
pub mod login;
mod roles;
mod scram;
mod tenant;

pub use roles::{FUNCTIONS, QUEUE_GRANTS, TENANT_GRANTS, check_separation, ensure_app_role};
pub(crate) use tenant::set_tenant;
pub use tenant::{ACCOUNT_LOCK, Checks, Tenant, TenantTx, account_lock_key, acting_for};

use sqlx::PgPool;
use sqlx::migrate::Migrator;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use std::time::Duration;

pub static MIGRATOR: Migrator = sqlx::migrate!("./migrations");

/// The service's handle on PostgreSQL. Tenant data is reached only through [`TenantTx`],
/// which sets the application role and the tenant at `BEGIN`.
#[derive(Clone)]
pub struct Db {
    /// The owner's connections.
    pool: PgPool,
    /// The login role's connections, for tenant transactions.
    tenant: PgPool,
    app_role: std::sync::Arc<str>,
    /// The workers of this process (shared by every clone, read by `/readyz`).
    liveness: std::sync::Arc<crate::liveness::Liveness>,
    /// Credentials and flags, for a few seconds (see [`cache`]).
    cache: std::sync::Arc<cache::Cache>,
    /// The listener's own one-connection pool, once [`Db::watch_invalidations`] started it.
    listener: std::sync::Arc<std::sync::OnceLock<PgPool>>,
    /// Whether `tenant` goes through a pooler in transaction mode (see [`TenantTx::begin_with`]).
    pooled: bool,
    /// Every tenant transaction's `idle_in_transaction_session_timeout` (see
    /// [`IDLE_IN_TRANSACTION`]).
    idle_in_transaction: Duration,
}

impl Db {
    fn with_pools(pool: PgPool, tenant: PgPool, app_role: &str) -> Self {
        Self {
            pool,
            tenant,
            pooled: false,
            idle_in_transaction: IDLE_IN_TRANSACTION,
            app_role: app_role.into(),
            liveness: Default::default(),
            cache: Default::default(),
            listener: Default::default(),
        }
    }

    /// Connects as the owner (`url`) and as the application role's login role (`max_connections`
    /// for tenant work; the owner's pool gets half as many, at least 4). The application role
    /// is `configured` (`N8V_APP_ROLE`), else this database's ([`app_role::resolve`]).
    pub async fn connect(
        url: &str,
        configured: Option<&str>,
        max_connections: u32,
    ) -> anyhow::Result<Self> {
        Self::connect_with(url.parse()?, url, configured, max_connections, |options| {
            options
        })
        .await
    }

    /// Connects tenant work through a pooler in transaction mode (`pooler_url`, as the owner
    /// there too: the login role's password is derived from it) and the owner's pool straight
    /// to PostgreSQL (`direct_url`). The pooled connections keep no prepared statement between
    /// transactions (PgBouncer before 1.21 cannot carry them over) and send no startup
    /// parameter PgBouncer refuses.
    pub async fn connect_through_pooler(
        pooler_url: &str,
        direct_url: &str,
        configured: Option<&str>,
        max_connections: u32,
    ) -> anyhow::Result<Self> {
        let pooled = |options: PgConnectOptions| {
            options.statement_cache_capacity(0).extra_float_digits(None)
        };
        let owner = direct_url.parse()?;
        let mut db = Self::connect_with(owner, pooler_url, configured, max_connections, pooled)
            .await
            .map_err(|e| {
                anyhow::anyhow!(
                    "{e:#} (N8V_DATABASE_POOLER=transaction: tenant work connects through the \
                     pooler, the owner's pool to N8V_DIRECT_DATABASE_URL; the pooler must let \
                     in the owner and the login role)"
                )
            })?;
        db.pooled = true;
        Ok(db)
    }

    /// The owner's pool (`owner`), then the login role's: the application role is resolved on
    /// the owner's connection, and tenant work logs in as its login role where `tenant_url`
    /// points (its password derived from that URL's owner), with `adjust`ed options.
    async fn connect_with(
        owner: PgConnectOptions,
        tenant_url: &str,
        configured: Option<&str>,
        max_connections: u32,
        adjust: impl FnOnce(PgConnectOptions) -> PgConnectOptions,
    ) -> anyhow::Result<Self> {
        let pool = pool_options(
            (max_connections / 2).max(4),
            Duration::from_secs(10),
            Duration::ZERO,
        )
        .connect_with(owner)
        .await?;
        let app_role = app_role::resolve(&pool, configured).await?;
        let login = login::login_role(&app_role);
        let tenant = adjust(login::options(tenant_url, &app_role)?);
        let tenant = pool_options(max_connections, Duration::from_secs(10), IDLE_CHECK)
            .connect_with(tenant)
            .await
            .map_err(|e| refused_login(&login, &e))?;
        Ok(Self::with_pools(pool, tenant, &app_role))
    }

    /// A handle whose connections are made on first use, each acquire waiting at most
    /// `acquire_timeout`: for a service started before its database is up (and for tests of a
    /// database out of reach, which answer `503`). With none `configured` it is this database's
    /// default ([`app_role::default_for`]; the server is not asked, so not the old shared one).
    pub fn connect_lazy(
        url: &str,
        configured: Option<&str>,
        max_connections: u32,
        acquire_timeout: Duration,
    ) -> anyhow::Result<Self> {
        let lazy = |options, idle_check| {
            pool_options(max_connections, acquire_timeout, idle_check).connect_lazy_with(options)
        };
        let app_role = match configured {
            Some(role) => role.to_owned(),
            None => app_role::default_for_url(url)?,
        };
        let pool = lazy(url.parse()?, Duration::ZERO);
        let tenant = lazy(login::options(url, &app_role)?, IDLE_CHECK);
        Ok(Self::with_pools(pool, tenant, &app_role))
    }

    pub fn app_role(&self) -> &str {
        &self.app_role
    }

    /// Sets how long a tenant transaction may sit idle before PostgreSQL ends its connection
    /// (`N8V_DB_IDLE_IN_TRANSACTION_SECONDS`; [`IDLE_IN_TRANSACTION`] until set).
    pub fn with_idle_in_transaction(mut self, limit: Duration) -> Self {
        self.idle_in_transaction = limit.max(Duration::from_millis(1));
        self
    }

    /// Which of this process's workers are running.
    pub fn liveness(&self) -> &crate::liveness::Liveness {
        &self.liveness
    }

    pub fn cache(&self) -> &cache::Cache {
        &self.cache
    }

    /// Starts listening for cache invalidations (once per `Db` and its clones), on a
    /// connection of its own. The service calls it; one-shot commands need not.
    pub fn watch_invalidations(&self) {
        let pool = PgPoolOptions::new()
            .max_connections(1)
            .connect_lazy_with((*self.pool.connect_options()).clone());
        if self.listener.set(pool.clone()).is_ok() {
            tokio::spawn(cache::listen(pool, self.cache.clone()));
        }
    }

    /// Whether the database (and, behind a pooler, the pooler) answers and every migration this
    /// binary knows is applied.
    /// (`/readyz` logs a failure itself, once, at `warn`.)
    #[tracing::instrument(skip_all)]
    pub async fn ready(&self) -> sqlx::Result<bool> {
        let latest = MIGRATOR.iter().map(|m| m.version).max().unwrap_or(0);
        let applied =
            sqlx::query_scalar!("SELECT max(version) FROM _sqlx_migrations WHERE success")
                .fetch_one(&self.pool)
                .await?;
        if self.pooled {
            // Tenant work goes through the pooler: it must answer too (one simple query).
            sqlx::Executor::execute(&self.tenant, "SELECT 1").await?;
        }
        Ok(applied == Some(latest))
    }

    /// Credential lookup before the tenant is known, through the owner's SECURITY DEFINER
    /// functions (the app role cannot read credentials across accounts itself).
    /// Live account credentials come from the cache for a few seconds; the tenant
    /// transaction re-checks them (see [`cache`]).
    #[tracing::instrument(skip_all, err)]
    pub async fn credential_by_hash(&self, hash: &[u8]) -> sqlx::Result<Option<CredentialRow>> {
        let lookup = sqlx::query_as!(
            CredentialRow,
            r#"SELECT account_id, credential_id AS "credential_id!", scopes AS "scopes!",
                      repository, revoked_at, operator AS "operator!"
                 FROM n8v_credential_by_hash($1) LIMIT 1"#,
            hash
        )
        .fetch_optional(&self.pool);
        self.cached(cache::CredentialKey::Hash(hash.to_vec()), lookup)
            .await
    }

    #[tracing::instrument(skip_all, err)]
    pub async fn credential_by_id(
        &self,
        account: uuid::Uuid,
        credential: uuid::Uuid,
    ) -> sqlx::Result<Option<CredentialRow>> {
        let lookup = sqlx::query_as!(
            CredentialRow,
            r#"SELECT account_id, credential_id AS "credential_id!", scopes AS "scopes!",
                      repository, revoked_at, operator AS "operator!"
                 FROM n8v_credential_by_id($1, $2)"#,
            account,
            credential
        )
        .fetch_optional(&self.pool);
        self.cached(cache::CredentialKey::Id(account, credential), lookup)
            .await
    }

    /// The credential under `key` from the cache, or else from `lookup` (run only then), which
    /// the cache then keeps.
    async fn cached(
        &self,
        key: cache::CredentialKey,
        lookup: impl Future<Output = sqlx::Result<Option<CredentialRow>>>,
    ) -> sqlx::Result<Option<CredentialRow>> {
        if let Some(row) = self.cache.credential(&key) {
            return Ok(Some(row));
        }
        let row = lookup.await?;
        if let Some(row) = &row {
            self.cache.keep_credential(key, row);
        }
        Ok(row)
    }

    /// Ends one signed-in cookie on the server: from now on it is refused wherever it is sent,
    /// here or on any other instance, although it has not expired.
    #[tracing::instrument(skip_all, err)]
    pub async fn sign_out(
        &self,
        token: uuid::Uuid,
        expires_at: chrono::DateTime<chrono::Utc>,
    ) -> sqlx::Result<()> {
        sqlx::query!("SELECT n8v_sign_out($1, $2)", token, expires_at)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Whether the cookie with this id was signed out. Read on every request the cookie makes
    /// (one primary-key lookup; API keys and ordinary access tokens never ask).
    #[tracing::instrument(skip_all, err)]
    pub async fn signed_out(&self, token: uuid::Uuid) -> sqlx::Result<bool> {
        sqlx::query_scalar!(r#"SELECT n8v_signed_out($1) AS "signed_out!""#, token)
            .fetch_one(&self.pool)
            .await
    }

    /// The owner's pool, for the job queue and the passes across accounts (not tenant data).
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    pub async fn close(&self) {
        if let Some(listener) = self.listener.get() {
            listener.close().await;
        }
        self.tenant.close().await;
        self.pool.close().await;
    }
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CredentialRow {
    pub account_id: Option<uuid::Uuid>,
    pub credential_id: uuid::Uuid,
    pub scopes: Vec<String>,
    pub repository: Option<String>,
    pub revoked_at: Option<chrono::DateTime<chrono::Utc>>,
    pub operator: bool,
}

/// How long a tenant connection may sit idle before its next use checks that it is still
/// there. A connection in steady use is not checked: sqlx's default (`test_before_acquire`)
/// pings on every acquire, one more round trip per request. A tenant transaction's begin finds
/// a connection that died sooner and takes another (`TenantTx::begin_with`); one that breaks in
/// use fails its request with a 503 either way (`tests/api/unavailable.rs`). The owner's pool
/// (authentication, workers, the console) keeps the check on every acquire.
pub const IDLE_CHECK: Duration = Duration::from_secs(5);

/// How long a tenant transaction may sit idle, open, before PostgreSQL ends its connection: set
/// in each tenant transaction (`set_config`, local to it, so it holds behind a pooler too and
/// costs no round trip). Tenant work never waits on anything but the database inside its
/// transaction, except the export waiting on its reader, which gives up sooner
/// (`N8V_EXPORT_STALL_SECONDS`); this is the backstop against any holder that stalls.
pub const IDLE_IN_TRANSACTION: Duration = Duration::from_secs(60);

/// The options of the service's pools: at most `max` connections, an acquire waiting at most
/// `acquire_timeout`, and a ping only for a connection idle for `idle_check` or longer.
fn pool_options(max: u32, acquire_timeout: Duration, idle_check: Duration) -> PgPoolOptions {
    PgPoolOptions::new()
        .max_connections(max)
        .acquire_timeout(acquire_timeout)
        .test_before_acquire(false)
        .before_acquire(move |conn, meta| {
            Box::pin(async move {
                if meta.idle_for >= idle_check {
                    sqlx::Connection::ping(conn).await?;
                }
                Ok(true)
            })
        })
}

/// Applies the migrations as the owner and makes sure the application role and its login role
/// exist, the first with only the grants it needs, the second with none. The application role
/// is `configured` (`N8V_APP_ROLE`), else this database's own ([`app_role::resolve`]); it is
/// returned. Refuses, changing nothing, when the owner and the application role are not kept
/// apart, or the role serves another database ([`check_separation`]).
#[tracing::instrument(skip_all, err)]
pub async fn migrate(owner_url: &str, configured: Option<&str>) -> anyhow::Result<String> {
    let pool = PgPoolOptions::new()
        .max_connections(3)
        .connect(owner_url)
        .await?;
    // Replicas started together migrate together: one at a time, each after the last has
    // finished, so the next finds nothing to do (the roles' statements race otherwise: `tuple
    // concurrently updated`). The lock is the session's of a connection of its own, and goes
    // with it.
    let mut lock = pool.acquire().await?;
    sqlx::query!(
        "SELECT pg_advisory_lock(hashtextextended($1, 0))",
        MIGRATE_LOCK
    )
    .execute(&mut *lock)
    .await?;
    let migrated = async {
        let app_role = app_role::resolve(&pool, configured).await?;
        check_separation(&pool, &app_role, true).await?;
        MIGRATOR.run(&pool).await?;
        apalis_postgres::PostgresStorage::setup(&pool).await?;
        ensure_app_role(&pool, &app_role, owner_url).await?;
        anyhow::Ok(app_role)
    }
    .await;
    sqlx::query_scalar!(
        r#"SELECT pg_advisory_unlock(hashtextextended($1, 0)) AS "unlocked!""#,
        MIGRATE_LOCK
    )
    .fetch_one(&mut *lock)
    .await?;
    drop(lock);
    pool.close().await;
    migrated
}

/// The key of the advisory lock `migrate` holds while it works (see [`migrate`]).
const MIGRATE_LOCK: &str = "n8v-journal:migrate";

/// Why tenant work could not log in as `login`, and what to do. A refused password (`28P01`)
/// means it changed since `migrate` set it: by hand, or by another deployment's `migrate`
/// where two share the role.
fn refused_login(login: &str, e: &sqlx::Error) -> anyhow::Error {
    let code = e.as_database_error().and_then(|d| d.code());
    if code.as_deref() == Some("28P01") {
        return anyhow::anyhow!(
            "the server refused the password of `{login}`, the role tenant work logs in as \
             (28P01): it is not the one `migrate` derives from the owner's. Run \
             `n8v-journal migrate` with this deployment's owner connection (DATABASE_URL or \
             N8V_MIGRATION_DATABASE_URL) to set it again; if another deployment on this server \
             uses the same N8V_APP_ROLE, give each its own (unset it: each database then has \
             its own roles)"
        );
    }
    anyhow::anyhow!(
        "could not log in as `{login}`, the role tenant work connects as: {e}. \
         `n8v-journal migrate` (run by `serve`) makes it and sets its password, derived from \
         the owner's in DATABASE_URL; the server must let it in the way it lets the owner in"
    )
}
