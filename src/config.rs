//! Every setting the service reads, from the environment (`N8V_*`), with its default: each is
//! named once, in a `read` that takes an [`Env`] (the process environment, or fixed values for
//! tests), so the defaults tests run with are the ones production starts with.

pub mod env;
mod lifecycle;
mod oauth;
pub mod origins;
pub mod reached;
mod secret;
mod summaries;
mod web;
mod webhooks;

pub use env::Env;
use env::SECOND;
pub use lifecycle::{ExportLimits, Lifecycle, RetentionRules, SessionRules};
pub use oauth::OAuthConfig;
use origins::McpOrigins;
pub use secret::{Secret, SecretUrl, redact_url};
pub use summaries::{CustomerProvider, ProviderSettings, SummaryConfig};
use web::hosts;
pub use web::{CorsOrigins, parse_public_url, parse_trusted_proxies};
pub use webhooks::WebhookConfig;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// `Debug` redacts every secret by its type ([`Secret`], [`SecretUrl`]: database passwords,
/// the JWT and fingerprint secrets, provider keys): configs end up in logs and panic messages.
#[derive(Clone, Debug)]
pub struct Config {
    /// The service's connection. `None` means: run the embedded PostgreSQL cluster.
    pub database_url: Option<SecretUrl>,
    /// The owner's connection, used by `migrate` and `admin`. Defaults to `database_url`, or
    /// to `direct_database_url` behind a pooler.
    pub migration_database_url: Option<SecretUrl>,
    /// What `database_url` reaches: PostgreSQL itself, or a pooler in transaction mode.
    pub pooler: Pooler,
    /// A connection straight to PostgreSQL, for what needs a session of its own (`LISTEN`, the
    /// job queue): required with a pooler, unused without one.
    pub direct_database_url: Option<SecretUrl>,
    /// The role every tenant transaction runs as (`SET LOCAL ROLE`), `N8V_APP_ROLE`. `None`
    /// (the default): the database's own, `n8v_app_<database>`, so deployments sharing a
    /// server never share roles (which belong to the whole server); a database migrated under
    /// the old default `n8v_app` keeps it while no other database uses it. See `db::app_role`.
    pub app_role: Option<String>,
    pub bind: SocketAddr,
    pub data_dir: PathBuf,
    /// HS256 secret for minted tokens. When unset a random one is made at start-up (tokens then
    /// die with the process and do not work across replicas; set it in production).
    pub jwt_secret: Option<Secret>,
    pub jwt_ttl: Duration,
    /// The server secret scrubbed credentials are fingerprinted under (`N8V_FINGERPRINT_SECRET`,
    /// see `journal::exposures`). When unset, the database's own random secret (migration 0019).
    pub fingerprint_secret: Option<Secret>,
    /// Requests per minute per credential; 0 turns the limit off.
    pub rate_limit_per_minute: u32,
    /// Failed authentications per minute per client address before 429.
    pub auth_failures_per_minute: u32,
    /// Proxies (CIDRs) whose client-address header names the client address.
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// The one header those proxies write the client address into (`X-Forwarded-For`).
    pub client_address_header: axum::http::HeaderName,
    pub max_body_bytes: usize,
    pub max_header_bytes: usize,
    pub db_max_connections: u32,
    /// Host names MCP accepts in `Host` (rmcp refuses others); `None` accepts any.
    pub mcp_allowed_hosts: Option<Vec<String>>,
    /// Browser origins MCP serves (`N8V_MCP_ALLOWED_ORIGINS`, see `http::mcp::origin`).
    pub mcp_allowed_origins: McpOrigins,
    /// When implicit sessions stop being reused.
    pub session_rules: SessionRules,
    pub summaries: SummaryConfig,
    /// Default size of `GET /journal.md` (what a Claude Code hook can show).
    pub journal_md_max_chars: usize,
    pub lifecycle: Lifecycle,
    /// Browser origins allowed to call the API cross-origin (CORS); empty = CORS off.
    pub cors_allowed_origins: CorsOrigins,
    /// Longest a request may take before it is answered `503`; `None` = no limit.
    pub request_timeout: Option<Duration>,
    /// Longest a search's statement may run (PostgreSQL's `statement_timeout`) before it is
    /// stopped and answered `503`.
    pub search_timeout: Duration,
    /// How many exports stream at once, and for how long (see [`ExportLimits`]).
    pub exports: ExportLimits,
    /// Longest a tenant transaction may sit idle, open, before PostgreSQL ends its connection
    /// (`idle_in_transaction_session_timeout`, set in every tenant transaction): a stalled
    /// holder cannot keep a connection or a snapshot from the other tenants longer than this.
    pub db_idle_in_transaction: Duration,
    /// `N8V_PUBLIC_URL`: the address clients reach the service at (behind a proxy, the
    /// proxy's), e.g. `https://journal.example.com`. It is the OAuth issuer, and `<it>/mcp` the
    /// resource identifier MCP access tokens are bound to. When unset, `http://` + the address
    /// the service listens on (see [`Config::own_base`]), and on a loopback bind discovery
    /// answers for whichever loopback name a client used (see [`Config::public_base`]).
    pub public_url: Option<String>,
    pub oauth: OAuthConfig,
    pub webhooks: WebhookConfig,
}

