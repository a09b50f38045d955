//! Every setting the service reads, from the environment (`N8V_*`), with its default.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

mod webhooks;
pub use webhooks::WebhookConfig;

/// `Debug` redacts every secret (database passwords, the JWT secret, provider keys): configs
/// end up in logs and panic messages.
#[derive(Clone)]
pub struct Config {
    /// The service's connection. `None` means: run the embedded PostgreSQL cluster.
    pub database_url: Option<String>,
    /// The owner's connection, used by `migrate` and `admin`. Defaults to `database_url`, or
    /// to `direct_database_url` behind a pooler.
    pub migration_database_url: Option<String>,
    /// What `database_url` reaches: PostgreSQL itself, or a pooler in transaction mode.
    pub pooler: Pooler,
    /// A connection straight to PostgreSQL, for what needs a session of its own (`LISTEN`, the
    /// job queue): required with a pooler, unused without one.
    pub direct_database_url: Option<String>,
    /// The role every tenant transaction runs as (`SET LOCAL ROLE`), `N8V_APP_ROLE`. `None`
    /// (the default): the database's own, `n8v_app_<database>`, so deployments sharing a
    /// server never share roles (which belong to the whole server); a database migrated under
    /// the old default `n8v_app` keeps it while no other database uses it. See `db::app_role`.
    pub app_role: Option<String>,
    pub bind: SocketAddr,
    pub data_dir: PathBuf,
    /// HS256 secret for minted tokens. When unset a random one is made at start-up (tokens then
    /// die with the process and do not work across replicas; set it in production).
    pub jwt_secret: Option<String>,
    pub jwt_ttl: Duration,
    /// The server secret scrubbed credentials are fingerprinted under (`N8V_FINGERPRINT_SECRET`,
    /// see `journal::exposures`). When unset, the database's own random secret (migration 0019).
    pub fingerprint_secret: Option<String>,
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
    pub mcp_allowed_origins: crate::http::mcp::origin::McpOrigins,
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
    /// the service listens on (see [`Config::public_base`]).
    pub public_url: Option<String>,
    pub oauth: OAuthConfig,
    pub webhooks: WebhookConfig,
}

/// Exports hold a connection and a snapshot while they stream, so they are bounded: at most
/// `per_process` at once in this process (default a quarter of `N8V_DB_MAX_CONNECTIONS`, at
/// least 1), at most `per_account` of one account's (2); a reader that takes no data for
/// `stall` (30 s) loses its export, and no export streams longer than `longest` (10 min).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExportLimits {
    pub per_process: u32,
    pub per_account: u32,
    pub stall: Duration,
    pub longest: Duration,
}

impl ExportLimits {
    /// The defaults for a pool of `max_connections` tenant connections.
    pub fn for_pool(max_connections: u32) -> Self {
        Self {
            per_process: (max_connections / 4).max(1),
            per_account: 2,
            stall: Duration::from_secs(30),
            longest: Duration::from_secs(600),
        }
    }

    fn from_env(max_connections: u32, idle_in_transaction: Duration) -> anyhow::Result<Self> {
        let defaults = Self::for_pool(max_connections);
        let limits = Self {
            per_process: parse("N8V_EXPORTS_PER_PROCESS", defaults.per_process)?.max(1),
            per_account: parse("N8V_EXPORTS_PER_ACCOUNT", defaults.per_account)?.max(1),
            stall: Duration::from_secs(parse("N8V_EXPORT_STALL_SECONDS", 30u64)?.max(1)),
            longest: Duration::from_secs(parse("N8V_EXPORT_LONGEST_SECONDS", 600u64)?.max(1)),
        };
        if limits.stall >= idle_in_transaction {
            anyhow::bail!(
                "N8V_EXPORT_STALL_SECONDS ({}) must be shorter than \
                 N8V_DB_IDLE_IN_TRANSACTION_SECONDS ({}): an export waiting on its reader is \
                 idle in its transaction, and PostgreSQL would end it first",
                limits.stall.as_secs(),
                idle_in_transaction.as_secs()
            );
        }
        Ok(limits)
    }
}

