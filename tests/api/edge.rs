//! The edge of the HTTP surface: CORS (off unless origins are configured) and the request
//! timeout.

use crate::common;

use crate::common::{expect_problem, spawn_app, spawn_app_configured};
use n8v_journal::config::CorsOrigins;
use std::time::{Duration, Instant};

const APP_ORIGIN: &str = "https://app.example.com";

async fn preflight(app: &common::TestApp, origin: &str) -> reqwest::Response {
    app.http
        .request(reqwest::Method::OPTIONS, app.url("/api/v1/records"))
        .header("origin", origin)
        .header("access-control-request-method", "GET")
        .header(
            "access-control-request-headers",
            "authorization, x-purpose, x-session-id",
        )
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn cors_is_off_by_default() {
    let app = spawn_app().await;
    let acc = app.account("Ada", "records:read").await;
    let response = app
        .http
        .get(app.url("/api/v1/records"))
        .bearer_auth(&acc.token)
        .header("origin", APP_ORIGIN)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert!(
        response
            .headers()
            .get("access-control-allow-origin")
            .is_none()
    );
    // A preflight is not answered as CORS either: no allow-origin, so browsers refuse.
    let response = preflight(&app, APP_ORIGIN).await;
    assert!(
        response
            .headers()
            .get("access-control-allow-origin")
            .is_none()
    );
}

#[tokio::test]
async fn cors_answers_only_the_listed_origins() {
    let app = spawn_app_configured(|c| {
        c.cors_allowed_origins =
            CorsOrigins::parse(&format!("{APP_ORIGIN}, http://localhost:5173")).unwrap();
    })
    .await;
    let acc = app.account("Ada", "records:read").await;

    let response = preflight(&app, APP_ORIGIN).await;
    assert!(response.status().is_success(), "{}", response.status());
    let headers = response.headers();
    assert_eq!(headers["access-control-allow-origin"], APP_ORIGIN);
    let allowed = headers["access-control-allow-headers"].to_str().unwrap();
    for name in ["authorization", "x-purpose", "x-session-id"] {
        assert!(allowed.contains(name), "{allowed}");
    }
    assert!(headers.get("access-control-allow-credentials").is_none());

    // The real request carries the origin back and exposes the session header.
    let response = app
        .http
        .get(app.url("/api/v1/records"))
        .bearer_auth(&acc.token)
        .header("origin", APP_ORIGIN)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.headers()["access-control-allow-origin"],
        APP_ORIGIN
    );
    let exposed = response.headers()["access-control-expose-headers"]
        .to_str()
        .unwrap();
    assert!(exposed.contains("x-session-id"), "{exposed}");

    // Errors carry CORS headers too, so a browser client can read the problem.
    let response = app
        .http
        .get(app.url("/api/v1/records"))
        .header("origin", APP_ORIGIN)
        .send()
        .await
        .unwrap();
    assert_eq!(
        response.headers()["access-control-allow-origin"],
        APP_ORIGIN
    );
    expect_problem(response, 401, "unauthorized").await;

    // Another origin gets nothing.
    let response = preflight(&app, "https://evil.example.net").await;
    assert!(
        response
            .headers()
            .get("access-control-allow-origin")
            .is_none()
    );
}

#[test]
fn cors_origins_parse_and_refuse_what_is_not_an_origin() {
    assert_eq!(CorsOrigins::parse("").unwrap(), CorsOrigins::Off);
    assert_eq!(CorsOrigins::parse(" , ").unwrap(), CorsOrigins::Off);
    assert_eq!(CorsOrigins::parse("*").unwrap(), CorsOrigins::Any);
    assert_eq!(
        CorsOrigins::parse("https://a.example/, http://localhost:3000").unwrap(),
        CorsOrigins::List(vec![
            "https://a.example".into(),
            "http://localhost:3000".into()
        ])
    );
    for bad in [
        "a.example",
        "ftp://a.example",
        "https://a.example/app",
        "https://",
    ] {
        assert!(CorsOrigins::parse(bad).is_err(), "{bad} was accepted");
    }
}

#[tokio::test]
async fn a_request_over_the_time_limit_is_a_503_problem() {
    let app = spawn_app_configured(|c| c.request_timeout = Some(Duration::from_millis(800))).await;
    // /healthz needs no database and answers well within the limit.
    let response = app.http.get(app.url("/healthz")).send().await.unwrap();
    assert_eq!(response.status(), 200);

    // /readyz reads the migrations table; hold a lock on it so the request waits.
    let mut blocker = app.owner.begin().await.unwrap();
    sqlx::query("LOCK TABLE _sqlx_migrations IN ACCESS EXCLUSIVE MODE")
        .execute(&mut *blocker)
        .await
        .unwrap();
    // The lock is held until the end of the check, so without the time limit the request
    // would wait for ever: an answer at all shows the limit fired. The deadline only turns a
    // hang into a failure.
    let started = Instant::now();
    let response = tokio::time::timeout(
        Duration::from_secs(60),
        app.http.get(app.url("/readyz")).send(),
    )
    .await
    .expect("the time limit answered while the lock was held")
    .unwrap();
    let waited = started.elapsed();
    assert!(response.headers().contains_key("x-request-id"));
    let body = expect_problem(response, 503, "unavailable").await;
    assert!(
        body["detail"].as_str().unwrap().contains("800 ms"),
        "{body}"
    );
    // Not before the limit: a lower bound only, which a loaded machine cannot break.
    assert!(waited >= Duration::from_millis(800), "{waited:?}");
    blocker.rollback().await.unwrap();

    // Once the lock is gone the same request succeeds.
    let response = app.http.get(app.url("/readyz")).send().await.unwrap();
    assert_eq!(response.status(), 200);
}
