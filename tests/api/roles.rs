//! Issue 34, findings 2, 3 and 10: the login role's secret never reaches a log, each deployment
//! on a server has roles of its own, and a refused login is a `503`. On a cluster that checks
//! passwords, with the real binary.

use crate::common::cluster::{Cluster, Deployment, tail};
use serde_json::Value;
use sqlx::Connection;

use crate::common::JOURNAL_SCOPES as SCOPES;

/// The one login role tenant work of `deployment` connects as (seen connected), and its
/// derived password.
async fn login_of(cluster: &Cluster, deployment: &Deployment) -> (String, String) {
    let roles = cluster.login_roles_in(&deployment.database).await;
    assert_eq!(roles.len(), 1, "one login role in use: {roles:?}");
    let login = roles[0].clone();
    let password = n8v_journal::db::login::password(&deployment.url, &login).unwrap();
    (login, password)
}

async fn stored_verifier(cluster: &Cluster, role: &str) -> String {
    let mut conn = sqlx::PgConnection::connect(&cluster.superuser)
        .await
        .unwrap();
    let verifier: String =
        sqlx::query_scalar("SELECT rolpassword FROM pg_authid WHERE rolname = $1")
            .bind(role)
            .fetch_one(&mut conn)
            .await
            .unwrap();
    conn.close().await.unwrap();
    verifier
}

/// A `503` problem with `Retry-After`: the database could not be had, try again.
async fn assert_unavailable(response: reqwest::Response) {
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let body: Value = response.json().await.unwrap_or(Value::Null);
    assert_eq!(status, 503, "{body:#}");
    assert_eq!(headers["content-type"], "application/problem+json");
    assert!(headers.contains_key("retry-after"), "{headers:?}");
    assert_eq!(
        body["type"],
        "https://n8v-journal.dev/problems/database-unavailable"
    );
}

/// What a failed command said (its JSON error line).
fn error_of(ran: &crate::common::cluster::Ran) -> String {
    let line = ran.stdout.lines().last().unwrap_or_default();
    let json: Value = serde_json::from_str(line).unwrap_or(Value::Null);
    json["error"].as_str().unwrap_or(line).to_owned()
}

// Finding 2 -------------------------------------------------------------------------------------

#[tokio::test]
async fn no_role_secret_reaches_the_log_of_migrate_and_serve_at_trace() {
    let cluster = Cluster::start().await;
    let deployment = cluster.owner("n8v_logs").await;
    let mut log = String::new();
    // `migrate` makes the login role with its password…
    let migrated = deployment.run(&["migrate"], &[]);
    assert!(migrated.success, "{}", tail(&migrated.stderr));
    log.push_str(&migrated.stderr);
    let served = deployment.serve("serve", &[]).await;
    let token = deployment.key(SCOPES);
    assert_eq!(served.get(&token, "/api/v1/records").await.status(), 200);
    let (login, password) = login_of(&cluster, &deployment).await;
    log.push_str(&served.stop());
    // …and sets it again when it no longer lets the login role in.
    cluster
        .exec(
            "postgres",
            &format!("ALTER ROLE \"{login}\" PASSWORD 'elsewhere'"),
        )
        .await;
    let migrated = deployment.run(&["migrate"], &[]);
    assert!(migrated.success, "{}", tail(&migrated.stderr));
    log.push_str(&migrated.stderr);
    let served = deployment.serve("serve", &[]).await;
    assert_eq!(served.get(&token, "/api/v1/records").await.status(), 200);
    log.push_str(&served.stop());

    assert!(log.contains("TRACE"), "the log is at trace: {}", tail(&log));
    let verifier = stored_verifier(&cluster, &login).await;
    let keys = verifier.rsplit_once('$').unwrap().1.to_owned();
    for (what, secret) in [
        ("the derived password", password.as_str()),
        ("a piece of it", &password[20..28]),
        ("the owner's password", deployment.password.as_str()),
        ("the stored verifier's keys", keys.as_str()),
    ] {
        if let Some(at) = log.find(secret) {
            let line = log[..at].rsplit('\n').next().unwrap_or_default();
            panic!(
                "{what} is in the log: …{}",
                &line[line.len().saturating_sub(200)..]
            );
        }
    }
}

