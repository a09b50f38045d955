//! Feature flags: a global value and per-account overrides. Unknown flags are refused.

use crate::db::{Db, Tenant, TenantTx};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flag {
    /// The assistant journal; off by default.
    AssistantJournal,
}

impl Flag {
    pub const ALL: [Flag; 1] = [Flag::AssistantJournal];

    pub const fn name(self) -> &'static str {
        match self {
            Flag::AssistantJournal => "assistantJournal",
        }
    }

    pub const fn default_value(self) -> bool {
        false
    }

    pub fn parse(name: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|f| f.name() == name)
            .ok_or_else(|| format!("unknown feature flag {name:?}; known flags: assistantJournal"))
    }
}

/// The flag's value for the transaction's account: its override, else the global value, else
/// the default. One indexed query inside the request's own transaction.
///
/// No span: a journalled request whose flag is not cached runs it, and the write path stays
/// lean. A failure is still named, by one event on the error path only.
pub async fn enabled(tx: &mut TenantTx, flag: Flag) -> sqlx::Result<bool> {
    let value = sqlx::query_scalar!(
        r#"SELECT COALESCE(
             (SELECT enabled FROM feature_flag_overrides
               WHERE account_id = n8v_account() AND flag = $1),
             (SELECT enabled FROM feature_flags WHERE flag = $1)) AS "enabled?""#,
        flag.name()
    )
    .fetch_one(tx.conn())
    .await
    .inspect_err(|e| tracing::error!(error = %e, "db.flags.enabled failed"))?;
    Ok(value.unwrap_or(flag.default_value()))
}

/// The flag's value for the tenant's account, in a read of its own (the journal pages' sign-in
/// asks it before letting a key in). Never the cached value: a flag just turned on must not
/// refuse the sign-in that follows, and a sign-in is rare enough to read it.
pub async fn enabled_for(db: &Db, tenant: &Tenant, flag: Flag) -> sqlx::Result<bool> {
    let mut tx = TenantTx::begin(db, tenant).await?;
    enabled(&mut tx, flag).await
}