/// `N8V_DATABASE_POOLER`: whether `DATABASE_URL` is a pooler that hands out a server
/// connection per transaction (PgBouncer's `pool_mode = transaction`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pooler {
    /// `DATABASE_URL` reaches PostgreSQL itself (the default).
    #[default]
    None,
    /// Transaction pooling: tenant transactions go through it without the statement cache;
    /// everything that is not one transaction uses `N8V_DIRECT_DATABASE_URL`.
    Transaction,
}

impl Pooler {
    pub fn parse(text: &str) -> anyhow::Result<Self> {
        match text.trim().to_ascii_lowercase().as_str() {
            "" | "none" => Ok(Self::None),
            "transaction" => Ok(Self::Transaction),
            other => anyhow::bail!(
                "N8V_DATABASE_POOLER is {other:?}; use none (the default: DATABASE_URL is \
                 PostgreSQL itself) or transaction (a pooler in transaction mode, e.g. PgBouncer)"
            ),
        }
    }
}

/// The secret in `name`, once `check` accepts it.
fn checked_secret(
    env: &Env,
    name: &str,
    check: fn(&str) -> anyhow::Result<()>,
) -> anyhow::Result<Option<Secret>> {
    let secret = env.var(name);
    if let Some(secret) = &secret {
        check(secret)?;
    }
    Ok(secret.map(Secret::from))
}

/// `N8V_DATABASE_POOLER` and `N8V_DIRECT_DATABASE_URL`: a transaction pooler needs both
/// `DATABASE_URL` (`has_database_url`) and the direct connection.
fn pooler(env: &Env, has_database_url: bool) -> anyhow::Result<(Pooler, Option<SecretUrl>)> {
    let pooler = Pooler::parse(&env.text("N8V_DATABASE_POOLER", ""))?;
    let direct = env.var("N8V_DIRECT_DATABASE_URL").map(SecretUrl::from);
    if pooler == Pooler::Transaction && (!has_database_url || direct.is_none()) {
        anyhow::bail!(
            "N8V_DATABASE_POOLER=transaction needs DATABASE_URL (the pooler) and \
             N8V_DIRECT_DATABASE_URL (PostgreSQL itself, for LISTEN, the job queue and \
             migrations, which need a session of their own)"
        );
    }
    Ok((pooler, direct))
}

impl Config {
    /// Every setting from the process environment.
    pub fn from_env() -> anyhow::Result<Self> {
        Self::read(&Env::process())
    }

    /// Defaults for tests and embedding: everything as [`Config::from_env`] gives on a bare
    /// machine, with `database_url`, a fixed JWT secret, an ephemeral port and 10 connections.
    pub fn for_database(database_url: &str) -> Self {
        Self::read(&Env::of(&[
            ("DATABASE_URL", database_url),
            ("N8V_JWT_SECRET", "test-secret-test-secret-test-secret"),
            ("N8V_BIND", "127.0.0.1:0"),
            ("N8V_DB_MAX_CONNECTIONS", "10"),
        ]))
        .expect("the test settings are valid")
    }

