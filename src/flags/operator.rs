//! What operators do to feature flags, for the console, the admin JSON API and the CLI alike:
//! read every flag with its global value and overrides, find accounts by id or name, set or
//! clear a value, and read the operator log every change is written to (who, what, before,
//! after, when). Everything goes through the owner's `n8v_operator_*` functions, which answer
//! only inside an operator transaction; operators never reach an account's journal.

use super::Flag;
use crate::db::{Db, Tenant};
use crate::error::{Error, Result};
use crate::ids::{self, Kind};
use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::{PgConnection, PgPool, Postgres, Transaction};
use uuid::Uuid;

/// A transaction in which the `n8v_operator_*` functions answer: the application role (when
/// given), no tenant, `app.operator` on.
#[tracing::instrument(name = "db.operator.begin", skip_all, err)]
pub async fn begin(
    pool: &PgPool,
    role: Option<&str>,
) -> sqlx::Result<Transaction<'static, Postgres>> {
    let mut tx = pool.begin().await?;
    crate::db::set_tenant(&mut tx, role, &Tenant::account(Uuid::nil())).await?;
    sqlx::query_scalar!("SELECT set_config('app.operator', 'on', true)")
        .fetch_one(&mut *tx)
        .await?;
    Ok(tx)
}

/// An operator transaction for requests (an operator credential, checked by the caller): on
/// the owner's connection, the only role that may run the `n8v_operator_*` functions; the
/// application role cannot, whatever it sets.
pub async fn begin_app(db: &Db) -> sqlx::Result<Transaction<'static, Postgres>> {
    begin(db.pool(), None).await
}

/// One account's override.
#[derive(Debug, Clone, Serialize)]
pub struct Override {
    pub account_id: String,
    pub account_name: String,
    pub enabled: bool,
    pub updated_at: DateTime<Utc>,
}

/// A flag, its global value (absent: the default applies) and every override.
#[derive(Debug, Clone, Serialize)]
pub struct FlagState {
    pub flag: &'static str,
    pub default: bool,
    pub global: Option<bool>,
    pub overrides: Vec<Override>,
}

#[tracing::instrument(name = "db.operator.flags", skip_all, err)]
pub async fn flags(conn: &mut PgConnection) -> Result<Vec<FlagState>> {
    let globals = sqlx::query!("SELECT flag, enabled FROM feature_flags")
        .fetch_all(&mut *conn)
        .await?;
    let overrides = sqlx::query!(
        r#"SELECT flag AS "flag!", account_id AS "account_id!", account_name AS "account_name!",
                  enabled AS "enabled!", updated_at AS "updated_at!"
             FROM n8v_operator_overrides()"#
    )
    .fetch_all(&mut *conn)
    .await?;
    Ok(Flag::ALL
        .into_iter()
        .map(|flag| FlagState {
            flag: flag.name(),
            default: flag.default_value(),
            global: globals
                .iter()
                .find(|g| g.flag == flag.name())
                .map(|g| g.enabled),
            overrides: overrides
                .iter()
                .filter(|o| o.flag == flag.name())
                .map(|o| Override {
                    account_id: ids::format(Kind::Account, o.account_id),
                    account_name: o.account_name.clone(),
                    enabled: o.enabled,
                    updated_at: o.updated_at,
                })
                .collect(),
        })
        .collect())
}

/// An account as operators see it: its id, name and kind, nothing of its data.
#[derive(Debug, Clone, Serialize)]
pub struct AccountRef {
    pub account_id: String,
    pub name: String,
    pub kind: String,
}

/// Accounts whose id is `query` (`acc_…`) or whose name contains it.
#[tracing::instrument(name = "db.operator.find_accounts", skip_all, err)]
pub async fn find_accounts(conn: &mut PgConnection, query: &str) -> Result<Vec<AccountRef>> {
    let query = query.trim();
    let needle = match ids::parse(Kind::Account, query) {
        Some(id) => id.to_string(),
        None => query.chars().take(200).collect(),
    };
    let rows = sqlx::query!(
        r#"SELECT account_id AS "account_id!", name AS "name!", kind AS "kind!"
             FROM n8v_operator_accounts($1, 50)"#,
        needle
    )
    .fetch_all(conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| AccountRef {
            account_id: ids::format(Kind::Account, r.account_id),
            name: r.name,
            kind: r.kind,
        })
        .collect())
}

/// Sets (`Some`) or clears (`None`) the global value or one account's override, and writes the
/// change to the operator log. Returns the value before.
#[tracing::instrument(name = "db.operator.set_flag", skip_all, err(level = "info"))]
pub async fn set_flag(
    conn: &mut PgConnection,
    actor: &str,
    flag: Flag,
    account: Option<Uuid>,
    value: Option<bool>,
) -> Result<Option<bool>> {
    let change = sqlx::query_scalar!(
        r#"SELECT n8v_operator_set_flag($1, $2, $3, $4) AS "change!""#,
        actor,
        flag.name(),
        account,
        value
    )
    .fetch_one(conn)
    .await
    .map_err(|e| match &e {
        sqlx::Error::Database(d) if d.code().as_deref() == Some("P0002") => {
            Error::NotFound(format!(
                "no account {}",
                ids::format(Kind::Account, account.unwrap_or_default())
            ))
        }
        _ => Error::from(e),
    })?;
    Ok(change["before"].as_bool())
}

/// One entry of the operator log.
#[derive(Debug, Clone, Serialize)]
pub struct LogEntry {
    pub actor: String,
    pub action: String,
    pub subject: String,
    pub flag: Option<String>,
    pub account: Option<String>,
    pub account_name: Option<String>,
    pub before: Option<bool>,
    pub after: Option<bool>,
    pub at: DateTime<Utc>,
}

#[tracing::instrument(name = "db.operator.log", skip_all, err)]
pub async fn log(conn: &mut PgConnection, limit: i64) -> Result<Vec<LogEntry>> {
    let rows = sqlx::query!(
        r#"SELECT actor AS "actor!", action AS "action!", subject AS "subject!",
                  detail AS "detail!", created_at AS "at!"
             FROM n8v_operator_log($1)"#,
        limit as i32
    )
    .fetch_all(conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| {
            let account = r.detail["account"]
                .as_str()
                .and_then(|a| Uuid::parse_str(a).ok())
                .map(|a| ids::format(Kind::Account, a));
            LogEntry {
                subject: match &account {
                    Some(a) => format!("{} for {a}", r.detail["flag"].as_str().unwrap_or("")),
                    None => r.subject,
                },
                flag: r.detail["flag"].as_str().map(str::to_owned),
                account,
                account_name: r.detail["account_name"].as_str().map(str::to_owned),
                before: r.detail["before"].as_bool(),
                after: r.detail["after"].as_bool(),
                actor: r.actor,
                action: r.action,
                at: r.at,
            }
        })
        .collect())
}

/// How the log names an operator key: its name and id; `None` when the key is unknown or
/// revoked.
#[tracing::instrument(name = "db.operator.actor", skip_all, err)]
pub async fn actor(db: &Db, credential: Uuid) -> Result<Option<String>> {
    let name = sqlx::query_scalar!(r#"SELECT n8v_operator_name($1) AS "name""#, credential)
        .fetch_one(db.pool())
        .await?;
    Ok(name.map(|n| format!("{n} ({})", ids::format(Kind::Key, credential))))
}
