//! Who is calling: the bearer credential resolved to a tenant, or an operator.
//! Resolved once per request and kept in the request's extensions.

use super::jwt::{AccessClaims, Claims, JwtKeys};
use super::keys;
use super::limits::{Limits, RateLimitSlot, RateLimitStatus};
use crate::clock::Clock;
use crate::db::{CredentialRow, Db, Tenant};
use crate::error::{Error, Result};
use crate::ids::{self, KeyId, Kind};
use crate::scopes::{Scope, Scopes};
use axum::extract::{ConnectInfo, FromRef, FromRequestParts};
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use uuid::Uuid;

/// What authentication needs; the app state hands it out.
pub struct AuthContext {
    pub db: Db,
    pub jwt: JwtKeys,
    pub limits: Limits,
    pub clock: Arc<dyn Clock>,
    /// The OAuth issuer (the public URL): whose access tokens are accepted.
    pub issuer: String,
}

/// An account's credential (API key or a token minted from one).
#[derive(Clone, Debug)]
pub struct Principal {
    pub tenant: Tenant,
    pub key_id: KeyId,
    /// A minted token (not the API key itself).
    pub minted: bool,
    /// Set when the credential is an OAuth grant's access token.
    pub oauth: Option<OAuthAccess>,
}

/// What an OAuth access token says beyond its credential.
#[derive(Clone, Debug)]
pub struct OAuthAccess {
    pub client_id: String,
    /// The client's name: the assistant its calls are recorded under.
    pub client_name: String,
    /// The resource the token was issued for.
    pub audience: String,
}

/// An operator credential (made only by `n8v-journal admin create-operator-key`).
#[derive(Clone, Debug)]
pub struct Operator {
    pub credential_id: Uuid,
}

impl Principal {
    pub fn account_id(&self) -> Uuid {
        self.tenant.account_id
    }

    pub fn credential_id(&self) -> Uuid {
        self.tenant
            .credential_id
            .expect("principals always carry a credential")
    }

    pub fn scopes(&self) -> &Scopes {
        &self.tenant.scopes
    }

    pub fn require(&self, scope: Scope) -> Result<()> {
        self.tenant.scopes.require(scope)
    }
}

#[derive(Clone, Debug)]
enum Resolved {
    Account(Principal),
    Operator(Operator),
}

impl<S> FromRequestParts<S> for Principal
where
    Arc<AuthContext>: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = Error;

    /// REST and the pages: an OAuth access token is for `/mcp` (its audience), not for them.
    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self> {
        let principal = account(resolve(parts, &Arc::<AuthContext>::from_ref(state)).await?)?;
        if let Some(oauth) = &principal.oauth {
            return Err(Error::Unauthorized(format!(
                "this OAuth access token is for {}; the REST API takes API keys and tokens from \
                 POST /api/v1/auth/token",
                oauth.audience
            )));
        }
        Ok(principal)
    }
}

fn account(resolved: Resolved) -> Result<Principal> {
    match resolved {
        Resolved::Account(p) => Ok(p),
        Resolved::Operator(_) => Err(Error::Forbidden(
            "operator credentials cannot act on an account; use an account's API key".into(),
        )),
    }
}

impl Principal {
    /// The principal of a request to `resource` (the MCP endpoint): API keys and minted tokens
    /// as everywhere, and OAuth access tokens issued for exactly this resource (RFC 8707).
    pub async fn for_resource(
        parts: &mut Parts,
        ctx: &AuthContext,
        resource: &str,
    ) -> Result<Self> {
        let principal = account(resolve(parts, ctx).await?)?;
        if let Some(oauth) = &principal.oauth
            && oauth.audience != resource
        {
            return Err(Error::Unauthorized(
                "this access token was issued for another resource".into(),
            ));
        }
        Ok(principal)
    }
}

