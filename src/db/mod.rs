//! The database: the pool, migrations, the application role, and the tenant transaction,
//! which is the only way to reach tenant tables.

pub mod cache;
pub mod embedded;
mod roles;
mod tenant;

pub use roles::{check_separation, ensure_app_role};
pub(crate) use tenant::set_tenant;
pub use tenant::{Checks, FLAG_CHANGED, REVOKED, Tenant, TenantTx};

use sqlx::PgPool;
use sqlx::migrate::Migrator;
use sqlx::postgres::PgPoolOptions;
use std::time::Duration;

pub static MIGRATOR: Migrator = sqlx::migrate!("./migrations");

/// The service's handle on PostgreSQL. Tenant data is reached only through [`TenantTx`],
/// which sets the application role and the tenant at `BEGIN`.
#[derive(Clone)]
pub struct Db {
    pool: PgPool,
    app_role: std::sync::Arc<str>,
    /// The workers of this process (shared by every clone, read by `/readyz`).
    liveness: std::sync::Arc<crate::liveness::Liveness>,
    /// Credentials and flags, for a few seconds (see [`cache`]).
    cache: std::sync::Arc<cache::Cache>,
    /// The listener's own one-connection pool, once [`Db::watch_invalidations`] started it.
    listener: std::sync::Arc<std::sync::OnceLock<PgPool>>,
}

impl Db {
    pub async fn connect(url: &str, app_role: &str, max_connections: u32) -> sqlx::Result<Self> {
        let pool = PgPoolOptions::new()
            .max_connections(max_connections)
            .acquire_timeout(Duration::from_secs(10))
            .connect(url)
            .await?;
        Ok(Self {
            pool,
            app_role: app_role.into(),
            liveness: Default::default(),
            cache: Default::default(),
            listener: Default::default(),
        })
    }

    /// A handle whose connections are made on first use, each acquire waiting at most
    /// `acquire_timeout`: for a service started before its database is up (and for tests of a
    /// database out of reach, which answer `503`).
    pub fn connect_lazy(
        url: &str,
        app_role: &str,
        max_connections: u32,
        acquire_timeout: Duration,
    ) -> sqlx::Result<Self> {
        let pool = PgPoolOptions::new()
            .max_connections(max_connections)
            .acquire_timeout(acquire_timeout)
            .connect_lazy(url)?;
        Ok(Self {
            pool,
            app_role: app_role.into(),
            liveness: Default::default(),
            cache: Default::default(),
            listener: Default::default(),
        })
    }

    pub fn app_role(&self) -> &str {
        &self.app_role
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

    /// Whether the database answers and every migration this binary knows is applied.
    pub async fn ready(&self) -> sqlx::Result<bool> {
        let latest = MIGRATOR.iter().map(|m| m.version).max().unwrap_or(0);
        let applied: Option<i64> =
            sqlx::query_scalar("SELECT max(version) FROM _sqlx_migrations WHERE success")
                .fetch_one(&self.pool)
                .await?;
        Ok(applied == Some(latest))
    }

    /// Credential lookup before the tenant is known, through the owner's SECURITY DEFINER
    /// functions (the app role cannot read credentials across accounts itself).
    /// Live account credentials come from the cache for a few seconds; the tenant
    /// transaction re-checks them (see [`cache`]).
    pub async fn credential_by_hash(&self, hash: &[u8]) -> sqlx::Result<Option<CredentialRow>> {
        let key = cache::CredentialKey::Hash(hash.to_vec());
        if let Some(row) = self.cache.credential(&key) {
            return Ok(Some(row));
        }
        let row: Option<CredentialRow> =
            sqlx::query_as("SELECT * FROM n8v_credential_by_hash($1) LIMIT 1")
                .bind(hash)
                .fetch_optional(&self.pool)
                .await?;
        if let Some(row) = &row {
            self.cache.keep_credential(key, row);
        }
        Ok(row)
    }

    pub async fn credential_by_id(
        &self,
        account: uuid::Uuid,
        credential: uuid::Uuid,
    ) -> sqlx::Result<Option<CredentialRow>> {
        let key = cache::CredentialKey::Id(account, credential);
        if let Some(row) = self.cache.credential(&key) {
            return Ok(Some(row));
        }
        let row: Option<CredentialRow> =
            sqlx::query_as("SELECT * FROM n8v_credential_by_id($1, $2)")
                .bind(account)
                .bind(credential)
                .fetch_optional(&self.pool)
                .await?;
        if let Some(row) = &row {
            self.cache.keep_credential(key, row);
        }
        Ok(row)
    }

    /// The pool itself, for the job queue (its tables are not tenant data).
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    pub async fn close(&self) {
        if let Some(listener) = self.listener.get() {
            listener.close().await;
        }
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

/// Applies the migrations as the owner and makes sure the application role exists with only
/// the grants it needs. Refuses, changing nothing, when the owner and the application role are
/// not kept apart ([`check_separation`]).
pub async fn migrate(owner_url: &str, app_role: &str) -> anyhow::Result<()> {
    let pool = PgPoolOptions::new()
        .max_connections(2)
        .connect(owner_url)
        .await?;
    check_separation(&pool, app_role, true).await?;
    MIGRATOR.run(&pool).await?;
    apalis_postgres::PostgresStorage::setup(&pool).await?;
    ensure_app_role(&pool, app_role).await?;
    pool.close().await;
    Ok(())
}
