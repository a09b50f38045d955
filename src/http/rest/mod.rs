//! REST routes.

mod admin;
mod health;
pub(crate) mod journal;
pub(crate) mod records;
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
        .route(
            "/api/v1/journal/sessions",
            post(journal::start).get(journal::list),
        )
        .route("/api/v1/journal/sessions/{id}", get(journal::get))
        .route("/api/v1/journal/sessions/{id}/end", post(journal::end))
        .route("/api/v1/journal/entries/{id}", get(journal::entry))
        .route("/api/v1/journal/catch-up", get(journal::catch_up))
        .route("/api/v1/audit/{id}", get(journal::audit))
        .route("/internal/admin/feature-flags", get(admin::list_flags))
        .route("/internal/admin/feature-flags/{flag}", put(admin::set_flag))
}
