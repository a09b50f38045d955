//! The application role: LOGIN, not a superuser, no BYPASSRLS, owns nothing, and holds only
//! the grants tenant work needs. Made (or corrected) by `migrate`, idempotently.

use sqlx::{AssertSqlSafe, PgPool};

/// Tables the app role may read and write; row-level security decides which rows.
const TENANT_GRANTS: &[(&str, &str)] = &[
    ("accounts", "SELECT"),
    ("organizations", "SELECT"),
    ("organization_members", "SELECT"),
    ("credentials", "SELECT"),
    ("feature_flags", "SELECT, INSERT, UPDATE"),
    ("feature_flag_overrides", "SELECT, INSERT, UPDATE, DELETE"),
    ("audit_log", "SELECT, INSERT, DELETE"),
    ("records", "SELECT"),
    ("record_entries", "SELECT, INSERT"),
    ("journal_sessions", "SELECT, INSERT, UPDATE, DELETE"),
    ("journal_calls", "SELECT, INSERT, DELETE"),
    ("session_summaries", "SELECT, INSERT, UPDATE, DELETE"),
    ("summary_budget", "SELECT, INSERT, UPDATE"),
    ("_sqlx_migrations", "SELECT"),
];

const FUNCTIONS: &[&str] = &[
    "n8v_account()",
    "n8v_credential()",
    "n8v_scopes()",
    "n8v_repository()",
    "n8v_credential_by_hash(bytea)",
    "n8v_credential_by_id(uuid, uuid)",
    "n8v_service()",
    "n8v_quiet_sessions(timestamptz, integer)",
    "n8v_account_ids(uuid, integer)",
    "n8v_delete_account(uuid, text)",
];

pub async fn ensure_app_role(pool: &PgPool, role: &str) -> anyhow::Result<()> {
    if role.is_empty() || !role.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        anyhow::bail!("N8V_APP_ROLE={role:?}: use letters, digits and underscores only");
    }
    // Checked above to be a plain identifier, so it is safe to splice into the SQL below.
    let quoted = format!("\"{role}\"");
    // CREATE ROLE races with other migrators (tests migrate many databases at once).
    sqlx::query(AssertSqlSafe(format!(
        "DO $$ BEGIN \
           IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{role}') THEN \
             CREATE ROLE {quoted} LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE; \
           END IF; \
         EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; \
         END $$"
    )))
    .execute(pool)
    .await?;

    let attrs: (bool, bool) =
        sqlx::query_as("SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = $1")
            .bind(role)
            .fetch_one(pool)
            .await?;
    if attrs != (false, false) {
        sqlx::query(AssertSqlSafe(format!(
            "ALTER ROLE {quoted} NOSUPERUSER NOBYPASSRLS"
        )))
        .execute(pool)
        .await?;
    }

    let mut tx = pool.begin().await?;
    sqlx::query(AssertSqlSafe(format!(
        "GRANT USAGE ON SCHEMA public TO {quoted}"
    )))
    .execute(&mut *tx)
    .await?;
    for (table, privileges) in TENANT_GRANTS {
        sqlx::query(AssertSqlSafe(format!(
            "GRANT {privileges} ON {table} TO {quoted}"
        )))
        .execute(&mut *tx)
        .await?;
    }
    for function in FUNCTIONS {
        sqlx::query(AssertSqlSafe(format!(
            "GRANT EXECUTE ON FUNCTION {function} TO {quoted}"
        )))
        .execute(&mut *tx)
        .await?;
    }
    // The job queue (apalis): enqueued inside tenant transactions, claimed by the workers.
    for statement in [
        "GRANT USAGE ON SCHEMA apalis TO {role}",
        "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA apalis TO {role}",
        "GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA apalis TO {role}",
    ] {
        sqlx::query(AssertSqlSafe(statement.replace("{role}", &quoted)))
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;

    // The service's own connection must be allowed to SET ROLE to it.
    let superuser: bool =
        sqlx::query_scalar("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
            .fetch_one(pool)
            .await?;
    let is_role: bool = sqlx::query_scalar("SELECT current_user = $1")
        .bind(role)
        .fetch_one(pool)
        .await?;
    if !superuser && !is_role {
        sqlx::query(AssertSqlSafe(format!("GRANT {quoted} TO current_user")))
            .execute(pool)
            .await?;
    }
    Ok(())
}