    /// Every setting from `env`: the one place each is named, with its default.
    pub fn read(env: &Env) -> anyhow::Result<Self> {
        let database_url = env.var("DATABASE_URL").map(SecretUrl::from);
        let jwt_secret = checked_secret(env, "N8V_JWT_SECRET", check_jwt_secret)?;
        let fingerprint_secret =
            checked_secret(env, "N8V_FINGERPRINT_SECRET", check_fingerprint_secret)?;
        let (pooler, direct_database_url) = pooler(env, database_url.is_some())?;
        let db_max_connections = env.parse("N8V_DB_MAX_CONNECTIONS", 20)?;
        let db_idle_in_transaction = env.duration(
            "N8V_DB_IDLE_IN_TRANSACTION_SECONDS",
            SECOND,
            crate::db::IDLE_IN_TRANSACTION.as_secs(),
            1,
        )?;
        Ok(Self {
            // Migrations take a session-level lock: behind a pooler they go direct.
            migration_database_url: env
                .var("N8V_MIGRATION_DATABASE_URL")
                .map(SecretUrl::from)
                .or(match pooler {
                    Pooler::None => database_url.clone(),
                    Pooler::Transaction => direct_database_url.clone(),
                }),
            database_url,
            pooler,
            direct_database_url,
            app_role: env.var("N8V_APP_ROLE"),
            bind: env.parse("N8V_BIND", "127.0.0.1:8080".parse()?)?,
            data_dir: env.text("N8V_DATA_DIR", "./.n8v-journal").into(),
            jwt_secret,
            jwt_ttl: env.duration("N8V_JWT_TTL_SECONDS", SECOND, 900, 0)?,
            fingerprint_secret,
            rate_limit_per_minute: env.parse("N8V_RATE_LIMIT_PER_MINUTE", 600)?,
            auth_failures_per_minute: env.parse("N8V_AUTH_FAILURES_PER_MINUTE", 30)?,
            trusted_proxies: parse_trusted_proxies(&env.text("N8V_TRUSTED_PROXIES", ""))
                .map_err(|e| anyhow::anyhow!("N8V_TRUSTED_PROXIES: {e}"))?,
            client_address_header: env
                .text("N8V_CLIENT_ADDRESS_HEADER", "x-forwarded-for")
                .parse()
                .map_err(|_| anyhow::anyhow!("N8V_CLIENT_ADDRESS_HEADER: not a header name"))?,
            max_body_bytes: env.parse("N8V_MAX_BODY_BYTES", 1024 * 1024)?,
            max_header_bytes: env.parse("N8V_MAX_HEADER_BYTES", 16 * 1024)?,
            db_max_connections,
            mcp_allowed_hosts: hosts(&env.text("N8V_MCP_ALLOWED_HOSTS", "localhost,127.0.0.1,::1")),
            mcp_allowed_origins: McpOrigins::parse(&env.text("N8V_MCP_ALLOWED_ORIGINS", ""))?,
            session_rules: SessionRules::read(env)?,
            summaries: SummaryConfig::read(env)?,
            journal_md_max_chars: env.parse("N8V_JOURNAL_MD_MAX_CHARS", 9_500)?,
            lifecycle: Lifecycle::read(env)?,
            cors_allowed_origins: CorsOrigins::parse(&env.text("N8V_CORS_ALLOWED_ORIGINS", ""))?,
            request_timeout: match env.parse("N8V_REQUEST_TIMEOUT_SECONDS", 30u64)? {
                0 => None,
                seconds => Some(Duration::from_secs(seconds)),
            },
            search_timeout: env.duration(
                "N8V_SEARCH_TIMEOUT_MS",
                Duration::from_millis(1),
                3_000,
                1,
            )?,
            exports: ExportLimits::read(env, db_max_connections, db_idle_in_transaction)?,
            db_idle_in_transaction,
            public_url: env
                .var("N8V_PUBLIC_URL")
                .map(|u| parse_public_url(&u))
                .transpose()?,
            oauth: OAuthConfig::read(env)?,
            webhooks: WebhookConfig::read(env)?,
        })
    }

