//! Issuing and revoking credentials: account keys (`n8v-journal admin create-key`) and
//! operator keys (`create-operator-key`), and revoking either (`revoke-key`). Only the key's
//! hash is stored ([`super::keys`]).

use super::keys;
use crate::accounts::account_exists;
use crate::db::acting_for;
use crate::ids::{self, Kind};
use crate::scopes::Scopes;
use anyhow::{Context, bail};
use sqlx::PgPool;
use uuid::Uuid;

/// A new key: its id, and the token, shown once.
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
    if reserved_label(name) {
        bail!(
            "--name {name:?} is the person's: the journal names the person \"you\", and no key's \
             label may read as it; choose another name"
        );
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

/// Whether `label` reads as "you", the word the journal keeps for the person (as
/// `n8v_key_label()` reads it, migration 0038: case, spaces, quotes and a final stop aside).
pub fn reserved_label(label: &str) -> bool {
    label
        .trim_matches(|c: char| c.is_whitespace() || "\"'“”‘’.:".contains(c))
        .eq_ignore_ascii_case("you")
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
