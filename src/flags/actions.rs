//! Operators' feature-flag actions, one home for the admin JSON API, the console and the CLI:
//! read the values, read the console's overview, and change a value (begun in an operator
//! transaction, written to the operator log under the actor's name, committed). Operators reach
//! flags, account names and the log only, never an account's journal (see [`super::operator`]).

use super::Flag;
use super::operator::{self, AccountRef, FlagState, LogEntry};
use crate::db::{Db, Tenant, TenantTx};
use crate::error::{Error, Result};
use crate::ids::{self, Kind};
use serde::Serialize;
use sqlx::PgPool;
use uuid::Uuid;

/// How the operator log names a change made on the command line.
pub const CLI_ACTOR: &str = "n8v-journal admin (CLI)";

/// How many entries of the operator log the console shows.
const CONSOLE_LOG_ENTRIES: i64 = 50;

/// A feature flag's value.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(example = json!({
    "flag": "assistantJournal",
    "enabled": true,
    "account": "acc_01KYP3WV40FHEAD8X4A1JH69RE"
}))]
pub struct FlagValue {
    /// The flag, e.g. `assistantJournal` (the assistant journal; off by default).
    pub flag: &'static str,
    /// Whether it is on: the account's override, else the global value, else the default.
    pub enabled: bool,
    /// The account the value applies to (`acc_…`); absent for the global value.
    pub account: Option<String>,
}

/// One change: the global value (no account) or one account's override, set (`Some`) or
/// cleared (`None`).
#[derive(Debug, Clone, Copy)]
pub struct FlagChange {
    pub flag: Flag,
    pub account: Option<Uuid>,
    pub value: Option<bool>,
}

/// Every flag's value: the one that applies to `account`, or the global one.
pub async fn values(db: &Db, account: Option<Uuid>) -> Result<Vec<FlagValue>> {
    // No account: a tenant that matches no rows, so only the global values count.
    let tenant = Tenant::account(account.unwrap_or(Uuid::nil()));
    let mut tx = TenantTx::begin(db, &tenant).await?;
    let mut values = Vec::new();
    for flag in Flag::ALL {
        let enabled = super::enabled(&mut tx, flag).await?;
        values.push(FlagValue {
            flag: flag.name(),
            enabled,
            account: account.map(|a| ids::format(Kind::Account, a)),
        });
    }
    tx.commit().await?;
    Ok(values)
}

/// Makes one change as `actor` (the log's name for them) on the owner's pool, in one operator
/// transaction that also writes the operator log. Returns the value before.
pub async fn change(owner: &PgPool, actor: &str, change: FlagChange) -> Result<Option<bool>> {
    let mut tx = operator::begin(owner, None).await?;
    let before =
        operator::set_flag(&mut tx, actor, change.flag, change.account, change.value).await?;
    tx.commit().await?;
    Ok(before)
}

/// Makes one change as the operator key `credential` (refused once the key is revoked), then
/// reads every flag's value back, for the account changed when there is one.
pub async fn change_as_key(
    db: &Db,
    credential: Uuid,
    request: FlagChange,
) -> Result<Vec<FlagValue>> {
    let actor = operator::actor(db, credential)
        .await?
        .ok_or_else(|| Error::Unauthorized("this operator key has been revoked".into()))?;
    change(db.pool(), &actor, request).await?;
    values(db, request.account).await
}

/// What the console shows: every flag with its global value and overrides, the accounts found
/// by id or name (when searched), and the latest entries of the operator log.
pub struct Overview {
    pub flags: Vec<FlagState>,
    pub found: Option<Vec<AccountRef>>,
    pub log: Vec<LogEntry>,
}

/// The console's overview, with the accounts whose id is `search` or whose name contains it.
pub async fn overview(db: &Db, search: Option<&str>) -> Result<Overview> {
    let mut tx = operator::begin_app(db).await?;
    let flags = operator::flags(&mut tx).await?;
    let found = match search.map(str::trim).filter(|q| !q.is_empty()) {
        Some(q) => Some(operator::find_accounts(&mut tx, q).await?),
        None => None,
    };
    let log = operator::log(&mut tx, CONSOLE_LOG_ENTRIES).await?;
    tx.commit().await?;
    Ok(Overview { flags, found, log })
}
