//! `/internal/admin/*`: operator credentials only.

use crate::auth::Operator;
use crate::db::{Tenant, TenantTx};
use crate::error::{Error, Result};
use crate::flags::{self, Flag};
use crate::http::{ApiJson, ApiQuery, AppState};
use crate::ids::{self, Kind};
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlagQuery {
    /// Show the values that apply to this account.
    pub account: Option<String>,
}

#[derive(Serialize)]
pub struct FlagValue {
    pub flag: &'static str,
    pub enabled: bool,
    pub account: Option<String>,
}

fn account_param(text: Option<&str>) -> Result<Option<uuid::Uuid>> {
    text.map(|a| {
        ids::parse(Kind::Account, a)
            .ok_or_else(|| Error::BadRequest(format!("account {a:?} is not an account id (acc_…)")))
    })
    .transpose()
}

async fn flag_values(state: &AppState, account: Option<uuid::Uuid>) -> Result<Vec<FlagValue>> {
    // No account: a tenant that matches no rows, so only the global values count.
    let tenant = Tenant::account(account.unwrap_or(uuid::Uuid::nil()));
    let mut tx = TenantTx::begin(&state.db, &tenant).await?;
    let mut values = Vec::new();
    for flag in Flag::ALL {
        let enabled = flags::enabled(&mut tx, flag).await?;
        values.push(FlagValue {
            flag: flag.name(),
            enabled,
            account: account.map(|a| ids::format(Kind::Account, a)),
        });
    }
    tx.commit().await?;
    Ok(values)
}

pub async fn list_flags(
    State(state): State<AppState>,
    _operator: Operator,
    ApiQuery(query): ApiQuery<FlagQuery>,
) -> Result<ApiJson<Vec<FlagValue>>> {
    let account = account_param(query.account.as_deref())?;
    Ok(ApiJson(flag_values(&state, account).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetFlag {
    pub enabled: bool,
    /// Set an override for this account instead of the global value.
    pub account: Option<String>,
}

pub async fn set_flag(
    State(state): State<AppState>,
    _operator: Operator,
    Path(name): Path<String>,
    ApiJson(body): ApiJson<SetFlag>,
) -> Result<ApiJson<Vec<FlagValue>>> {
    let flag = Flag::parse(&name).map_err(Error::NotFound)?;
    let account = account_param(body.account.as_deref())?;
    let tenant = Tenant::account(account.unwrap_or(uuid::Uuid::nil()));
    let mut tx = TenantTx::begin(&state.db, &tenant).await?;
    match account {
        None => flags::set_global(tx.conn(), flag, body.enabled).await?,
        Some(a) => {
            let exists: Option<uuid::Uuid> =
                sqlx::query_scalar("SELECT account_id FROM accounts WHERE account_id = $1")
                    .bind(a)
                    .fetch_optional(tx.conn())
                    .await?;
            if exists.is_none() {
                return Err(Error::not_found(
                    Kind::Account,
                    body.account.as_deref().unwrap_or(""),
                ));
            }
            flags::set_override(tx.conn(), a, flag, body.enabled).await?
        }
    }
    tx.commit().await?;
    Ok(ApiJson(flag_values(&state, account).await?))
}
