//! Accounts and organizations, as the operator makes them (`n8v-journal admin create-account`,
//! `create-org`, `add-member`): each statement acting for the account it writes, on the
//! owner's connection.

use crate::db::{Db, Tenant, TenantTx, acting_for};
use crate::error::{Error, OnConstraint};
use crate::ids::{self, Kind};
use crate::records;
use anyhow::{Context, bail};
use sqlx::{PgConnection, PgPool, Postgres, Transaction};
use uuid::Uuid;

/// Fails unless `account` exists.
pub async fn account_exists(
    tx: &mut Transaction<'_, Postgres>,
    account: Uuid,
) -> anyhow::Result<()> {
    let found = sqlx::query_scalar!(
        "SELECT account_id FROM accounts WHERE account_id = $1",
        account
    )
    .fetch_optional(&mut **tx)
    .await?;
    if found.is_none() {
        bail!("no account {}", ids::format(Kind::Account, account));
    }
    Ok(())
}

/// The name of the tenant's account, read as the tenant (the application role, under the
/// accounts policy): what the consent page says the person is signed in as.
pub async fn name(db: &Db, tenant: &Tenant) -> sqlx::Result<String> {
    let mut tx = TenantTx::begin(db, tenant).await?;
    let name = sqlx::query_scalar!("SELECT name FROM accounts WHERE account_id = n8v_account()")
        .fetch_one(tx.conn())
        .await?;
    tx.commit().await?;
    Ok(name)
}

fn name_length() -> Error {
    Error::BadRequest("name must be 1 to 200 characters".into())
}

/// Creates an account and its own Record.
#[tracing::instrument(skip_all, err(level = "info"))]
pub async fn create_account(pool: &PgPool, name: &str, internal: bool) -> anyhow::Result<Uuid> {
    let account = ids::new_id();
    let mut tx = acting_for(pool, account).await?;
    sqlx::query!(
        "INSERT INTO accounts (account_id, name, kind) VALUES ($1, $2, $3)",
        account,
        name,
        if internal { "internal" } else { "customer" }
    )
    .execute(&mut *tx)
    .await
    .on_constraint("accounts_name_check", name_length)?;
    records::create(&mut tx, account, None, name).await?;
    tx.commit().await?;
    Ok(account)
}

/// Creates an organization owned by `owner`, and the organization's Record.
#[tracing::instrument(skip_all, err(level = "info"))]
pub async fn create_org(pool: &PgPool, owner: Uuid, name: &str) -> anyhow::Result<Uuid> {
    let org = ids::new_id();
    let mut tx = acting_for(pool, owner).await?;
    account_exists(&mut tx, owner).await?;
    sqlx::query!(
        "INSERT INTO organizations (account_id, organization_id, name) VALUES ($1, $2, $3)",
        owner,
        org,
        name
    )
    .execute(&mut *tx)
    .await
    .on_constraint("organizations_name_check", name_length)?;
    records::create(&mut tx, owner, Some(org), name).await?;
    tx.commit().await?;
    Ok(org)
}

/// Adds (or updates) a member; `can_read` lets the member open the organization's Record.
#[tracing::instrument(skip_all, err(level = "info"))]
pub async fn add_member(
    pool: &PgPool,
    org: Uuid,
    member: Uuid,
    can_read: bool,
) -> anyhow::Result<()> {
    let owner = sqlx::query_scalar!(
        "SELECT account_id FROM organizations WHERE organization_id = $1",
        org
    )
    .fetch_optional(pool)
    .await?;
    let owner = owner
        .with_context(|| format!("no organization {}", ids::format(Kind::Organization, org)))?;
    let mut tx = acting_for(pool, member).await?;
    account_exists(&mut tx, member).await?;
    sqlx::query!(
        "INSERT INTO organization_members (account_id, organization_id, owner_account_id, can_read)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (account_id, organization_id) DO UPDATE SET can_read = EXCLUDED.can_read",
        member,
        org,
        owner,
        can_read
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Runs `n8v_delete_account` for `account` (which the transaction acts for) as `actor`,
/// holding the account's lock alone first (`db::ACCOUNT_LOCK`: it waits for the operations
/// under way, and the next ones wait for it); returns the rows deleted per table. The CLI's
/// `admin delete-account` runs it, and so does the account's own deletion
/// (`ops::account::delete_account`).
#[tracing::instrument(skip_all, err)]
pub async fn delete_rows(
    conn: &mut PgConnection,
    account: Uuid,
    actor: &str,
) -> sqlx::Result<serde_json::Value> {
    sqlx::query!(
        "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))",
        crate::db::account_lock_key(account)
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query_scalar!(
        r#"SELECT n8v_delete_account($1, $2) AS "deleted!""#,
        account,
        actor
    )
    .fetch_one(conn)
    .await
}
