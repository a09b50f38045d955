//! Test harness: a real PostgreSQL (the server in `DATABASE_URL`, else the embedded cluster),
//! a fresh database per test, and the real app on a real port.

#![allow(dead_code)]

pub mod bulk;
mod call;
pub mod chat;
pub mod cluster;
pub mod hook;
pub mod journal;
pub mod logs;
pub mod mcp;
pub mod model;
pub mod node;
pub mod oauth;
pub mod page;
pub mod pgbouncer;
pub mod race;

pub mod receiver;
pub mod replicas;
pub mod scan;
pub mod seed;

// Not every test binary that includes this module uses all of these.
#[allow(unused_imports)]
pub use call::{Call, expect_ok, expect_problem, session_of};
#[allow(unused_imports)]
pub use journal::{decode, ids, json_text};

use n8v_journal::admin;
use n8v_journal::auth::Scopes;
use n8v_journal::clock::ManualClock;
use n8v_journal::config::Config;
use n8v_journal::db::{self, Db};
use n8v_journal::flags::Flag;
use n8v_journal::ids::{self, Kind};
use n8v_journal::ops::Services;
use sqlx::PgPool;
use std::sync::Arc;
use tokio::sync::OnceCell;
use uuid::Uuid;

static SERVER: OnceCell<String> = OnceCell::const_new();

/// The scopes of a key that works with Records and reads the journal.
pub const JOURNAL_SCOPES: &str = "chats:read,records:read,records:write";
/// [`JOURNAL_SCOPES`] and the organizations'.
pub const JOURNAL_AND_ORG_SCOPES: &str = "chats:read,records:read,records:write,orgs:read";
/// [`JOURNAL_SCOPES`] and deleting sessions.
pub const DELETING_SCOPES: &str = "chats:read,chats:delete,records:read,records:write";
/// [`JOURNAL_SCOPES`] and managing webhooks.
pub const WEBHOOK_SCOPES: &str = "chats:read,records:read,records:write,webhooks:write";
/// Every scope a customer's assistant uses: [`DELETING_SCOPES`] and managing webhooks.
pub const CUSTOMER_SCOPES: &str =
    "chats:read,chats:delete,records:read,records:write,webhooks:write";

/// A port nothing listens on now (the OS's pick, released at once).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

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
    let url = empty_database().await;
    db::migrate(&url, None)
        .await
        .expect("migrate test database");
    url
}

