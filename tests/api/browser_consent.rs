//! The consent page in a real browser (issue 45, finding 3), at a desktop's width (1280 px) and
//! a phone's (375 px): tests/browser/consent.mjs signs in through the authorization request of
//! a metadata-document client with a long client id and a loopback redirect, and checks through
//! the DOM that nothing scrolls sideways, the client id's box stays inside its card, every
//! granted scope is there in words, the account is named, and Allow is the emphasised action
//! and the first one Tab reaches; then Allow sends the browser back to the client with a code.
//! The error page and the sign-in page are checked on the phone too. Screenshots of each land
//! in `$TMPDIR/n8v-journal-consent-screenshots/`. Runs as `browser.rs` does (chromium and
//! playwright-core; `N8V_SKIP_BROWSER=1` asks to skip it out loud).

use super::browser::{assert_screenshots, chromium_or_skip, playwright_modules, run_script};
use crate::common::oauth::{authorize_path, pkce};
use crate::common::spawn_app_configured;
use n8v_journal::scopes::Scope;
use serde_json::json;
use std::path::PathBuf;

fn screenshots() -> PathBuf {
    std::env::temp_dir().join("n8v-journal-consent-screenshots")
}

/// A client ID metadata document at a long path (the longest client id a page may have to
/// hold), listing `http://127.0.0.1/callback` as Claude Code's does; the same server answers
/// the callback. The document's URL and the callback with the server's port.
async fn serve_client(name: &str) -> (String, String) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let path = format!("/oauth/{}/client-metadata.json", "clientmetadata".repeat(8));
    let url = format!("http://{address}{path}");
    let document = json!({
        "client_id": url,
        "client_name": name,
        "redirect_uris": ["http://127.0.0.1/callback"],
        "token_endpoint_auth_method": "none",
    });
    let app = axum::Router::new()
        .route(
            &path,
            axum::routing::get(move || {
                let document = document.clone();
                async move { axum::Json(document) }
            }),
        )
        .route(
            "/callback",
            axum::routing::get(|| async { axum::response::Html("<p>connected</p>") }),
        );
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url, format!("http://127.0.0.1:{}/callback", address.port()))
}

#[tokio::test(flavor = "multi_thread")]
async fn the_consent_page_reads_well_on_a_desktop_and_a_phone() {
    let Some(chromium) = chromium_or_skip() else {
        return;
    };
    let _ = std::fs::remove_dir_all(screenshots());
    let began = std::time::SystemTime::now();
    let modules = playwright_modules();
    let app = spawn_app_configured(|c| c.oauth.allow_private_client_urls = true).await;
    let account = app
        .account("Ada Lovelace", "chats:read,chats:delete,records:read")
        .await;
    app.journal_on(account.id).await;
    let (client_id, callback) = serve_client("Claude Code").await;
    let asked = [Scope::ChatsRead, Scope::ChatsDelete, Scope::RecordsRead];
    let scope = asked.map(Scope::as_str).join(" ");
    let setup = json!({
        "base": app.base,
        "chromium": chromium,
        "modules": modules,
        "shots": screenshots(),
        "key": account.token,
        "accountName": "Ada Lovelace",
        "clientHost": url::Url::parse(&client_id).unwrap().host_str(),
        "callback": callback,
        "meanings": asked.map(Scope::meaning),
        "authorize": authorize_path(&client_id, &callback, Some(&scope), &pkce().challenge, &app),
        "wrongRedirect": authorize_path(
            &client_id,
            "http://127.0.0.1:9/not-listed",
            None,
            &pkce().challenge,
            &app,
        ),
    });
    let steps = [
        "consent at 1280",
        "consent at 375",
        "allow sends the code back",
        "error page at 375",
        "sign-in at 375",
    ];
    run_script("consent.mjs", &setup, "consent: all steps passed", &steps).await;
    let shots = [
        "consent-1280",
        "consent-375",
        "consent-error-375",
        "sign-in-375",
    ];
    assert_screenshots(&screenshots(), &shots, began);
}
