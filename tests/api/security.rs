//! Issue 9: each security finding, proven against a real PostgreSQL and the real app.

use crate::common;

use sqlx::Connection;
use uuid::Uuid;

/// `url` with its user and password replaced (`postgres://user:pw@host:port/db`).
fn as_user(url: &str, user: &str, password: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap();
    let host = rest.split_once('@').map_or(rest, |(_, h)| h);
    format!("{scheme}://{user}:{password}@{host}")
}

async fn owner_exec(url: &str, sql: &str) {
    let mut conn = sqlx::PgConnection::connect(url).await.unwrap();
    sqlx::raw_sql(sqlx::AssertSqlSafe(sql.to_owned()))
        .execute(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
}

/// A login role of its own (so tests can log in as "the application role" on any server).
async fn login_role(server: &str) -> (String, String) {
    let role = format!("n8v_sec_{}", &Uuid::new_v4().simple().to_string()[..12]);
    let password = Uuid::new_v4().simple().to_string();
    owner_exec(
        server,
        &format!("CREATE ROLE {role} LOGIN PASSWORD '{password}'"),
    )
    .await;
    (role, password)
}

async fn drop_role(server: &str, database: &str, role: &str) {
    owner_exec(
        server,
        &format!("DROP DATABASE IF EXISTS {database} WITH (FORCE)"),
    )
    .await;
    owner_exec(server, &format!("DROP ROLE IF EXISTS {role}")).await;
}

// Finding 2 -------------------------------------------------------------------------------------

#[tokio::test]
async fn migrating_as_the_application_role_is_refused_and_changes_nothing() {
    let server = common::server_url().await;
    let (role, password) = login_role(&server).await;
    // The dangerous set-up: DATABASE_URL logs in as the app role, and it may create objects
    // because it owns the database.
    let database = format!("n8v_test_{}_{}", chrono::Utc::now().timestamp(), &role[8..]);
    owner_exec(&server, &format!("CREATE DATABASE {database} OWNER {role}")).await;
    let app_url = common::with_database(&as_user(&server, &role, &password), &database);

    let error = n8v_journal::db::migrate(&app_url, Some(&role))
        .await
        .expect_err("migrating as the application role must be refused");
    let message = format!("{error:#}");
    assert!(
        message.contains("N8V_MIGRATION_DATABASE_URL") && message.contains(&role),
        "the error says what to do: {message}"
    );
    let owner_url = common::with_database(&server, &database);
    let mut conn = sqlx::PgConnection::connect(&owner_url).await.unwrap();
    let relations: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
          WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')",
    )
    .fetch_one(&mut conn)
    .await
    .unwrap();
    assert_eq!(relations, 0, "nothing was created");
    conn.close().await.unwrap();
    drop_role(&server, &database, &role).await;
}

#[tokio::test]
async fn migrate_refuses_while_the_application_role_owns_a_relation() {
    let server = common::server_url().await;
    let (role, _) = login_role(&server).await;
    let url = common::fresh_database().await;
    let database = url.rsplit('/').next().unwrap().to_owned();
    owner_exec(
        &url,
        &format!("ALTER TABLE journal_sessions OWNER TO {role}"),
    )
    .await;
    let error = n8v_journal::db::migrate(&url, Some(&role))
        .await
        .expect_err("an application role that owns a table must be refused");
    let message = format!("{error:#}");
    assert!(
        message.contains("public.journal_sessions") && message.contains("REASSIGN OWNED"),
        "{message}"
    );
    drop_role(&server, &database, &role).await;
}

/// Every privilege `role` holds by name, from the catalogs: on relations (tables, views,
/// sequences) and their columns, functions, schemas, this database, and its role memberships.
async fn grants_of(conn: &mut sqlx::PgConnection, role: &str) -> Vec<String> {
    sqlx::query_scalar(
        "WITH r AS (SELECT oid FROM pg_roles WHERE rolname = $1) \
         SELECT format('%s %s %I.%I', a.privilege_type, \
                       CASE c.relkind WHEN 'S' THEN 'sequence' WHEN 'v' THEN 'view' ELSE 'table' END, \
                       n.nspname, c.relname) \
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace, aclexplode(c.relacl) a, r \
          WHERE a.grantee = r.oid \
         UNION ALL \
         SELECT format('%s column %I.%I.%I', a.privilege_type, n.nspname, c.relname, t.attname) \
           FROM pg_attribute t JOIN pg_class c ON c.oid = t.attrelid \
           JOIN pg_namespace n ON n.oid = c.relnamespace, aclexplode(t.attacl) a, r \
          WHERE a.grantee = r.oid \
         UNION ALL \
         SELECT format('%s function %s', a.privilege_type, p.oid::regprocedure) \
           FROM pg_proc p, aclexplode(p.proacl) a, r WHERE a.grantee = r.oid \
         UNION ALL \
         SELECT format('%s schema %I', a.privilege_type, n.nspname) \
           FROM pg_namespace n, aclexplode(n.nspacl) a, r WHERE a.grantee = r.oid \
         UNION ALL \
         SELECT format('%s database', a.privilege_type) \
           FROM pg_database d, aclexplode(d.datacl) a, r \
          WHERE d.datname = current_database() AND a.grantee = r.oid \
         UNION ALL \
         SELECT format('member of %I', g.rolname) \
           FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid, r WHERE m.member = r.oid \
         UNION ALL \
         SELECT format('default privileges %s', d.defaclobjtype) \
           FROM pg_default_acl d, aclexplode(d.defaclacl) a, r WHERE a.grantee = r.oid \
         ORDER BY 1",
    )
    .bind(role)
    .fetch_all(conn)
    .await
    .unwrap()
}

