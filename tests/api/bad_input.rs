//! Bad input gets a 4xx problem, never a 500 or a hang.

use crate::common;

use crate::common::expect_problem;
use reqwest::Method;

#[tokio::test]
async fn malformed_oversized_and_misdirected_requests_get_problems() {
    let app = common::spawn_app().await;
    let a = app.account("A", "records:read,records:write").await;
    let entries = format!(
        "/api/v1/records/{}/entries",
        app.first_record(&a.token).await
    );
    let post = |body: reqwest::Body, content_type: &'static str| {
        app.call(Method::POST, &entries)
            .token(&a.token)
            .header("content-type", content_type)
            .body(body)
            .send()
    };

    expect_problem(
        post("{\"line\": ".into(), "application/json").await,
        400,
        "bad-request",
    )
    .await;
    expect_problem(
        post("[1,2]".into(), "application/json").await,
        422,
        "invalid-body",
    )
    .await;
    let unknown_field = post(
        r#"{"line": "x", "colour": "red"}"#.into(),
        "application/json",
    )
    .await;
    let body = expect_problem(unknown_field, 422, "invalid-body").await;
    assert!(
        body["detail"].as_str().unwrap().contains("colour"),
        "{body}"
    );
    expect_problem(
        post(r#"{"line": "x"}"#.into(), "text/plain").await,
        415,
        "unsupported-media-type",
    )
    .await;
    expect_problem(
        post(r#"{"line": ""}"#.into(), "application/json").await,
        400,
        "bad-request",
    )
    .await;
    expect_problem(
        post(r#"{"line": "a\u0000b"}"#.into(), "application/json").await,
        400,
        "bad-request",
    )
    .await;

    let big = format!(r#"{{"line": "{}"}}"#, "x".repeat(2 * 1024 * 1024));
    expect_problem(
        post(big.into(), "application/json").await,
        413,
        "payload-too-large",
    )
    .await;

    let huge_header = app
        .call(Method::GET, "/api/v1/records")
        .token(&a.token)
        .header("x-filler", &"y".repeat(64 * 1024))
        .send()
        .await;
    assert!(huge_header.status().is_client_error());
    expect_problem(huge_header, 431, "headers-too-large").await;

    expect_problem(app.get(&a.token, "/api/v1/nowhere").await, 404, "not-found").await;
    app.call(Method::DELETE, "/api/v1/records")
        .token(&a.token)
        .problem(405, "method-not-allowed")
        .await;
    expect_problem(
        app.get(&a.token, &format!("{entries}?limit=abc")).await,
        400,
        "bad-request",
    )
    .await;
    expect_problem(
        app.get(&a.token, &format!("{entries}?limit=0")).await,
        400,
        "bad-request",
    )
    .await;
    expect_problem(
        app.get(&a.token, &format!("{entries}?cursor=zzz")).await,
        400,
        "bad-request",
    )
    .await;
    expect_problem(
        app.get(&a.token, "/api/v1/records/rec_nope/entries").await,
        404,
        "not-found",
    )
    .await;

    // Responses carry a request id.
    let ok = app.get(&a.token, "/api/v1/records").await;
    assert!(ok.headers().contains_key("x-request-id"));
}

#[tokio::test]
async fn health_and_readiness() {
    let app = common::spawn_app().await;
    assert_eq!(app.call(Method::GET, "/healthz").send().await.status(), 200);
    let ready: serde_json::Value = app
        .call(Method::GET, "/readyz")
        .send()
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(ready["status"], "ready");
    // A database missing its migrations is not ready.
    sqlx::query("DELETE FROM _sqlx_migrations")
        .execute(&app.owner)
        .await
        .unwrap();
    app.call(Method::GET, "/readyz")
        .problem(503, "unavailable")
        .await;
}
