//! The account's connected assistants: its live grants (see [`super::grants`]), as the
//! settings page lists them and revokes one, in tenant work under the grants' policy. A grant's
//! scopes are its credential's, read through `n8v_grant_scopes` (tenant work cannot read
//! credentials).

use crate::db::TenantTx;
use crate::ids::{self, Kind};
use chrono::{DateTime, Utc};
use serde::Serialize;
use uuid::Uuid;

/// A connected assistant, as the settings page lists it.
#[derive(Debug, Serialize)]
pub struct GrantView {
    /// The grant's credential (`key_…`).
    pub id: String,
    pub client_name: String,
    pub client_id: String,
    pub scopes: Vec<String>,
    pub created_at: DateTime<Utc>,
    pub last_used_at: Option<DateTime<Utc>>,
}

/// The acting account's live grants, newest first (as the application role, under the policy).
pub async fn list(tx: &mut TenantTx) -> sqlx::Result<Vec<GrantView>> {
    let rows = sqlx::query!(
        r#"SELECT credential_id, client_name, client_id,
                  COALESCE(n8v_grant_scopes(credential_id), '{}') AS "scopes!", created_at,
                  last_used_at
           FROM oauth_grants WHERE revoked_at IS NULL
          ORDER BY created_at DESC LIMIT 200"#
    )
    .fetch_all(tx.conn())
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| GrantView {
            id: ids::format(Kind::Key, r.credential_id),
            client_name: r.client_name,
            client_id: r.client_id,
            scopes: r.scopes,
            created_at: r.created_at,
            last_used_at: r.last_used_at,
        })
        .collect())
}

/// Revokes one of the acting account's grants; `false` when it has no live grant of that id.
pub async fn revoke(tx: &mut TenantTx, credential: Uuid) -> sqlx::Result<bool> {
    super::grants::revoke_in(tx.conn(), credential).await
}
