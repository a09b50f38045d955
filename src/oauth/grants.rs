//! Grants: an approval on the consent page makes a credential (the grant) and a one-minute
//! authorization code; the token endpoint exchanges the code once (PKCE S256, the same client,
//! redirect URI and resource) for an access token and a refresh token; each refresh rotates
//! the refresh token. A code or refresh token presented a second time is a replay: the whole
//! grant is revoked (OAuth 2.1 §4.1.2 and §4.3.1). Codes and refresh tokens are stored as
//! SHA-256 hashes only.
//!
//! The token endpoint knows no account until it has found the token: it reads through the
//! owner's cross-account lookups, and writes while acting for the grant's account, under that
//! account's policies.

use super::OAuthError;
use super::authorize::{Checked, Reply};
use super::registry;
use super::tokens::{self, CODE_PREFIX, REFRESH_PREFIX};
use crate::auth::jwt::{AccessClaims, JwtKeys};
use crate::config::Config;
use crate::db::{Db, Tenant};
use crate::ids::{self, Kind};
use crate::scopes::Scopes;
use chrono::{DateTime, Utc};
use serde::Serialize;
use uuid::Uuid;

/// How long an authorization code works.
pub const CODE_TTL: chrono::Duration = chrono::Duration::seconds(60);

/// Makes the grant the person approved on the consent page: the request is checked once more
/// ([`Checked`] is made only by checking it), then the grant's credential, the grant, and a
/// fresh authorization code, sent back to the client in the answer.
#[tracing::instrument(skip_all)]
pub async fn approve(
    db: &Db,
    config: &Config,
    checked: &Checked,
    now: DateTime<Utc>,
) -> Result<Reply, OAuthError> {
    checked
        .recheck(config)
        .map_err(|rule| OAuthError::server(anyhow::anyhow!("approving a grant: {rule}")))?;
    let code = tokens::generate(CODE_PREFIX);
    insert_grant(db, checked, &code, now).await?;
    Ok(checked.code(code))
}

async fn insert_grant(
    db: &Db,
    checked: &Checked,
    code: &str,
    now: DateTime<Utc>,
) -> sqlx::Result<()> {
    let approver = checked.approver();
    let client = checked.client();
    let account = approver.account_id;
    let credential = ids::new_id();
    let mut tx = acting_for(db, account).await?;
    // The grant's credential has no bearer secret of its own: its hash is of a random value
    // never handed out, so it is reached only through the grant's tokens.
    let unusable = tokens::hash(&tokens::generate("n8v_none_"));
    sqlx::query!(
        "INSERT INTO credentials (account_id, credential_id, name, token_hash, scopes, repository, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
        account,
        credential,
        format!("OAuth: {}", client.client_name),
        unusable,
        &checked.granted().names(),
        approver.repository,
        now
    )
    .execute(&mut *tx)
    .await?;
    sqlx::query!(
        "INSERT INTO oauth_grants (account_id, credential_id, client_id, client_name, resource,
                                   redirect_uri, redirect_uri_named, code_challenge, approved_by,
                                   created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        account,
        credential,
        client.client_id,
        client.client_name,
        checked.resource(),
        checked.redirect_uri(),
        checked.redirect_uri_named(),
        checked.code_challenge(),
        approver.credential_id,
        now
    )
    .execute(&mut *tx)
    .await?;
    insert_token(&mut tx, account, credential, code, "code", now + CODE_TTL).await?;
    registry::mark_used(&mut tx, &client.client_id, now).await?;
    tx.commit().await
}

/// The token endpoint's answer (RFC 6749 §5.1).
#[derive(Debug, Serialize)]
pub struct TokenSet {
    pub access_token: String,
    pub token_type: &'static str,
    pub expires_in: i64,
    pub refresh_token: String,
    pub scope: String,
}

/// The authorization code grant's parameters.
pub struct CodeExchange<'a> {
    pub code: &'a str,
    pub client_id: &'a str,
    pub redirect_uri: Option<&'a str>,
    pub code_verifier: &'a str,
    /// The `resource` named again at the token endpoint, canonical; `None` when absent.
    pub resource: Option<&'a str>,
}