#[tokio::test]
async fn the_application_role_holds_only_the_grants_it_uses() {
    let app = common::spawn_app().await;
    let mut conn = sqlx::PgConnection::connect(&app.db_url).await.unwrap();
    // What tenant work's statements use, written out here rather than read from the code's
    // own list: a grant added to the code without a reason here fails this test.
    let tables = [
        ("accounts", "SELECT"),
        ("audit_log", "DELETE INSERT SELECT"),
        ("feature_flag_overrides", "SELECT"),
        ("feature_flags", "SELECT"),
        ("journal_calls", "DELETE INSERT SELECT"),
        ("journal_digests", "DELETE INSERT SELECT UPDATE"),
        // Open loops: opened and closed by tenant work, deleted with their sessions, or one by
        // one by the person (with chats:release).
        ("journal_loop_sources", "INSERT SELECT"),
        ("journal_loops", "DELETE INSERT SELECT UPDATE"),
        // The person's releases of withheld items: made, never changed.
        ("journal_releases", "INSERT SELECT"),
        // A reader's dismissals of members' items: made, never changed.
        ("journal_loop_dismissals", "INSERT SELECT"),
        ("journal_exposure_sightings", "INSERT SELECT UPDATE"),
        ("journal_exposures", "INSERT SELECT UPDATE"),
        ("journal_sessions", "DELETE INSERT SELECT UPDATE"),
        // Connected assistants, listed on the settings page (revoked through a function).
        ("oauth_grants", "SELECT"),
        ("organization_members", "SELECT"),
        ("organizations", "SELECT"),
        ("record_entries", "INSERT SELECT"),
        ("records", "SELECT"),
        ("session_summaries", "DELETE INSERT SELECT"),
        ("summary_budget", "INSERT SELECT UPDATE"),
        // Leases on paid model work and a summary's parts as they arrive (0036).
        ("model_leases", "DELETE INSERT SELECT UPDATE"),
        ("summary_parts", "DELETE INSERT SELECT"),
        // Webhook endpoints are the account's to manage; deliveries are listed, and settled by
        // the workers as tenant work for the endpoint's account. Secrets, events and the
        // claiming of deliveries are reached only through the functions below and the workers
        // (the owner).
        ("webhook_deliveries", "SELECT UPDATE"),
        ("webhook_endpoints", "DELETE INSERT SELECT UPDATE"),
    ];
    let functions = [
        "n8v_account()",
        "n8v_agent(text)",
        // The append's Record statement and every call's audit + call statement, which the
        // one-statement append runs too (0039).
        "n8v_append_entry(uuid,uuid,text,uuid,uuid,timestamp with time zone)",
        "n8v_record_call(boolean,uuid,text,text,text,integer,timestamp with time zone,boolean,\
         uuid,text[],timestamp with time zone,timestamp with time zone,timestamp with time zone,\
         uuid,text,text,text[],integer,jsonb,text[],integer,boolean,boolean,integer,\
         timestamp with time zone,uuid,timestamp with time zone,text,integer)",
        // The calling key's label, copied onto the sessions it writes.
        "n8v_key_label()",
        "n8v_begin(uuid,uuid,text,boolean)",
        "n8v_call_matches(tsquery,timestamp with time zone)",
        "n8v_credential()",
        "n8v_delete_account(uuid,text)",
        "n8v_exposure_key()",
        "n8v_first_distinct(text[],text[],integer)",
        "n8v_json_document(jsonb)",
        "n8v_last_activity(uuid,uuid,timestamp with time zone)",
        // Deleting sessions: them, then their items and exposures, locked in one order.
        "n8v_lock_for_deletion(uuid[])",
        "n8v_marked(text)",
        "n8v_marked_purposes(text[],text[])",
        "n8v_own_call_fold(uuid,timestamp with time zone,timestamp with time zone,text[],text[])",
        "n8v_own_last_activity(uuid,timestamp with time zone)",
        "n8v_owned_organizations()",
        "n8v_readable_organizations()",
        "n8v_recent_purposes(text[],text[])",
        "n8v_revoke_grant(uuid)",
        // A grant's scopes (its credential's) for the settings page's list.
        "n8v_grant_scopes(uuid)",
        "n8v_repository()",
        "n8v_scopes()",
        "n8v_service()",
        "n8v_session_document(text,text,jsonb,jsonb)",
        "n8v_session_fold(journal_sessions,timestamp with time zone)",
        "n8v_call_count(uuid,uuid,timestamp with time zone,integer)",
        "n8v_write_count(uuid,uuid,timestamp with time zone,integer)",
        "n8v_session_purposes(uuid,uuid,timestamp with time zone,text[])",
        "n8v_session_matches(tsquery,timestamp with time zone)",
        "n8v_text_document(text)",
        "n8v_webhook_add_secret(uuid,uuid,text,timestamp with time zone,timestamp with time zone)",
        "n8v_webhook_emit(uuid,text,jsonb,uuid,text[],boolean,timestamp with time zone)",
        "n8v_webhook_test(uuid,uuid,jsonb,timestamp with time zone)",
        "n8v_webhook_maker_live(uuid)",
    ];
    let mut expected: Vec<String> = tables
        .iter()
        .flat_map(|(t, privileges)| {
            privileges
                .split(' ')
                .map(move |p| format!("{p} table public.{t}"))
        })
        .chain(functions.iter().map(|f| format!("EXECUTE function {f}")))
        .chain([
            // The session read model: a view with the caller's rights.
            "SELECT view public.journal_session_reads".to_owned(),
            "INSERT table apalis.jobs".to_owned(),
            "USAGE schema apalis".to_owned(),
            "USAGE schema public".to_owned(),
        ])
        .collect();
    expected.sort();
    let role = app.db.app_role();
    let login = n8v_journal::db::login::login_role(role);
    let mut held = grants_of(&mut conn, role).await;
    held.sort();
    assert_eq!(held, expected, "the application role's grants");
    // The login role holds nothing but the way to become the application role.
    assert_eq!(
        grants_of(&mut conn, &login).await,
        vec![format!("member of {role}")]
    );
    let attributes: (bool, bool, bool, bool, bool) = sqlx::query_as(
        "SELECT a.rolcanlogin, l.rolcanlogin, l.rolinherit, a.rolsuper OR l.rolsuper, \
                a.rolbypassrls OR l.rolbypassrls \
           FROM pg_roles a, pg_roles l WHERE a.rolname = $1 AND l.rolname = $2",
    )
    .bind(role)
    .bind(&login)
    .fetch_one(&mut conn)
    .await
    .unwrap();
    assert_eq!(attributes, (false, true, false, false, false));
    // PUBLIC (which both roles are part of) may run no function that runs as its owner, and
    // holds nothing on the tables.
    let public: Vec<String> = sqlx::query_scalar(
        "SELECT p.oid::regprocedure::text FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace \
          WHERE p.prosecdef AND n.nspname IN ('public', 'apalis') \
            AND has_function_privilege('public', p.oid, 'EXECUTE') \
         UNION ALL \
         SELECT c.relname::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace, \
                aclexplode(c.relacl) a \
          WHERE n.nspname IN ('public', 'apalis') AND a.grantee = 0",
    )
    .fetch_all(&mut conn)
    .await
    .unwrap();
    assert_eq!(public, Vec::<String>::new());
    // The owner-only policies name the tables' owner, never the app role or PUBLIC.
    let roles: Vec<(String, Vec<String>)> = sqlx::query_as(
        "SELECT policyname::text, roles::text[] FROM pg_policies \
          WHERE policyname IN ('organizations_owner_lookup', 'credentials_owner_lookup', \
                               'journal_sessions_owner_sweep', 'oauth_grants_owner_lookup', \
                               'oauth_tokens_owner_lookup') ORDER BY 1",
    )
    .fetch_all(&mut conn)
    .await
    .unwrap();
    let owner: String = sqlx::query_scalar(
        "SELECT r.rolname::text FROM pg_class c JOIN pg_roles r ON r.oid = c.relowner \
          WHERE c.relname = 'credentials'",
    )
    .fetch_one(&mut conn)
    .await
    .unwrap();
    assert_eq!(roles.len(), 5);
    for (policy, to) in roles {
        assert_eq!(to, vec![owner.clone()], "{policy}");
    }
    // And with exactly these grants the app role still does its work: a journalled call
    // (a session opened, the call and its audit entry written, a Record read).
    let a = app.account("Ada", "chats:read,records:read").await;
    app.journal_on(a.id).await;
    app.call(reqwest::Method::GET, "/api/v1/records")
        .token(&a.token)
        .purpose("check the grants")
        .ok(200)
        .await;
    let (calls, audits): (i64, i64) = sqlx::query_as(
        "SELECT (SELECT count(*) FROM journal_calls WHERE account_id = $1 \
                   AND purpose = 'check the grants'), \
                (SELECT count(*) FROM audit_log WHERE account_id = $1)",
    )
    .bind(a.id)
    .fetch_one(&mut conn)
    .await
    .unwrap();
    assert_eq!((calls, audits), (1, 1));
    conn.close().await.unwrap();
}

