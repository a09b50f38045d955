//! Short-lived access tokens minted from an API key (`POST /api/v1/auth/token`). They carry
//! the key's credential id, so everything keyed by credential (sessions, limits, revocation)
//! holds for them too, and never more scope than the key.

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

const ISSUER: &str = "n8v-journal";
/// The operator console's cookie: another issuer, so it is never taken for an access token.
const CONSOLE_ISSUER: &str = "n8v-journal/console";

#[derive(Debug, Serialize, Deserialize)]
pub struct Claims {
    /// The credential (`key_…`) the token was minted from.
    pub sub: String,
    /// The account (`acc_…`).
    pub acc: String,
    pub scopes: Vec<String>,
    pub iat: i64,
    pub exp: i64,
    pub iss: String,
    /// The token's own id, set only on the cookies sign-in makes, so that signing out can end
    /// that one token on the server (see [`crate::db::Db::sign_out`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jti: Option<String>,
}

impl Claims {
    /// The token's id, when it has one.
    pub fn token_id(&self) -> Option<Uuid> {
        self.jti.as_deref().and_then(|j| Uuid::parse_str(j).ok())
    }
}

/// An OAuth access token's claims (see `crate::oauth`): issued by the service's public URL for
/// one resource (`aud`, RFC 8707), carrying the grant's credential id like a minted token.
#[derive(Debug, Serialize, Deserialize)]
pub struct AccessClaims {
    /// The issuer: the service's public URL.
    pub iss: String,
    /// The grant's credential (`key_…`).
    pub sub: String,
    /// The account (`acc_…`).
    pub acc: String,
    /// The resource the token is for (`<public URL>/mcp`).
    pub aud: String,
    pub scopes: Vec<String>,
    /// The OAuth client the grant was approved for, and its name (the sessions' assistant).
    pub client_id: String,
    pub client_name: String,
    pub iat: i64,
    pub exp: i64,
}

/// A genuine, unexpired operator console cookie.
pub struct OperatorCookie {
    pub credential: Uuid,
    /// The cookie's own id (absent on cookies made before sign-out could end them).
    pub id: Option<Uuid>,
    /// When it expires (seconds since the epoch).
    pub expires_at: i64,
}

#[derive(Clone)]
pub struct JwtKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
}

impl JwtKeys {
    pub fn new(secret: &[u8]) -> jsonwebtoken::errors::Result<Self> {
        Ok(Self {
            encoding: EncodingKey::from_secret(secret)?,
            decoding: DecodingKey::from_secret(secret)?,
        })
    }

    /// A token for `credential` of `account` with `scopes`, issued at `now` for `ttl_secs`;
    /// `id` is the token's own id (`jti`) when it is to be revocable alone.
    pub fn mint(
        &self,
        account: Uuid,
        credential: Uuid,
        scopes: Vec<String>,
        now: i64,
        ttl_secs: i64,
        id: Option<Uuid>,
    ) -> jsonwebtoken::errors::Result<String> {
        let claims = Claims {
            sub: crate::ids::format(crate::ids::Kind::Key, credential),
            acc: crate::ids::format(crate::ids::Kind::Account, account),
            scopes,
            iat: now,
            exp: now + ttl_secs,
            iss: ISSUER.into(),
            jti: id.map(|i| i.to_string()),
        };
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
    }

    /// Verifies signature, issuer and expiry (no leeway: an expired token is expired).
    pub fn verify(&self, token: &str) -> Option<Claims> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_issuer(&[ISSUER]);
        validation.leeway = 0;
        validation.set_required_spec_claims(&["exp", "sub", "iss"]);
        jsonwebtoken::decode::<Claims>(token, &self.decoding, &validation)
            .ok()
            .map(|data| data.claims)
    }

    /// Signs an OAuth access token.
    pub fn mint_access(&self, claims: &AccessClaims) -> jsonwebtoken::errors::Result<String> {
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), claims, &self.encoding)
    }

    /// An OAuth access token of `issuer`, if its signature holds and it has not expired. Its
    /// audience is the caller's to check (a token for another resource is refused there).
    /// Neither kind of token passes the other's check: minted tokens carry no `aud`, and
    /// [`Self::verify`] refuses any token that has one.
    pub fn verify_access(&self, token: &str, issuer: &str) -> Option<AccessClaims> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_issuer(&[issuer]);
        validation.leeway = 0;
        validation.validate_aud = false;
        validation.set_required_spec_claims(&["exp", "sub", "iss", "aud"]);
        jsonwebtoken::decode::<AccessClaims>(token, &self.decoding, &validation)
            .ok()
            .map(|data| data.claims)
    }

    /// The operator console's short-lived cookie token for an operator key.
    pub fn mint_operator(
        &self,
        credential: Uuid,
        now: i64,
        ttl_secs: i64,
    ) -> jsonwebtoken::errors::Result<String> {
        let claims = Claims {
            sub: credential.to_string(),
            acc: String::new(),
            scopes: Vec::new(),
            iat: now,
            exp: now + ttl_secs,
            iss: CONSOLE_ISSUER.into(),
            jti: Some(crate::ids::new_id().to_string()),
        };
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
    }

    /// The operator key a console cookie was minted for, if it is genuine and unexpired.
    pub fn verify_operator(&self, token: &str) -> Option<OperatorCookie> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_issuer(&[CONSOLE_ISSUER]);
        validation.leeway = 0;
        validation.set_required_spec_claims(&["exp", "sub", "iss"]);
        let claims = jsonwebtoken::decode::<Claims>(token, &self.decoding, &validation)
            .ok()?
            .claims;
        Some(OperatorCookie {
            credential: Uuid::parse_str(&claims.sub).ok()?,
            id: claims.token_id(),
            expires_at: claims.exp,
        })
    }
}