    /// The service's own address, without a trailing `/`: `N8V_PUBLIC_URL`, else `http://` and
    /// the listening address (an unspecified address, `0.0.0.0` or `::`, as `localhost`). The
    /// OAuth issuer tokens carry, whatever name a client used (see [`Self::public_base`]).
    pub fn own_base(&self) -> String {
        if let Some(url) = &self.public_url {
            return url.clone();
        }
        let port = self.bind.port();
        if self.bind.ip().is_unspecified() {
            format!("http://localhost:{port}")
        } else {
            format!("http://{}", self.bind)
        }
    }

    /// The address a client is told the service is at, without a trailing `/`: while serving a
    /// request that reached a loopback name of the listening port (`localhost`, `127.0.0.1`,
    /// `[::1]`) with no `N8V_PUBLIC_URL` set, that name (see [`reached`]); else
    /// [`Self::own_base`].
    pub fn public_base(&self) -> String {
        reached::current().unwrap_or_else(|| self.own_base())
    }

    /// The address a request whose `Host` is `host` reached, when discovery answers for it: a
    /// loopback name of the listening port, with no `N8V_PUBLIC_URL` set (see [`reached`]).
    pub fn reached_base(&self, host: &str) -> Option<String> {
        if self.public_url.is_some() || !reached::answers_loopback(self.bind) {
            return None;
        }
        reached::loopback_base(host, self.bind.port())
    }

    /// The service's own addresses (each without a trailing `/`): [`Self::own_base`], and with
    /// no `N8V_PUBLIC_URL` on a loopback bind, the loopback names of the listening port too.
    pub fn own_bases(&self) -> Vec<String> {
        let mut bases = vec![self.own_base()];
        if self.public_url.is_none() && reached::answers_loopback(self.bind) {
            let port = self.bind.port();
            for host in ["localhost", "127.0.0.1", "[::1]"] {
                if let Some(base) = reached::loopback_base(&format!("{host}:{port}"), port)
                    && !bases.contains(&base)
                {
                    bases.push(base);
                }
            }
        }
        bases
    }

    /// The resource identifier of `/mcp` (RFC 8707, RFC 9728) that tokens are bound to:
    /// [`Self::own_base`]`/mcp`.
    pub fn mcp_resource(&self) -> String {
        format!("{}/mcp", self.own_base())
    }

    /// The URL to give MCP clients: [`Self::public_base`]`/mcp` (the protected resource its
    /// metadata names).
    pub fn mcp_url(&self) -> String {
        format!("{}/mcp", self.public_base())
    }
}

/// The shortest `N8V_JWT_SECRET` (and `N8V_FINGERPRINT_SECRET`) accepted: 256 bits, as HS256
/// wants.
pub const MIN_JWT_SECRET_BYTES: usize = 32;

/// Refuses a JWT secret short enough to guess offline from one token.
pub fn check_jwt_secret(secret: &str) -> anyhow::Result<()> {
    check_secret(
        "N8V_JWT_SECRET",
        secret,
        "unset it to use a random per-process secret",
    )
}

/// Refuses a fingerprint secret short enough to guess from the fingerprints.
pub fn check_fingerprint_secret(secret: &str) -> anyhow::Result<()> {
    check_secret(
        "N8V_FINGERPRINT_SECRET",
        secret,
        "unset it to use the database's own random secret",
    )
}

