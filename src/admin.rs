//! Operator actions behind `n8v-journal admin …`, run on the owner's connection. Each one still
//! sets the tenant it acts for, so they also work where the owner is not a superuser and row-
//! level security is forced on it.

use crate::auth::{Scopes, keys};
use crate::db::Tenant;
use crate::error::{Error, OnConstraint};
use crate::flags::Flag;
use crate::flags::actions::{self, FlagChange};
use crate::ids::{self, Kind};
use crate::records;
use anyhow::{Context, bail};
use sqlx::{PgPool, Postgres, Transaction};
use uuid::Uuid;

async fn acting_for(
    pool: &PgPool,
    account: Uuid,
) -> anyhow::Result<Transaction<'static, Postgres>> {
    let mut tx = pool.begin().await?;
    crate::db::set_tenant(&mut tx, None, &Tenant::account(account)).await?;
    Ok(tx)
}

pub fn parse_id(kind: Kind, text: &str) -> anyhow::Result<Uuid> {
    ids::parse(kind, text)
        .with_context(|| format!("{text:?} is not {} id ({}_…)", kind.a_noun(), kind.prefix()))
}

async fn account_exists(tx: &mut Transaction<'_, Postgres>, account: Uuid) -> anyhow::Result<()> {
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

pub struct NewKey {
    pub key_id: Uuid,
    pub token: String,
}

#[tracing::instrument(skip_all, err(level = "info"))]
pub async fn create_key(
    pool: &PgPool,
    account: Uuid,
    scopes: &Scopes,
    repository: Option<&str>,
    name: &str,
) -> anyhow::Result<NewKey> {
    if let Some(repo) = repository
        && (repo.trim().is_empty() || repo.len() > 200 || repo.chars().any(char::is_control))
    {
        bail!("--repo must be 1 to 200 printable characters");
    }
    let key = NewKey {
        key_id: ids::new_id(),
        token: keys::generate(),
    };
    let mut tx = acting_for(pool, account).await?;
    account_exists(&mut tx, account).await?;
    sqlx::query!(
        "INSERT INTO credentials (account_id, credential_id, name, token_hash, scopes, repository)
         VALUES ($1, $2, $3, $4, $5, $6)",
        account,
        key.key_id,
        name,
        keys::hash(&key.token),
        &scopes.names(),
        repository
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(key)
}

#[tracing::instrument(skip_all, err)]
pub async fn create_operator_key(pool: &PgPool, name: &str) -> anyhow::Result<NewKey> {
    let key = NewKey {
        key_id: ids::new_id(),
        token: keys::generate(),
    };
    sqlx::query!(
        "INSERT INTO operator_credentials (credential_id, name, token_hash) VALUES ($1, $2, $3)",
        key.key_id,
        name,
        keys::hash(&key.token)
    )
    .execute(pool)
    .await?;
    Ok(key)
}

/// Revokes an account key or an operator key; effective on the next request.
#[tracing::instrument(skip_all, err(level = "info"))]
pub async fn revoke_key(pool: &PgPool, key: Uuid) -> anyhow::Result<()> {
    let operator = sqlx::query!(
        "UPDATE operator_credentials SET revoked_at = COALESCE(revoked_at, now())
         WHERE credential_id = $1",
        key
    )
    .execute(pool)
    .await?;
    if operator.rows_affected() == 1 {
        return Ok(());
    }
    let account = sqlx::query_scalar!(
        "SELECT account_id FROM credentials WHERE credential_id = $1",
        key
    )
    .fetch_optional(pool)
    .await?;
    let account = account.with_context(|| format!("no key {}", ids::format(Kind::Key, key)))?;
    let mut tx = acting_for(pool, account).await?;
    sqlx::query!(
        "UPDATE credentials SET revoked_at = COALESCE(revoked_at, now())
         WHERE account_id = $1 AND credential_id = $2",
        account,
        key
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Sets a flag globally, or for one account (an override that wins over the global value),
/// and writes the change to the operator log.
pub async fn set_flag(
    pool: &PgPool,
    flag: Flag,
    on: bool,
    account: Option<Uuid>,
) -> anyhow::Result<()> {
    let change = FlagChange {
        flag,
        account,
        value: Some(on),
    };
    actions::change(pool, actions::CLI_ACTOR, change)
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(())
}

/// Deletes the account and every row of it (see `n8v_delete_account` in the migrations),
/// acting for it, as the given actor; returns the rows deleted per table.
#[tracing::instrument(skip_all, err(level = "info"))]
pub async fn delete_account(
    pool: &PgPool,
    account: Uuid,
    actor: &str,
) -> anyhow::Result<serde_json::Value> {
    let mut tx = acting_for(pool, account).await?;
    account_exists(&mut tx, account).await?;
    let counts = crate::ops::account::delete_rows(&mut tx, account, actor).await?;
    tx.commit().await?;
    Ok(counts)
}

/// Runs one pass of a background job now (`retention`, `audit-retention`, `digests` or
/// `sweep`) and
/// returns what it did.
pub async fn run_job(
    owner_url: &str,
    config: &crate::config::Config,
    job: &str,
) -> anyhow::Result<serde_json::Value> {
    let db = crate::db::Db::connect(owner_url, config.app_role.as_deref(), 2).await?;
    let state = crate::jobs::WorkerState {
        db: db.clone(),
        config: std::sync::Arc::new(config.clone()),
        clock: std::sync::Arc::new(crate::clock::SystemClock),
    };
    let out = match job {
        "retention" => serde_json::to_value(crate::jobs::retention(&state).await?)?,
        "audit-retention" => serde_json::to_value(crate::jobs::audit_retention(&state).await?)?,
        "digests" => serde_json::to_value(crate::jobs::digests::roll_up(&state).await?)?,
        "sweep" => serde_json::json!({ "sessions_closed": crate::jobs::sweep(&state).await? }),
        other => bail!("no job {other:?}; run retention, audit-retention, digests or sweep"),
    };
    db.close().await;
    Ok(out)
}