/// A token (code or refresh) found by its hash, with its grant.
struct Found {
    account_id: Uuid,
    credential_id: Uuid,
    expires_at: DateTime<Utc>,
    client_id: String,
    client_name: String,
    resource: String,
    redirect_uri: String,
    /// Whether the authorization request named the redirect URI (the exchange must then).
    redirect_uri_named: bool,
    code_challenge: String,
    scopes: Vec<String>,
    revoked: bool,
}

async fn find(db: &Db, secret: &str, kind: &str) -> sqlx::Result<Option<Found>> {
    sqlx::query_as!(
        Found,
        r#"SELECT t.account_id, t.credential_id, t.expires_at, g.client_id, g.client_name,
                  g.resource, g.redirect_uri, g.redirect_uri_named, g.code_challenge, c.scopes,
                  (g.revoked_at IS NOT NULL OR c.revoked_at IS NOT NULL) AS "revoked!"
             FROM oauth_tokens t
             JOIN oauth_grants g ON g.account_id = t.account_id AND g.credential_id = t.credential_id
             JOIN credentials c ON c.account_id = t.account_id AND c.credential_id = t.credential_id
            WHERE t.token_hash = $1 AND t.kind = $2
            LIMIT 1"#,
        tokens::hash(secret),
        kind
    )
    .fetch_optional(db.pool())
    .await
}

/// Marks the token used; `false` when it already was (a replay).
async fn use_token(
    conn: &mut sqlx::PgConnection,
    found: &Found,
    secret: &str,
    now: DateTime<Utc>,
) -> sqlx::Result<bool> {
    let used = sqlx::query!(
        "UPDATE oauth_tokens SET used_at = $3
          WHERE account_id = $1 AND token_hash = $2 AND used_at IS NULL",
        found.account_id,
        tokens::hash(secret),
        now
    )
    .execute(conn)
    .await?;
    Ok(used.rows_affected() == 1)
}

/// Revokes the grant in its own transaction (a replay's answer must not undo it).
async fn revoke_found(db: &Db, found: &Found) -> sqlx::Result<()> {
    let mut tx = acting_for(db, found.account_id).await?;
    revoke_in(&mut tx, found.credential_id).await?;
    tx.commit().await?;
    // Other instances drop it on the trigger's notification; this one at once.
    db.cache().forget_credential(found.credential_id);
    Ok(())
}

pub(super) async fn revoke_in(
    conn: &mut sqlx::PgConnection,
    credential: Uuid,
) -> sqlx::Result<bool> {
    sqlx::query_scalar!(r#"SELECT n8v_revoke_grant($1) AS "revoked!""#, credential)
        .fetch_one(conn)
        .await
}

/// Exchanges an authorization code (once).
#[tracing::instrument(skip_all)]
pub async fn exchange_code(
    db: &Db,
    jwt: &JwtKeys,
    config: &Config,
    exchange: CodeExchange<'_>,
    now: DateTime<Utc>,
) -> Result<TokenSet, OAuthError> {
    let unknown = || OAuthError::grant("the authorization code is unknown, expired or used");
    if !exchange.code.starts_with(CODE_PREFIX) {
        return Err(unknown());
    }
    let Some(found) = find(db, exchange.code, "code").await? else {
        return Err(unknown());
    };
    // Another client's attempt leaves the code as it was (it is not this client's to spend).
    if found.client_id != exchange.client_id {
        return Err(OAuthError::grant(
            "the authorization code was issued to another client",
        ));
    }
    let mut tx = acting_for(db, found.account_id).await?;
    if !use_token(&mut tx, &found, exchange.code, now).await? {
        drop(tx);
        revoke_found(db, &found).await?;
        tracing::warn!(
            grant = %ids::format(Kind::Key, found.credential_id),
            "an authorization code was used twice; the grant is revoked"
        );
        return Err(OAuthError::grant(
            "the authorization code was already used; the grant it made is revoked",
        ));
    }
    // From here on the code is spent whatever the answer: a wrong verifier burns it.
    let refused = |description: &str| OAuthError::grant(description.to_owned());
    let checked = if exchange
        .redirect_uri
        .is_some_and(|uri| uri != found.redirect_uri)
    {
        Err(refused(
            "redirect_uri is not the one the code was issued for",
        ))
    } else if exchange.redirect_uri.is_none() && found.redirect_uri_named {
        // OAuth 2.1 §4.1.3: required when the authorization request named one.
        Err(refused(
            "redirect_uri is required: the authorization request named one",
        ))
    } else if found.expires_at <= now {
        Err(refused("the authorization code has expired"))
    } else if !tokens::pkce_matches(exchange.code_verifier, &found.code_challenge) {
        Err(refused(
            "code_verifier does not match the code challenge (PKCE S256)",
        ))
    } else if exchange.resource.is_some_and(|r| r != found.resource) {
        Err(OAuthError::bad(
            "invalid_target",
            "resource is not the one the code was issued for",
        ))
    } else if found.revoked {
        Err(refused("the grant has been revoked"))
    } else {
        Ok(())
    };
    if let Err(e) = checked {
        tx.commit().await?;
        return Err(e);
    }
    let set = issue(&mut tx, jwt, config, &found, None, now).await?;
    tx.commit().await?;
    Ok(set)
}

/// The refresh token grant's parameters.
pub struct Refresh<'a> {
    pub refresh_token: &'a str,
    pub client_id: &'a str,
    /// A narrower set of the grant's scopes, when asked for.
    pub scope: Option<&'a Scopes>,
    /// The `resource` named again, canonical; `None` when absent.
    pub resource: Option<&'a str>,
}

