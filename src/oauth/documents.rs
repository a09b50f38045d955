//! Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document): a client whose
//! `client_id` is an HTTPS URL is described by the JSON document at that URL. The service
//! fetches it, so the fetch is bounded like any request made on a stranger's word: no
//! loopback, private, link-local or otherwise non-public address (checked on the resolved
//! addresses, and the connection pinned to the address checked, so a second DNS answer cannot
//! swap it), no redirects, at most [`MAX_DOCUMENT_BYTES`] in at most [`FETCH_TIMEOUT`].
//! `N8V_OAUTH_ALLOW_PRIVATE_CLIENT_URLS` lifts the address rule, and allows plain `http`, for
//! tests and development.
//!
//! Each fetch is a request out and a row kept, made on an unauthenticated request's word, so
//! an address may make the service fetch at most `N8V_OAUTH_DOCUMENT_FETCHES_PER_MINUTE` new
//! documents a minute, counted for the deployment ([`Asker`]); a document stored and fresh
//! costs none. A document client expires as an unused registration does
//! ([`super::registry::sweep_unused`]) and is fetched again when next named.

use super::OAuthError;
pub use super::client::is_document_id;
use super::client::{Client, check_redirect_uri, clean_name};
use crate::outbound::{self, Unresolved};
use serde::Deserialize;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

pub const MAX_DOCUMENT_BYTES: usize = 5 * 1024;
pub const FETCH_TIMEOUT: Duration = Duration::from_secs(5);

#[derive(Deserialize)]
struct Document {
    client_id: String,
    client_name: Option<String>,
    #[serde(default)]
    redirect_uris: Vec<String>,
    token_endpoint_auth_method: Option<String>,
}

/// Who asks for a document: the client address whose fetch budget pays for a new one.
#[derive(Clone, Copy)]
pub struct Asker<'a> {
    pub oauth: &'a super::OAuthState,
    pub address: IpAddr,
}

/// The cause of a refusal for a spent fetch budget: when the address may try again.
#[derive(Debug, thiserror::Error)]
#[error("the address's document fetch budget is spent; retry in {0} s")]
pub struct BudgetSpent(pub u64);

impl Asker<'_> {
    /// Spends one fetch of the address's budget: a `429` when it is spent.
    async fn spend(&self, pool: &sqlx::PgPool) -> Result<(), OAuthError> {
        match self.oauth.check_document_fetch(pool, self.address).await? {
            Ok(()) => Ok(()),
            Err(seconds) => Err(OAuthError {
                error: "slow_down",
                description: format!(
                    "too many client metadata documents fetched for this address; try again \
                     in {seconds} s"
                ),
                status: 429,
                cause: Some(BudgetSpent(seconds).into()),
            }),
        }
    }
}

fn invalid(description: impl Into<String>) -> OAuthError {
    OAuthError::bad("invalid_client", description)
}