/// Creates a new database that has never been migrated and returns its URL.
pub async fn empty_database() -> String {
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
    with_database(&server, &name)
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
    // Each test database has roles of its own, marked with its name: they go with it.
    let roles: Vec<String> = sqlx::query_scalar(
        "SELECT format('%I', r.rolname) FROM pg_roles r \
          WHERE shobj_description(r.oid, 'pg_authid') LIKE 'n8v-journal: n8v\\_test\\_%' \
            AND NOT EXISTS (SELECT 1 FROM pg_database d \
                 WHERE 'n8v-journal: ' || d.datname = shobj_description(r.oid, 'pg_authid'))",
    )
    .fetch_all(pool)
    .await
    .unwrap_or_default();
    for role in roles {
        let _ = sqlx::query(sqlx::AssertSqlSafe(format!("DROP ROLE IF EXISTS {role}")))
            .execute(pool)
            .await;
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
    let db = Db::connect(&db_url, config.app_role.as_deref(), 5)
        .await
        .expect("connect app pool");
    spawn_on(db_url, config, db).await
}

/// Another replica of a deployment: an app of its own (its own process state: limiters,
/// caches, workers) on the database at `db_url`, which another [`TestApp`] already serves.
pub async fn spawn_app_on(db_url: &str, configure: impl FnOnce(&mut Config)) -> TestApp {
    let mut config = Config::for_database(db_url);
    config.rate_limit_per_minute = 10_000;
    config.auth_failures_per_minute = 10_000;
    configure(&mut config);
    let db = Db::connect(db_url, config.app_role.as_deref(), 5)
        .await
        .expect("connect app pool");
    spawn_on(db_url.to_owned(), config, db).await
}

/// The app with tenant work going through `bouncer` (PgBouncer in transaction mode) and the
/// rest straight to the server, as `N8V_DATABASE_POOLER=transaction` runs it.
pub async fn spawn_app_through(bouncer: &pgbouncer::PgBouncer) -> TestApp {
    let db_url = fresh_database().await;
    let pooled_url = bouncer.url(&db_url);
    let mut config = Config::for_database(&pooled_url);
    config.pooler = n8v_journal::config::Pooler::Transaction;
    config.direct_database_url = Some(db_url.clone().into());
    config.rate_limit_per_minute = 10_000;
    config.auth_failures_per_minute = 10_000;
    // The bouncer lets in only the login role it was started for.
    config.app_role = Some(bouncer.app_role.clone());
    db::migrate(&db_url, config.app_role.as_deref())
        .await
        .expect("the bouncer's application role");
    let db = Db::connect_through_pooler(&pooled_url, &db_url, config.app_role.as_deref(), 5)
        .await
        .expect("connect through pgbouncer");
    spawn_on(db_url, config, db).await
}

async fn spawn_on(db_url: String, mut config: Config, db: Db) -> TestApp {
    let clock = Arc::new(ManualClock::new(chrono::Utc::now()));
    // Bound first, so the public URL (the OAuth issuer) is the address the tests reach.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    config.bind = listener.local_addr().unwrap();
    let base = serve_on(listener, Services::new(db.clone(), config, clock.clone()));
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

/// Serves the app with `state` on a free port of 127.0.0.1 until the test ends; its base URL.
pub async fn serve(state: Services) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    serve_on(listener, state)
}

/// Serves the app with `state` on `listener` until the test ends; its base URL.
pub fn serve_on(listener: tokio::net::TcpListener, state: Services) -> String {
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(n8v_journal::app::serve(
        listener,
        state,
        std::future::pending(),
    ));
    base
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

    /// An owner holding `owner_scopes` and a member holding `chats:read`, both with the
    /// journal on, and the owner's organization the member belongs to (its `org_…` id).
    pub async fn owner_and_member(&self, owner_scopes: &str) -> (Account, Account, String) {
        let o = self.account("O", owner_scopes).await;
        let m = self.account("M", "chats:read").await;
        self.journal_on(o.id).await;
        self.journal_on(m.id).await;
        let org = self.organization_with_reader(o.id, "Org", m.id).await;
        let org = n8v_journal::ids::format(n8v_journal::ids::Kind::Organization, org);
        (o, m, org)
    }

    /// An organization `owner` owns, named `name`, with `member` in it allowed to read it.
    pub async fn organization_with_reader(&self, owner: Uuid, name: &str, member: Uuid) -> Uuid {
        let org = admin::create_org(&self.owner, owner, name).await.unwrap();
        admin::add_member(&self.owner, org, member, true)
            .await
            .unwrap();
        org
    }

    pub async fn journal_on(&self, account: Uuid) {
        admin::set_flag(&self.owner, Flag::AssistantJournal, true, Some(account))
            .await
            .unwrap();
    }

    pub async fn get(&self, token: &str, path: &str) -> reqwest::Response {
        self.call(reqwest::Method::GET, path)
            .token(token)
            .send()
            .await
    }

    pub async fn post(
        &self,
        token: &str,
        path: &str,
        body: serde_json::Value,
    ) -> reqwest::Response {
        self.call(reqwest::Method::POST, path)
            .token(token)
            .json(body)
            .send()
            .await
    }
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

impl TestApp {
    /// The workers' state on this app's database and clock, with the settings `configure`
    /// adjusts.
    pub fn workers(&self, configure: impl FnOnce(&mut Config)) -> n8v_journal::jobs::WorkerState {
        let mut config = Config::for_database(&self.db_url);
        configure(&mut config);
        n8v_journal::jobs::WorkerState {
            db: self.db.clone(),
            config: Arc::new(config),
            clock: self.clock.clone(),
        }
    }
}

impl TestApp {
    /// The summary jobs waiting in the queue, oldest first.
    pub async fn queued_summaries(&self) -> Vec<n8v_journal::queue::SummarizeSession> {
        let payloads: Vec<Vec<u8>> = sqlx::query_scalar(
            "SELECT job FROM apalis.jobs WHERE job_type = $1 ORDER BY run_at, id",
        )
        .bind(n8v_journal::queue::SUMMARIZE_QUEUE)
        .fetch_all(&self.owner)
        .await
        .unwrap();
        payloads
            .iter()
            .map(|p| serde_json::from_slice(p).unwrap())
            .collect()
    }
}

/// Summaries and digests of customer accounts go to a local Gemini-speaking server.
pub fn use_gemini(config: &mut Config, base_url: &str) {
    config.summaries.gemini = Some(n8v_journal::config::ProviderSettings {
        base_url: base_url.into(),
        api_key: "test-key".into(),
        model: "gemini-3.1-flash-lite".into(),
    });
}
