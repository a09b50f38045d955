//! Issue 9: each security finding, proven against a real PostgreSQL and the real app.

mod common;

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

    let error = n8v_journal::db::migrate(&app_url, &role)
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
    let error = n8v_journal::db::migrate(&url, &role)
        .await
        .expect_err("an application role that owns a table must be refused");
    let message = format!("{error:#}");
    assert!(
        message.contains("public.journal_sessions") && message.contains("REASSIGN OWNED"),
        "{message}"
    );
    drop_role(&server, &database, &role).await;
}

#[tokio::test]
async fn the_application_role_holds_only_the_grants_it_uses() {
    let url = common::fresh_database().await;
    let mut conn = sqlx::PgConnection::connect(&url).await.unwrap();
    let (credentials, overrides_delete, create_public): (bool, bool, bool) = sqlx::query_as(
        "SELECT has_table_privilege('n8v_app', 'credentials', 'SELECT'), \
                has_table_privilege('n8v_app', 'feature_flag_overrides', 'DELETE'), \
                has_schema_privilege('n8v_app', 'public', 'CREATE')",
    )
    .fetch_one(&mut conn)
    .await
    .unwrap();
    assert!(
        !credentials,
        "the app role reads credentials only through the lookups"
    );
    assert!(!overrides_delete);
    assert!(!create_public, "nobody but the owner creates in public");
    // The owner-only policies name the tables' owner, never the app role or PUBLIC.
    let roles: Vec<(String, Vec<String>)> = sqlx::query_as(
        "SELECT policyname::text, roles::text[] FROM pg_policies \
          WHERE policyname IN ('organizations_owner_lookup', 'credentials_owner_lookup', \
                               'journal_sessions_owner_sweep') ORDER BY 1",
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
    assert_eq!(roles.len(), 3);
    for (policy, to) in roles {
        assert_eq!(to, vec![owner.clone()], "{policy}");
    }
    // And the app role still does its work: a tenant transaction reads its account.
    conn.close().await.unwrap();
}