/// Why a document could not be fetched when the fault may be this server's reach, not the
/// client's: its host did not resolve, or no connection could be made or finished (a server
/// inside a private network, or whose DNS fails, cannot reach a public document).
#[derive(Debug, thiserror::Error)]
#[error("this server could not fetch the client's metadata document: {0}")]
pub struct Unreachable(pub &'static str);

fn unreachable(host: &str, why: &'static str) -> OAuthError {
    tracing::warn!(
        host = %host,
        why,
        "a client metadata document could not be fetched from this server: let it reach the \
         host, or have the person sign in by registration"
    );
    OAuthError {
        cause: Some(Unreachable(why).into()),
        ..invalid(format!(
            "this server could not fetch the client's metadata document: {why}"
        ))
    }
}

/// Fetches and checks the document at `client_id`, on `asker`'s budget (spent once the URL is
/// known to be one a document may be fetched from).
pub async fn fetch(
    pool: &sqlx::PgPool,
    asker: Asker<'_>,
    client_id: &str,
    allow_private: bool,
) -> Result<Client, OAuthError> {
    let url = checked_url(client_id, allow_private)?;
    asker.spend(pool).await?;
    let body = download(&url, allow_private).await?;
    client_of(&body, client_id)
}

/// `client_id` as a URL a document may be fetched from.
fn checked_url(client_id: &str, allow_private: bool) -> Result<url::Url, OAuthError> {
    let url = url::Url::parse(client_id).map_err(|_| invalid("the client_id is not a URL"))?;
    let scheme_ok = url.scheme() == "https" || (allow_private && url.scheme() == "http");
    if !scheme_ok
        || url.fragment().is_some()
        || !url.username().is_empty()
        || url.password().is_some()
        || url.path() == "/"
        || client_id.contains("/./")
        || client_id.contains("/../")
        || url.as_str() != client_id
    {
        return Err(invalid(
            "a URL client_id must be an https URL with a path, no fragment, no user and no dot \
             segments, written in its normal form",
        ));
    }
    Ok(url)
}

/// The document's bytes (at most [`MAX_DOCUMENT_BYTES`], within [`FETCH_TIMEOUT`]), from the
/// address its host resolves to once checked, without following redirects.
async fn download(url: &url::Url, allow_private: bool) -> Result<Vec<u8>, OAuthError> {
    let host = url
        .host_str()
        .ok_or_else(|| invalid("the client_id URL has no host"))?
        .to_owned();
    let port = url.port_or_known_default().unwrap_or(443);
    let address = resolve(&host, port, allow_private).await?;
    let http = outbound::pinned_client(&host, address, FETCH_TIMEOUT)
        .build()
        .map_err(OAuthError::server)?;
    let mut response = http
        .get(url.clone())
        .header(reqwest::header::ACCEPT, "application/json")
        .send()
        .await
        .map_err(|e| {
            tracing::info!(error = %e, host = %host, "client metadata document not fetched");
            unreachable(&host, "no connection to its host could be made")
        })?;
    if !response.status().is_success() {
        return Err(invalid(format!(
            "the client's metadata document answered {}",
            response.status().as_u16()
        )));
    }
    if response
        .content_length()
        .is_some_and(|len| len > MAX_DOCUMENT_BYTES as u64)
    {
        return Err(invalid("the client's metadata document is too large"));
    }
    let mut body = Vec::new();
    loop {
        let chunk = tokio::time::timeout(FETCH_TIMEOUT, response.chunk())
            .await
            .map_err(|_| unreachable(&host, "its host did not answer in time"))?
            .map_err(|_| invalid("the client's metadata document could not be read"))?;
        let Some(chunk) = chunk else { break };
        body.extend_from_slice(&chunk);
        if body.len() > MAX_DOCUMENT_BYTES {
            return Err(invalid("the client's metadata document is too large"));
        }
    }
    Ok(body)
}

/// The client a fetched document describes, once it is checked.
fn client_of(body: &[u8], client_id: &str) -> Result<Client, OAuthError> {
    let document: Document = serde_json::from_slice(body)
        .map_err(|e| invalid(format!("the client's metadata document is not valid: {e}")))?;
    if document.client_id != client_id {
        return Err(invalid(
            "the metadata document's client_id is not the URL it was fetched from",
        ));
    }
    if document
        .token_endpoint_auth_method
        .as_deref()
        .is_some_and(|m| m != "none")
    {
        return Err(invalid(
            "only public clients (token_endpoint_auth_method \"none\") are supported",
        ));
    }
    if document.redirect_uris.is_empty() || document.redirect_uris.len() > 10 {
        return Err(invalid(
            "the metadata document must list 1 to 10 redirect_uris",
        ));
    }
    for uri in &document.redirect_uris {
        check_redirect_uri(uri).map_err(invalid)?;
    }
    let client_name = document
        .client_name
        .as_deref()
        .and_then(clean_name)
        .ok_or_else(|| invalid("the metadata document has no client_name"))?;
    Ok(Client {
        client_id: document.client_id,
        client_name,
        redirect_uris: document.redirect_uris,
    })
}

/// The address to connect to for `host` ([`outbound::resolve_public`]).
async fn resolve(host: &str, port: u16, allow_private: bool) -> Result<SocketAddr, OAuthError> {
    outbound::resolve_public(host, port, allow_private, FETCH_TIMEOUT)
        .await
        .map_err(|why| match why {
            Unresolved::TimedOut => unreachable(host, "its host did not resolve in time"),
            Unresolved::NoAddress => unreachable(host, "its host does not resolve from here"),
            Unresolved::Private => invalid(
                "the client_id's host is a loopback, private or link-local address; \
                 metadata documents are fetched only from public addresses",
            ),
        })
}
