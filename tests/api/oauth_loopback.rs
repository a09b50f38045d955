//! Issue 45, finding 1 (its matching rule): a native client's loopback redirect on a port of
//! the moment. Claude Code's and Codex's metadata documents list loopback redirects without a
//! port (or GitHub's Copilot CLI with a fixed one) and the CLIs send the port they listen on;
//! RFC 8252 §7.3 has the server let the port vary there, and nowhere else.

use crate::common::oauth::{self, pkce, serve_document, sign_in_through};
use crate::common::{self, spawn_app_configured};
use reqwest::header::COOKIE;

/// Exchanges `code` naming `redirect`; status and body.
async fn exchange(
    app: &common::TestApp,
    client_id: &str,
    code: &str,
    redirect: &str,
    verifier: &str,
) -> (u16, serde_json::Value) {
    let resource = app.url("/mcp");
    let form = [
        ("grant_type", "authorization_code"),
        ("code", code),
        ("client_id", client_id),
        ("redirect_uri", redirect),
        ("code_verifier", verifier),
        ("resource", &resource),
    ];
    oauth::token(app, &form).await
}

#[tokio::test]
async fn a_loopback_redirect_may_name_any_port_and_nothing_else_varies() {
    let app = spawn_app_configured(|c| c.oauth.allow_private_client_urls = true).await;
    let account = app.account("A", common::JOURNAL_SCOPES).await;
    // (the document's redirect URIs, as each client publishes them; what its CLI sends)
    let clients = [
        (
            "Claude Code",
            &["http://localhost/callback", "http://127.0.0.1/callback"][..],
            "http://localhost:3118/callback",
        ),
        (
            "Codex",
            &["http://127.0.0.1/callback"][..],
            "http://127.0.0.1:46553/callback",
        ),
        (
            "Copilot CLI",
            &["http://127.0.0.1:8976/callback"][..],
            "http://127.0.0.1:51234/callback",
        ),
        (
            "IPv6 app",
            &["http://[::1]/cb"][..],
            "http://[::1]:40001/cb",
        ),
    ];
    for (name, listed, sent) in clients {
        let client_id = serve_document(name, listed).await;
        let flow = pkce();
        let path = oauth::authorize_path(&client_id, sent, None, &flow.challenge, &app);
        let (cookie, consent) = sign_in_through(&app, &account.token, &path).await;
        assert!(consent.contains(name), "{name}: {consent}");
        let approved = oauth::decide(&app, &cookie, &consent, "approve").await;
        assert_eq!(approved.status(), 303, "{name}");
        let location = approved.headers()["location"].to_str().unwrap().to_owned();
        assert!(
            location.starts_with(&format!("{sent}?")),
            "{name}: {location}"
        );
        let code = oauth::redirect_params(&approved)["code"].clone();
        let (status, tokens) = exchange(&app, &client_id, &code, sent, &flow.verifier).await;
        assert_eq!(status, 200, "{name}: {tokens}");
        assert!(tokens["access_token"].is_string(), "{name}: {tokens}");
    }

    // The exchange names the very redirect URI the request named, port and all.
    let (listed, sent) = (
        &["http://localhost/callback"][..],
        "http://localhost:3118/callback",
    );
    let client_id = serve_document("Claude Code", listed).await;
    let flow = pkce();
    let path = oauth::authorize_path(&client_id, sent, None, &flow.challenge, &app);
    let (cookie, consent) = sign_in_through(&app, &account.token, &path).await;
    let approved = oauth::decide(&app, &cookie, &consent, "approve").await;
    let code = oauth::redirect_params(&approved)["code"].clone();
    let other_port = "http://localhost:3119/callback";
    let (status, refused) = exchange(&app, &client_id, &code, other_port, &flow.verifier).await;
    assert_eq!(
        (status, refused["error"].as_str()),
        (400, Some("invalid_grant")),
        "{refused}"
    );

    // Only the port varies: not the host, the path, the scheme, nor an https port.
    let client_id = serve_document(
        "Strict",
        &["http://localhost/callback", "https://app.example/cb"],
    )
    .await;
    for wrong in [
        "http://127.0.0.1:3118/callback",
        "http://localhost:3118/elsewhere",
        "http://localhost:3118/callback?x=1",
        "https://localhost:3118/callback",
        "https://app.example:8443/cb",
        "http://user@localhost:3118/callback",
    ] {
        let flow = pkce();
        let path = oauth::authorize_path(&client_id, wrong, None, &flow.challenge, &app);
        let page = common::page::client()
            .get(app.url(&path))
            .header(COOKIE, "")
            .send()
            .await
            .unwrap();
        assert_eq!(page.status(), 400, "{wrong}");
    }
}