/// The refresh token grant: rotates the refresh token (once). Only a refresh that is served
/// spends the token; a second use of a spent one is a replay and revokes the grant.
#[tracing::instrument(skip_all)]
pub async fn refresh(
    db: &Db,
    jwt: &JwtKeys,
    config: &Config,
    request: Refresh<'_>,
    now: DateTime<Utc>,
) -> Result<TokenSet, OAuthError> {
    let Refresh {
        refresh_token,
        client_id,
        scope,
        resource,
    } = request;
    let unknown = || OAuthError::grant("the refresh token is unknown, expired or revoked");
    if !refresh_token.starts_with(REFRESH_PREFIX) {
        return Err(unknown());
    }
    let Some(found) = find(db, refresh_token, "refresh").await? else {
        return Err(unknown());
    };
    if found.client_id != client_id {
        return Err(OAuthError::grant(
            "the refresh token was issued to another client",
        ));
    }
    let mut tx = acting_for(db, found.account_id).await?;
    if !use_token(&mut tx, &found, refresh_token, now).await? {
        drop(tx);
        revoke_found(db, &found).await?;
        tracing::warn!(
            grant = %ids::format(Kind::Key, found.credential_id),
            "a refresh token was used twice; the grant is revoked"
        );
        return Err(OAuthError::grant(
            "the refresh token was already used; the grant is revoked",
        ));
    }
    let held = Scopes::from_names(found.scopes.iter().map(String::as_str)).unwrap_or_default();
    let checked = if found.expires_at <= now {
        Err(OAuthError::grant("the refresh token has expired"))
    } else if found.revoked {
        Err(unknown())
    } else if resource.is_some_and(|r| r != found.resource) {
        Err(OAuthError::bad(
            "invalid_target",
            "resource is not the one the grant is for",
        ))
    } else if scope.is_some_and(|s| !s.is_subset_of(&held)) {
        Err(OAuthError::bad(
            "invalid_scope",
            format!("the grant holds only: {}", held.names().join(" ")),
        ))
    } else {
        Ok(())
    };
    if let Err(e) = checked {
        // A refused refresh spends nothing (RFC 6749 §6): the token stays usable, so the
        // client's retry is served, not taken for a replay that revokes the grant.
        tx.rollback().await?;
        return Err(e);
    }
    let set = issue(&mut tx, jwt, config, &found, scope, now).await?;
    tx.commit().await?;
    Ok(set)
}