// Finding 3 -------------------------------------------------------------------------------------

#[tokio::test]
async fn two_deployments_on_one_server_keep_roles_of_their_own() {
    let cluster = Cluster::start().await;
    let first = cluster.owner("n8v_first").await;
    let second = cluster.owner("n8v_second").await;
    for deployment in [&first, &second] {
        let migrated = deployment.run(&["migrate"], &[]);
        assert!(migrated.success, "{}", tail(&migrated.stderr));
    }
    // The first one's API replicas still start (its login role's password is its own), and
    // both serve.
    let first_served = first.serve("api", &[]).await;
    let second_served = second.serve("api", &[]).await;
    let (first_token, second_token) = (first.key(SCOPES), second.key(SCOPES));
    for (served, token) in [
        (&first_served, &first_token),
        (&second_served, &second_token),
    ] {
        let response = served.get(token, "/api/v1/journal/sessions").await;
        assert_eq!(response.status(), 200, "{}", response.text().await.unwrap());
        assert_eq!(served.get(token, "/api/v1/records").await.status(), 200);
    }
    let (first_login, _) = login_of(&cluster, &first).await;
    let (second_login, second_password) = login_of(&cluster, &second).await;
    assert_ne!(first_login, second_login);

    // The second deployment's login role opens nothing of the first's data.
    let (_, rest) = first.url.split_once('@').unwrap();
    let url = format!("postgres://{second_login}:{second_password}@{rest}");
    let mut conn = sqlx::PgConnection::connect(&url).await.unwrap();
    let first_app = first_login.trim_end_matches("_login");
    let second_app = second_login.trim_end_matches("_login");
    for statement in [
        format!("SET ROLE \"{first_app}\""),
        format!("SET ROLE \"{second_app}\"; SELECT count(*) FROM journal_sessions"),
        format!("SET ROLE \"{second_app}\"; SELECT count(*) FROM accounts"),
    ] {
        let refused = sqlx::raw_sql(sqlx::AssertSqlSafe(statement.clone()))
            .execute(&mut conn)
            .await
            .expect_err(&statement);
        let code = refused.as_database_error().and_then(|d| d.code());
        assert_eq!(code.as_deref(), Some("42501"), "{statement}: {refused}");
        let _ = sqlx::raw_sql("RESET ROLE").execute(&mut conn).await;
    }
    conn.close().await.unwrap();

    // A third deployment told to share the first one's role is refused, and changes nothing.
    let third = cluster.owner("n8v_third").await;
    let refused = third.run(&["migrate"], &[("N8V_APP_ROLE", first_app)]);
    assert!(!refused.success, "sharing a role must be refused");
    let said = error_of(&refused);
    for needle in [
        first_app,
        "n8v_first",
        "N8V_APP_ROLE",
        "Nothing was changed",
    ] {
        assert!(said.contains(needle), "{needle:?} not in {said}");
    }
    let mut conn = sqlx::PgConnection::connect(&third.url).await.unwrap();
    let tables: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')",
    )
    .fetch_one(&mut conn)
    .await
    .unwrap();
    assert_eq!(tables, 0, "nothing was migrated");
    conn.close().await.unwrap();
    // And the first deployment's new connections still get in.
    drop(first_served);
    let first_served = first.serve("api", &[]).await;
    assert_eq!(
        first_served
            .get(&first_token, "/api/v1/journal/sessions")
            .await
            .status(),
        200
    );
}

// Finding 10 ------------------------------------------------------------------------------------