/// Runs `sql` inside `tx` under a savepoint and returns its SQLSTATE when it fails.
async fn refused(conn: &mut sqlx::PgConnection, sql: &str) -> Option<String> {
    sqlx::query("SAVEPOINT probe")
        .execute(&mut *conn)
        .await
        .unwrap();
    let outcome = sqlx::raw_sql(sqlx::AssertSqlSafe(sql.to_owned()))
        .execute(&mut *conn)
        .await;
    let rollback = if outcome.is_ok() {
        "RELEASE SAVEPOINT probe"
    } else {
        "ROLLBACK TO SAVEPOINT probe"
    };
    sqlx::query(rollback).execute(&mut *conn).await.unwrap();
    outcome.err().map(|e| {
        e.as_database_error()
            .and_then(|d| d.code())
            .unwrap_or_default()
            .into_owned()
    })
}

/// An app with one account whose journal is on and holds one call (a Record listing).
async fn account_with_one_call() -> (common::TestApp, common::Account) {
    let app = common::spawn_app().await;
    let a = app.account("Ada", "chats:read,records:read").await;
    app.journal_on(a.id).await;
    app.call(reqwest::Method::GET, "/api/v1/records")
        .token(&a.token)
        .ok(200)
        .await;
    (app, a)
}

#[tokio::test]
async fn reset_role_in_a_tenant_transaction_reaches_nothing() {
    use n8v_journal::db::{Tenant, TenantTx};
    let (app, a) = account_with_one_call().await;
    let owner: String = sqlx::query_scalar("SELECT current_user::text")
        .fetch_one(&app.owner)
        .await
        .unwrap();
    let mut tx = TenantTx::begin(&app.db, &Tenant::service(a.id))
        .await
        .unwrap();
    let (session_user, sessions): (String, i64) =
        sqlx::query_as("SELECT session_user::text, count(*) FROM journal_sessions")
            .fetch_one(tx.conn())
            .await
            .unwrap();
    assert_eq!(
        session_user,
        n8v_journal::db::login::login_role(app.db.app_role()),
        "tenant work logs in as the login role"
    );
    assert_eq!(
        sessions, 1,
        "as the application role the tenant's rows are there"
    );

    sqlx::query("RESET ROLE").execute(tx.conn()).await.unwrap();
    let now: String = sqlx::query_scalar("SELECT current_user::text")
        .fetch_one(tx.conn())
        .await
        .unwrap();
    assert_eq!(now, n8v_journal::db::login::login_role(app.db.app_role()));
    for table in [
        "journal_sessions",
        "journal_calls",
        "audit_log",
        "accounts",
        "credentials",
        "record_entries",
        "feature_flags",
        "operator_log",
        "apalis.jobs",
    ] {
        assert_eq!(
            refused(tx.conn(), &format!("SELECT count(*) FROM {table}"))
                .await
                .as_deref(),
            Some("42501"),
            "{table} is out of the login role's reach"
        );
    }
    for statement in [
        format!("SET ROLE \"{owner}\""),
        "SELECT n8v_begin(gen_random_uuid(), NULL, NULL, NULL)".to_owned(),
        "SELECT * FROM n8v_account_ids(NULL, 10)".to_owned(),
        "SELECT * FROM n8v_session_matches('x', now())".to_owned(),
    ] {
        assert_eq!(
            refused(tx.conn(), &statement).await.as_deref(),
            Some("42501"),
            "{statement}"
        );
    }
    tx.rollback().await.unwrap();
}

