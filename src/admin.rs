//! The operator's commands behind `n8v-journal admin …`, on the owner's connection, each
//! acting for the account it touches (`db::acting_for`). Their statements live in the rooms
//! they belong to: accounts and organizations in [`crate::accounts`], keys in
//! [`crate::auth::credentials`], flags in [`crate::flags::actions`], the account's deletion
//! in `ops::account`; what is here reads the command's arguments and runs them.

use crate::accounts::account_exists;
pub use crate::accounts::{add_member, create_account, create_org};
pub use crate::auth::credentials::{NewKey, create_key, create_operator_key, revoke_key};
use crate::db::acting_for;
use crate::flags::Flag;
use crate::flags::actions::{self, FlagChange};
use crate::ids::{self, Kind};
use anyhow::{Context, bail};
use sqlx::PgPool;
use uuid::Uuid;

pub fn parse_id(kind: Kind, text: &str) -> anyhow::Result<Uuid> {
    ids::parse(kind, text)
        .with_context(|| format!("{text:?} is not {} id ({}_…)", kind.a_noun(), kind.prefix()))
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
    let counts = crate::accounts::delete_rows(&mut tx, account, actor).await?;
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
