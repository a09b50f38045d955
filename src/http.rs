//! What the HTTP adapters (`rest`, `mcp`, `pages`) share: the call of a journalled operation
//! and its answer (`call`), the extractors, the security headers, and the OpenAPI document's
//! frame. The server that routes to them is `server`; nothing below knows HTTP.

pub mod call;
mod extract;
pub mod headers;
pub mod openapi;

pub use extract::{ApiJson, ApiQuery, OptionalJson};

use crate::auth::AuthContext;
use axum::extract::FromRef;
use std::sync::Arc;

/// The state every handler shares: the services the operations run with.
use crate::ops::Services;

impl FromRef<Services> for Arc<AuthContext> {
    fn from_ref(state: &Services) -> Self {
        state.auth.clone()
    }
}