#[tokio::test]
async fn the_application_role_is_refused_what_only_the_owner_does() {
    let (app, _) = account_with_one_call().await;
    // Tenant work's own connection, as the application role, with no tenant set.
    let role = app.db.app_role();
    let options = n8v_journal::db::login::options(&app.db_url, role).unwrap();
    let mut conn = sqlx::ConnectOptions::connect(&options).await.unwrap();
    sqlx::raw_sql(sqlx::AssertSqlSafe(format!("BEGIN; SET LOCAL ROLE {role}")))
        .execute(&mut conn)
        .await
        .unwrap();
    for statement in [
        "SELECT * FROM n8v_account_ids(NULL, 1000)",
        "SELECT * FROM n8v_quiet_sessions(now(), 1000)",
        "SELECT * FROM n8v_credential_by_hash('\\x00')",
        "SELECT * FROM n8v_credential_by_id(gen_random_uuid(), gen_random_uuid())",
        "INSERT INTO feature_flags (flag, enabled) VALUES ('assistantJournal', false)",
        "UPDATE feature_flags SET enabled = false",
        "UPDATE apalis._sqlx_migrations SET description = description",
        "SELECT count(*) FROM _sqlx_migrations",
        "SELECT count(*) FROM apalis.jobs",
        "UPDATE apalis.jobs SET status = 'Done'",
        "SELECT set_config('app.operator', 'on', true); SELECT * FROM n8v_operator_log(10)",
        "SELECT set_config('app.operator', 'on', true); \
         SELECT n8v_operator_set_flag('me', 'assistantJournal', NULL, false)",
        "SELECT set_config('app.operator', 'on', true); SELECT * FROM n8v_operator_accounts('', 10)",
    ] {
        assert_eq!(
            refused(&mut conn, statement).await.as_deref(),
            Some("42501"),
            "{statement}"
        );
    }
    sqlx::query("ROLLBACK").execute(&mut conn).await.unwrap();
    conn.close().await.unwrap();
}

// Finding 1 -------------------------------------------------------------------------------------

fn without_password(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap();
    let host = rest.split_once('@').map_or(rest, |(_, h)| h);
    format!("{scheme}://postgres@{host}")
}

