//! The edges of the OAuth flow a review found open (issue 44, findings 4, 8 and 9), each
//! driven over HTTP: a refused refresh leaves its token usable (RFC 6749 §6), registration
//! takes only the redirect URIs RFC 8252 allows native apps and the web, and a code whose
//! request named a redirect URI is exchanged only with it (OAuth 2.1 §4.1.3).

use crate::common::oauth::{
    self, REDIRECT, code_for, mcp_request, pkce, redirect_params, refresh, register,
    sign_in_through, tokens_for,
};
use crate::common::page::client;
use crate::common::{spawn_app, spawn_app_configured};
use reqwest::header::{ACCEPT, COOKIE, LOCATION};
use serde_json::{Value, json};

fn text(v: &Value, key: &str) -> String {
    v[key].as_str().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn a_refused_refresh_leaves_the_refresh_token_usable() {
    let app = spawn_app().await;
    let account = app.account("A", "chats:read").await;
    let (client_id, tokens) = tokens_for(&app, &account.token, "Tool", None).await;
    let refresh_token = text(&tokens, "refresh_token");
    // A scope the grant does not hold: refused, and nothing spent.
    let (status, body) = oauth::token(
        &app,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", &refresh_token),
            ("client_id", &client_id),
            ("scope", "records:write"),
        ],
    )
    .await;
    assert_eq!(
        (status, text(&body, "error")),
        (400, "invalid_scope".into()),
        "{body}"
    );
    // The client's retry is served (not taken for a replay), and the grant stands.
    let (status, body) = refresh(&app, &client_id, &refresh_token).await;
    assert_eq!(status, 200, "the retry after invalid_scope: {body}");
    assert_eq!(
        mcp_request(&app, Some(&text(&body, "access_token")))
            .await
            .status(),
        200
    );
    // The rotated-away token is still spent: its reuse is a replay as before.
    let (status, _) = refresh(&app, &client_id, &refresh_token).await;
    assert_eq!(status, 400);
}

#[tokio::test]
async fn registration_takes_https_loopback_http_and_private_use_schemes_only() {
    // More registrations than a minute's budget.
    let app = spawn_app_configured(|c| c.oauth.registrations_per_minute = 100).await;
    for refused in [
        "ftp://example.com/cb",
        "ws://127.0.0.1:9/cb",
        "wss://example.com/cb",
        "ssh://example.com/cb",
        "mailto:someone@example.com",
        "tel:+15550100",
        "http://example.com/cb",
    ] {
        let response = app
            .http
            .post(app.url("/oauth/register"))
            .json(&json!({"client_name": "x", "redirect_uris": [refused]}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 400, "{refused}");
        let answer: Value = response.json().await.unwrap();
        assert_eq!(
            answer["error"], "invalid_redirect_uri",
            "{refused}: {answer}"
        );
    }
    for taken in [
        "https://claude.ai/api/mcp/auth_callback",
        "http://127.0.0.1:33418/callback",
        "http://[::1]:8080/cb",
        "com.example.app:/oauth2redirect",
        "cursor://anysphere.cursor-retrieval/oauth/callback",
    ] {
        register(&app, "App", taken).await;
    }
    // A client kept from before the rule, with an ftp redirect URI: never sent there, and the
    // consent page's policy never names it.
    let account = app.account("A", "chats:read").await;
    sqlx::query(
        "INSERT INTO oauth_clients (client_id, kind, client_name, redirect_uris, used_at) \
         VALUES ('n8v_cl_legacy', 'registered', 'Legacy', ARRAY['ftp://example.com/cb'], now())",
    )
    .execute(&app.owner)
    .await
    .unwrap();
    let path = oauth::authorize_path(
        "n8v_cl_legacy",
        "ftp://example.com/cb",
        None,
        &pkce().challenge,
        &app,
    );
    app.journal_on(account.id).await;
    let cookie = crate::common::page::sign_in(&app, &account.token).await;
    let page = client()
        .get(app.url(&path))
        .header(ACCEPT, "text/html")
        .header(COOKIE, &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 400);
    assert!(page.headers().get(LOCATION).is_none());
    let csp = page
        .headers()
        .get("content-security-policy")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    assert!(!csp.contains("ftp:"), "{csp}");
    assert!(page.text().await.unwrap().contains("redirect_uri"));
}

#[tokio::test]
async fn a_code_is_exchanged_with_the_redirect_uri_its_request_named() {
    let app = spawn_app().await;
    let account = app.account("A", "chats:read").await;
    let client_id = register(&app, "Tool", REDIRECT).await;
    let resource = app.url("/mcp");
    // The request named its redirect URI: the exchange must name it too.
    let (code, verifier) = code_for(&app, &account.token, &client_id, None).await;
    let (status, body) = oauth::token(
        &app,
        &[
            ("grant_type", "authorization_code"),
            ("code", &code),
            ("client_id", &client_id),
            ("code_verifier", &verifier),
            ("resource", &resource),
        ],
    )
    .await;
    assert_eq!(
        (status, text(&body, "error")),
        (400, "invalid_grant".into()),
        "an exchange without redirect_uri: {body}"
    );
    assert!(
        text(&body, "error_description").contains("redirect_uri"),
        "{body}"
    );
    // A request that named none (the client registered one) is exchanged without it.
    let pkce = pkce();
    let path = format!(
        "/oauth/authorize?{}",
        serde_urlencoded::to_string([
            ("response_type", "code"),
            ("client_id", client_id.as_str()),
            ("state", "st-123"),
            ("code_challenge", pkce.challenge.as_str()),
            ("code_challenge_method", "S256"),
            ("resource", resource.as_str()),
        ])
        .unwrap()
    );
    let (cookie, consent) = sign_in_through(&app, &account.token, &path).await;
    let approved = oauth::decide(&app, &cookie, &consent, "approve").await;
    assert!(
        approved.headers()[LOCATION]
            .to_str()
            .unwrap()
            .starts_with(REDIRECT)
    );
    let code = redirect_params(&approved)["code"].clone();
    let (status, body) = oauth::token(
        &app,
        &[
            ("grant_type", "authorization_code"),
            ("code", &code),
            ("client_id", &client_id),
            ("code_verifier", &pkce.verifier),
            ("resource", &resource),
        ],
    )
    .await;
    assert_eq!(status, 200, "{body}");
}