/// The OAuth authorization server for MCP clients (`src/oauth/`).
#[derive(Clone, Debug)]
pub struct OAuthConfig {
    /// `N8V_OAUTH_ACCESS_TOKEN_TTL_SECONDS` (3600): how long an access token works.
    pub access_token_ttl: Duration,
    /// `N8V_OAUTH_REFRESH_TOKEN_TTL_DAYS` (30): how long an unused refresh token works (each
    /// refresh issues a new one with a fresh lifetime).
    pub refresh_token_ttl: Duration,
    /// `N8V_OAUTH_REGISTRATIONS_PER_MINUTE` (10): dynamic registrations per client address.
    pub registrations_per_minute: u32,
    /// `N8V_OAUTH_UNUSED_CLIENT_HOURS` (24): a registered client no grant was approved for is
    /// deleted after this long.
    pub unused_client_ttl: Duration,
    /// `N8V_OAUTH_ALLOW_PRIVATE_CLIENT_URLS` (false): let client ID metadata documents live on
    /// loopback, private and link-local addresses, and over plain `http`. For tests and
    /// development only: it lets anyone who can start an authorization make the service fetch
    /// from its own network.
    pub allow_private_client_urls: bool,
}

impl Default for OAuthConfig {
    fn default() -> Self {
        Self {
            access_token_ttl: Duration::from_secs(3600),
            refresh_token_ttl: Duration::from_secs(30 * 86_400),
            registrations_per_minute: 10,
            unused_client_ttl: Duration::from_secs(24 * 3600),
            allow_private_client_urls: false,
        }
    }
}

impl OAuthConfig {
    fn from_env() -> anyhow::Result<Self> {
        Ok(Self {
            access_token_ttl: Duration::from_secs(
                parse("N8V_OAUTH_ACCESS_TOKEN_TTL_SECONDS", 3600u64)?.max(60),
            ),
            refresh_token_ttl: Duration::from_secs(
                parse("N8V_OAUTH_REFRESH_TOKEN_TTL_DAYS", 30u64)?.max(1) * 86_400,
            ),
            registrations_per_minute: parse("N8V_OAUTH_REGISTRATIONS_PER_MINUTE", 10)?,
            unused_client_ttl: Duration::from_secs(
                parse("N8V_OAUTH_UNUSED_CLIENT_HOURS", 24u64)?.max(1) * 3600,
            ),
            allow_private_client_urls: parse("N8V_OAUTH_ALLOW_PRIVATE_CLIENT_URLS", false)?,
        })
    }
}