/// Whether a connection succeeds, waiting up to 10 s for it to become `expected` (a reload
/// takes effect a moment after it is signalled).
async fn connects_eventually(url: &str, expected: bool) -> bool {
    for _ in 0..100 {
        let ok = sqlx::PgConnection::connect(url).await.is_ok();
        if ok == expected {
            return ok;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    !expected
}

/// Stops the cluster in its directory and removes it when the test ends, passed or not.
struct ClusterGuard(std::path::PathBuf);

impl Drop for ClusterGuard {
    fn drop(&mut self) {
        let dir = self.0.clone();
        let stopped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Runtime::new().unwrap();
            runtime.block_on(async {
                if let Ok(pg) = n8v_journal::db::embedded::EmbeddedPostgres::start(&dir).await {
                    let _ = pg.stop().await;
                }
            });
            let _ = std::fs::remove_dir_all(&dir);
        });
        let _ = stopped.join();
    }
}

#[tokio::test]
async fn the_embedded_cluster_requires_its_password_on_every_connection() {
    use n8v_journal::db::embedded::{EmbeddedPostgres, PG_HBA};
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("n8v-security-pg-{}", Uuid::new_v4().simple()));
    let _cleanup = ClusterGuard(dir.clone());
    let pg = EmbeddedPostgres::start(&dir).await.expect("embedded start");
    let url = pg.database_url("postgres");

    let hba = std::fs::read_to_string(dir.join("pgdata/pg_hba.conf")).unwrap();
    let rules: Vec<&str> = hba
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    assert!(!rules.is_empty());
    for rule in &rules {
        assert!(!rule.contains("trust"), "pg_hba.conf trusts: {rule}");
        assert!(rule.ends_with("scram-sha-256"), "{rule}");
    }
    let mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700, "the cluster's directory is private");
    let mode = std::fs::metadata(dir.join("pgdata"))
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(mode, 0o700);
    let sockets = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(".s.PGSQL"))
        .count();
    assert_eq!(sockets, 0, "no Unix socket");

    assert!(connects_eventually(&url, true).await, "the password works");
    let anonymous = without_password(&url);
    let refused = sqlx::PgConnection::connect(&anonymous).await;
    assert!(
        refused.is_err(),
        "connecting without the password is refused"
    );
    let bad = as_user(&url, "postgres", "not-the-password");
    assert!(sqlx::PgConnection::connect(&bad).await.is_err());

    // A cluster an older version initialised with `trust`, still running: the next start
    // rewrites pg_hba.conf and reloads it.
    std::fs::write(
        dir.join("pgdata/pg_hba.conf"),
        "local all all trust\nhost all all 127.0.0.1/32 trust\n",
    )
    .unwrap();
    owner_exec(&url, "SELECT pg_reload_conf()").await;
    assert!(connects_eventually(&anonymous, true).await, "trust is live");
    let again = EmbeddedPostgres::start(&dir).await.expect("restart");
    assert_eq!(
        std::fs::read_to_string(dir.join("pgdata/pg_hba.conf")).unwrap(),
        PG_HBA
    );
    assert!(
        !connects_eventually(&anonymous, false).await,
        "after the upgrade the password is required again"
    );
    assert!(sqlx::PgConnection::connect(&url).await.is_ok());
    drop(again);
    pg.stop().await.unwrap();
}

// Finding 3 -------------------------------------------------------------------------------------

fn header_u64(response: &reqwest::Response, name: &str) -> u64 {
    response
        .headers()
        .get(name)
        .unwrap_or_else(|| panic!("no {name} header"))
        .to_str()
        .unwrap()
        .parse()
        .unwrap()
}

#[tokio::test]
async fn other_clients_failures_never_lock_out_a_valid_key() {
    let app = common::spawn_app_configured(|c| c.auth_failures_per_minute = 3).await;
    let a = app.account("A", "records:read").await;
    for _ in 0..3 {
        let r = app.get("n8v_sk_nope", "/api/v1/records").await;
        assert_eq!(r.status(), 401);
    }
    let blocked = app.get("n8v_sk_nope", "/api/v1/records").await;
    assert_eq!(blocked.status(), 429);
    assert!(header_u64(&blocked, "retry-after") >= 1);
    assert_eq!(header_u64(&blocked, "ratelimit-remaining"), 0);
    // Same address (everyone behind one load balancer), valid key: served.
    for _ in 0..3 {
        assert_eq!(app.get(&a.token, "/api/v1/records").await.status(), 200);
    }
    // And failures from the address are still refused.
    let still = app.get("n8v_sk_nope", "/api/v1/records").await;
    assert_eq!(still.status(), 429);
}

#[tokio::test]
async fn rate_limited_responses_carry_ratelimit_headers() {
    let app = common::spawn_app_configured(|c| c.rate_limit_per_minute = 3).await;
    let a = app.account("A", "records:read").await;
    let mut remaining = Vec::new();
    for _ in 0..3 {
        let r = app.get(&a.token, "/api/v1/records").await;
        assert_eq!(r.status(), 200);
        assert_eq!(header_u64(&r, "ratelimit-limit"), 3);
        let reset = header_u64(&r, "ratelimit-reset");
        assert!((1..=60).contains(&reset), "reset {reset}");
        remaining.push(header_u64(&r, "ratelimit-remaining"));
    }
    assert_eq!(remaining, vec![2, 1, 0]);
    let limited = app.get(&a.token, "/api/v1/records").await;
    assert_eq!(limited.status(), 429);
    assert_eq!(header_u64(&limited, "ratelimit-limit"), 3);
    assert_eq!(header_u64(&limited, "ratelimit-remaining"), 0);
    let retry = header_u64(&limited, "retry-after");
    assert!((1..=20).contains(&retry), "retry-after {retry}");
    assert_eq!(header_u64(&limited, "ratelimit-reset"), retry);
    common::expect_problem(limited, 429, "rate-limited").await;
}

