//! The application role: LOGIN, not a superuser, no BYPASSRLS, owns nothing, and holds only
//! the grants tenant work needs. Made (or corrected) by `migrate`, idempotently.
//!
//! The owner (who migrates) and the application role are never the same: a table's owner is
//! matched by the owner-only policies and could turn row-level security off, so tenant work as
//! the owner would see every account. [`check_separation`] refuses to go on otherwise.

use sqlx::{AssertSqlSafe, PgPool};

/// Tables the app role may read and write; row-level security decides which rows. Exactly
/// these: `migrate` revokes everything else (`credentials` is read only through the owner's
/// SECURITY DEFINER lookups, so the app role has no grant on it).
const TENANT_GRANTS: &[(&str, &str)] = &[
    ("accounts", "SELECT"),
    ("organizations", "SELECT"),
    ("organization_members", "SELECT"),
    ("feature_flags", "SELECT, INSERT, UPDATE"),
    ("feature_flag_overrides", "SELECT, INSERT, UPDATE"),
    ("audit_log", "SELECT, INSERT, DELETE"),
    ("records", "SELECT"),
    ("record_entries", "SELECT, INSERT"),
    ("journal_sessions", "SELECT, INSERT, UPDATE, DELETE"),
    ("journal_calls", "SELECT, INSERT, DELETE"),
    ("session_summaries", "SELECT, INSERT, UPDATE, DELETE"),
    ("summary_budget", "SELECT, INSERT, UPDATE"),
    ("journal_digests", "SELECT, INSERT, UPDATE, DELETE"),
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
    // Search (the expressions the full-text indexes are built on).
    "n8v_session_document(text, text, jsonb, jsonb)",
    "n8v_text_document(text)",
    "n8v_json_document(jsonb)",
    // Search candidates: ids of the caller's own matches, read again under the policies.
    "n8v_session_matches(tsquery, timestamptz)",
    "n8v_call_matches(tsquery, timestamptz)",
    // The operator console: each answers only inside an operator's transaction.
    "n8v_is_operator()",
    "n8v_operator_accounts(text, integer)",
    "n8v_operator_overrides()",
    "n8v_operator_set_flag(text, text, uuid, boolean)",
    "n8v_operator_log(integer)",
    "n8v_operator_name(uuid)",
    "n8v_begin(uuid, uuid, text, boolean)",
    "n8v_last_activity(uuid, uuid, timestamptz)",
    // What the policies and the append's statement read through the owner (migration 0012).
    "n8v_owned_organizations()",
    "n8v_readable_organizations()",
    "n8v_own_last_activity(uuid, timestamptz)",
    // The counts folded onto a session (migration 0015).
    "n8v_own_call_counts(uuid, timestamptz, timestamptz)",
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
    // Start from nothing, so grants dropped from the lists above are gone after an upgrade.
    for statement in [
        "REVOKE ALL ON ALL TABLES IN SCHEMA public FROM {role}",
        "REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM {role}",
        "REVOKE ALL ON ALL FUNCTIONS IN SCHEMA public FROM {role}",
        "GRANT USAGE ON SCHEMA public TO {role}",
    ] {
        sqlx::query(AssertSqlSafe(statement.replace("{role}", &quoted)))
            .execute(&mut *tx)
            .await?;
    }
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

/// Refuses to go on when the owner and the application role are not kept apart: when the
/// connection logs in as the application role (`migrating`: only the owner may migrate), when
/// the application role owns any relation here, or when it is a member of the connecting role
/// (it could `SET ROLE` to the owner). The error says what to do.
pub async fn check_separation(pool: &PgPool, role: &str, migrating: bool) -> anyhow::Result<()> {
    let (user, is_role, role_is_member): (String, bool, bool) = sqlx::query_as(
        "SELECT current_user::text, current_user = $1, \
                EXISTS (SELECT 1 FROM pg_roles r WHERE r.rolname = $1 \
                          AND r.rolname <> current_user AND NOT r.rolsuper \
                          AND pg_has_role(r.oid, (SELECT oid FROM pg_roles WHERE rolname = current_user), 'MEMBER'))",
    )
    .bind(role)
    .fetch_one(pool)
    .await?;
    if migrating && is_role {
        anyhow::bail!(
            "refusing to migrate as the application role `{role}` (N8V_APP_ROLE): the tables \
             would be owned by the role tenant work runs as, and row-level security would not \
             separate accounts. Set N8V_MIGRATION_DATABASE_URL to a connection as the owner role \
             (a different role that may create tables, e.g. the database owner), keep \
             DATABASE_URL for `{role}`, and run `n8v-journal migrate` again. Nothing was changed."
        );
    }
    if migrating && role_is_member {
        anyhow::bail!(
            "refusing to migrate: the application role `{role}` (N8V_APP_ROLE) is a member of \
             the owner role `{user}` and could act as it. Revoke it (`REVOKE \"{user}\" FROM \
             \"{role}\"`) and run `n8v-journal migrate` again. Nothing was changed."
        );
    }
    let owned: Vec<String> = sqlx::query_scalar(
        "SELECT format('%s.%s', n.nspname, c.relname) FROM pg_class c \
           JOIN pg_namespace n ON n.oid = c.relnamespace \
           JOIN pg_roles r ON r.oid = c.relowner \
          WHERE r.rolname = $1 ORDER BY 1 LIMIT 10",
    )
    .bind(role)
    .fetch_all(pool)
    .await?;
    if !owned.is_empty() {
        let what = if migrating { "migrate" } else { "start" };
        anyhow::bail!(
            "refusing to {what}: the application role `{role}` (N8V_APP_ROLE) owns {}, so row-level \
             security would not separate accounts for it. As a superuser or the owner role, \
             run `REASSIGN OWNED BY \"{role}\" TO <owner role>` in this database (the owner is \
             the role N8V_MIGRATION_DATABASE_URL logs in as), then `n8v-journal migrate` with \
             N8V_MIGRATION_DATABASE_URL set to the owner's connection. Nothing was changed.",
            owned.join(", ")
        );
    }
    Ok(())
}
