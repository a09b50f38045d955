//! Deleting the whole account. Not a journalled operation: the journal goes with the account;
//! the deletion is written to the operator log instead (`n8v_delete_account`).

use super::Services;
use crate::auth::Scope;
use crate::db::{Tenant, TenantTx};
use crate::error::{Error, Result};
use crate::ids::{AccountId, KeyId};
use serde::{Deserialize, Serialize};

/// Deletes the caller's account: the confirmation a deletion needs.
#[derive(Debug, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(example = serde_json::json!({"confirm": "acc_01KYP3WV40FHEAD8X4A1JH69RE"}))]
pub struct DeleteAccount {
    /// This account's id (`acc_…`), repeated to confirm.
    #[schemars(length(max = 40))]
    pub confirm: String,
}
crate::openapi_schema!(DeleteAccount => "DeleteAccountRequest");

/// What the deletion removed.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct AccountDeleted {
    /// The account that no longer exists (`acc_…`).
    pub account_id: AccountId,
    /// Rows deleted per table (`apalis.jobs`: queued jobs of the account).
    #[schema(value_type = Object)]
    pub deleted: serde_json::Value,
}

pub async fn delete_account(
    services: &Services,
    tenant: &Tenant,
    key: KeyId,
    input: DeleteAccount,
) -> Result<AccountDeleted> {
    tenant.scopes.require(Scope::AccountDelete)?;
    let account = AccountId(tenant.account_id);
    if input.confirm.trim() != account.to_string() {
        return Err(Error::BadRequest(format!(
            "confirm must repeat this account's id ({account}); the deletion cannot be undone"
        )));
    }
    // One transaction that the account's own traffic may collide with: run again when it
    // loses, as operations are (`ops::run`).
    let deleted = super::retried(|| async {
        let mut tx = TenantTx::begin(&services.db, tenant).await?;
        let deleted =
            crate::accounts::delete_rows(tx.conn(), tenant.account_id, &key.to_string()).await?;
        tx.commit().await?;
        Ok(deleted)
    })
    .await?;
    tracing::warn!(%account, %key, "account deleted");
    Ok(AccountDeleted {
        account_id: account,
        deleted,
    })
}