#[tokio::test]
async fn forwarded_addresses_count_only_from_trusted_proxies() {
    // Untrusted peer: X-Forwarded-For is ignored, so rotating it does not escape the limit.
    let app = common::spawn_app_configured(|c| c.auth_failures_per_minute = 2).await;
    let bad = |app: &common::TestApp, client: &str| {
        app.http
            .get(app.url("/api/v1/records"))
            .bearer_auth("n8v_sk_nope")
            .header("x-forwarded-for", client.to_owned())
            .send()
    };
    for i in 0..2 {
        assert_eq!(
            bad(&app, &format!("203.0.113.{i}")).await.unwrap().status(),
            401
        );
    }
    assert_eq!(bad(&app, "203.0.113.99").await.unwrap().status(), 429);

    // Trusted peer (we connect from 127.0.0.1): each forwarded client has its own budget.
    let app = common::spawn_app_configured(|c| {
        c.auth_failures_per_minute = 2;
        c.trusted_proxies =
            n8v_journal::auth::limits::parse_trusted_proxies("127.0.0.1/32").unwrap();
    })
    .await;
    for _ in 0..2 {
        assert_eq!(bad(&app, "203.0.113.1").await.unwrap().status(), 401);
    }
    assert_eq!(bad(&app, "203.0.113.1").await.unwrap().status(), 429);
    assert_eq!(bad(&app, "203.0.113.2").await.unwrap().status(), 401);
    let forwarded = app
        .http
        .get(app.url("/api/v1/records"))
        .bearer_auth("n8v_sk_nope")
        .header("forwarded", "for=198.51.100.7;proto=https")
        .send()
        .await
        .unwrap();
    assert_eq!(forwarded.status(), 401);
}

#[tokio::test]
async fn a_client_written_forwarded_header_does_not_escape_the_failure_limit() {
    // We connect from 127.0.0.1 and play a proxy that appends the peer it saw to
    // X-Forwarded-For (as nginx does) and passes every other header through untouched.
    let app = common::spawn_app_configured(|c| {
        c.auth_failures_per_minute = 3;
        c.trusted_proxies =
            n8v_journal::auth::limits::parse_trusted_proxies("127.0.0.1/32").unwrap();
    })
    .await;
    let mut statuses = Vec::new();
    for i in 0..6 {
        let r = app
            .http
            .get(app.url("/api/v1/records"))
            .bearer_auth("n8v_sk_nope")
            // The client's own words: a fresh address each time, in both headers.
            .header("forwarded", format!("for=198.51.100.{i};proto=https"))
            .header("x-forwarded-for", format!("192.0.2.{i}, 203.0.113.9"))
            .send()
            .await
            .unwrap();
        statuses.push(r.status().as_u16());
    }
    assert_eq!(statuses, vec![401, 401, 401, 429, 429, 429]);
}

// Finding 8 -------------------------------------------------------------------------------------

/// A GitHub token shape, built at run time (no credential sits in the source).
fn github_token(seed: u8) -> String {
    let body: String = (0..36)
        .map(|i| {
            let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
            alphabet[(usize::from(seed) * 31 + i * 17 + i * i) % alphabet.len()] as char
        })
        .collect();
    format!("gh{}_{body}", "p")
}

#[tokio::test]
async fn request_ids_are_kept_only_when_short_and_plain() {
    let app = common::spawn_app().await;
    let send = |id: String| {
        app.http
            .get(app.url("/healthz"))
            .header("x-request-id", id)
            .send()
    };
    let kept = send("req-2026.11_30-abc".into()).await.unwrap();
    assert_eq!(kept.headers()["x-request-id"], "req-2026.11_30-abc");
    for bad in [
        "a".repeat(65),
        "<script>alert(1)</script>".into(),
        "id with spaces".into(),
        format!("leak-{}", github_token(1)).replace('_', "/"),
    ] {
        let r = send(bad.clone()).await.unwrap();
        let got = r.headers()["x-request-id"].to_str().unwrap().to_owned();
        assert_ne!(got, bad, "an unacceptable request id is replaced");
        assert!(Uuid::parse_str(&got).is_ok(), "a generated id: {got}");
    }
}

