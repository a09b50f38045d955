//! The OAuth 2.1 authorization server for MCP clients, as the MCP authorization specification
//! describes it (revisions 2025-11-25 and 2026-07-28): discovery ([`metadata`]), clients (what
//! a [`client`] is; the [`registry`] that registers and finds them; metadata [`documents`]),
//! the authorization request and its rules ([`authorize`]), grants ([`grants`]), the account's
//! [`connected`] assistants, and the grants' secrets ([`tokens`]). Each approved grant is a
//! credential (a row of `credentials`), so every rule keyed by credential holds for it; its
//! access tokens are JWTs carrying that credential, like tokens minted from an API key, and
//! are refused on the next request once it is revoked. The HTTP handlers (`http::oauth`) and
//! the consent page stay thin over this room.

pub mod authorize;
pub mod client;
pub mod connected;
pub mod documents;
pub mod grants;
pub mod metadata;
pub mod registry;
pub mod tokens;

use crate::auth::limits::shared::{AddressBudget, Kind};
use std::net::IpAddr;

/// An OAuth error (RFC 6749 §5.2, RFC 7591 §3.2.2): its code, a description for the client
/// (never a secret), the HTTP status. A server fault keeps its cause for the log only.
#[derive(Debug)]
pub struct OAuthError {
    pub error: &'static str,
    pub description: String,
    pub status: u16,
    pub cause: Option<anyhow::Error>,
}

impl OAuthError {
    /// A `400` with `error`.
    pub fn bad(error: &'static str, description: impl Into<String>) -> Self {
        Self {
            error,
            description: description.into(),
            status: 400,
            cause: None,
        }
    }

    /// `invalid_grant`: the code or refresh token is unknown, expired, used or revoked.
    pub fn grant(description: impl Into<String>) -> Self {
        Self::bad("invalid_grant", description)
    }

    /// A `500` (`server_error`), logged with its cause by the handler.
    pub fn server(cause: impl Into<anyhow::Error>) -> Self {
        Self {
            error: "server_error",
            description: "the server failed; try again".into(),
            status: 500,
            cause: Some(cause.into()),
        }
    }
}

impl From<sqlx::Error> for OAuthError {
    fn from(e: sqlx::Error) -> Self {
        Self::server(e)
    }
}

/// The authorization server's own state: the per-address budgets of dynamic registrations
/// and of metadata-document fetches, counted for the deployment (`auth::limits::shared`).
pub struct OAuthState {
    registrations: AddressBudget,
    document_fetches: AddressBudget,
}

impl OAuthState {
    pub fn new(config: &crate::config::OAuthConfig) -> Self {
        Self {
            registrations: AddressBudget::new(Kind::Registration, config.registrations_per_minute),
            document_fetches: AddressBudget::new(
                Kind::DocumentFetch,
                config.document_fetches_per_minute,
            ),
        }
    }

    /// `Ok(Err(seconds))` when `address` has registered too many clients this minute, on
    /// any replica; `Err` when the database failed.
    pub async fn check_registration(
        &self,
        pool: &sqlx::PgPool,
        address: IpAddr,
    ) -> sqlx::Result<Result<(), u64>> {
        self.registrations.spend(pool, address).await
    }

    /// `Ok(Err(seconds))` when `address` has made the service fetch too many metadata
    /// documents this minute, on any replica; `Err` when the database failed.
    pub async fn check_document_fetch(
        &self,
        pool: &sqlx::PgPool,
        address: IpAddr,
    ) -> sqlx::Result<Result<(), u64>> {
        self.document_fetches.spend(pool, address).await
    }
}
