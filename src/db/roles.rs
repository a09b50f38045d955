//! The application role and its login role, made (or corrected) by `migrate`, idempotently.
//!
//! The application role (`N8V_APP_ROLE`): NOLOGIN, not a superuser, no BYPASSRLS, owns nothing,
//! and holds exactly the grants tenant work's statements use ([`TENANT_GRANTS`],
//! [`FUNCTIONS`], [`QUEUE_GRANTS`]): no cross-account function, no flag or migration writes,
//! no read of the job queue, nothing of the operator console. Tenant work reaches it only
//! through the login role ([`super::login`]), which holds nothing itself.
//!
//! The owner (who migrates) and the application role are never the same: a table's owner is
//! matched by the owner-only policies and could turn row-level security off, so tenant work as
//! the owner would see every account. [`check_separation`] refuses to go on otherwise.

use sqlx::{AssertSqlSafe, PgPool};

/// Tables the app role may use, and how; row-level security decides which rows. Exactly
/// these: `migrate` revokes everything else (`credentials` is read only through the owner's
/// lookups before a tenant is known; flags are written only by the operator's functions).
pub const TENANT_GRANTS: &[(&str, &str)] = &[
    ("accounts", "SELECT"),
    ("organizations", "SELECT"),
    ("organization_members", "SELECT"),
    ("feature_flags", "SELECT"),
    ("feature_flag_overrides", "SELECT"),
    ("audit_log", "SELECT, INSERT, DELETE"),
    ("records", "SELECT"),
    ("record_entries", "SELECT, INSERT"),
    ("journal_sessions", "SELECT, INSERT, UPDATE, DELETE"),
    // The session read model, read with the caller's rights (0025).
    ("journal_session_reads", "SELECT"),
    ("journal_calls", "SELECT, INSERT, DELETE"),
    ("session_summaries", "SELECT, INSERT, DELETE"),
    ("summary_budget", "SELECT, INSERT, UPDATE"),
    ("journal_digests", "SELECT, INSERT, UPDATE, DELETE"),
    // Leases on paid model work and a summary's parts as they arrive (0036).
    ("model_leases", "SELECT, INSERT, UPDATE, DELETE"),
    ("summary_parts", "SELECT, INSERT, DELETE"),
    // Open loops: opened and closed by tenant work; deleted with their sessions (0018), or
    // one by one by the person, with `chats:release` (0038).
    ("journal_loops", "SELECT, INSERT, UPDATE, DELETE"),
    ("journal_loop_sources", "SELECT, INSERT"),
    // A reader's dismissals of members' items: made, never changed (0021).
    ("journal_loop_dismissals", "SELECT, INSERT"),
    // The person's releases of withheld items: made, never changed (0038).
    ("journal_releases", "SELECT, INSERT"),
    // Exposures go only with their sightings, and sightings with their sessions (0019).
    ("journal_exposures", "SELECT, INSERT, UPDATE"),
    ("journal_exposure_sightings", "SELECT, INSERT, UPDATE"),
    // Connected assistants, listed on the settings page; revoked through n8v_revoke_grant (0022).
    ("oauth_grants", "SELECT"),
    // Webhook endpoints: managed by tenant work; their secrets are only added, through
    // n8v_webhook_add_secret, never read; events and deliveries are written by
    // n8v_webhook_emit, deliveries listed, and settled by the workers as the service's tenant
    // work for the endpoint's account (0023, 0027).
    ("webhook_endpoints", "SELECT, INSERT, UPDATE, DELETE"),
    ("webhook_deliveries", "SELECT, UPDATE"),
];

/// The job queue: tenant transactions enqueue (the summary of a session they close) and
/// nothing else; the workers claim and finish jobs on the owner's connection.
pub const QUEUE_GRANTS: &[(&str, &str)] = &[("apalis.jobs", "INSERT")];