/// A new access token and refresh token for the grant; spent and expired tokens of the grant
/// older than the refresh lifetime are dropped on the way (a used refresh token is kept that
/// long, so its replay is still recognised).
async fn issue(
    conn: &mut sqlx::PgConnection,
    jwt: &JwtKeys,
    config: &Config,
    found: &Found,
    narrowed: Option<&Scopes>,
    now: DateTime<Utc>,
) -> Result<TokenSet, OAuthError> {
    let refresh_ttl = chrono::Duration::from_std(config.oauth.refresh_token_ttl)
        .unwrap_or(chrono::Duration::days(30));
    sqlx::query!(
        "DELETE FROM oauth_tokens
          WHERE account_id = $1 AND credential_id = $2 AND expires_at < $3",
        found.account_id,
        found.credential_id,
        now - refresh_ttl
    )
    .execute(&mut *conn)
    .await?;
    let refresh_token = tokens::generate(REFRESH_PREFIX);
    insert_token(
        conn,
        found.account_id,
        found.credential_id,
        &refresh_token,
        "refresh",
        now + refresh_ttl,
    )
    .await?;
    sqlx::query!(
        "UPDATE oauth_grants SET last_used_at = $3 WHERE account_id = $1 AND credential_id = $2",
        found.account_id,
        found.credential_id,
        now
    )
    .execute(&mut *conn)
    .await?;
    let held = Scopes::from_names(found.scopes.iter().map(String::as_str)).unwrap_or_default();
    let scopes = narrowed.cloned().unwrap_or(held);
    let ttl = config.oauth.access_token_ttl.as_secs() as i64;
    let claims = AccessClaims {
        iss: config.own_base(),
        sub: ids::format(Kind::Key, found.credential_id),
        acc: ids::format(Kind::Account, found.account_id),
        aud: found.resource.clone(),
        scopes: scopes.names(),
        client_id: found.client_id.clone(),
        client_name: found.client_name.clone(),
        iat: now.timestamp(),
        exp: now.timestamp() + ttl,
    };
    let access_token = jwt.mint_access(&claims).map_err(OAuthError::server)?;
    Ok(TokenSet {
        access_token,
        token_type: "Bearer",
        expires_in: ttl,
        refresh_token,
        scope: scopes.names().join(" "),
    })
}

/// RFC 7009: revokes the grant a refresh token, code or access token belongs to (the whole
/// grant: its other tokens are refused on their next use). An unknown token, or one of
/// another client, changes nothing and is not an error.
#[tracing::instrument(skip_all)]
pub async fn revoke_token(
    db: &Db,
    jwt: &JwtKeys,
    config: &Config,
    token: &str,
    client_id: Option<&str>,
) -> Result<(), OAuthError> {
    let target = if token.starts_with(REFRESH_PREFIX) || token.starts_with(CODE_PREFIX) {
        let kind = if token.starts_with(CODE_PREFIX) {
            "code"
        } else {
            "refresh"
        };
        find(db, token, kind)
            .await?
            .map(|f| (f.account_id, f.credential_id, f.client_id))
    } else {
        jwt.verify_access(token, &config.own_base()).and_then(|c| {
            Some((
                ids::parse(Kind::Account, &c.acc)?,
                ids::parse(Kind::Key, &c.sub)?,
                c.client_id,
            ))
        })
    };
    let Some((account, credential, owner)) = target else {
        return Ok(());
    };
    if client_id.is_some_and(|c| c != owner) {
        return Ok(());
    }
    let mut tx = acting_for(db, account).await?;
    revoke_in(&mut tx, credential).await?;
    tx.commit().await?;
    db.cache().forget_credential(credential);
    Ok(())
}

async fn insert_token(
    conn: &mut sqlx::PgConnection,
    account: Uuid,
    credential: Uuid,
    secret: &str,
    kind: &str,
    expires_at: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO oauth_tokens (account_id, token_hash, credential_id, kind, expires_at)
         VALUES ($1, $2, $3, $4, $5)",
        account,
        tokens::hash(secret),
        credential,
        kind,
        expires_at
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// An owner's transaction acting for `account`: its rows only, under the account's policies.
async fn acting_for(
    db: &Db,
    account: Uuid,
) -> sqlx::Result<sqlx::Transaction<'static, sqlx::Postgres>> {
    let mut tx = db.pool().begin().await?;
    crate::db::set_tenant(&mut tx, None, &Tenant::account(account)).await?;
    Ok(tx)
}
