//! REST routes. Each handler carries its OpenAPI operation (`#[utoipa::path]`); one
//! `routes!(…)` per path, since `routes!(a, b)` registers both handlers on both paths.

mod account;
mod admin;
mod audit;
pub(crate) mod catch_up;
mod digests;
mod episodes;
mod health;
pub(crate) mod journal;
pub(crate) mod records;
pub(crate) mod search;
mod token;

use super::AppState;
use super::openapi::{self, ApiDoc};
use super::web;
use axum::Router;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The REST routes with their OpenAPI operations.
pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .routes(routes!(health::healthz))
        .routes(routes!(health::readyz))
        .routes(routes!(token::mint))
        .routes(routes!(account::delete))
        .routes(routes!(records::list))
        .routes(routes!(records::entries, records::append))
        .routes(routes!(journal::start, journal::list))
        .routes(routes!(journal::get, journal::delete_session))
        .routes(routes!(journal::delete_day))
        .routes(routes!(digests::list))
        .routes(routes!(episodes::post))
        .routes(routes!(digests::delete))
        .routes(routes!(journal::end))
        .routes(routes!(journal::entry))
        .routes(routes!(search::search))
        .routes(routes!(catch_up::catch_up))
        .routes(routes!(audit::audit))
        .routes(routes!(web::journal_md))
        .routes(routes!(admin::list_flags))
        .routes(routes!(admin::set_flag))
}

/// The OpenAPI document of the REST routes.
pub fn document() -> utoipa::openapi::OpenApi {
    api().split_for_parts().1
}

/// The REST routes, the OpenAPI document at `/openapi.json` and Swagger UI at `/docs`.
pub fn routes() -> Router<AppState> {
    let (router, document) = api().split_for_parts();
    router.merge(openapi::routes(openapi::json(&document)))
}
