//! REST routes.

mod admin;
mod health;
mod records;
mod token;

use super::AppState;
use axum::Router;
use axum::routing::{get, post, put};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(health::healthz))
        .route("/readyz", get(health::readyz))
        .route("/api/v1/auth/token", post(token::mint))
        .route("/api/v1/records", get(records::list))
        .route(
            "/api/v1/records/{id}/entries",
            get(records::entries).post(records::append),
        )
        .route("/internal/admin/feature-flags", get(admin::list_flags))
        .route("/internal/admin/feature-flags/{flag}", put(admin::set_flag))
}