/// `N8V_PUBLIC_URL`: an absolute `http`/`https` URL without query or fragment; a trailing `/`
/// is dropped.
pub fn parse_public_url(text: &str) -> anyhow::Result<String> {
    let url = url::Url::parse(text.trim())
        .map_err(|e| anyhow::anyhow!("N8V_PUBLIC_URL={text:?} is not a URL: {e}"))?;
    if !matches!(url.scheme(), "http" | "https")
        || url.host_str().is_none()
        || url.query().is_some()
        || url.fragment().is_some()
        || !url.username().is_empty()
    {
        anyhow::bail!(
            "N8V_PUBLIC_URL={text:?}: use an http(s) URL with a host and no query, fragment or user"
        );
    }
    Ok(url.as_str().trim_end_matches('/').to_owned())
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

/// When an implicit session stops being reused: after `quiet` without calls, or once it is
/// `max_age` old (the seed's 30 minutes and 12 hours by default).
#[derive(Clone, Copy, Debug)]
pub struct SessionRules {
    pub quiet: chrono::Duration,
    pub max_age: chrono::Duration,
}

impl Default for SessionRules {
    fn default() -> Self {
        Self {
            quiet: chrono::Duration::minutes(30),
            max_age: chrono::Duration::hours(12),
        }
    }
}

/// How long the journal keeps things, and how much of them.
#[derive(Clone, Copy, Debug)]
pub struct RetentionRules {
    pub calls: chrono::Duration,
    pub sessions: chrono::Duration,
    pub cap_calls: i64,
    pub cap_sessions: i64,
    /// Rows per deleting transaction.
    pub batch: i64,
}

impl Default for RetentionRules {
    fn default() -> Self {
        Self {
            calls: chrono::Duration::days(90),
            sessions: chrono::Duration::days(400),
            cap_calls: 100_000,
            cap_sessions: 20_000,
            batch: 1_000,
        }
    }
}

/// Retention, caps and their schedules: the product text's numbers by default.
#[derive(Clone, Debug)]
pub struct Lifecycle {
    pub retention: RetentionRules,
    /// How long audit entries are kept, independently of the journal.
    pub audit_retention: chrono::Duration,
    /// When the retention pass runs (cron, seconds first).
    pub retention_schedule: String,
    /// When the audit retention pass runs.
    pub audit_retention_schedule: String,
    /// Sessions are rolled into week digests once their week ended this long ago.
    pub digest_week_after: chrono::Duration,
    /// Week digests are rolled into month digests once their month ended this long ago.
    pub digest_month_after: chrono::Duration,
    /// When the nightly digest pass runs (after 02:30 server time by default).
    pub digest_schedule: String,
}

impl Default for Lifecycle {
    fn default() -> Self {
        Self {
            retention: RetentionRules::default(),
            audit_retention: chrono::Duration::days(400),
            retention_schedule: "0 30 3 * * *".into(),
            audit_retention_schedule: "0 45 3 * * *".into(),
            digest_week_after: chrono::Duration::days(14),
            digest_month_after: chrono::Duration::days(90),
            digest_schedule: "0 30 2 * * *".into(),
        }
    }
}

impl Lifecycle {
    fn from_env() -> anyhow::Result<Self> {
        let d = RetentionRules::default();
        Ok(Self {
            retention: RetentionRules {
                calls: chrono::Duration::days(parse("N8V_CALL_RETENTION_DAYS", 90)?),
                sessions: chrono::Duration::days(parse("N8V_SESSION_RETENTION_DAYS", 400)?),
                cap_calls: parse("N8V_CAP_CALLS", d.cap_calls)?,
                cap_sessions: parse("N8V_CAP_SESSIONS", d.cap_sessions)?,
                batch: parse("N8V_RETENTION_BATCH", d.batch)?,
            },
            audit_retention: chrono::Duration::days(parse("N8V_AUDIT_RETENTION_DAYS", 400)?),
            retention_schedule: var("N8V_RETENTION_SCHEDULE")
                .unwrap_or_else(|| "0 30 3 * * *".into()),
            audit_retention_schedule: var("N8V_AUDIT_RETENTION_SCHEDULE")
                .unwrap_or_else(|| "0 45 3 * * *".into()),
            digest_week_after: chrono::Duration::days(parse("N8V_DIGEST_WEEK_AFTER_DAYS", 14)?),
            digest_month_after: chrono::Duration::days(parse("N8V_DIGEST_MONTH_AFTER_DAYS", 90)?),
            digest_schedule: var("N8V_DIGEST_SCHEDULE").unwrap_or_else(|| "0 30 2 * * *".into()),
        })
    }
}

/// `N8V_CORS_ALLOWED_ORIGINS`: exact origins (`https://app.example.com`), or `*` for any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum CorsOrigins {
    /// No CORS headers at all: browsers keep other origins out (the default).
    #[default]
    Off,
    Any,
    List(Vec<String>),
}

impl CorsOrigins {
    pub fn parse(list: &str) -> anyhow::Result<Self> {
        let origins: Vec<String> = list
            .split(',')
            .map(|o| o.trim().trim_end_matches('/').to_owned())
            .filter(|o| !o.is_empty())
            .collect();
        if origins.is_empty() {
            return Ok(Self::Off);
        }
        if origins.iter().any(|o| o == "*") {
            return Ok(Self::Any);
        }
        for origin in &origins {
            let (scheme, host) = origin.split_once("://").unwrap_or(("", ""));
            if !matches!(scheme, "http" | "https")
                || host.is_empty()
                || host.contains(['/', '?', '#', ' '])
            {
                anyhow::bail!(
                    "N8V_CORS_ALLOWED_ORIGINS: {origin:?} is not an origin \
                     (scheme://host[:port], e.g. https://app.example.com)"
                );
            }
        }
        Ok(Self::List(origins))
    }
}

/// A model provider's endpoint.
#[derive(Clone)]
pub struct ProviderSettings {
    pub base_url: String,
    pub api_key: String,
    pub model: String,
}

