//! The tenant transaction: `BEGIN`, then the application role and the tenant settings, all
//! transaction-local (`set_config(…, true)`), so nothing leaks to the next user of the
//! connection and a pooled superuser connection still runs under row-level security.

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

impl TenantTx {
    pub async fn begin(db: &Db, tenant: &Tenant) -> sqlx::Result<Self> {
        let mut tx = db.pool.begin().await?;
        set_tenant(&mut tx, Some(db.app_role()), tenant).await?;
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
}

/// Sets the role (when given) and the tenant for the rest of the transaction in one round trip.
pub(crate) async fn set_tenant(
    conn: &mut PgConnection,
    role: Option<&str>,
    tenant: &Tenant,
) -> sqlx::Result<()> {
    sqlx::query(
        "SELECT set_config('role', COALESCE($1, current_user), true), \
                set_config('app.account_id', $2, true), \
                set_config('app.credential_id', $3, true), \
                set_config('app.scopes', $4, true), \
                set_config('app.repository', $5, true), \
                set_config('app.service', $6, true)",
    )
    .bind(role)
    .bind(tenant.account_id.to_string())
    .bind(
        tenant
            .credential_id
            .map(|c| c.to_string())
            .unwrap_or_default(),
    )
    .bind(tenant.scopes.joined())
    .bind(tenant.repository.clone().unwrap_or_default())
    .bind(if tenant.service { "on" } else { "" })
    .execute(conn)
    .await?;
    Ok(())
}