fn check_secret(name: &str, secret: &str, otherwise: &str) -> anyhow::Result<()> {
    if secret.len() < MIN_JWT_SECRET_BYTES {
        anyhow::bail!(
            "{name} is {} bytes; it must be at least {MIN_JWT_SECRET_BYTES} random bytes \
             (e.g. `openssl rand -hex 32`), or {otherwise}",
            secret.len()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_redacts_every_secret() {
        let mut config =
            Config::for_database("postgres://owner:db-pass-123@db:5432/n8v?password=q-pass-456");
        config.jwt_secret = Some("jwt-secret-jwt-secret-jwt-secret-789".into());
        config.fingerprint_secret = Some("fingerprint-secret-fingerprint-0123".into());
        config.direct_database_url = Some("postgres://owner:direct-pass-321@db/n8v".into());
        config.summaries.gemini = Some(ProviderSettings {
            base_url: "https://u:url-pass-000@gemini.example".into(),
            api_key: "gemini-key-abc".into(),
            model: "m".into(),
        });
        config.summaries.proxy = Some(ProviderSettings {
            base_url: "http://proxy".into(),
            api_key: "proxy-key-def".into(),
            model: "m".into(),
        });
        let text = format!("{config:?} {config:#?}");
        for secret in [
            "db-pass-123",
            "q-pass-456",
            "direct-pass-321",
            "jwt-secret",
            "fingerprint-secret",
            "gemini-key-abc",
            "proxy-key-def",
            "url-pass-000",
        ] {
            assert!(!text.contains(secret), "{secret} leaked: {text}");
        }
        assert!(
            text.contains("postgres://owner:[redacted]@db:5432/n8v"),
            "{text}"
        );
    }

    #[test]
    fn settings_are_read_from_the_env_given_with_their_defaults_otherwise() {
        let config = Config::read(&Env::of(&[
            ("N8V_SEARCH_TIMEOUT_MS", "250"),
            ("N8V_OAUTH_REFRESH_TOKEN_TTL_DAYS", "2"),
            ("N8V_CALL_RETENTION_DAYS", " 7 "),
            ("N8V_PROXY_BASE_URL", "http://u:proxy-pass@proxy"),
            ("N8V_DATA_DIR", "  "),
        ]))
        .unwrap();
        assert_eq!(config.search_timeout, Duration::from_millis(250));
        assert_eq!(
            config.oauth.refresh_token_ttl,
            Duration::from_secs(2 * 86_400)
        );
        assert_eq!(config.lifecycle.retention.calls, chrono::Duration::days(7));
        assert_eq!(
            config.data_dir,
            PathBuf::from("./.n8v-journal"),
            "blank is unset"
        );
        assert_eq!(config.bind.port(), 8080);
        assert_eq!(config.db_max_connections, 20);
        assert_eq!(config.exports.per_process, 5);
        let proxy = config.summaries.proxy.as_ref().unwrap();
        assert_eq!(proxy.base_url.expose(), "http://u:proxy-pass@proxy");
        assert!(!format!("{config:?}").contains("proxy-pass"));
        let tests = Config::for_database("postgres://localhost/x");
        assert_eq!(tests.bind.port(), 0);
        assert_eq!(
            tests.exports.per_process, 2,
            "a quarter of the 10 test connections"
        );
        assert_eq!(tests.lifecycle.retention.cap_calls, 100_000);
    }

    #[test]
    fn a_setting_that_does_not_parse_or_fit_stops_start_up_naming_it() {
        for (name, value) in [
            ("N8V_CALL_RETENTION_DAYS", "9999999999999999"),
            ("N8V_RATE_LIMIT_PER_MINUTE", "many"),
            ("N8V_BIND", "localhost"),
        ] {
            let error = Config::read(&Env::of(&[(name, value)]))
                .unwrap_err()
                .to_string();
            assert!(error.contains(name), "{name}: {error}");
        }
    }

    #[test]
    fn the_pooler_setting_is_none_or_transaction() {
        assert_eq!(Pooler::parse("").unwrap(), Pooler::None);
        assert_eq!(Pooler::parse("none").unwrap(), Pooler::None);
        assert_eq!(Pooler::parse(" Transaction ").unwrap(), Pooler::Transaction);
        let error = Pooler::parse("session").unwrap_err().to_string();
        assert!(error.contains("N8V_DATABASE_POOLER"), "{error}");
    }

    #[test]
    fn short_jwt_secrets_are_refused() {
        let error = check_jwt_secret("short-secret").unwrap_err().to_string();
        assert!(error.contains("at least 32"), "{error}");
        assert!(check_jwt_secret(&"x".repeat(32)).is_ok());
        let error = check_fingerprint_secret("short").unwrap_err().to_string();
        assert!(error.contains("N8V_FINGERPRINT_SECRET"), "{error}");
        assert!(check_fingerprint_secret(&"y".repeat(32)).is_ok());
    }
}