impl<S> FromRequestParts<S> for Operator
where
    Arc<AuthContext>: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self> {
        match resolve(parts, &Arc::<AuthContext>::from_ref(state)).await? {
            Resolved::Operator(o) => Ok(o),
            // The console's existence is an operator's matter: an account's credential is
            // answered as for any address that does not exist, in the JSON API as in the pages.
            Resolved::Account(_) => Err(Error::NotFound(
                "no such endpoint; GET / lists the entry points, /openapi.json the API".into(),
            )),
        }
    }
}

async fn resolve(parts: &mut Parts, ctx: &AuthContext) -> Result<Resolved> {
    if let Some(done) = parts.extensions.get::<Resolved>() {
        return Ok(done.clone());
    }
    let addr = client_address(parts, &ctx.limits);
    // Checked before authenticating, applied only to failures: a valid credential is served
    // whatever other clients behind the same address did (see `limits`).
    let blocked = ctx.limits.check_address(addr);
    let failure_limited = |retry_after_secs: u64| {
        if let Some(slot) = parts.extensions.get::<RateLimitSlot>() {
            slot.set(RateLimitStatus {
                limit: ctx.limits.auth_failures_per_minute(),
                remaining: 0,
                reset_secs: retry_after_secs,
            });
        }
        Error::RateLimited { retry_after_secs }
    };

    let Some(header) = parts.headers.get(AUTHORIZATION) else {
        blocked.map_err(failure_limited)?;
        return Err(Error::Unauthorized(
            "missing credentials: send `Authorization: Bearer <API key or access token>`".into(),
        ));
    };
    let resolved = match authenticate(header.as_bytes(), ctx).await? {
        Ok(resolved) => resolved,
        Err(reason) => {
            blocked.map_err(failure_limited)?;
            ctx.limits
                .record_failure(ctx.db.pool(), addr)
                .await?
                .map_err(failure_limited)?;
            return Err(Error::Unauthorized(reason.into()));
        }
    };
    let credential = match &resolved {
        Resolved::Account(p) => p.credential_id(),
        Resolved::Operator(o) => o.credential_id,
    };
    let status = ctx
        .limits
        .check_credential(ctx.db.pool(), credential)
        .await?;
    if let Some(slot) = parts.extensions.get::<RateLimitSlot>()
        && let Some(status) = status.unwrap_or_else(Some)
    {
        slot.set(status);
    }
    status.map_err(|s| Error::RateLimited {
        retry_after_secs: s.reset_secs,
    })?;
    parts.extensions.insert(resolved.clone());
    Ok(resolved)
}

/// `Ok(Err(reason))` is a failed authentication (counted against the address);
/// `Err` is a server fault.
async fn authenticate(
    header: &[u8],
    ctx: &AuthContext,
) -> Result<std::result::Result<Resolved, &'static str>> {
    let Some(token) = std::str::from_utf8(header)
        .ok()
        .and_then(|h| {
            h.strip_prefix("Bearer ")
                .or_else(|| h.strip_prefix("bearer "))
        })
        .map(str::trim)
    else {
        return Ok(Err(
            "malformed Authorization header: expected `Bearer <token>`",
        ));
    };
    if token.starts_with(keys::KEY_PREFIX) {
        if !keys::looks_like_key(token) {
            return Ok(Err("malformed API key"));
        }
        let row = ctx.db.credential_by_hash(&keys::hash(token)).await?;
        return Ok(match row {
            None => Err("unknown API key"),
            Some(row) if row.revoked_at.is_some() => Err("this API key has been revoked"),
            Some(row) if row.operator => Ok(Resolved::Operator(Operator {
                credential_id: row.credential_id,
            })),
            Some(row) => Ok(Resolved::Account(principal(row, None))),
        });
    }
    let bearer = match ctx.jwt.verify(token) {
        Some(claims) => Bearer::minted(claims),
        None => match ctx.jwt.verify_access(token, &ctx.issuer) {
            Some(claims) => Bearer::oauth(claims),
            None => return Ok(Err("invalid or expired access token")),
        },
    };
    by_token(bearer, ctx).await
}