/// Which model customer accounts' summaries and digests use (`N8V_SUMMARY_CUSTOMER_PROVIDER`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CustomerProvider {
    /// Gemini (`N8V_GEMINI_API_KEY`), the default.
    #[default]
    Gemini,
    /// The OpenAI-compatible endpoint (`N8V_PROXY_BASE_URL`), e.g. a local model server,
    /// charged at the configured rates.
    Proxy,
    /// No model: code writes every customer summary.
    Code,
}

impl CustomerProvider {
    pub fn parse(text: &str) -> anyhow::Result<Self> {
        match text.trim().to_ascii_lowercase().as_str() {
            "gemini" => Ok(Self::Gemini),
            "proxy" => Ok(Self::Proxy),
            "code" => Ok(Self::Code),
            other => anyhow::bail!(
                "N8V_SUMMARY_CUSTOMER_PROVIDER is {other:?}; use gemini (the default), proxy \
                 (the OpenAI-compatible endpoint at N8V_PROXY_BASE_URL) or code (no model)"
            ),
        }
    }
}

/// Summaries, their cost, and the sweep that closes quiet sessions.
#[derive(Clone, Debug)]
pub struct SummaryConfig {
    /// Customer accounts (`N8V_GEMINI_API_KEY` set); otherwise code summaries.
    pub gemini: Option<ProviderSettings>,
    /// Internal accounts (`N8V_PROXY_BASE_URL` set), and customers when `customer_provider`
    /// says so; otherwise code summaries.
    pub proxy: Option<ProviderSettings>,
    /// Which of them customer accounts use.
    pub customer_provider: CustomerProvider,
    pub rates: crate::summarize::Rates,
    /// Per account and calendar month (UTC), reserved per model call.
    pub monthly_budget_usd: rust_decimal::Decimal,
    /// Most parts one summary sends to a model; code summarises the rest.
    pub max_parts: usize,
    pub timeout: Duration,
    /// Open sessions quiet this long are closed by the sweep.
    pub quiet_after: chrono::Duration,
    /// When the sweep runs (cron, seconds first).
    pub sweep_schedule: String,
}

impl SummaryConfig {
    fn from_env() -> anyhow::Result<Self> {
        let gemini = var("N8V_GEMINI_API_KEY").map(|api_key| ProviderSettings {
            base_url: var("N8V_GEMINI_BASE_URL")
                .unwrap_or_else(|| "https://generativelanguage.googleapis.com".into()),
            api_key,
            model: var("N8V_GEMINI_MODEL").unwrap_or_else(|| "gemini-3.1-flash-lite".into()),
        });
        let proxy = var("N8V_PROXY_BASE_URL").map(|base_url| ProviderSettings {
            base_url,
            api_key: var("N8V_PROXY_API_KEY").unwrap_or_default(),
            model: var("N8V_PROXY_MODEL").unwrap_or_else(|| "gpt-5.6-luna".into()),
        });
        let customer_provider = match var("N8V_SUMMARY_CUSTOMER_PROVIDER") {
            Some(text) => CustomerProvider::parse(&text)?,
            None => CustomerProvider::default(),
        };
        if customer_provider == CustomerProvider::Proxy && proxy.is_none() {
            anyhow::bail!(
                "N8V_SUMMARY_CUSTOMER_PROVIDER=proxy sends customer summaries to the \
                 OpenAI-compatible endpoint, but N8V_PROXY_BASE_URL is not set"
            );
        }
        Ok(Self {
            gemini,
            proxy,
            customer_provider,
            rates: crate::summarize::Rates {
                input_usd_per_mtok: parse("N8V_SUMMARY_INPUT_USD_PER_MTOK", "0.25".parse()?)?,
                output_usd_per_mtok: parse("N8V_SUMMARY_OUTPUT_USD_PER_MTOK", "1.50".parse()?)?,
            },
            monthly_budget_usd: parse("N8V_SUMMARY_MONTHLY_BUDGET_USD", "5".parse()?)?,
            max_parts: parse("N8V_SUMMARY_MAX_PARTS", crate::summarize::DEFAULT_MAX_PARTS)?,
            timeout: Duration::from_secs(parse("N8V_SUMMARY_TIMEOUT_SECONDS", 30)?),
            quiet_after: chrono::Duration::minutes(parse("N8V_QUIET_SESSION_MINUTES", 120)?),
            sweep_schedule: var("N8V_SWEEP_SCHEDULE").unwrap_or_else(|| "0 */5 * * * *".into()),
        })
    }
}

