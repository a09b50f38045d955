//! Feature flags: a global value and per-account overrides. Unknown flags are refused.

use crate::db::TenantTx;
use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

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
pub async fn enabled(tx: &mut TenantTx, flag: Flag) -> sqlx::Result<bool> {
    let value: Option<bool> = sqlx::query_scalar(
        "SELECT COALESCE( \
           (SELECT enabled FROM feature_flag_overrides WHERE account_id = n8v_account() AND flag = $1), \
           (SELECT enabled FROM feature_flags WHERE flag = $1))",
    )
    .bind(flag.name())
    .fetch_one(tx.conn())
    .await?;
    Ok(value.unwrap_or(flag.default_value()))
}

pub async fn set_global<'e>(db: impl PgExecutor<'e>, flag: Flag, on: bool) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO feature_flags (flag, enabled) VALUES ($1, $2) \
         ON CONFLICT (flag) DO UPDATE SET enabled = EXCLUDED.enabled, updated_at = now()",
    )
    .bind(flag.name())
    .bind(on)
    .execute(db)
    .await?;
    Ok(())
}

pub async fn set_override(
    conn: &mut PgConnection,
    account: Uuid,
    flag: Flag,
    on: bool,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO feature_flag_overrides (account_id, flag, enabled) VALUES ($1, $2, $3) \
         ON CONFLICT (account_id, flag) DO UPDATE SET enabled = EXCLUDED.enabled, updated_at = now()",
    )
    .bind(account)
    .bind(flag.name())
    .bind(on)
    .execute(conn)
    .await?;
    Ok(())
}
