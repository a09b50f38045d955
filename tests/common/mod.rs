//! Test harness: a real PostgreSQL (the server in `DATABASE_URL`, else the embedded cluster),
//! a fresh database per test, and the real app on a real port.

#![allow(dead_code)]

use n8v_journal::admin;
use n8v_journal::auth::Scopes;
use n8v_journal::clock::ManualClock;
use n8v_journal::config::Config;
use n8v_journal::db::{self, Db};
use n8v_journal::flags::Flag;
use n8v_journal::http::AppState;
use n8v_journal::ids::{self, Kind};
use sqlx::PgPool;
use std::sync::Arc;
use tokio::sync::OnceCell;
use uuid::Uuid;

static SERVER: OnceCell<String> = OnceCell::const_new();

/// A URL of the PostgreSQL server the tests use (database `postgres`).
pub async fn server_url() -> String {
    SERVER
        .get_or_init(|| async {
            if let Ok(url) = std::env::var("DATABASE_URL") {
                return url;
            }
            let dir = std::env::var("N8V_TEST_DATA_DIR")
                .map(std::path::PathBuf::from)
                .unwrap_or_else(|_| std::env::temp_dir().join("n8v-journal-test-pg"));
            let pg = n8v_journal::db::embedded::EmbeddedPostgres::start(&dir)
                .await
                .expect("no DATABASE_URL, and the embedded PostgreSQL did not start");
            // Left running for the other test binaries; it is reused on the next run.
            pg.database_url("postgres")
        })
        .await
        .clone()
}

pub fn with_database(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (url, None),
    };
    let prefix = match base.rfind('/') {
        Some(i) if base[..i].ends_with('/') => base, // no database part: "postgres://host"
        Some(i) => &base[..i],
        None => base,
    };
    let prefix = prefix.trim_end_matches('/');
    match query {
        Some(q) => format!("{prefix}/{name}?{q}"),
        None => format!("{prefix}/{name}"),
    }
}

/// Creates a new, migrated database and returns its URL. Databases from runs older than an
/// hour are dropped on the way (names carry their creation time).
pub async fn fresh_database() -> String {
    let server = server_url().await;
    let admin_pool = sqlx::postgres::PgPoolOptions::new()
        .max_connections(1)
        .connect(&server)
        .await
        .expect("connect to the test server");
    drop_stale_databases(&admin_pool).await;
    let now = chrono::Utc::now().timestamp();
    let name = format!("n8v_test_{now}_{}", Uuid::new_v4().simple());
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .execute(&admin_pool)
        .await
        .expect("create test database");
    admin_pool.close().await;
    let url = with_database(&server, &name);
    db::migrate(&url, "n8v_app")
        .await
        .expect("migrate test database");
    url
}

async fn drop_stale_databases(pool: &PgPool) {
    static ONCE: std::sync::Once = std::sync::Once::new();
    let mut first = false;
    ONCE.call_once(|| first = true);
    if !first {
        return;
    }
    let cutoff = chrono::Utc::now().timestamp() - 3600;
    let names: Vec<String> =
        sqlx::query_scalar("SELECT datname FROM pg_database WHERE datname LIKE 'n8v\\_test\\_%'")
            .fetch_all(pool)
            .await
            .unwrap_or_default();
    for name in names {
        let created = name.split('_').nth(2).and_then(|t| t.parse::<i64>().ok());
        if created.is_some_and(|t| t < cutoff) {
            let _ = sqlx::query(sqlx::AssertSqlSafe(format!(
                "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
            )))
            .execute(pool)
            .await;
        }
    }
}

pub struct TestApp {
    pub base: String,
    pub db_url: String,
    /// The owner's pool (bypasses nothing in production; a superuser here). For setup only.
    pub owner: PgPool,
    pub db: Db,
    pub clock: Arc<ManualClock>,
    pub http: reqwest::Client,
}

