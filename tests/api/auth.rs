//! Credentials over HTTP: API keys, minted tokens, scopes, revocation, operators, rate limits.

use crate::common;

use crate::common::expect_problem;
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn missing_malformed_unknown_revoked_and_expired_credentials_get_401() {
    let app = common::spawn_app().await;
    let a = app.account("A", "records:read").await;

    let none = app.call(Method::GET, "/api/v1/records").send().await;
    assert_eq!(none.headers()["www-authenticate"], "Bearer");
    expect_problem(none, 401, "unauthorized").await;

    app.call(Method::GET, "/api/v1/records")
        .header("authorization", "Basic dXNlcjpwYXNz")
        .problem(401, "unauthorized")
        .await;
    for token in ["n8v_sk_short", "not-a-token", "a.b.c"] {
        expect_problem(app.get(token, "/api/v1/records").await, 401, "unauthorized").await;
    }
    let unknown = n8v_journal::auth::keys::generate();
    expect_problem(
        app.get(&unknown, "/api/v1/records").await,
        401,
        "unauthorized",
    )
    .await;

    // A valid key works; once revoked it fails on the very next request, and so do tokens
    // minted from it.
    assert_eq!(app.get(&a.token, "/api/v1/records").await.status(), 200);
    let minted: serde_json::Value = app
        .post(&a.token, "/api/v1/auth/token", json!({}))
        .await
        .json()
        .await
        .unwrap();
    let jwt = minted["access_token"].as_str().unwrap().to_owned();
    assert_eq!(app.get(&jwt, "/api/v1/records").await.status(), 200);
    n8v_journal::admin::revoke_key(&app.owner, a.key_id)
        .await
        .unwrap();
    let body = expect_problem(
        app.get(&a.token, "/api/v1/records").await,
        401,
        "unauthorized",
    )
    .await;
    assert!(
        body["detail"].as_str().unwrap().contains("revoked"),
        "{body}"
    );
    expect_problem(app.get(&jwt, "/api/v1/records").await, 401, "unauthorized").await;

    // Expired: a token signed with the right secret whose exp is in the past.
    let b = app.account("B", "records:read").await;
    let keys =
        n8v_journal::auth::jwt::JwtKeys::new(b"test-secret-test-secret-test-secret").unwrap();
    let now = chrono::Utc::now().timestamp();
    let expired = keys
        .mint(
            b.id,
            b.key_id,
            vec!["records:read".into()],
            now - 3600,
            60,
            None,
        )
        .unwrap();
    expect_problem(
        app.get(&expired, "/api/v1/records").await,
        401,
        "unauthorized",
    )
    .await;
    let fresh = keys
        .mint(b.id, b.key_id, vec!["records:read".into()], now, 60, None)
        .unwrap();
    assert_eq!(app.get(&fresh, "/api/v1/records").await.status(), 200);
    // Signed with another secret: refused.
    let forged = n8v_journal::auth::jwt::JwtKeys::new(b"another-secret-another-secret!!")
        .unwrap()
        .mint(b.id, b.key_id, vec!["records:read".into()], now, 60, None)
        .unwrap();
    expect_problem(
        app.get(&forged, "/api/v1/records").await,
        401,
        "unauthorized",
    )
    .await;
}

#[tokio::test]
async fn a_key_without_the_scope_gets_403() {
    let app = common::spawn_app().await;
    let a = app.account("A", "chats:read").await;
    let body = expect_problem(
        app.get(&a.token, "/api/v1/records").await,
        403,
        "missing-scope",
    )
    .await;
    assert!(body["detail"].as_str().unwrap().contains("records:read"));
    let write = app
        .post(
            &a.token,
            &format!("/api/v1/records/{}/entries", "rec_x"),
            json!({"line": "x"}),
        )
        .await;
    expect_problem(write, 403, "missing-scope").await;
}