impl Default for SummaryConfig {
    fn default() -> Self {
        Self {
            gemini: None,
            proxy: None,
            customer_provider: CustomerProvider::default(),
            rates: crate::summarize::Rates {
                input_usd_per_mtok: rust_decimal::Decimal::new(25, 2),
                output_usd_per_mtok: rust_decimal::Decimal::new(150, 2),
            },
            monthly_budget_usd: rust_decimal::Decimal::new(5, 0),
            max_parts: crate::summarize::DEFAULT_MAX_PARTS,
            timeout: Duration::from_secs(30),
            quiet_after: chrono::Duration::hours(2),
            sweep_schedule: "0 */5 * * * *".into(),
        }
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

/// `scheme://user:secret@host/…` → `scheme://user:[redacted]@host/…`; also `password=` in
/// the query string.
pub fn redact_url(url: &str) -> String {
    let mut out = url.to_owned();
    if let Some((scheme, rest)) = url.split_once("://") {
        let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        if let Some(at) = rest[..authority_end].rfind('@') {
            let userinfo = &rest[..at];
            if let Some((user, _)) = userinfo.split_once(':') {
                out = format!("{scheme}://{user}:[redacted]{}", &rest[at..]);
            }
        }
    }
    if let Some(q) = out.find('?') {
        let (head, query) = out.split_at(q + 1);
        let query: Vec<String> = query
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((k, _)) if k.eq_ignore_ascii_case("password") => format!("{k}=[redacted]"),
                _ => pair.to_owned(),
            })
            .collect();
        out = format!("{head}{}", query.join("&"));
    }
    out
}

impl std::fmt::Debug for ProviderSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Self {
            base_url,
            api_key,
            model,
        } = self;
        f.debug_struct("ProviderSettings")
            .field("base_url", &redact_url(base_url))
            .field("api_key", &(!api_key.is_empty()).then_some("[redacted]"))
            .field("model", model)
            .finish()
    }
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Destructured without `..`: a new field does not compile until it is listed here.
        let Self {
            database_url,
            migration_database_url,
            pooler,
            direct_database_url,
            app_role,
            bind,
            data_dir,
            jwt_secret,
            jwt_ttl,
            fingerprint_secret,
            rate_limit_per_minute,
            auth_failures_per_minute,
            trusted_proxies,
            client_address_header,
            max_body_bytes,
            max_header_bytes,
            db_max_connections,
            mcp_allowed_hosts,
            mcp_allowed_origins,
            session_rules,
            summaries,
            journal_md_max_chars,
            lifecycle,
            cors_allowed_origins,
            request_timeout,
            search_timeout,
            exports,
            db_idle_in_transaction,
            public_url,
            oauth,
            webhooks,
        } = self;
        f.debug_struct("Config")
            .field("database_url", &database_url.as_deref().map(redact_url))
            .field(
                "migration_database_url",
                &migration_database_url.as_deref().map(redact_url),
            )
            .field("pooler", pooler)
            .field(
                "direct_database_url",
                &direct_database_url.as_deref().map(redact_url),
            )
            .field("app_role", app_role)
            .field("bind", bind)
            .field("data_dir", data_dir)
            .field("jwt_secret", &jwt_secret.as_ref().map(|_| "[redacted]"))
            .field("jwt_ttl", jwt_ttl)
            .field(
                "fingerprint_secret",
                &fingerprint_secret.as_ref().map(|_| "[redacted]"),
            )
            .field("rate_limit_per_minute", rate_limit_per_minute)
            .field("auth_failures_per_minute", auth_failures_per_minute)
            .field("trusted_proxies", trusted_proxies)
            .field("client_address_header", client_address_header)
            .field("max_body_bytes", max_body_bytes)
            .field("max_header_bytes", max_header_bytes)
            .field("db_max_connections", db_max_connections)
            .field("mcp_allowed_hosts", mcp_allowed_hosts)
            .field("mcp_allowed_origins", mcp_allowed_origins)
            .field("session_rules", session_rules)
            .field("summaries", summaries)
            .field("journal_md_max_chars", journal_md_max_chars)
            .field("lifecycle", lifecycle)
            .field("cors_allowed_origins", cors_allowed_origins)
            .field("request_timeout", request_timeout)
            .field("search_timeout", search_timeout)
            .field("exports", exports)
            .field("db_idle_in_transaction", db_idle_in_transaction)
            .field("public_url", public_url)
            .field("oauth", oauth)
            .field("webhooks", webhooks)
            .finish()
    }
}

