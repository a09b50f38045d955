//! The OAuth flow's rules (issue 32), each driven over HTTP as a real client and its person
//! would: a grant is a credential with at most the approving key's scopes and repository,
//! codes work once, refresh tokens rotate, a replay revokes the grant, revocation and expiry
//! are refused on the next request, and tokens are bound to this server's `/mcp`.

use crate::common::mcp::{call, connect, error_text, meta_session, structured};
use crate::common::oauth::{
    self, REDIRECT, authorize_path, challenge, code_for, exchange, mcp_request, pkce, refresh,
    register, sign_in_through, tokens_for,
};
use crate::common::{self, spawn_app, spawn_app_configured};
use n8v_journal::auth::jwt::{AccessClaims, JwtKeys};
use reqwest::header::{ACCEPT, COOKIE};
use serde_json::{Value, json};

fn text(v: &Value, key: &str) -> String {
    v[key].as_str().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn a_registered_client_connects_end_to_end_and_its_sessions_carry_its_name() {
    let app = spawn_app().await;
    let account = app.account("A", crate::common::JOURNAL_SCOPES).await;
    app.journal_on(account.id).await;
    let (_logs_guard, logs) = common::logs::capture_on_this_thread();
    let client_id = register(&app, "Claude", REDIRECT).await;
    let (code, verifier) = code_for(&app, &account.token, &client_id, None).await;
    let (status, tokens) = exchange(&app, &client_id, &code, &verifier).await;
    assert_eq!(status, 200, "{tokens}");
    assert_eq!(tokens["token_type"], "Bearer");
    assert_eq!(tokens["expires_in"], 3600);
    assert_eq!(tokens["scope"], "chats:read records:read records:write");
    let access = text(&tokens, "access_token");
    let refresh_token = text(&tokens, "refresh_token");
    assert!(refresh_token.starts_with("n8v_rt_"));

    let mcp = connect(&app, &access).await;
    assert_eq!(mcp.list_all_tools().await.unwrap().len(), 18);
    let started = call(
        &mcp,
        "session_start",
        json!({"goal": "connect through OAuth"}),
    )
    .await;
    let session = meta_session(&started).expect("a session");
    let listed = structured(&call(&mcp, "journal_sessions", json!({})).await);
    let mine = listed["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == session.as_str())
        .expect("the session is listed");
    assert_eq!(mine["assistant"], "Claude", "{mine}");
    // A grant is its own credential: the API key that approved it cannot join its session.
    let problem = app
        .call(reqwest::Method::GET, "/api/v1/records")
        .token(&account.token)
        .session(Some(&session))
        .problem(404, "not-found")
        .await;
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("cannot be shared"),
        "{problem}"
    );

    // Settings lists it.
    let cookie = common::page::sign_in(&app, &account.token).await;
    let settings = common::page::client()
        .get(app.url("/journal/settings"))
        .header(COOKIE, &cookie)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(settings.contains("Connected assistants"));
    // By its name, marked as the client's own, with each scope the grant holds; what each
    // scope lets it do is said once for the page.
    assert!(
        settings.contains("<span class=\"title\">“Claude”</span>"),
        "{settings}"
    );
    assert!(settings.contains("a self-declared name"), "{settings}");
    let may_use = settings
        .split("May use: ")
        .nth(1)
        .and_then(|s| s.split("</p>").next())
        .expect("the grant's scopes");
    for scope in ["chats:read", "records:read", "records:write"] {
        assert!(
            may_use.contains(&format!("<code>{scope}</code>")),
            "{scope}: {may_use}"
        );
        assert_eq!(
            settings
                .matches(&format!("<dt><code>{scope}</code></dt>"))
                .count(),
            1,
            "{scope}'s meaning once: {settings}"
        );
    }

    // Nothing secret in any log line, at trace.
    let logged = common::logs::text(&logs);
    assert!(!logged.is_empty());
    for secret in [&code, &verifier, &access, &refresh_token] {
        assert!(!logged.contains(secret.as_str()), "a secret was logged");
    }
}

#[tokio::test]
async fn a_wrong_pkce_verifier_is_refused() {
    let app = spawn_app().await;
    let account = app.account("A", "chats:read").await;
    let client_id = register(&app, "Tool", REDIRECT).await;
    let (code, _verifier) = code_for(&app, &account.token, &client_id, None).await;
    let wrong = pkce().verifier;
    let (status, body) = exchange(&app, &client_id, &code, &wrong).await;
    assert_eq!(status, 400);
    assert_eq!(body["error"], "invalid_grant", "{body}");
    assert!(text(&body, "error_description").contains("PKCE"));
}

#[tokio::test]
async fn a_code_works_once_and_a_second_use_revokes_the_grant() {
    let app = spawn_app().await;
    let account = app.account("A", "chats:read").await;
    let client_id = register(&app, "Tool", REDIRECT).await;
    let (code, verifier) = code_for(&app, &account.token, &client_id, None).await;
    let (status, first) = exchange(&app, &client_id, &code, &verifier).await;
    assert_eq!(status, 200);
    let access = text(&first, "access_token");
    assert_eq!(mcp_request(&app, Some(&access)).await.status(), 200);
    let (status, second) = exchange(&app, &client_id, &code, &verifier).await;
    assert_eq!(status, 400);
    assert_eq!(second["error"], "invalid_grant");
    // The replay revoked what the first exchange gave.
    let refused = mcp_request(&app, Some(&access)).await;
    assert_eq!(refused.status(), 401);
    assert!(challenge(&refused).contains("error=\"invalid_token\""));
    let (status, _) = refresh(&app, &client_id, &text(&first, "refresh_token")).await;
    assert_eq!(status, 400);
}

#[tokio::test]
async fn a_code_expires_after_a_minute_and_belongs_to_its_client() {
    let app = spawn_app().await;
    let account = app.account("A", "chats:read").await;
    let client_id = register(&app, "Tool", REDIRECT).await;
    let other = register(&app, "Other", REDIRECT).await;
    let (code, verifier) = code_for(&app, &account.token, &client_id, None).await;
    let (status, body) = exchange(&app, &other, &code, &verifier).await;
    assert_eq!(
        (status, text(&body, "error")),
        (400, "invalid_grant".into())
    );
    let (code, verifier) = code_for(&app, &account.token, &client_id, None).await;
    app.clock.advance(chrono::Duration::seconds(61));
    let (status, body) = exchange(&app, &client_id, &code, &verifier).await;
    assert_eq!(status, 400);
    assert!(
        text(&body, "error_description").contains("expired"),
        "{body}"
    );
}

#[tokio::test]
async fn refresh_tokens_rotate_and_a_reused_one_revokes_the_grant() {
    let app = spawn_app().await;
    let account = app.account("A", "chats:read").await;
    let (client_id, first) = tokens_for(&app, &account.token, "Tool", None).await;
    let old = text(&first, "refresh_token");
    let (status, second) = refresh(&app, &client_id, &old).await;
    assert_eq!(status, 200, "{second}");
    let new = text(&second, "refresh_token");
    assert_ne!(new, old, "rotated");
    let access = text(&second, "access_token");
    assert_eq!(mcp_request(&app, Some(&access)).await.status(), 200);
    // Another client cannot use it.
    let (status, body) = refresh(&app, "n8v_cl_someone_else", &new).await;
    assert_eq!(
        (status, text(&body, "error")),
        (400, "invalid_grant".into())
    );
    // The old one again: a replay. The whole grant goes.
    let (status, body) = refresh(&app, &client_id, &old).await;
    assert_eq!(
        (status, text(&body, "error")),
        (400, "invalid_grant".into())
    );
    let (status, _) = refresh(&app, &client_id, &new).await;
    assert_eq!(status, 400, "the newest refresh token is revoked too");
    assert_eq!(mcp_request(&app, Some(&access)).await.status(), 401);
}

#[tokio::test]
async fn revocation_is_refused_on_the_next_request_by_the_endpoint_and_the_settings_page() {
    let app = spawn_app().await;
    let account = app.account("A", "chats:read").await;
    app.journal_on(account.id).await;
    // RFC 7009 with the refresh token.
    let (client_id, tokens) = tokens_for(&app, &account.token, "Tool", None).await;
    let access = text(&tokens, "access_token");
    assert_eq!(mcp_request(&app, Some(&access)).await.status(), 200);
    let refresh_token = text(&tokens, "refresh_token");
    let revoked = oauth::with_form(
        app.http.post(app.url("/oauth/revoke")),
        &[("token", &refresh_token), ("client_id", &client_id)],
    )
    .send()
    .await
    .unwrap();
    assert_eq!(revoked.status(), 200);
    let refused = mcp_request(&app, Some(&access)).await;
    assert_eq!(refused.status(), 401);
    assert!(challenge(&refused).contains("error=\"invalid_token\""));
    // An unknown token is not an error.
    let unknown = oauth::with_form(
        app.http.post(app.url("/oauth/revoke")),
        &[("token", "nope")],
    )
    .send()
    .await
    .unwrap();
    assert_eq!(unknown.status(), 200);

    // The settings page's button.
    let (claude, tokens) = tokens_for(&app, &account.token, "Claude", None).await;
    let access = text(&tokens, "access_token");
    assert_eq!(mcp_request(&app, Some(&access)).await.status(), 200);
    let cookie = common::page::sign_in(&app, &account.token).await;
    let html = common::page::client()
        .get(app.url("/journal/settings"))
        .header(COOKIE, &cookie)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let grant = regex::Regex::new(r#"name="grant" value="(key_[0-9A-Z]+)""#)
        .unwrap()
        .captures(&html)
        .unwrap_or_else(|| {
            panic!(
                "a revoke button: {}",
                &html[html.find("assistants").unwrap_or(0)..]
            )
        })[1]
        .to_owned();
    let csrf = common::page::csrf(&html);
    let posted = oauth::with_form(
        common::page::client()
            .post(app.url("/journal/assistants/revoke"))
            .header(COOKIE, &cookie),
        &[("csrf", csrf.as_str()), ("grant", grant.as_str())],
    )
    .send()
    .await
    .unwrap();
    assert_eq!(posted.status(), 303);
    assert_eq!(mcp_request(&app, Some(&access)).await.status(), 401);
    let (status, _) = refresh(&app, &claude, &text(&tokens, "refresh_token")).await;
    assert_eq!(status, 400);
}

#[tokio::test]
async fn a_grant_never_exceeds_the_approving_keys_scopes_and_repository() {
    let app = spawn_app().await;
    let account = app.account("A", "chats:read").await;
    app.journal_on(account.id).await;
    // A key without chats:read, restricted to one repository, approves a request for more.
    let (key_id, key) = app
        .key(account.id, "records:read,records:write", Some("acme/web"))
        .await;
    let (client_id, tokens) = tokens_for(
        &app,
        &key,
        "Tool",
        Some("chats:read chats:delete records:read records:write"),
    )
    .await;
    assert_eq!(tokens["scope"], "records:read records:write");
    let access = text(&tokens, "access_token");
    let mcp = connect(&app, &access).await;
    let refused = call(&mcp, "journal_sessions", json!({})).await;
    assert!(error_text(&refused).contains("chats:read"), "{refused:?}");
    // The grant's credential carries the approving key's repository.
    let row: (Vec<String>, Option<String>) = sqlx::query_as(
        "SELECT c.scopes, c.repository FROM credentials c
           JOIN oauth_grants g USING (account_id, credential_id) WHERE g.approved_by = $1",
    )
    .bind(key_id)
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(
        row,
        (
            vec!["records:read".into(), "records:write".into()],
            Some("acme/web".into())
        )
    );
    // A refresh cannot widen it either.
    let (status, body) = oauth::token(
        &app,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", &text(&tokens, "refresh_token")),
            ("client_id", &client_id),
            ("scope", "chats:read records:read"),
        ],
    )
    .await;
    assert_eq!(
        (status, text(&body, "error")),
        (400, "invalid_scope".into()),
        "{body}"
    );
    // A key holding none of the scopes asked for cannot approve at all.
    let (_, orgs_only) = app.key(account.id, "orgs:read", None).await;
    let path = authorize_path(
        &client_id,
        REDIRECT,
        Some("chats:read"),
        &pkce().challenge,
        &app,
    );
    let first = common::page::client()
        .get(app.url(&path))
        .send()
        .await
        .unwrap();
    assert_eq!(first.status(), 303);
    let cookie = common::page::sign_in_to(&app, &orgs_only, Some(&path)).await;
    let answer = common::page::client()
        .get(app.url(&path))
        .header(ACCEPT, "text/html")
        .header(COOKIE, cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(oauth::redirect_params(&answer)["error"], "invalid_scope");
}

#[tokio::test]
async fn a_grant_with_no_mcp_scope_gets_insufficient_scope() {
    let app = spawn_app().await;
    let account = app.account("A", "orgs:read,chats:read").await;
    let (_, tokens) = tokens_for(&app, &account.token, "Tool", Some("orgs:read")).await;
    let refused = mcp_request(&app, Some(&text(&tokens, "access_token"))).await;
    assert_eq!(refused.status(), 403);
    assert!(
        challenge(&refused).contains("error=\"insufficient_scope\""),
        "{}",
        challenge(&refused)
    );
}

#[tokio::test]
async fn a_grants_token_reads_nothing_of_another_account() {
    let app = spawn_app().await;
    let a = app.account("A", crate::common::JOURNAL_SCOPES).await;
    let b = app.account("B", crate::common::JOURNAL_SCOPES).await;
    app.journal_on(a.id).await;
    app.journal_on(b.id).await;
    let b_mcp = connect(&app, &b.token).await;
    let b_session =
        meta_session(&call(&b_mcp, "session_start", json!({"goal": "B's secret plans"})).await)
            .expect("B's session");
    let (_, tokens) = tokens_for(&app, &a.token, "Tool", None).await;
    let a_mcp = connect(&app, &text(&tokens, "access_token")).await;
    let listed = structured(&call(&a_mcp, "journal_sessions", json!({})).await);
    assert!(!listed.to_string().contains("secret plans"), "{listed}");
    let one = call(&a_mcp, "journal_session", json!({"id": b_session})).await;
    assert!(!error_text(&one).contains("secret plans"));
}

#[tokio::test]
async fn a_token_for_another_resource_or_past_its_expiry_is_an_invalid_token() {
    let app = spawn_app().await;
    let account = app.account("A", "chats:read").await;
    let (client_id, tokens) = tokens_for(&app, &account.token, "Tool", None).await;
    let access = text(&tokens, "access_token");
    // The same grant, signed by the same key, for another audience.
    let keys = JwtKeys::new(b"test-secret-test-secret-test-secret").unwrap();
    let now = chrono::Utc::now().timestamp();
    let claims: Value = serde_json::from_slice(
        &base64::Engine::decode(
            &base64::engine::general_purpose::URL_SAFE_NO_PAD,
            access.split('.').nth(1).unwrap(),
        )
        .unwrap(),
    )
    .unwrap();
    let forged = |aud: &str, exp: i64| {
        keys.mint_access(&AccessClaims {
            iss: app.base.clone(),
            sub: text(&claims, "sub"),
            acc: text(&claims, "acc"),
            aud: aud.into(),
            scopes: vec!["chats:read".into()],
            client_id: client_id.clone(),
            client_name: "Tool".into(),
            iat: now,
            exp,
        })
        .unwrap()
    };
    assert_eq!(
        mcp_request(&app, Some(&forged(&app.url("/mcp"), now + 600)))
            .await
            .status(),
        200
    );
    let other = mcp_request(
        &app,
        Some(&forged("https://other.example.com/mcp", now + 600)),
    )
    .await;
    assert_eq!(other.status(), 401);
    assert!(challenge(&other).contains("error=\"invalid_token\""));
    let expired = mcp_request(&app, Some(&forged(&app.url("/mcp"), now - 1))).await;
    assert_eq!(expired.status(), 401);
    assert!(challenge(&expired).contains("error=\"invalid_token\""));
    // An MCP token is not a REST credential.
    let rest = app.get(&access, "/api/v1/journal/sessions").await;
    assert_eq!(rest.status(), 401);

    // Issued in the past (the token endpoint's clock): expired on arrival.
    let (code, verifier) = code_for(&app, &account.token, &client_id, None).await;
    app.clock.advance(chrono::Duration::hours(-2));
    let (status, old) = exchange(&app, &client_id, &code, &verifier).await;
    assert_eq!(status, 200, "{old}");
    let refused = mcp_request(&app, Some(&text(&old, "access_token"))).await;
    assert_eq!(refused.status(), 401);
    assert!(challenge(&refused).contains("error=\"invalid_token\""));
    // The resource named at the token endpoint must be the one the code was issued for.
    app.clock.advance(chrono::Duration::hours(2));
    let (code, verifier) = code_for(&app, &account.token, &client_id, None).await;
    let (status, body) = oauth::token(
        &app,
        &[
            ("grant_type", "authorization_code"),
            ("code", &code),
            ("client_id", &client_id),
            ("redirect_uri", REDIRECT),
            ("code_verifier", &verifier),
            ("resource", "https://other.example.com/mcp"),
        ],
    )
    .await;
    assert_eq!(
        (status, text(&body, "error")),
        (400, "invalid_target".into())
    );
}

/// A client ID metadata document listing [`REDIRECT`], served on a loopback port.
async fn serve_document(name: &str) -> String {
    oauth::serve_document(name, &[REDIRECT]).await
}

#[tokio::test]
async fn a_client_id_metadata_document_registers_its_client() {
    let app = spawn_app_configured(|c| c.oauth.allow_private_client_urls = true).await;
    let account = app.account("A", crate::common::JOURNAL_SCOPES).await;
    app.journal_on(account.id).await;
    let client_id = serve_document("Document Client").await;
    let pkce = pkce();
    let path = authorize_path(&client_id, REDIRECT, None, &pkce.challenge, &app);
    let (cookie, consent) = sign_in_through(&app, &account.token, &path).await;
    assert!(consent.contains("Document Client"));
    let approved = oauth::decide(&app, &cookie, &consent, "approve").await;
    let code = oauth::redirect_params(&approved)["code"].clone();
    let (status, tokens) = exchange(&app, &client_id, &code, &pkce.verifier).await;
    assert_eq!(status, 200, "{tokens}");
    let mcp = connect(&app, &text(&tokens, "access_token")).await;
    let started = structured(&call(&mcp, "session_start", json!({"goal": "via a document"})).await);
    let listed = structured(&call(&mcp, "journal_sessions", json!({})).await);
    assert!(
        listed.to_string().contains("Document Client"),
        "{listed} {started}"
    );
    // A redirect URI the document does not list is an error page.
    let wrong = authorize_path(
        &client_id,
        "http://127.0.0.1:9/elsewhere",
        None,
        &pkce.challenge,
        &app,
    );
    let page = common::page::client()
        .get(app.url(&wrong))
        .header(COOKIE, &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 400);
}

#[tokio::test]
async fn a_metadata_document_on_a_loopback_address_is_refused_without_the_setting() {
    let app = spawn_app().await;
    let client_id = serve_document("Local").await;
    let path = authorize_path(&client_id, REDIRECT, None, &pkce().challenge, &app);
    let page = common::page::client()
        .get(app.url(&path))
        .header(ACCEPT, "text/html")
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 400);
    assert!(page.headers().get("location").is_none());
    let html = page.text().await.unwrap();
    // Plain http is refused before the address is even looked at; https to loopback too.
    assert!(html.contains("https URL"), "{html}");
    let https = client_id.replace("http://", "https://");
    let path = authorize_path(&https, REDIRECT, None, &pkce().challenge, &app);
    let html = common::page::client()
        .get(app.url(&path))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(html.contains("loopback"), "{html}");
}

#[tokio::test]
async fn revoking_the_approving_key_revokes_the_grants_it_approved() {
    let app = spawn_app().await;
    let account = app.account("A", "chats:read").await;
    let (key_id, key) = app.key(account.id, "chats:read", None).await;
    let (client_id, tokens) = tokens_for(&app, &key, "Tool", None).await;
    let (_, other) = tokens_for(&app, &account.token, "Other", None).await;
    let access = text(&tokens, "access_token");
    assert_eq!(mcp_request(&app, Some(&access)).await.status(), 200);
    n8v_journal::admin::revoke_key(&app.owner, key_id)
        .await
        .unwrap();
    // The refresh token is checked against the database: refused at once.
    let (status, _) = refresh(&app, &client_id, &text(&tokens, "refresh_token")).await;
    assert_eq!(status, 400);
    // An access token too. A request that reads no data (this `initialize`) relies on the
    // credential cache, which the revocation's notice clears: the CLI revoked it from another
    // connection, so allow the notice a moment to arrive.
    let mut refused = mcp_request(&app, Some(&access)).await;
    for _ in 0..20 {
        if refused.status() == 401 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        refused = mcp_request(&app, Some(&access)).await;
    }
    assert_eq!(refused.status(), 401);
    assert!(challenge(&refused).contains("error=\"invalid_token\""));
    // A grant another key approved is untouched.
    assert_eq!(
        mcp_request(&app, Some(&text(&other, "access_token")))
            .await
            .status(),
        200
    );
}