#[tokio::test]
async fn a_minted_token_never_exceeds_its_keys_scopes() {
    let app = common::spawn_app().await;
    let a = app.account("A", "records:read,records:write").await;

    let all: serde_json::Value = app
        .post(&a.token, "/api/v1/auth/token", json!({}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(all["scopes"], json!(["records:read", "records:write"]));
    assert_eq!(
        all["key_id"],
        n8v_journal::ids::format(n8v_journal::ids::Kind::Key, a.key_id)
    );
    assert_eq!(all["token_type"], "Bearer");
    // No body, or JSON `null`, asks for the same as `{}`: the body is optional and nullable.
    let no_body = app
        .call(Method::POST, "/api/v1/auth/token")
        .token(&a.token)
        .send()
        .await;
    assert_eq!(no_body.status(), 200);
    let null: serde_json::Value = app
        .post(&a.token, "/api/v1/auth/token", serde_json::Value::Null)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(null["scopes"], all["scopes"]);

    let wider = app
        .post(
            &a.token,
            "/api/v1/auth/token",
            json!({"scopes": ["records:read", "chats:read"]}),
        )
        .await;
    expect_problem(wider, 403, "forbidden").await;
    let unknown = app
        .post(&a.token, "/api/v1/auth/token", json!({"scopes": ["root"]}))
        .await;
    expect_problem(unknown, 400, "bad-request").await;

    let narrow: serde_json::Value = app
        .post(
            &a.token,
            "/api/v1/auth/token",
            json!({"scopes": ["records:read"], "expires_in": 120}),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(narrow["expires_in"], 120);
    let jwt = narrow["access_token"].as_str().unwrap();
    assert_eq!(app.get(jwt, "/api/v1/records").await.status(), 200);
    // The narrowed token cannot write, though its key could.
    let rec = app.first_record(jwt).await;
    let write = app
        .post(
            jwt,
            &format!("/api/v1/records/{rec}/entries"),
            json!({"line": "x"}),
        )
        .await;
    expect_problem(write, 403, "missing-scope").await;
    // A token cannot mint a wider token either.
    let again = app
        .post(
            jwt,
            "/api/v1/auth/token",
            json!({"scopes": ["records:write"]}),
        )
        .await;
    expect_problem(again, 403, "forbidden").await;
    let too_long = app
        .post(&a.token, "/api/v1/auth/token", json!({"expires_in": 86400}))
        .await;
    expect_problem(too_long, 400, "bad-request").await;
}

#[tokio::test]
async fn operator_keys_alone_reach_the_admin_endpoints() {
    let app = common::spawn_app().await;
    let a = app
        .account("A", crate::common::JOURNAL_AND_ORG_SCOPES)
        .await;
    let operator = n8v_journal::admin::create_operator_key(&app.owner, "ops")
        .await
        .unwrap();

    // An account's key finds no console: a 404, as in the pages.
    expect_problem(
        app.get(&a.token, "/internal/admin/feature-flags").await,
        404,
        "not-found",
    )
    .await;
    expect_problem(
        app.get(&operator.token, "/api/v1/records").await,
        403,
        "forbidden",
    )
    .await;
    let flags: serde_json::Value = app
        .get(&operator.token, "/internal/admin/feature-flags")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        flags,
        json!([{"flag": "assistantJournal", "enabled": false, "account": null}])
    );

    let set = app
        .call(
            Method::PUT,
            "/internal/admin/feature-flags/assistantJournal",
        )
        .token(&operator.token)
        .json(json!({"enabled": true, "account": a.ext}))
        .send()
        .await;
    assert_eq!(set.status(), 200);
    let for_a: serde_json::Value = app
        .get(
            &operator.token,
            &format!("/internal/admin/feature-flags?account={}", a.ext),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(for_a[0]["enabled"], true);
    let global: serde_json::Value = app
        .get(&operator.token, "/internal/admin/feature-flags")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(global[0]["enabled"], false);

    n8v_journal::admin::revoke_key(&app.owner, operator.key_id)
        .await
        .unwrap();
    expect_problem(
        app.get(&operator.token, "/internal/admin/feature-flags")
            .await,
        401,
        "unauthorized",
    )
    .await;
}

#[tokio::test]
async fn the_rate_limit_answers_429_with_retry_after() {
    let app = common::spawn_app_with(common::Options {
        rate_limit_per_minute: 5,
        auth_failures_per_minute: 3,
    })
    .await;
    let a = app.account("A", "records:read").await;
    for _ in 0..5 {
        assert_eq!(app.get(&a.token, "/api/v1/records").await.status(), 200);
    }
    let limited = app.get(&a.token, "/api/v1/records").await;
    let retry: u64 = limited.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry), "retry-after {retry}");
    expect_problem(limited, 429, "rate-limited").await;
    // Another credential has its own budget.
    let (_, other) = app.key(a.id, "records:read", None).await;
    assert_eq!(app.get(&other, "/api/v1/records").await.status(), 200);

    // Failed authentication is limited per client address: after 3 failures further failures
    // from that address get 429 until the bucket refills, but a valid key from the same
    // address is still served (many clients can share one address).
    for _ in 0..3 {
        expect_problem(
            app.get("n8v_sk_nope", "/api/v1/records").await,
            401,
            "unauthorized",
        )
        .await;
    }
    let blocked = app.get("n8v_sk_nope", "/api/v1/records").await;
    assert!(blocked.headers().contains_key("retry-after"));
    expect_problem(blocked, 429, "rate-limited").await;
    assert_eq!(app.get(&other, "/api/v1/records").await.status(), 200);
}