pub struct Options {
    pub rate_limit_per_minute: u32,
    pub auth_failures_per_minute: u32,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            rate_limit_per_minute: 10_000,
            auth_failures_per_minute: 10_000,
        }
    }
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with(Options::default()).await
}

pub async fn spawn_app_with(options: Options) -> TestApp {
    spawn_app_configured(|config| {
        config.rate_limit_per_minute = options.rate_limit_per_minute;
        config.auth_failures_per_minute = options.auth_failures_per_minute;
    })
    .await
}

/// The app with its configuration adjusted by `configure` (on top of the test defaults).
pub async fn spawn_app_configured(configure: impl FnOnce(&mut Config)) -> TestApp {
    let db_url = fresh_database().await;
    let mut config = Config::for_database(&db_url);
    config.rate_limit_per_minute = 10_000;
    config.auth_failures_per_minute = 10_000;
    configure(&mut config);
    let db = Db::connect(&db_url, &config.app_role, 5)
        .await
        .expect("connect app pool");
    let clock = Arc::new(ManualClock::new(chrono::Utc::now()));
    let state = AppState::new(db.clone(), config, clock.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(n8v_journal::app::serve(
        listener,
        state,
        std::future::pending(),
    ));
    let owner = sqlx::postgres::PgPoolOptions::new()
        .max_connections(2)
        .connect(&db_url)
        .await
        .unwrap();
    TestApp {
        base,
        db_url,
        owner,
        db,
        clock,
        http: reqwest::Client::new(),
    }
}

/// An account with a key, as the admin CLI would make them.
pub struct Account {
    pub id: Uuid,
    pub ext: String,
    pub key_id: Uuid,
    pub token: String,
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub async fn account(&self, name: &str, scopes: &str) -> Account {
        let id = admin::create_account(&self.owner, name, false)
            .await
            .unwrap();
        let key = self.key(id, scopes, None).await;
        Account {
            id,
            ext: ids::format(Kind::Account, id),
            key_id: key.0,
            token: key.1,
        }
    }

    pub async fn key(&self, account: Uuid, scopes: &str, repo: Option<&str>) -> (Uuid, String) {
        let scopes = Scopes::parse(scopes).unwrap();
        let key = admin::create_key(&self.owner, account, &scopes, repo, "test")
            .await
            .unwrap();
        (key.key_id, key.token)
    }

    pub async fn journal_on(&self, account: Uuid) {
        admin::set_flag(&self.owner, Flag::AssistantJournal, true, Some(account))
            .await
            .unwrap();
    }

    pub async fn get(&self, token: &str, path: &str) -> reqwest::Response {
        self.http
            .get(self.url(path))
            .bearer_auth(token)
            .send()
            .await
            .unwrap()
    }

    pub async fn post(
        &self,
        token: &str,
        path: &str,
        body: serde_json::Value,
    ) -> reqwest::Response {
        self.http
            .post(self.url(path))
            .bearer_auth(token)
            .json(&body)
            .send()
            .await
            .unwrap()
    }
}

/// Asserts a problem+json answer with the given status and type slug; returns the body.
pub async fn expect_problem(
    response: reqwest::Response,
    status: u16,
    slug: &str,
) -> serde_json::Value {
    assert_eq!(response.status().as_u16(), status, "unexpected status");
    let content_type = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    assert_eq!(content_type, "application/problem+json");
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(
        body["type"],
        format!("https://n8v-journal.dev/problems/{slug}"),
        "{body}"
    );
    assert_eq!(body["status"], status);
    assert!(
        body["title"].is_string() && body["detail"].is_string(),
        "{body}"
    );
    body
}

impl TestApp {
    /// The account's own Record id, read as the owner (so no call is journalled).
    pub async fn record_of(&self, account: Uuid) -> String {
        let id: Uuid = sqlx::query_scalar(
            "SELECT record_id FROM records WHERE account_id = $1 AND organization_id IS NULL",
        )
        .bind(account)
        .fetch_one(&self.owner)
        .await
        .unwrap();
        ids::format(Kind::Record, id)
    }
}
