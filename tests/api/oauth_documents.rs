//! Client ID metadata documents cost the service a fetch and a row (issue 44, finding 7): an
//! address may make it fetch only so many new documents a minute (the authorization request
//! beyond that is a 429 page saying when to try again), and a document client nobody uses
//! expires as an unused registration does, to be fetched again when next named.

use crate::common::oauth::{self, REDIRECT, authorize_path, pkce, sign_in_through};
use crate::common::{TestApp, page, spawn_app_configured};
use reqwest::header::ACCEPT;
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A loopback server whose every `/clients/{name}.json` is a metadata document for that URL;
/// the base URL and the count of documents it served.
async fn serve_documents() -> (String, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let served = Arc::new(AtomicUsize::new(0));
    let (root, count) = (base.clone(), served.clone());
    let app = axum::Router::new().route(
        "/clients/{name}",
        axum::routing::get(
            move |axum::extract::Path(name): axum::extract::Path<String>| {
                count.fetch_add(1, Ordering::SeqCst);
                let url = format!("{root}/clients/{name}");
                async move {
                    axum::Json(json!({
                        "client_id": url,
                        "client_name": format!("Client {name}"),
                        "redirect_uris": [REDIRECT],
                        "token_endpoint_auth_method": "none",
                    }))
                }
            },
        ),
    );
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (base, served)
}

/// `GET /oauth/authorize` naming `client_id`, not signed in: its status and `Retry-After`.
async fn authorize(app: &TestApp, client_id: &str) -> (u16, Option<String>) {
    let path = authorize_path(client_id, REDIRECT, None, &pkce().challenge, app);
    let response = page::client()
        .get(app.url(&path))
        .header(ACCEPT, "text/html")
        .send()
        .await
        .unwrap();
    let retry = response
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_owned());
    (response.status().as_u16(), retry)
}

async fn document_clients(app: &TestApp) -> Vec<String> {
    sqlx::query_scalar("SELECT client_id FROM oauth_clients WHERE kind = 'document' ORDER BY 1")
        .fetch_all(&app.owner)
        .await
        .unwrap()
}

#[tokio::test]
async fn one_address_makes_the_service_fetch_at_most_its_budget_of_documents_a_minute() {
    // The default budget, as the registration budget's: 10 a minute per address.
    let app = spawn_app_configured(|c| c.oauth.allow_private_client_urls = true).await;
    let (base, served) = serve_documents().await;
    let mut statuses = Vec::new();
    for i in 0..30 {
        let (status, retry) = authorize(&app, &format!("{base}/clients/{i}.json")).await;
        if status == 429 {
            let seconds: u64 = retry.expect("a 429 says when to retry").parse().unwrap();
            assert!((1..=60).contains(&seconds), "Retry-After {seconds}");
        }
        statuses.push(status);
    }
    let stored = document_clients(&app).await.len();
    let refused = statuses.iter().filter(|s| **s == 429).count();
    assert!(stored <= 10, "{stored} documents stored: {statuses:?}");
    assert!(served.load(Ordering::SeqCst) <= 10, "{statuses:?}");
    assert_eq!(refused, 30 - stored, "{statuses:?}");
    assert!(statuses[..10].iter().all(|s| *s != 429), "{statuses:?}");

    // A document stored and fresh costs no fetch and no budget, even with the budget spent.
    let before = served.load(Ordering::SeqCst);
    let (status, _) = authorize(&app, &format!("{base}/clients/0.json")).await;
    assert_ne!(status, 429);
    assert_eq!(served.load(Ordering::SeqCst), before);
}

#[tokio::test]
async fn an_unused_document_client_expires_and_one_with_a_live_grant_stays() {
    let app = spawn_app_configured(|c| c.oauth.allow_private_client_urls = true).await;
    let account = app.account("A", "chats:read").await;
    app.journal_on(account.id).await;
    let (base, served) = serve_documents().await;
    let unused = format!("{base}/clients/unused.json");
    let granted = format!("{base}/clients/granted.json");
    assert_ne!(authorize(&app, &unused).await.0, 429);
    let path = authorize_path(&granted, REDIRECT, None, &pkce().challenge, &app);
    let (cookie, consent) = sign_in_through(&app, &account.token, &path).await;
    let approved = oauth::decide(&app, &cookie, &consent, "approve").await;
    assert!(oauth::redirect_params(&approved).contains_key("code"));
    assert_eq!(
        document_clients(&app).await,
        [granted.clone(), unused.clone()]
    );

    // A day later, the pass that removes unused registrations (run by each registration)
    // removes the unused document client too, and keeps the one with a live grant.
    app.clock.advance(chrono::Duration::hours(25));
    oauth::register(&app, "Trigger", REDIRECT).await;
    assert_eq!(document_clients(&app).await, std::slice::from_ref(&granted));

    // Named again, the expired one is fetched again.
    let before = served.load(Ordering::SeqCst);
    assert_ne!(authorize(&app, &unused).await.0, 429);
    assert_eq!(served.load(Ordering::SeqCst), before + 1);
    assert_eq!(document_clients(&app).await, [granted, unused]);
}

/// A document this server cannot reach (issue 52, item 4) is not the client's fault: the page
/// says this server could not fetch it, and what to do (let the server reach it, or sign in by
/// registration), never that its publisher must correct it; and it redirects nowhere.
#[tokio::test]
async fn a_document_this_server_cannot_reach_says_so_and_what_to_do() {
    let app = spawn_app_configured(|c| c.oauth.allow_private_client_urls = true).await;
    // A port nothing listens on: the connection is refused, as a private network's is.
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let client_id = format!("http://{}/clients/gone.json", closed.local_addr().unwrap());
    drop(closed);
    let path = authorize_path(&client_id, REDIRECT, None, &pkce().challenge, &app);
    let response = page::client()
        .get(app.url(&path))
        .header(ACCEPT, "text/html")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
    assert!(response.headers().get("location").is_none());
    let html = response.text().await.unwrap();
    assert!(html.contains("this server could not fetch"), "{html}");
    assert!(html.contains("oauth-client-registration dcr"), "{html}");
    assert!(
        html.contains("register a client at &#x2f;oauth&#x2f;register"),
        "{html}"
    );
    assert!(!html.contains("publisher must correct"), "{html}");
}