#[tokio::test]
async fn paths_are_decoded_before_scrubbing_and_format_characters_are_stripped() {
    let app = common::spawn_app().await;
    let a = app.account("A", crate::common::JOURNAL_SCOPES).await;
    app.journal_on(a.id).await;
    let token = github_token(2);

    // A token percent-encoded in the path (`_` as %5F): journalled and audited, never stored.
    let encoded = token.replace('_', "%5F");
    let r = app
        .http
        .get(app.url(&format!("/api/v1/records/{encoded}/entries")))
        .bearer_auth(&a.token)
        .header("x-purpose", "look something up")
        .send()
        .await
        .unwrap();
    assert!(r.status().is_client_error(), "{}", r.status());

    // A token split by a zero-width space in a Record line and in a purpose.
    let record = app.record_of(a.id).await;
    let split = format!("{}\u{200B}{}", &token[..10], &token[10..]);
    let r = app
        .http
        .post(app.url(&format!("/api/v1/records/{record}/entries")))
        .bearer_auth(&a.token)
        .header("x-purpose", "store the deploy key")
        .json(&serde_json::json!({"line": format!("deploy key {split} rotated")}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 201);

    // A 100-character assistant name cut in the middle of a token. Joining a session never
    // writes its assistant, so the call comes from a key of its own: it opens a session, and
    // that session's `assistant` is what the name became.
    let (_, fresh_key) = app.key(a.id, "records:read", None).await;
    let assistant = format!("{} {}", "x".repeat(74), token);
    let r = app
        .http
        .get(app.url("/api/v1/records"))
        .bearer_auth(&fresh_key)
        .header("x-assistant", assistant)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let opened = common::session_of(&r).expect("the call opened a session");
    let opened = n8v_journal::ids::parse(n8v_journal::ids::Kind::Session, &opened).unwrap();
    let stored: String =
        sqlx::query_scalar("SELECT assistant FROM journal_sessions WHERE session_id = $1")
            .bind(opened)
            .fetch_one(&app.owner)
            .await
            .unwrap();
    assert_eq!(
        stored,
        format!("{} [REDACTED:github-pat]", "x".repeat(74)),
        "scrubbed whole, then cut"
    );

    let tail = &token[20..]; // any surviving part of the token
    let head = &token[..14];
    for (table, column) in [
        ("audit_log", "path"),
        ("journal_sessions", "assistant"),
        ("record_entries", "line"),
    ] {
        let values: Vec<Option<String>> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "SELECT {column} FROM {table} WHERE account_id = $1"
        )))
        .bind(a.id)
        .fetch_all(&app.owner)
        .await
        .unwrap();
        assert!(!values.is_empty(), "{table}");
        for value in values.into_iter().flatten() {
            assert!(
                !value.contains(tail) && !value.contains(head) && !value.contains('\u{200B}'),
                "{table}.{column} keeps part of the token: {value:?}"
            );
        }
    }
    let lines: Vec<String> =
        sqlx::query_scalar("SELECT line FROM record_entries WHERE account_id = $1")
            .bind(a.id)
            .fetch_all(&app.owner)
            .await
            .unwrap();
    assert_eq!(
        lines,
        vec!["deploy key [REDACTED:github-pat] rotated".to_owned()]
    );
    let paths: Vec<String> = sqlx::query_scalar("SELECT path FROM audit_log WHERE account_id = $1")
        .bind(a.id)
        .fetch_all(&app.owner)
        .await
        .unwrap();
    assert!(
        paths.contains(&"/api/v1/records/[REDACTED:github-pat]/entries".to_owned()),
        "{paths:?}"
    );
}

#[test]
fn purposes_goals_and_outcomes_lose_format_characters_before_scrubbing() {
    use n8v_journal::journal::meta::{Purpose, parse_text};
    let token = github_token(3);
    let split = format!(
        "{}\u{200B}{}\u{2060}{}",
        &token[..6],
        &token[6..20],
        &token[20..]
    );
    let purpose = Purpose::parse(Some(&format!("use {split} now")))
        .unwrap()
        .unwrap();
    assert_eq!(purpose.as_str(), "use [REDACTED:github-pat] now");
    let goal = parse_text(Some(&format!("rotate\u{200D} {split}\u{FEFF}")), "the goal")
        .unwrap()
        .unwrap();
    assert_eq!(goal.text, "rotate [REDACTED:github-pat]");
    assert_eq!(
        goal.found.len(),
        1,
        "the split token is recognised: {goal:?}"
    );
    // Bidi controls go too (they can make text read differently from what is stored).
    let outcome = parse_text(Some("done \u{202E}txet\u{202C}"), "the outcome").unwrap();
    assert_eq!(outcome.map(|o| o.text).as_deref(), Some("done txet"));
}

// Finding 9 -------------------------------------------------------------------------------------

async fn readyz(app: &common::TestApp) -> (u16, serde_json::Value) {
    let r = app.http.get(app.url("/readyz")).send().await.unwrap();
    (r.status().as_u16(), r.json().await.unwrap())
}

