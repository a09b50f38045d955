//! OAuth discovery, registration and the consent page's refusals (issue 32): what an MCP
//! client sees before it holds a token. The flow's rules are in `oauth_flow`.

use crate::common::oauth::{self, REDIRECT, authorize_path, challenge, mcp_request, pkce};
use crate::common::page::client;
use crate::common::{self, spawn_app, spawn_app_configured};
use reqwest::header::{ACCEPT, COOKIE, LOCATION};
use serde_json::{Value, json};

#[tokio::test]
async fn an_unauthenticated_mcp_request_leads_to_the_resource_and_server_metadata() {
    let app = spawn_app().await;
    let refused = mcp_request(&app, None).await;
    assert_eq!(refused.status(), 401);
    let header = challenge(&refused);
    let metadata_url = format!("{}/.well-known/oauth-protected-resource/mcp", app.base);
    assert_eq!(
        header,
        format!(
            "Bearer resource_metadata=\"{metadata_url}\", scope=\"chats:read records:read records:write\""
        )
    );
    // RFC 9728: the path-suffixed and the root form.
    for url in [
        metadata_url.clone(),
        app.url("/.well-known/oauth-protected-resource"),
    ] {
        let prm: Value = app
            .http
            .get(&url)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(prm["resource"], app.url("/mcp"), "{url}");
        assert_eq!(prm["authorization_servers"], json!([app.base]));
        assert_eq!(prm["bearer_methods_supported"], json!(["header"]));
    }
    // RFC 8414 (and the OpenID Connect path clients probe too).
    for path in [
        "/.well-known/oauth-authorization-server",
        "/.well-known/openid-configuration",
    ] {
        let meta: Value = app
            .http
            .get(app.url(path))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(meta["issuer"], app.base, "{path}");
        assert_eq!(meta["authorization_endpoint"], app.url("/oauth/authorize"));
        assert_eq!(meta["token_endpoint"], app.url("/oauth/token"));
        assert_eq!(meta["registration_endpoint"], app.url("/oauth/register"));
        assert_eq!(meta["revocation_endpoint"], app.url("/oauth/revoke"));
        assert_eq!(meta["code_challenge_methods_supported"], json!(["S256"]));
        assert_eq!(meta["client_id_metadata_document_supported"], json!(true));
        assert_eq!(
            meta["authorization_response_iss_parameter_supported"],
            json!(true)
        );
        assert_eq!(
            meta["grant_types_supported"],
            json!(["authorization_code", "refresh_token"])
        );
        assert!(
            meta["token_endpoint_auth_methods_supported"]
                .as_array()
                .unwrap()
                .contains(&json!("none"))
        );
        assert_eq!(
            meta["scopes_supported"],
            json!([
                "chats:read",
                "chats:delete",
                "records:read",
                "records:write",
                "orgs:read",
                "account:delete",
                "webhooks:write"
            ])
        );
    }
    // A token that is not one: invalid_token. REST keeps its bare challenge.
    let bad = mcp_request(&app, Some("not-a-token")).await;
    assert_eq!(bad.status(), 401);
    assert!(
        challenge(&bad).ends_with(", error=\"invalid_token\""),
        "{}",
        challenge(&bad)
    );
    let rest = app
        .http
        .get(app.url("/api/v1/journal/sessions"))
        .send()
        .await
        .unwrap();
    assert_eq!(rest.status(), 401);
    assert_eq!(challenge(&rest), "Bearer");
}

