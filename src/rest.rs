//! REST routes. Each handler carries its OpenAPI operation (`#[utoipa::path]`): its path,
//! inputs and success body, declared as `2XX`; the success status and the problem answers are
//! derived from the operation's spec (`openapi::add_responses`). One `routes!(…)` per path,
//! since `routes!(a, b)` registers both handlers on both paths.

mod account;
mod admin;
mod audit;
pub(crate) mod catch_up;
mod decisions;
mod digests;
mod episodes;
pub(crate) mod export;
mod exposures;
mod health;
mod hooks;
pub(crate) mod journal;
mod loops;
pub(crate) mod records;
pub(crate) mod search;
mod token;
mod web;
mod webhooks;

use crate::http::openapi::{self, ApiDoc};
use crate::ops::Services;
use axum::Router;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The REST routes with their OpenAPI operations.
pub fn api() -> OpenApiRouter<Services> {
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
        .routes(routes!(episodes::post, episodes::open))
        .routes(routes!(hooks::claude_code))
        .routes(routes!(digests::delete))
        .routes(routes!(journal::end))
        .routes(routes!(journal::entry))
        .routes(routes!(loops::list))
        .routes(routes!(loops::close))
        .routes(routes!(loops::dismiss))
        .routes(routes!(decisions::replace))
        .routes(routes!(export::export))
        .routes(routes!(search::search))
        .routes(routes!(exposures::list))
        .routes(routes!(exposures::acknowledge))
        .routes(routes!(catch_up::catch_up))
        .routes(routes!(audit::audit))
        .routes(routes!(web::journal_md))
        .routes(routes!(admin::list_flags))
        .routes(routes!(admin::set_flag))
        .routes(routes!(webhooks::create, webhooks::list))
        .routes(routes!(webhooks::get, webhooks::update, webhooks::delete))
        .routes(routes!(webhooks::rotate_secret))
        .routes(routes!(webhooks::deliveries))
        .routes(routes!(webhooks::test))
        .routes(routes!(webhooks::take_over))
}

/// The REST routes and their OpenAPI document, complete.
fn split() -> (Router<Services>, utoipa::openapi::OpenApi) {
    let (router, mut document) = api().split_for_parts();
    openapi::add_responses(&mut document);
    openapi::add_session_answer(&mut document);
    openapi::add_webhooks(&mut document);
    (router, document)
}

/// The OpenAPI document of the REST routes.
pub fn document() -> utoipa::openapi::OpenApi {
    split().1
}

/// The REST routes, the OpenAPI document at `/openapi.json` and Swagger UI at `/docs`.
pub fn routes() -> Router<Services> {
    let (router, document) = split();
    router.merge(openapi::routes(openapi::json(&document)))
}

#[cfg(test)]
mod tests {
    use crate::journal::handoff::{MAX_ITEM_CHARS, MAX_ITEMS};
    use crate::journal::meta::{MAX_PURPOSE_CHARS, MAX_REPOSITORY_CHARS, MAX_TEXT_CHARS};
    use crate::journal::reads::{MAX_ACTIONS_PAGE, MAX_SESSIONS_PAGE};
    use crate::ops::search::{MAX_HITS, MAX_QUERY_CHARS};
    use crate::records::{MAX_LINE_CHARS, MAX_PAGE};
    use crate::render::window::{MAX_CHARS, MIN_CHARS};
    use serde_json::Value;

    /// The operations' inputs state their limits with the named constants (see `schema`); the
    /// headers and the window's `#[param]` take only literal numbers. This holds the documented
    /// limits to the named ones the operations enforce, both ways.
    #[test]
    fn documented_limits_are_the_named_ones() {
        let doc: Value = serde_json::to_value(super::document()).unwrap();
        let schema = |name: &str| &doc["components"]["schemas"][name];
        let param = |path: &str, method: &str, name: &str| {
            doc["paths"][path][method]["parameters"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["name"] == name)
                .unwrap()["schema"]
                .clone()
        };
        let n = |v: usize| Value::from(v as u64);
        let i = |v: i64| Value::from(v);
        let start = &schema("StartRequest")["properties"];
        assert_eq!(start["goal"]["maxLength"], n(MAX_TEXT_CHARS));
        assert_eq!(start["repository"]["maxLength"], n(MAX_REPOSITORY_CHARS));
        let end = &schema("EndRequest")["properties"];
        assert_eq!(end["outcome"]["maxLength"], n(MAX_TEXT_CHARS));
        for list in ["decisions", "open_questions", "next_steps"] {
            assert_eq!(end[list]["maxItems"], n(MAX_ITEMS), "{list}");
        }
        for list in ["decisions", "open_questions", "next_steps"] {
            assert_eq!(end[list]["items"]["maxLength"], n(MAX_ITEM_CHARS), "{list}");
        }
        let sessions = "/api/v1/journal/sessions";
        assert_eq!(
            param(sessions, "get", "X-Purpose")["maxLength"],
            n(MAX_PURPOSE_CHARS)
        );
        assert_eq!(
            param(sessions, "get", "limit")["maximum"],
            i(MAX_SESSIONS_PAGE)
        );
        let session = "/api/v1/journal/sessions/{id}";
        assert_eq!(
            param(session, "get", "limit")["maximum"],
            i(MAX_ACTIONS_PAGE)
        );
        let search = "/api/v1/journal/search";
        assert_eq!(param(search, "get", "q")["maxLength"], n(MAX_QUERY_CHARS));
        assert_eq!(param(search, "get", "limit")["maximum"], i(MAX_HITS));
        let entries = "/api/v1/records/{id}/entries";
        assert_eq!(param(entries, "get", "limit")["maximum"], i(MAX_PAGE));
        let window = "/journal.md";
        assert_eq!(param(window, "get", "max_chars")["minimum"], n(MIN_CHARS));
        assert_eq!(param(window, "get", "max_chars")["maximum"], n(MAX_CHARS));
        let append = &schema("AppendRequest")["properties"];
        assert_eq!(append["line"]["maxLength"], n(MAX_LINE_CHARS));
    }
}