async fn wait_until<F, Fut>(what: &str, secs: u64, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    while std::time::Instant::now() < deadline {
        if check().await {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    panic!("timed out waiting for {what}");
}

#[test]
fn worker_backoff_grows_is_capped_and_never_gives_up() {
    use n8v_journal::jobs::{MAX_BACKOFF, backoff};
    let secs = |n| backoff(n).as_secs_f64();
    assert!((0.8..=1.2).contains(&secs(1)));
    assert!((1.6..=2.4).contains(&secs(2)));
    assert!((6.4..=9.6).contains(&secs(4)));
    for failures in [7, 100, 101, 10_000, u32::MAX] {
        let wait = backoff(failures);
        assert!(wait <= MAX_BACKOFF.mul_f64(1.2) && wait >= MAX_BACKOFF.mul_f64(0.8));
    }
}

#[tokio::test]
async fn workers_recover_after_every_connection_is_terminated_and_readyz_tells() {
    let app = common::spawn_app().await;
    let state = n8v_journal::jobs::WorkerState {
        db: app.db.clone(),
        config: std::sync::Arc::new(n8v_journal::config::Config::for_database(&app.db_url)),
        clock: app.clock.clone(),
    };
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let workers = tokio::spawn(n8v_journal::jobs::run(state, async move {
        let _ = stopped.await;
    }));
    wait_until("workers running", 20, || async {
        readyz(&app).await.0 == 200
    })
    .await;

    // Kill every connection to the test database, the workers' included, twice in a row.
    let database = app.db_url.rsplit('/').next().unwrap().to_owned();
    let server = common::server_url().await;
    for _ in 0..2 {
        // Once the workers have connected (again), terminate every backend of the database.
        let mut conn = sqlx::PgConnection::connect(&server).await.unwrap();
        let mut killed = 0i64;
        for _ in 0..100 {
            killed = sqlx::query_scalar(
                "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                  WHERE datname = $1 AND pid <> pg_backend_pid()) t",
            )
            .bind(&database)
            .fetch_one(&mut conn)
            .await
            .unwrap();
            if killed > 0 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        }
        assert!(killed > 0, "no connection to terminate");
        conn.close().await.unwrap();
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    }

    // A worker that cannot reach its queue is reported, then recovers once it can.
    sqlx::query("ALTER TABLE apalis.jobs RENAME TO jobs_hidden")
        .execute(&app.owner)
        .await
        .unwrap();
    let detail = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    wait_until("readyz to report the summaries worker", 30, || {
        let (app, detail) = (&app, detail.clone());
        async move {
            let (status, body) = readyz(app).await;
            let text = body["detail"].as_str().unwrap_or_default().to_owned();
            let reported = status == 503 && text.contains("summaries");
            *detail.lock().unwrap() = text;
            reported
        }
    })
    .await;
    let detail = detail.lock().unwrap().clone();
    assert!(detail.contains("restarts in"), "{detail}");
    sqlx::query("ALTER TABLE apalis.jobs_hidden RENAME TO jobs")
        .execute(&app.owner)
        .await
        .unwrap();
    wait_until("workers running again", 90, || async {
        readyz(&app).await.0 == 200
    })
    .await;

    // And they still do their work: a closed session is summarised.
    let a = app.account("A", "chats:read").await;
    app.journal_on(a.id).await;
    let opened: serde_json::Value = app
        .post(
            &a.token,
            "/api/v1/journal/sessions",
            serde_json::json!({"goal": "check recovery"}),
        )
        .await
        .json()
        .await
        .unwrap();
    let id = opened["id"]
        .as_str()
        .unwrap_or_else(|| panic!("{opened}"))
        .to_owned();
    let r = app
        .post(
            &a.token,
            &format!("/api/v1/journal/sessions/{id}/end"),
            serde_json::json!({"outcome": "done"}),
        )
        .await;
    assert_eq!(r.status(), 200);
    wait_until("the summary", 60, || async {
        let n: i64 =
            sqlx::query_scalar("SELECT count(*) FROM session_summaries WHERE account_id = $1")
                .bind(a.id)
                .fetch_one(&app.owner)
                .await
                .unwrap();
        n == 1
    })
    .await;
    let _ = stop.send(());
    workers.await.unwrap().unwrap();
}

// Finding 10 ------------------------------------------------------------------------------------

#[test]
fn a_short_jwt_secret_stops_startup_with_a_clear_error() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_n8v-journal"))
        .arg("migrate")
        .env("N8V_JWT_SECRET", "too-short")
        .env("DATABASE_URL", "postgres://nobody@127.0.0.1:1/none")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("N8V_JWT_SECRET") && stderr.contains("at least 32"),
        "{stderr}"
    );
}

#[tokio::test]
async fn provider_clients_do_not_follow_redirects_to_another_host() {
    use axum::response::Redirect;
    // The "other host": counts the requests it receives (it would see the API key header).
    let hits = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let seen = hits.clone();
    let other = axum::Router::new().fallback(move || {
        seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        async { "{}" }
    });
    let other_listener = tokio::net::TcpListener::bind("127.0.0.2:0")
        .await
        .or(tokio::net::TcpListener::bind("[::1]:0").await)
        .unwrap();
    let other_addr = other_listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(other_listener, other).await });
    let target = format!("http://{other_addr}/steal");
    let provider = axum::Router::new().fallback(move || {
        let target = target.clone();
        async move { Redirect::temporary(&target) }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, provider).await });

    use n8v_journal::summarize::Provider;
    let gemini = n8v_journal::summarize::Gemini::new(
        base,
        "key-that-must-stay-home",
        "gemini-test",
        std::time::Duration::from_secs(5),
    );
    let result = gemini
        .generate("system", "prompt", &serde_json::json!({"type": "object"}))
        .await;
    assert!(result.is_err(), "a redirect elsewhere fails the call");
    assert_eq!(
        hits.load(std::sync::atomic::Ordering::SeqCst),
        0,
        "the other host never saw the request"
    );
}