/// Functions the app role may run. The cross-account ones (`n8v_account_ids`,
/// `n8v_quiet_sessions`, the credential lookups) and the operator console's run on the owner's
/// connection only.
pub const FUNCTIONS: &[&str] = &[
    // What the policies read.
    "n8v_account()",
    "n8v_credential()",
    "n8v_scopes()",
    "n8v_repository()",
    "n8v_service()",
    "n8v_owned_organizations()",
    "n8v_readable_organizations()",
    // The tenant transaction's checks at BEGIN, and the append's last activity (0010, 0012).
    "n8v_begin(uuid, uuid, text, boolean)",
    "n8v_last_activity(uuid, uuid, timestamptz)",
    "n8v_own_last_activity(uuid, timestamptz)",
    // An account deleting itself, acting for itself.
    "n8v_delete_account(uuid, text)",
    // Search (the expressions the full-text indexes are built on).
    "n8v_session_document(text, text, jsonb, jsonb)",
    "n8v_text_document(text)",
    "n8v_json_document(jsonb)",
    // Search candidates: ids of the caller's own matches, read again under the policies.
    "n8v_session_matches(tsquery, timestamptz)",
    "n8v_call_matches(tsquery, timestamptz)",
    // The counts and purposes folded onto a session, and the reads that add to them (0015, 0016).
    "n8v_own_call_fold(uuid, timestamptz, timestamptz, text[], text[])",
    "n8v_session_fold(journal_sessions, timestamptz)",
    "n8v_call_count(uuid, uuid, timestamptz, integer)",
    "n8v_write_count(uuid, uuid, timestamptz, integer)",
    "n8v_session_purposes(uuid, uuid, timestamptz, text[])",
    "n8v_recent_purposes(text[], text[])",
    "n8v_marked_purposes(text[], text[])",
    "n8v_first_distinct(text[], text[], integer)",
    "n8v_marked(text)",
    // The assistant a session belongs to, as its sessions keep it (0017).
    "n8v_agent(text)",
    // The append's Record statement and every call's audit + call statement (0039).
    "n8v_append_entry(uuid, uuid, text, uuid, uuid, timestamptz)",
    "n8v_record_call(boolean, uuid, text, text, text, integer, timestamptz, boolean, uuid, text[], \
     timestamptz, timestamptz, timestamptz, uuid, text, text, text[], integer, jsonb, text[], \
     integer, boolean, boolean, integer, timestamptz, uuid, timestamptz, text, integer)",
    // The calling key's label, copied onto the sessions it writes (0038).
    "n8v_key_label()",
    // The acting account's fingerprint key for scrubbed credentials, never the secret (0019).
    "n8v_exposure_key()",
    // Deleting sessions locks them, then their items and exposures, in one order (0020).
    "n8v_lock_for_deletion(uuid[])",
    // Revoking one of the acting account's OAuth grants (0022).
    "n8v_revoke_grant(uuid)",
    // A grant's scopes, which its credential holds, for the settings page's list.
    "n8v_grant_scopes(uuid)",
    // Webhooks: a new secret for an own endpoint, and an event with its deliveries (0023).
    "n8v_webhook_add_secret(uuid, uuid, text, timestamptz, timestamptz)",
    "n8v_webhook_emit(uuid, text, jsonb, uuid, text[], boolean, timestamptz)",
    "n8v_webhook_test(uuid, uuid, jsonb, timestamptz)",
    // Whether an own endpoint's maker is live, for its listing (0029).
    "n8v_webhook_maker_live(uuid)",
];

fn check_name(role: &str) -> anyhow::Result<()> {
    if role.is_empty() || !role.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        anyhow::bail!("N8V_APP_ROLE={role:?}: use letters, digits and underscores only");
    }
    Ok(())
}

/// Runs a role statement, again if another migrator changed the same role at the same moment
/// (roles belong to the whole server; tests migrate many databases at once). The error logged
/// is sqlx's, which never holds the statement (a server error is the server's message).
async fn role_statement(pool: &PgPool, sql: String) -> anyhow::Result<()> {
    let mut attempt = 0;
    loop {
        match sqlx::query(AssertSqlSafe(sql.clone())).execute(pool).await {
            Ok(_) => return Ok(()),
            Err(e) if attempt < 5 => {
                tracing::debug!(error = %e, "role statement raced another migrator; again");
                attempt += 1;
                tokio::time::sleep(std::time::Duration::from_millis(50 * attempt)).await;
            }
            Err(e) => return Err(e.into()),
        }
    }
}

/// Makes the role if it is missing (another migrator may make it at the same moment).
async fn create_role(pool: &PgPool, role: &str, attributes: &str) -> anyhow::Result<()> {
    sqlx::query(AssertSqlSafe(format!(
        "DO $$ BEGIN \
           IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{role}') THEN \
             CREATE ROLE \"{role}\" {attributes}; \
           END IF; \
         EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; \
         END $$"
    )))
    .execute(pool)
    .await?;
    Ok(())
}

