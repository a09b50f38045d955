//! Credentials: API keys, minted JWTs, scopes, rate limits, and the request principal.

pub mod credentials;
pub mod jwt;
pub mod keys;
pub mod limits;
mod principal;

pub use crate::scopes::{Scope, Scopes};
pub use principal::{AuthContext, OAuthAccess, Operator, Principal};