#[tokio::test]
async fn the_public_url_setting_decides_the_issuer_and_the_resource() {
    let app =
        spawn_app_configured(|c| c.public_url = Some("https://journal.example.com".into())).await;
    let prm: Value = app
        .http
        .get(app.url("/.well-known/oauth-protected-resource/mcp"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(prm["resource"], "https://journal.example.com/mcp");
    assert_eq!(
        prm["authorization_servers"],
        json!(["https://journal.example.com"])
    );
    let refused = mcp_request(&app, None).await;
    assert!(
        challenge(&refused).contains(
            "resource_metadata=\"https://journal.example.com/.well-known/oauth-protected-resource/mcp\""
        ),
        "{}",
        challenge(&refused)
    );
}

#[tokio::test]
async fn dynamic_registration_takes_public_clients_and_refuses_bad_metadata() {
    let app = spawn_app().await;
    let response = app
        .http
        .post(app.url("/oauth/register"))
        .json(&json!({"client_name": "Claude", "redirect_uris": ["https://claude.ai/api/mcp/auth_callback"],
                      "token_endpoint_auth_method": "client_secret_post"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 201);
    let client: Value = response.json().await.unwrap();
    assert!(client["client_id"].as_str().unwrap().starts_with("n8v_cl_"));
    assert_eq!(client["token_endpoint_auth_method"], "none");
    assert!(client.get("client_secret").is_none());
    for (body, error) in [
        (
            json!({"client_name": "x", "redirect_uris": []}),
            "invalid_redirect_uri",
        ),
        (
            json!({"redirect_uris": ["http://evil.example.com/cb"]}),
            "invalid_redirect_uri",
        ),
        (
            json!({"redirect_uris": ["javascript:alert(1)"]}),
            "invalid_redirect_uri",
        ),
        (
            json!({"redirect_uris": [REDIRECT], "grant_types": ["client_credentials"]}),
            "invalid_client_metadata",
        ),
        (json!("not an object"), "invalid_client_metadata"),
    ] {
        let response = app
            .http
            .post(app.url("/oauth/register"))
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 400, "{body}");
        let answer: Value = response.json().await.unwrap();
        assert_eq!(answer["error"], error, "{body}: {answer}");
    }
}

#[tokio::test]
async fn registration_is_rate_limited_per_address_and_unused_registrations_expire() {
    let app = spawn_app_configured(|c| c.oauth.registrations_per_minute = 3).await;
    let mut statuses = Vec::new();
    for _ in 0..4 {
        let response = app
            .http
            .post(app.url("/oauth/register"))
            .json(&json!({"client_name": "c", "redirect_uris": [REDIRECT]}))
            .send()
            .await
            .unwrap();
        statuses.push(response.status().as_u16());
        if response.status() == 429 {
            assert!(response.headers().contains_key("retry-after"));
        }
    }
    assert_eq!(statuses, [201, 201, 201, 429]);

    // A registration no grant was approved for is gone a day later.
    let app = spawn_app().await;
    let account = app.account("a", "chats:read").await;
    // Signed in to the journal first (not through the authorization request): the
    // journal must be on for the key to sign in there.
    app.journal_on(account.id).await;
    let unused = oauth::register(&app, "Unused", REDIRECT).await;
    app.clock.advance(chrono::Duration::hours(25));
    let path = authorize_path(&unused, REDIRECT, None, &pkce().challenge, &app);
    let cookie = common::page::sign_in(&app, &account.token).await;
    let page = client()
        .get(app.url(&path))
        .header(ACCEPT, "text/html")
        .header(COOKIE, &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 400);
    assert!(page.text().await.unwrap().contains("not registered"));
}

#[tokio::test]
async fn a_bad_client_or_redirect_uri_is_an_error_page_never_a_redirect() {
    let app = spawn_app().await;
    let account = app.account("a", "chats:read").await;
    let client_id = oauth::register(&app, "Tool", REDIRECT).await;
    app.journal_on(account.id).await;
    let cookie = common::page::sign_in(&app, &account.token).await;
    let challenge = pkce().challenge;
    for (path, says) in [
        (
            authorize_path(
                &client_id,
                "http://127.0.0.1:9/other",
                None,
                &challenge,
                &app,
            ),
            "redirect_uri",
        ),
        (
            authorize_path(
                &client_id,
                "http://127.0.0.1:9/callback/",
                None,
                &challenge,
                &app,
            ),
            "redirect_uri",
        ),
        (
            authorize_path("n8v_cl_unknown", REDIRECT, None, &challenge, &app),
            "not registered",
        ),
        (
            authorize_path("", REDIRECT, None, &challenge, &app),
            "client_id",
        ),
    ] {
        // Signed in or not: the client is checked first.
        for signed_in in [true, false] {
            let mut request = client().get(app.url(&path)).header(ACCEPT, "text/html");
            if signed_in {
                request = request.header(COOKIE, &cookie);
            }
            let page = request.send().await.unwrap();
            assert_eq!(page.status(), 400, "{path}");
            assert!(page.headers().get(LOCATION).is_none(), "{path}");
            let html = page.text().await.unwrap();
            assert!(html.contains(says), "{path}: {html}");
        }
    }
    // After the redirect URI is known good, problems go back to the client.
    let no_pkce = format!(
        "/oauth/authorize?response_type=code&client_id={client_id}&redirect_uri={}&state=s1",
        urlencode(REDIRECT)
    );
    let answer = client()
        .get(app.url(&no_pkce))
        .header(COOKIE, &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 303);
    let params = oauth::redirect_params(&answer);
    assert_eq!(params["error"], "invalid_request");
    assert_eq!(params["state"], "s1");
    assert_eq!(params["iss"], app.base);
    let plain = authorize_path(&client_id, REDIRECT, None, &challenge, &app)
        .replace("code_challenge_method=S256", "code_challenge_method=plain");
    let answer = client()
        .get(app.url(&plain))
        .header(COOKIE, &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(oauth::redirect_params(&answer)["error"], "invalid_request");
    let elsewhere = authorize_path(&client_id, REDIRECT, None, &challenge, &app).replace(
        &urlencode(&app.url("/mcp")),
        &urlencode("https://other.example.com/mcp"),
    );
    let answer = client()
        .get(app.url(&elsewhere))
        .header(COOKIE, &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(oauth::redirect_params(&answer)["error"], "invalid_target");
    // Denying sends the client access_denied.
    let path = authorize_path(&client_id, REDIRECT, None, &challenge, &app);
    let consent = client()
        .get(app.url(&path))
        .header(COOKIE, &cookie)
        .send()
        .await
        .unwrap();
    let denied = oauth::decide(&app, &cookie, &consent.text().await.unwrap(), "deny").await;
    assert_eq!(oauth::redirect_params(&denied)["error"], "access_denied");
}

#[tokio::test]
async fn the_consent_page_shows_the_client_and_keeps_the_pages_protections() {
    let app = spawn_app().await;
    let account = app.account("a", "chats:read,records:read").await;
    let client_id = oauth::register(&app, "Claude <b>Desktop</b>", REDIRECT).await;
    let path = authorize_path(
        &client_id,
        REDIRECT,
        Some("chats:read records:write"),
        &pkce().challenge,
        &app,
    );
    let (cookie, _) = oauth::sign_in_through(&app, &account.token, &path).await;
    let page = client()
        .get(app.url(&path))
        .header(COOKIE, &cookie)
        .send()
        .await
        .unwrap();
    let csp = page.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
    assert!(
        csp.contains("form-action 'self' http://127.0.0.1:9;"),
        "{csp}"
    );
    assert_eq!(page.headers()["x-frame-options"], "DENY");
    let html = page.text().await.unwrap();
    assert!(
        html.contains("Claude &lt;b&gt;Desktop&lt;&#x2f;b&gt;"),
        "escaped: {html}"
    );
    assert!(html.contains("127.0.0.1:9"), "the redirect host");
    assert!(html.contains("<code>chats:read</code>"));
    // records:write is asked for, but the key does not hold it: shown as withheld.
    assert!(html.contains("your key does not hold"));
    // A decision without the form's CSRF token is refused.
    let mut fields = oauth::hidden_fields(&html);
    fields.retain(|(k, _)| k != "csrf");
    fields.push(("csrf".into(), "0".repeat(64)));
    fields.push(("decision".into(), "approve".into()));
    let forged = client()
        .post(app.url("/oauth/authorize"))
        .header(COOKIE, &cookie)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(serde_urlencoded::to_string(&fields).unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), 403);
    assert!(forged.headers().get(LOCATION).is_none());
}

#[tokio::test]
async fn the_sign_in_form_continues_only_to_the_authorization_endpoint() {
    let app = spawn_app().await;
    let account = app.account("a", "chats:read").await;
    // Signed in to the journal first (not through the authorization request): the
    // journal must be on for the key to sign in there.
    app.journal_on(account.id).await;
    for next in [
        "https://evil.example.com/",
        "//evil.example.com/x",
        "/journal/delete",
        "/oauth/authorizeX",
    ] {
        let form = client()
            .get(app.url(&format!("/journal/sign-in?next={}", urlencode(next))))
            .send()
            .await
            .unwrap();
        let pre = common::page::value(&common::page::set_cookie(&form, "n8v_pre").unwrap());
        let html = form.text().await.unwrap();
        assert!(!html.contains("name=\"next\""), "{next}");
        let token = common::page::csrf(&html);
        let signed = client()
            .post(app.url("/journal/sign-in"))
            .header(COOKIE, pre)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(
                serde_urlencoded::to_string([
                    ("key", account.token.as_str()),
                    ("csrf", &token),
                    ("next", next),
                ])
                .unwrap(),
            )
            .send()
            .await
            .unwrap();
        assert_eq!(signed.headers()[LOCATION], "/journal", "{next}");
    }
}

pub fn urlencode(text: &str) -> String {
    serde_urlencoded::to_string([("", text)]).unwrap()[1..].to_owned()
}