/// Sets the login role's password without the password, or anything that stands for it,
/// reaching a log: the statement carries a SCRAM verifier computed here ([`super::scram`]),
/// and runs on a connection of its own whose statements sqlx does not log at any level (not
/// even as slow: a concurrent migrator holding the role makes it wait).
async fn set_password(pool: &PgPool, login: &str, password: &str) -> anyhow::Result<()> {
    let options =
        sqlx::ConnectOptions::disable_statement_logging((*pool.connect_options()).clone());
    let mut quiet = sqlx::ConnectOptions::connect(&options).await?;
    let verifier = super::scram::verifier(password);
    let sql = format!("ALTER ROLE \"{login}\" PASSWORD '{verifier}'");
    let mut attempt = 0;
    let done = loop {
        match sqlx::query(AssertSqlSafe(sql.clone()))
            .execute(&mut quiet)
            .await
        {
            Ok(_) => break Ok(()),
            Err(e) if attempt < 5 => {
                tracing::debug!(error = %e, "setting the login role's password raced; again");
                attempt += 1;
                tokio::time::sleep(std::time::Duration::from_millis(50 * attempt)).await;
            }
            Err(e) => break Err(anyhow::anyhow!("setting the password of `{login}`: {e}")),
        }
    };
    sqlx::Connection::close(quiet).await?;
    done
}

/// Writes [`super::app_role::marker`] of this database on `role`, unless it is there already
/// (an unchanged comment is not rewritten: concurrent migrators would race on the row).
async fn mark(pool: &PgPool, role: &str) -> anyhow::Result<()> {
    let statement = sqlx::query_scalar!(
        r#"SELECT format('COMMENT ON ROLE %I IS %L', $1::text,
                         'n8v-journal: ' || current_database()) AS "statement!"
            WHERE shobj_description((SELECT oid FROM pg_roles WHERE rolname = $1), 'pg_authid')
                  IS DISTINCT FROM 'n8v-journal: ' || current_database()"#,
        role
    )
    .fetch_optional(pool)
    .await?;
    match statement {
        Some(statement) => role_statement(pool, statement).await,
        None => Ok(()),
    }
}

/// Everything `grantee` (a quoted role name) may hold in this database's schemas, revoked.
fn revoke_all(grantee: &str) -> Vec<String> {
    [
        "REVOKE ALL ON ALL TABLES IN SCHEMA public FROM {role}",
        "REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM {role}",
        "REVOKE ALL ON ALL FUNCTIONS IN SCHEMA public FROM {role}",
        "REVOKE ALL ON SCHEMA public FROM {role}",
        "REVOKE ALL ON ALL TABLES IN SCHEMA apalis FROM {role}",
        "REVOKE ALL ON ALL SEQUENCES IN SCHEMA apalis FROM {role}",
        "REVOKE ALL ON ALL FUNCTIONS IN SCHEMA apalis FROM {role}",
        "REVOKE ALL ON SCHEMA apalis FROM {role}",
    ]
    .map(|statement| statement.replace("{role}", grantee))
    .to_vec()
}

/// Makes the application role and its login role, marks them as this database's, sets the
/// login role's password (derived from the owner's, see [`super::login`]), and gives the
/// application role exactly its grants. The old shared default role ([`super::app_role::LEGACY`])
/// loses whatever it still holds here when this database uses another.
#[tracing::instrument(skip_all, err)]
pub async fn ensure_app_role(pool: &PgPool, role: &str, owner_url: &str) -> anyhow::Result<()> {
    check_name(role)?;
    let login = super::login::login_role(role);
    const APP: &str = "NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOREPLICATION";
    const LOGIN: &str =
        "LOGIN NOINHERIT NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOREPLICATION";
    create_role(pool, role, APP).await?;
    // Without a password: it is set below, only ever as a verifier.
    create_role(pool, &login, LOGIN).await?;
    mark(pool, role).await?;
    mark(pool, &login).await?;

    // Older versions made the application role LOGIN; whoever could log in as it could act
    // for any account. Attributes are corrected only when they differ (ALTER ROLE races).
    let wrong = sqlx::query!(
        r#"SELECT (SELECT rolsuper OR rolbypassrls OR rolcanlogin OR rolcreaterole OR rolcreatedb
                          OR rolreplication FROM pg_roles WHERE rolname = $1) AS "app!",
                  (SELECT rolsuper OR rolbypassrls OR NOT rolcanlogin OR rolinherit OR rolcreaterole
                          OR rolcreatedb OR rolreplication FROM pg_roles WHERE rolname = $2) AS "login!",
                  pg_has_role($2, $1, 'MEMBER') AS "member!""#,
        role,
        &login
    )
    .fetch_one(pool)
    .await?;
    let (app_wrong, login_wrong, member) = (wrong.app, wrong.login, wrong.member);
    if app_wrong {
        role_statement(pool, format!("ALTER ROLE \"{role}\" {APP}")).await?;
    }
    if login_wrong {
        role_statement(pool, format!("ALTER ROLE \"{login}\" {LOGIN}")).await?;
    }
    if !member {
        role_statement(pool, format!("GRANT \"{role}\" TO \"{login}\"")).await?;
    }
    if let Some(password) = super::login::password(owner_url, &login) {
        let options = super::login::options(owner_url, role)?;
        let lets_in = sqlx::ConnectOptions::connect(&options).await;
        if lets_in.is_err() {
            set_password(pool, &login, &password).await?;
        }
    }

    grant_exactly(pool, role, &login).await
}

