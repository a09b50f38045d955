//! The clients that may ask for a grant, registered both ways MCP clients use: RFC 7591
//! dynamic registration (`POST /oauth/register`, public clients only) and client ID metadata
//! documents (the `client_id` is an HTTPS URL the service fetches, see [`super::documents`]).
//! Neither is tenant data (they exist before any account is known): the owner's table
//! `oauth_clients`, reached only through the owner's pool.

use super::OAuthError;
use super::client::{Client, check_redirect_uri, clean_name};
use super::documents;
use crate::config::Config;
use crate::db::Db;
use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::{Value, json};

/// A registered client id's prefix.
pub const CLIENT_PREFIX: &str = "n8v_cl_";
/// The most redirect URIs a client may register.
const MAX_REDIRECT_URIS: usize = 10;
/// How long a fetched metadata document is used before it is fetched again.
pub const DOCUMENT_CACHE: chrono::Duration = chrono::Duration::minutes(10);

/// The RFC 7591 registration request, as far as it matters here (other fields are ignored).
#[derive(Debug, Deserialize)]
pub struct Registration {
    #[serde(default)]
    pub redirect_uris: Vec<String>,
    pub client_name: Option<String>,
    pub token_endpoint_auth_method: Option<String>,
    pub grant_types: Option<Vec<String>>,
    pub response_types: Option<Vec<String>>,
}

/// The registration's redirect URIs, grant and response types checked; the grant types it
/// asked for (`authorization_code` when none).
fn checked_metadata(
    redirect_uris: &[String],
    grant_types: Option<Vec<String>>,
    response_types: Option<&[String]>,
) -> Result<Vec<String>, OAuthError> {
    if redirect_uris.is_empty() || redirect_uris.len() > MAX_REDIRECT_URIS {
        return Err(OAuthError::bad(
            "invalid_redirect_uri",
            format!("register 1 to {MAX_REDIRECT_URIS} redirect_uris"),
        ));
    }
    for uri in redirect_uris {
        check_redirect_uri(uri).map_err(|e| OAuthError::bad("invalid_redirect_uri", e))?;
    }
    let grant_types = grant_types.unwrap_or_else(|| vec!["authorization_code".into()]);
    if let Some(other) = grant_types
        .iter()
        .find(|g| !matches!(g.as_str(), "authorization_code" | "refresh_token"))
    {
        return Err(OAuthError::bad(
            "invalid_client_metadata",
            format!(
                "grant type {other:?} is not supported; use authorization_code and refresh_token"
            ),
        ));
    }
    if let Some(types) = response_types
        && types.iter().any(|t| t != "code")
    {
        return Err(OAuthError::bad(
            "invalid_client_metadata",
            "only the response type \"code\" is supported",
        ));
    }
    Ok(grant_types)
}

/// Registers a public client (RFC 7591 §3). Registrations no grant was ever approved for are
/// deleted after `N8V_OAUTH_UNUSED_CLIENT_HOURS`; each registration sweeps the expired ones
/// ([`sweep_unused`]).
#[tracing::instrument(skip_all)]
pub async fn register(
    db: &Db,
    config: &Config,
    registration: Registration,
    now: DateTime<Utc>,
) -> Result<Value, OAuthError> {
    // Public clients only: PKCE protects the code and there is no secret to keep. A client
    // asking for a secret method is told otherwise by the answer's method (RFC 7591 §3.2.1
    // lets the server replace requested values).
    let Registration {
        redirect_uris,
        client_name,
        token_endpoint_auth_method: _,
        grant_types,
        response_types,
    } = registration;
    let grant_types = checked_metadata(&redirect_uris, grant_types, response_types.as_deref())?;
    let name = client_name
        .as_deref()
        .and_then(clean_name)
        .unwrap_or_else(|| "Unnamed client".into());
    let client_id = super::tokens::generate(CLIENT_PREFIX);
    sweep_unused(db, config, now).await?;
    sqlx::query!(
        "INSERT INTO oauth_clients (client_id, kind, client_name, redirect_uris, created_at)
         VALUES ($1, 'registered', $2, $3, $4)",
        client_id,
        name,
        &redirect_uris,
        now
    )
    .execute(db.pool())
    .await
    .map_err(OAuthError::server)?;
    let mut grant_types = grant_types;
    if !grant_types.iter().any(|g| g == "refresh_token") {
        // Refresh tokens are issued to every client; say so.
        grant_types.push("refresh_token".into());
    }
    Ok(json!({
        "client_id": client_id,
        "client_id_issued_at": now.timestamp(),
        "client_name": name,
        "redirect_uris": redirect_uris,
        "grant_types": grant_types,
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
    }))
}