impl Config {
    pub fn from_env() -> anyhow::Result<Self> {
        let database_url = var("DATABASE_URL");
        let jwt_secret = var("N8V_JWT_SECRET");
        if let Some(secret) = &jwt_secret {
            check_jwt_secret(secret)?;
        }
        let fingerprint_secret = var("N8V_FINGERPRINT_SECRET");
        if let Some(secret) = &fingerprint_secret {
            check_fingerprint_secret(secret)?;
        }
        let pooler = Pooler::parse(&var("N8V_DATABASE_POOLER").unwrap_or_default())?;
        let direct_database_url = var("N8V_DIRECT_DATABASE_URL");
        if pooler == Pooler::Transaction
            && (database_url.is_none() || direct_database_url.is_none())
        {
            anyhow::bail!(
                "N8V_DATABASE_POOLER=transaction needs DATABASE_URL (the pooler) and \
                 N8V_DIRECT_DATABASE_URL (PostgreSQL itself, for LISTEN, the job queue and \
                 migrations, which need a session of their own)"
            );
        }
        let db_max_connections = parse("N8V_DB_MAX_CONNECTIONS", 20)?;
        let db_idle_in_transaction =
            Duration::from_secs(parse("N8V_DB_IDLE_IN_TRANSACTION_SECONDS", 60u64)?.max(1));
        Ok(Self {
            // Migrations take a session-level lock: behind a pooler they go direct.
            migration_database_url: var("N8V_MIGRATION_DATABASE_URL").or(match pooler {
                Pooler::None => database_url.clone(),
                Pooler::Transaction => direct_database_url.clone(),
            }),
            database_url,
            pooler,
            direct_database_url,
            app_role: var("N8V_APP_ROLE"),
            bind: parse("N8V_BIND", "127.0.0.1:8080".parse()?)?,
            data_dir: var("N8V_DATA_DIR")
                .unwrap_or_else(|| "./.n8v-journal".into())
                .into(),
            jwt_secret,
            jwt_ttl: Duration::from_secs(parse("N8V_JWT_TTL_SECONDS", 900)?),
            fingerprint_secret,
            rate_limit_per_minute: parse("N8V_RATE_LIMIT_PER_MINUTE", 600)?,
            auth_failures_per_minute: parse("N8V_AUTH_FAILURES_PER_MINUTE", 30)?,
            trusted_proxies: parse_trusted_proxies(&var("N8V_TRUSTED_PROXIES").unwrap_or_default())
                .map_err(|e| anyhow::anyhow!("N8V_TRUSTED_PROXIES: {e}"))?,
            client_address_header: var("N8V_CLIENT_ADDRESS_HEADER")
                .unwrap_or_else(|| "x-forwarded-for".into())
                .parse()
                .map_err(|_| anyhow::anyhow!("N8V_CLIENT_ADDRESS_HEADER: not a header name"))?,
            max_body_bytes: parse("N8V_MAX_BODY_BYTES", 1024 * 1024)?,
            max_header_bytes: parse("N8V_MAX_HEADER_BYTES", 16 * 1024)?,
            db_max_connections,
            mcp_allowed_hosts: hosts(
                &var("N8V_MCP_ALLOWED_HOSTS").unwrap_or_else(|| "localhost,127.0.0.1,::1".into()),
            ),
            mcp_allowed_origins: crate::http::mcp::origin::McpOrigins::parse(
                &var("N8V_MCP_ALLOWED_ORIGINS").unwrap_or_default(),
            )?,
            session_rules: SessionRules {
                quiet: chrono::Duration::minutes(parse("N8V_IMPLICIT_SESSION_QUIET_MINUTES", 30)?),
                max_age: chrono::Duration::hours(parse("N8V_IMPLICIT_SESSION_MAX_HOURS", 12)?),
            },
            summaries: SummaryConfig::from_env()?,
            journal_md_max_chars: parse("N8V_JOURNAL_MD_MAX_CHARS", 9_500)?,
            lifecycle: Lifecycle::from_env()?,
            cors_allowed_origins: CorsOrigins::parse(
                &var("N8V_CORS_ALLOWED_ORIGINS").unwrap_or_default(),
            )?,
            request_timeout: match parse("N8V_REQUEST_TIMEOUT_SECONDS", 30u64)? {
                0 => None,
                seconds => Some(Duration::from_secs(seconds)),
            },
            search_timeout: Duration::from_millis(parse("N8V_SEARCH_TIMEOUT_MS", 3_000u64)?.max(1)),
            exports: ExportLimits::from_env(db_max_connections, db_idle_in_transaction)?,
            db_idle_in_transaction,
            public_url: var("N8V_PUBLIC_URL")
                .map(|u| parse_public_url(&u))
                .transpose()?,
            oauth: OAuthConfig::from_env()?,
            webhooks: WebhookConfig::from_env()?,
        })
    }