/// Gives the application role exactly its grants: everything it, its login role and (when
/// this database uses another role) the old shared default held here is revoked first, in the
/// same transaction, so grants dropped from the lists are gone after an upgrade.
async fn grant_exactly(pool: &PgPool, role: &str, login: &str) -> anyhow::Result<()> {
    let legacy = super::app_role::LEGACY;
    let quoted = format!("\"{role}\"");
    let mut grantees = vec![role.to_owned(), login.to_owned()];
    if role != legacy {
        // Where the old default is still granted here, whoever holds its login role's password
        // (another deployment's owner, if they shared it) could read this database.
        grantees.extend([legacy.to_owned(), super::login::login_role(legacy)]);
    }
    if grants_exact(pool, role, &grantees[1..]).await? {
        // Every start of every replica migrates: most find nothing to change.
        return Ok(());
    }
    let existing = sqlx::query_scalar!(
        r#"SELECT format('%I', rolname) AS "quoted!" FROM pg_roles
            WHERE rolname::text = ANY($1::text[])"#,
        &grantees[..]
    )
    .fetch_all(pool)
    .await?;
    let mut tx = pool.begin().await?;
    // Start from nothing, so grants dropped from the lists above are gone after an upgrade;
    // the login role is cleared too (it must hold nothing of its own).
    for grantee in existing {
        for statement in revoke_all(&grantee) {
            sqlx::query(AssertSqlSafe(statement))
                .execute(&mut *tx)
                .await?;
        }
    }
    let schemas = ["public", "apalis"].map(|s| format!("GRANT USAGE ON SCHEMA {s} TO {quoted}"));
    let tables = TENANT_GRANTS.iter().chain(QUEUE_GRANTS);
    let tables = tables.map(|(t, privileges)| format!("GRANT {privileges} ON {t} TO {quoted}"));
    let functions = FUNCTIONS
        .iter()
        .map(|f| format!("GRANT EXECUTE ON FUNCTION {f} TO {quoted}"));
    for statement in schemas.into_iter().chain(tables).chain(functions) {
        sqlx::query(AssertSqlSafe(statement))
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Whether `role` holds exactly the grants of the lists above in this database (on tables and
/// views, functions and schemas, read from their ACLs), and `others` hold none. The names of
/// the lists are resolved by the casts, so both sides are written the same way.
async fn grants_exact(pool: &PgPool, role: &str, others: &[String]) -> anyhow::Result<bool> {
    let tables = TENANT_GRANTS.iter().chain(QUEUE_GRANTS);
    let owned = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<Vec<_>>();
    let (relations, privileges): (Vec<&str>, Vec<&str>) = tables.copied().unzip();
    let (relations, privileges, functions) =
        (owned(&relations), owned(&privileges), owned(FUNCTIONS));
    let exact = sqlx::query_scalar!(
        r#"WITH held AS (
             SELECT a.grantee, a.privilege_type || ' ' || c.oid::regclass::text AS item
               FROM pg_class c, aclexplode(c.relacl) a
              WHERE c.relnamespace IN ('public'::regnamespace, 'apalis'::regnamespace)
             UNION ALL
             SELECT a.grantee, 'EXECUTE ' || p.oid::regprocedure::text
               FROM pg_proc p, aclexplode(p.proacl) a
              WHERE p.pronamespace IN ('public'::regnamespace, 'apalis'::regnamespace)
             UNION ALL
             SELECT a.grantee, a.privilege_type || ' schema ' || n.nspname
               FROM pg_namespace n, aclexplode(n.nspacl) a
              WHERE n.nspname IN ('public', 'apalis')),
           expected AS (
             SELECT trim(p) || ' ' || t::regclass::text AS item
               FROM unnest($2::text[], $3::text[]) AS l(t, ps), unnest(string_to_array(ps, ',')) p
             UNION ALL
             SELECT 'EXECUTE ' || f::regprocedure::text FROM unnest($4::text[]) f
             UNION ALL
             SELECT 'USAGE schema ' || s FROM unnest(ARRAY['public', 'apalis']) s)
           SELECT (SELECT array_agg(h.item ORDER BY h.item) FROM held h
                    WHERE h.grantee = (SELECT oid FROM pg_roles WHERE rolname = $1))
                  IS NOT DISTINCT FROM (SELECT array_agg(item ORDER BY item) FROM expected)
              AND NOT EXISTS (SELECT 1 FROM held h JOIN pg_roles r ON r.oid = h.grantee
                               WHERE r.rolname::text = ANY($5::text[])) AS "exact!""#,
        role,
        &relations,
        &privileges,
        &functions,
        others
    )
    .fetch_one(pool)
    .await;
    // A name in the lists that does not resolve (yet) means the grants are not as they should
    // be: making them will say what is wrong.
    Ok(exact.unwrap_or(false))
}

/// Refuses to go on when the owner and the application role are not kept apart: when the
/// connection logs in as the application role (`migrating`: only the owner may migrate), when
/// the application role owns any relation here, or when it is a member of the connecting role
/// (it could `SET ROLE` to the owner). The error says what to do.
#[tracing::instrument(skip_all, err)]
pub async fn check_separation(pool: &PgPool, role: &str, migrating: bool) -> anyhow::Result<()> {
    let who = sqlx::query!(
        r#"SELECT current_user::text AS "user!", current_user IN ($1::text, $1::text || '_login') AS "is_role!",
                  EXISTS (SELECT 1 FROM pg_roles r WHERE r.rolname = $1::text
                            AND r.rolname <> current_user AND NOT r.rolsuper
                            AND pg_has_role(r.oid, (SELECT oid FROM pg_roles WHERE rolname = current_user), 'MEMBER'))
                    AS "role_is_member!""#,
        role
    )
    .fetch_one(pool)
    .await?;
    let (user, is_role, role_is_member) = (who.user, who.is_role, who.role_is_member);
    if migrating && is_role {
        anyhow::bail!(
            "refusing to migrate as the application role `{role}` (N8V_APP_ROLE): the tables \
             would be owned by the role tenant work runs as, and row-level security would not \
             separate accounts. Set N8V_MIGRATION_DATABASE_URL to a connection as the owner role \
             (a different role that may create tables and roles, e.g. the database owner with \
             CREATEROLE) and run `n8v-journal migrate` again; tenant work logs in as \
             `{role}_login`, which migrate makes. Nothing was changed."
        );
    }
    if migrating && role_is_member {
        anyhow::bail!(
            "refusing to migrate: the application role `{role}` (N8V_APP_ROLE) is a member of \
             the owner role `{user}` and could act as it. Revoke it (`REVOKE \"{user}\" FROM \
             \"{role}\"`) and run `n8v-journal migrate` again. Nothing was changed."
        );
    }
    if let Some(other) = super::app_role::serves_elsewhere(pool, role).await? {
        let what = if migrating { "migrate" } else { "start" };
        let database: String = sqlx::query_scalar!(r#"SELECT current_database()::text AS "db!""#)
            .fetch_one(pool)
            .await?;
        let own = super::app_role::default_for(&database);
        anyhow::bail!(
            "refusing to {what}: the application role `{role}` (N8V_APP_ROLE) already serves the \
             database `{other}` on this server. Roles belong to the whole server: two \
             deployments sharing it would each reset its login role's password, and either \
             one's owner could read the other's accounts. Give this deployment a role of its \
             own: unset N8V_APP_ROLE (this database's default is `{own}`) or set it to a name \
             no other deployment uses, and run `n8v-journal migrate` again. Nothing was changed."
        );
    }
    let owned = sqlx::query_scalar!(
        r#"SELECT format('%s.%s', n.nspname, c.relname) AS "relation!" FROM pg_class c
             JOIN pg_namespace n ON n.oid = c.relnamespace
             JOIN pg_roles r ON r.oid = c.relowner
            WHERE r.rolname = $1 ORDER BY 1 LIMIT 10"#,
        role
    )
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
