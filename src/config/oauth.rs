//! The OAuth authorization server for MCP clients (`src/oauth/`).

use super::env::{DAY, Env, HOUR, SECOND};
use std::time::Duration;

#[derive(Clone, Debug)]
pub struct OAuthConfig {
    /// `N8V_OAUTH_ACCESS_TOKEN_TTL_SECONDS` (3600, at least 60): how long an access token works.
    pub access_token_ttl: Duration,
    /// `N8V_OAUTH_REFRESH_TOKEN_TTL_DAYS` (30): how long an unused refresh token works (each
    /// refresh issues a new one with a fresh lifetime).
    pub refresh_token_ttl: Duration,
    /// `N8V_OAUTH_REGISTRATIONS_PER_MINUTE` (10): dynamic registrations per client address.
    pub registrations_per_minute: u32,
    /// `N8V_OAUTH_DOCUMENT_FETCHES_PER_MINUTE` (10, 0 = unlimited): client ID metadata
    /// documents an address may make the service fetch a minute (each fetch is a request out
    /// and a row kept; a document stored and fresh costs none).
    pub document_fetches_per_minute: u32,
    /// `N8V_OAUTH_UNUSED_CLIENT_HOURS` (24): a registered client no grant was approved for, or
    /// a metadata-document client not fetched for this long and with no live grant, is deleted
    /// after this long.
    pub unused_client_ttl: Duration,
    /// `N8V_OAUTH_ALLOW_PRIVATE_CLIENT_URLS` (false): let client ID metadata documents live on
    /// loopback, private and link-local addresses, and over plain `http`. For tests and
    /// development only: it lets anyone who can start an authorization make the service fetch
    /// from its own network.
    pub allow_private_client_urls: bool,
}

impl OAuthConfig {
    pub(super) fn read(env: &Env) -> anyhow::Result<Self> {
        Ok(Self {
            access_token_ttl: env.duration(
                "N8V_OAUTH_ACCESS_TOKEN_TTL_SECONDS",
                SECOND,
                3600,
                60,
            )?,
            refresh_token_ttl: env.duration("N8V_OAUTH_REFRESH_TOKEN_TTL_DAYS", DAY, 30, 1)?,
            registrations_per_minute: env.parse("N8V_OAUTH_REGISTRATIONS_PER_MINUTE", 10)?,
            document_fetches_per_minute: env.parse("N8V_OAUTH_DOCUMENT_FETCHES_PER_MINUTE", 10)?,
            unused_client_ttl: env.duration("N8V_OAUTH_UNUSED_CLIENT_HOURS", HOUR, 24, 1)?,
            allow_private_client_urls: env.parse("N8V_OAUTH_ALLOW_PRIVATE_CLIENT_URLS", false)?,
        })
    }
}

impl Default for OAuthConfig {
    fn default() -> Self {
        Self::read(&Env::of(&[])).expect("the defaults are valid")
    }
}
