//! The address guard at each door where a stranger names an address the service will connect
//! to: a webhook endpoint's URL, and an authorization request naming a client metadata
//! document's URL. The IPv6 forms that reach a loopback or private address (IPv4-compatible,
//! -mapped and -translated, NAT64, 6to4, Teredo, site-local) are refused at both, as the
//! dotted loopback is; the unit tests of `outbound::special_purpose` hold the whole table.

use crate::common::oauth::{REDIRECT, authorize_path, pkce};
use crate::common::{self, spawn_app};
use reqwest::Method;
use reqwest::header::ACCEPT;
use serde_json::json;

/// Hosts, as a URL writes them, that are not globally reachable.
const HIDDEN_HOSTS: &[&str] = &[
    "[::127.0.0.1]",
    "[::ffff:127.0.0.1]",
    "[::ffff:0:7f00:1]",
    "[64:ff9b::7f00:1]",
    "[64:ff9b::a9fe:a9fe]",
    "[64:ff9b:1::808:808]",
    "[2002:7f00:1::1]",
    "[2001::1]",
    "[fec0::1]",
    "[100::1]",
];

#[tokio::test]
async fn a_webhook_url_on_a_hidden_ipv6_form_is_refused() {
    let app = spawn_app().await;
    let a = app.account("A", "webhooks:write").await;
    for host in HIDDEN_HOSTS {
        let url = format!("https://{host}/in");
        let response = app
            .call(Method::POST, "/api/v1/webhooks")
            .token(&a.token)
            .json(json!({"url": url, "events": ["session.ended"]}))
            .send()
            .await;
        assert_eq!(response.status(), 400, "{url} was accepted");
        let problem = common::expect_problem(response, 400, "bad-request").await;
        let detail = problem["detail"].as_str().unwrap();
        assert!(detail.contains("public addresses"), "{url}: {detail}");
    }
    let listed = app
        .call(Method::GET, "/api/v1/webhooks")
        .token(&a.token)
        .ok(200)
        .await;
    assert_eq!(listed["webhooks"], json!([]));
}

#[tokio::test]
async fn a_metadata_document_on_a_hidden_ipv6_form_is_never_fetched() {
    let app = spawn_app().await;
    for host in HIDDEN_HOSTS {
        // The client_id must be written in its normal form (the URL parser's), or it is
        // refused for that before its address is looked at.
        let client_id = url::Url::parse(&format!("https://{host}/client.json"))
            .unwrap()
            .to_string();
        let path = authorize_path(&client_id, REDIRECT, None, &pkce().challenge, &app);
        let page = common::page::client()
            .get(app.url(&path))
            .header(ACCEPT, "text/html")
            .send()
            .await
            .unwrap();
        assert_eq!(page.status(), 400, "{client_id}");
        assert!(page.headers().get("location").is_none(), "{client_id}");
        let html = page.text().await.unwrap();
        assert!(
            html.contains("metadata documents are fetched only from public addresses"),
            "{client_id}: {html}"
        );
    }
}