#[tokio::test]
async fn a_refused_login_or_a_closed_database_answers_503() {
    let cluster = Cluster::start().await;
    let deployment = cluster.owner("n8v_refused").await;
    let migrated = deployment.run(&["migrate"], &[]);
    assert!(migrated.success, "{}", tail(&migrated.stderr));
    let served = deployment.serve("api", &[]).await;
    let token = deployment.key(SCOPES);
    assert_eq!(served.get(&token, "/api/v1/records").await.status(), 200);
    let (login, _) = login_of(&cluster, &deployment).await;

    // The login role's password changed behind the service's back; its connections are gone.
    cluster
        .exec(
            "postgres",
            &format!(
                "ALTER ROLE \"{login}\" PASSWORD 'changed-behind-its-back'; \
                 SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '{login}'"
            ),
        )
        .await;
    let response = served.get(&token, "/api/v1/records").await;
    assert_unavailable(response).await;

    // A replica starting now says what to do.
    let started = deployment.run(&["api"], &[("N8V_BIND", "127.0.0.1:0")]);
    assert!(!started.success);
    let said = error_of(&started);
    for needle in [login.as_str(), "refused", "n8v-journal migrate"] {
        assert!(said.contains(needle), "{needle:?} not in {said}");
    }

    // A database that accepts no connections (55000) is a 503 too.
    let migrated = deployment.run(&["migrate"], &[]);
    assert!(migrated.success, "{}", tail(&migrated.stderr));
    cluster
        .exec(
            "postgres",
            &format!(
                "ALTER DATABASE {0} ALLOW_CONNECTIONS false; \
                 SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{0}'",
                deployment.database
            ),
        )
        .await;
    let response = served.get(&token, "/api/v1/records").await;
    assert_unavailable(response).await;
    drop(served);
}

// Upgrading from the shared default ------------------------------------------------------------

/// Whether `role` may read `table` in `deployment`'s database.
async fn may_read(deployment: &Deployment, role: &str, table: &str) -> bool {
    let mut conn = sqlx::PgConnection::connect(&deployment.url).await.unwrap();
    let may: bool = sqlx::query_scalar("SELECT has_table_privilege($1, $2::regclass, 'SELECT')")
        .bind(role)
        .bind(table)
        .fetch_one(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    may
}

#[tokio::test]
async fn a_database_migrated_under_the_old_default_keeps_it_until_another_shares_it() {
    let cluster = Cluster::start().await;
    let old = cluster.owner("n8v_old").await;
    // As the version before per-database roles left it: `n8v_app`, with no marker.
    let migrated = old.run(&["migrate"], &[("N8V_APP_ROLE", "n8v_app")]);
    assert!(migrated.success, "{}", tail(&migrated.stderr));
    cluster
        .exec(
            "postgres",
            "COMMENT ON ROLE n8v_app IS NULL; COMMENT ON ROLE n8v_app_login IS NULL",
        )
        .await;
    let token = old.key(SCOPES);

    // Upgraded, with N8V_APP_ROLE unset: nothing changes.
    let migrated = old.run(&["migrate"], &[]);
    assert!(migrated.success, "{}", tail(&migrated.stderr));
    let served = old.serve("api", &[]).await;
    assert_eq!(
        served
            .get(&token, "/api/v1/journal/sessions")
            .await
            .status(),
        200
    );
    assert_eq!(cluster.login_roles_in("n8v_old").await, ["n8v_app_login"]);
    drop(served);

    // Another database that an older version also gave `n8v_app`: this one moves to a role of
    // its own, and `n8v_app` keeps nothing here.
    let other = cluster.owner("n8v_other").await;
    let migrated = other.run(&["migrate"], &[]);
    assert!(migrated.success, "{}", tail(&migrated.stderr));
    cluster
        .exec("n8v_other", "GRANT SELECT ON journal_sessions TO n8v_app")
        .await;
    let migrated = old.run(&["migrate"], &[]);
    assert!(migrated.success, "{}", tail(&migrated.stderr));
    let served = old.serve("api", &[]).await;
    assert_eq!(
        served
            .get(&token, "/api/v1/journal/sessions")
            .await
            .status(),
        200
    );
    let own = n8v_journal::db::app_role::default_for("n8v_old");
    assert_eq!(
        cluster.login_roles_in("n8v_old").await,
        [n8v_journal::db::login::login_role(&own)]
    );
    assert!(may_read(&old, &own, "journal_sessions").await);
    assert!(!may_read(&old, "n8v_app", "journal_sessions").await);
}