/// A verified token's claim on a credential, whichever kind it is: one minted from an API key
/// (`POST /api/v1/auth/token`, or a page's sign-in cookie), or an OAuth grant's access token
/// (see `crate::oauth`). Both carry the credential and narrowed scopes, and resolve alike.
struct Bearer {
    acc: String,
    sub: String,
    scopes: Vec<String>,
    /// A sign-in cookie's own id (signing out ends it before it expires).
    sign_in: Option<Uuid>,
    /// What the token says beyond its credential, for an OAuth access token.
    oauth: Option<OAuthAccess>,
}

impl Bearer {
    fn minted(claims: Claims) -> Self {
        Self {
            sign_in: claims.token_id(),
            acc: claims.acc,
            sub: claims.sub,
            scopes: claims.scopes,
            oauth: None,
        }
    }

    fn oauth(claims: AccessClaims) -> Self {
        Self {
            acc: claims.acc,
            sub: claims.sub,
            scopes: claims.scopes,
            sign_in: None,
            oauth: Some(OAuthAccess {
                client_id: claims.client_id,
                client_name: claims.client_name,
                audience: claims.aud,
            }),
        }
    }

    /// How a refusal names the credential: the key a token was minted from, or the grant.
    fn credential_gone(&self) -> &'static str {
        match self.oauth {
            None => "the key this token was minted from no longer exists",
            Some(_) => "the grant this token was issued for no longer exists",
        }
    }

    fn credential_revoked(&self) -> &'static str {
        match self.oauth {
            None => "the key this token was minted from has been revoked",
            Some(_) => "the grant this token was issued for has been revoked",
        }
    }
}

/// A verified token's principal: its credential, live and unrevoked, with the token's scopes
/// (never more than the credential's).
async fn by_token(
    bearer: Bearer,
    ctx: &AuthContext,
) -> Result<std::result::Result<Resolved, &'static str>> {
    let (Some(account), Some(credential)) = (
        ids::parse(Kind::Account, &bearer.acc),
        ids::parse(Kind::Key, &bearer.sub),
    ) else {
        return Ok(Err("invalid access token"));
    };
    let Ok(scopes) = Scopes::from_names(bearer.scopes.iter().map(String::as_str)) else {
        return Ok(Err("invalid access token"));
    };
    if let Some(id) = bearer.sign_in
        && ctx.db.signed_out(id).await?
    {
        return Ok(Err("this sign-in has ended; sign in again"));
    }
    Ok(match ctx.db.credential_by_id(account, credential).await? {
        None => Err(bearer.credential_gone()),
        Some(row) if row.revoked_at.is_some() => Err(bearer.credential_revoked()),
        Some(row) => {
            let mut principal = principal(row, Some(scopes));
            principal.oauth = bearer.oauth;
            Ok(Resolved::Account(principal))
        }
    })
}

/// The principal for a credential row; a minted token narrows, never widens, the key's scopes.
fn principal(row: CredentialRow, narrowed: Option<Scopes>) -> Principal {
    let key_scopes = Scopes::from_names(row.scopes.iter().map(String::as_str)).unwrap_or_default();
    let minted = narrowed.is_some();
    let scopes = match narrowed {
        Some(s) if s.is_subset_of(&key_scopes) => s,
        Some(_) => Scopes::default(),
        None => key_scopes,
    };
    Principal {
        tenant: Tenant {
            account_id: row.account_id.expect("account credentials have an account"),
            credential_id: Some(row.credential_id),
            scopes,
            repository: row.repository,
            service: false,
        },
        key_id: KeyId::from(row.credential_id),
        minted,
        oauth: None,
    }
}

fn client_address(parts: &Parts, limits: &Limits) -> IpAddr {
    let peer = parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ci| ci.0.ip())
        .unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED));
    limits.client_address(peer, &parts.headers)
}
