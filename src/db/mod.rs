//! The database: the pool, migrations, the application role, and the tenant transaction,
//! which is the only way to reach tenant tables.

pub mod embedded;
mod roles;
mod tenant;

pub use roles::{check_separation, ensure_app_role};
pub(crate) use tenant::set_tenant;
pub use tenant::{Tenant, TenantTx};

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
        })
    }

    pub fn app_role(&self) -> &str {
        &self.app_role
    }

    /// Which of this process's workers are running.
    pub fn liveness(&self) -> &crate::liveness::Liveness {
        &self.liveness
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
    pub async fn credential_by_hash(&self, hash: &[u8]) -> sqlx::Result<Option<CredentialRow>> {
        sqlx::query_as("SELECT * FROM n8v_credential_by_hash($1) LIMIT 1")
            .bind(hash)
            .fetch_optional(&self.pool)
            .await
    }

    pub async fn credential_by_id(
        &self,
        account: uuid::Uuid,
        credential: uuid::Uuid,
    ) -> sqlx::Result<Option<CredentialRow>> {
        sqlx::query_as("SELECT * FROM n8v_credential_by_id($1, $2)")
            .bind(account)
            .bind(credential)
            .fetch_optional(&self.pool)
            .await
    }

    /// The pool itself, for the job queue (its tables are not tenant data).
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    pub async fn close(&self) {
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