/// Deletes the clients unused for `N8V_OAUTH_UNUSED_CLIENT_HOURS`: registrations no grant was
/// ever approved for, and metadata-document clients not fetched for that long with no live
/// (unrevoked) grant. Both are made on an unauthenticated request's word, so neither may
/// pile up; a document client that went is fetched again when next named. Run by each
/// registration and each document stored.
pub async fn sweep_unused(db: &Db, config: &Config, now: DateTime<Utc>) -> Result<(), OAuthError> {
    let unused_before =
        now - chrono::Duration::from_std(config.oauth.unused_client_ttl).unwrap_or_default();
    sqlx::query!(
        "DELETE FROM oauth_clients c
          WHERE (c.kind = 'registered' AND c.used_at IS NULL AND c.created_at < $1)
             OR (c.kind = 'document' AND c.fetched_at < $1
                 AND NOT EXISTS (SELECT 1 FROM oauth_grants g
                                  WHERE g.client_id = c.client_id AND g.revoked_at IS NULL))",
        unused_before
    )
    .execute(db.pool())
    .await
    .map_err(OAuthError::server)?;
    Ok(())
}

/// The client `client_id` names: a registration (unexpired), or, for an URL, its metadata
/// document (from the cache, else fetched on `asker`'s budget). `Ok(None)` for an unknown
/// client.
#[tracing::instrument(skip_all)]
pub async fn find(
    db: &Db,
    config: &Config,
    client_id: &str,
    now: DateTime<Utc>,
    asker: documents::Asker<'_>,
) -> Result<Option<Client>, OAuthError> {
    if crate::ids::has_control(client_id) {
        return Ok(None); // no client's id holds one (nor can PostgreSQL text hold a NUL)
    }
    if documents::is_document_id(client_id) {
        let cached = sqlx::query_as!(
            Client,
            "SELECT client_id, client_name, redirect_uris FROM oauth_clients
              WHERE client_id = $1 AND kind = 'document' AND fetched_at > $2",
            client_id,
            now - DOCUMENT_CACHE
        )
        .fetch_optional(db.pool())
        .await
        .map_err(OAuthError::server)?;
        if cached.is_some() {
            return Ok(cached);
        }
        let client = documents::fetch(
            db.pool(),
            asker,
            client_id,
            config.oauth.allow_private_client_urls,
        )
        .await?;
        sweep_unused(db, config, now).await?;
        sqlx::query!(
            "INSERT INTO oauth_clients (client_id, kind, client_name, redirect_uris, created_at, fetched_at)
             VALUES ($1, 'document', $2, $3, $4, $4)
             ON CONFLICT (client_id) DO UPDATE
                SET client_name = EXCLUDED.client_name, redirect_uris = EXCLUDED.redirect_uris,
                    fetched_at = EXCLUDED.fetched_at
              WHERE oauth_clients.kind = 'document'",
            client.client_id,
            client.client_name,
            &client.redirect_uris,
            now
        )
        .execute(db.pool())
        .await
        .map_err(OAuthError::server)?;
        return Ok(Some(client));
    }
    if !client_id.starts_with(CLIENT_PREFIX) || client_id.len() > 100 {
        return Ok(None);
    }
    let unused_before =
        now - chrono::Duration::from_std(config.oauth.unused_client_ttl).unwrap_or_default();
    sqlx::query_as!(
        Client,
        "SELECT client_id, client_name, redirect_uris FROM oauth_clients
          WHERE client_id = $1 AND kind = 'registered'
            AND (used_at IS NOT NULL OR created_at >= $2)",
        client_id,
        unused_before
    )
    .fetch_optional(db.pool())
    .await
    .map_err(OAuthError::server)
}

/// Marks a client used (a grant was approved for it): its registration no longer expires.
pub async fn mark_used(
    conn: &mut sqlx::PgConnection,
    client_id: &str,
    now: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE oauth_clients SET used_at = $2 WHERE client_id = $1",
        client_id,
        now
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redirect_uris_are_checked() {
        for ok in [
            "https://claude.ai/api/mcp/auth_callback",
            "http://127.0.0.1:33418/callback",
            "http://localhost:3000/cb",
            "http://[::1]:8080/cb",
            "cursor://anysphere.cursor-retrieval/oauth/callback",
            "com.example.app:/oauth2redirect",
        ] {
            assert!(check_redirect_uri(ok).is_ok(), "{ok}");
        }
        for bad in [
            "http://example.com/cb",
            "https://example.com/cb#frag",
            "javascript:alert(1)",
            "/relative",
            "ftp://example.com/cb",
            "ws://127.0.0.1:9/cb",
            "wss://example.com/cb",
            "mailto:someone@example.com",
            "data:text/html,x",
        ] {
            assert!(check_redirect_uri(bad).is_err(), "{bad}");
        }
        assert_eq!(clean_name("  Claude\n\u{7}  ").as_deref(), Some("Claude"));
        assert_eq!(clean_name("\n"), None);
    }
}