    /// Defaults for tests and embedding: everything as `from_env` would give on a bare machine.
    pub fn for_database(database_url: &str) -> Self {
        Self {
            database_url: Some(database_url.to_owned()),
            migration_database_url: Some(database_url.to_owned()),
            pooler: Pooler::None,
            direct_database_url: None,
            app_role: None,
            bind: "127.0.0.1:0".parse().expect("static address"),
            data_dir: "./.n8v-journal".into(),
            jwt_secret: Some("test-secret-test-secret-test-secret".into()),
            jwt_ttl: Duration::from_secs(900),
            fingerprint_secret: None,
            rate_limit_per_minute: 600,
            auth_failures_per_minute: 30,
            trusted_proxies: Vec::new(),
            client_address_header: axum::http::HeaderName::from_static("x-forwarded-for"),
            max_body_bytes: 1024 * 1024,
            max_header_bytes: 16 * 1024,
            db_max_connections: 10,
            mcp_allowed_hosts: hosts("localhost,127.0.0.1,::1"),
            mcp_allowed_origins: crate::http::mcp::origin::McpOrigins::Default,
            session_rules: SessionRules::default(),
            summaries: SummaryConfig::default(),
            journal_md_max_chars: 9_500,
            lifecycle: Lifecycle::default(),
            cors_allowed_origins: CorsOrigins::Off,
            request_timeout: Some(Duration::from_secs(30)),
            search_timeout: Duration::from_secs(3),
            exports: ExportLimits::for_pool(10),
            db_idle_in_transaction: crate::db::IDLE_IN_TRANSACTION,
            public_url: None,
            oauth: OAuthConfig::default(),
            webhooks: WebhookConfig::default(),
        }
    }

    /// The service's public address, without a trailing `/`: `N8V_PUBLIC_URL`, else `http://`
    /// and the listening address (an unspecified address, `0.0.0.0` or `::`, as `localhost`).
    pub fn public_base(&self) -> String {
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

    /// The resource identifier of `/mcp` (RFC 8707, RFC 9728): what its tokens are bound to.
    pub fn mcp_resource(&self) -> String {
        format!("{}/mcp", self.public_base())
    }
}

/// A comma-separated host list; `*` means any host.
fn hosts(list: &str) -> Option<Vec<String>> {
    let hosts: Vec<String> = list
        .split(',')
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .collect();
    if hosts.iter().any(|h| h == "*") {
        None
    } else {
        Some(hosts)
    }
}

fn var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

fn parse<T: std::str::FromStr>(name: &str, default: T) -> anyhow::Result<T>
where
    T::Err: std::fmt::Display,
{
    match var(name) {
        None => Ok(default),
        Some(raw) => raw
            .trim()
            .parse()
            .map_err(|e| anyhow::anyhow!("{name}={raw:?} is not valid: {e}")),
    }
}

/// Parses `N8V_TRUSTED_PROXIES`: comma-separated CIDRs or single addresses.
pub fn parse_trusted_proxies(list: &str) -> Result<Vec<ipnet::IpNet>, String> {
    list.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|item| {
            item.parse::<ipnet::IpNet>()
                .or_else(|_| item.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
                .map_err(|_| format!("{item:?} is not a CIDR (e.g. 10.0.0.0/8) or an IP address"))
        })
        .collect()
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
