//! `X-Session-Id` names the caller's conversation on every journalled operation: a session
//! that is not the caller's is a 404, one that has ended a 409, on each of them, and the
//! committed document says so for each (Schemathesis checks every answer against it).

use crate::common::TestApp;
use reqwest::Method;
use serde_json::{Value, json};

fn document() -> Value {
    serde_json::from_str(&n8v_journal::server::openapi_json()).expect("the document is JSON")
}

/// The responses the document declares for `method path`.
fn declared(document: &Value, method: &Method, path: &str) -> Value {
    document["paths"][path][method.as_str().to_lowercase()]["responses"].clone()
}

#[test]
fn every_operation_reading_x_session_id_documents_its_404_and_409() {
    let document = document();
    let (mut checked, mut webhooks) = (0, 0);
    for (path, item) in document["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let reads_session = operation["parameters"]
                .as_array()
                .is_some_and(|p| p.iter().any(|p| p["name"] == "X-Session-Id"));
            if !reads_session {
                continue;
            }
            checked += 1;
            let id = operation["operationId"].as_str().unwrap_or(path);
            for status in ["404", "409"] {
                let response = &operation["responses"][status];
                assert!(
                    response.is_object(),
                    "{id} ({method} {path}) reads X-Session-Id and documents no {status}"
                );
            }
            let not_found = operation["responses"]["404"]["description"]
                .as_str()
                .unwrap_or_default();
            let ended = operation["responses"]["409"]["description"]
                .as_str()
                .unwrap_or_default();
            if path.starts_with("/api/v1/webhooks") {
                webhooks += 1;
                assert!(not_found.contains("X-Session-Id"), "{id}: {not_found}");
                assert!(ended.contains("X-Session-Id"), "{id}: {ended}");
            }
        }
    }
    // Every operation a journalled session can make reads it (36 today, 9 of them webhooks'):
    // the loop saw them, not none.
    assert!(checked >= 30, "only {checked} operations read X-Session-Id");
    assert!(
        webhooks >= 9,
        "only {webhooks} webhook operations read X-Session-Id"
    );
}

/// Every webhook operation, on `webhook`, deleting last.
fn webhook_operations(webhook: &str) -> Vec<(Method, String, &'static str, Option<Value>)> {
    let one = "/api/v1/webhooks/{id}";
    let body = json!({"url": "http://127.0.0.1:9/in", "events": ["session.ended"]});
    vec![
        (
            Method::GET,
            "/api/v1/webhooks".into(),
            "/api/v1/webhooks",
            None,
        ),
        (
            Method::POST,
            "/api/v1/webhooks".into(),
            "/api/v1/webhooks",
            Some(body),
        ),
        (
            Method::GET,
            format!("/api/v1/webhooks/{webhook}"),
            one,
            None,
        ),
        (
            Method::PATCH,
            format!("/api/v1/webhooks/{webhook}"),
            one,
            Some(json!({"description": "changed"})),
        ),
        (
            Method::GET,
            format!("/api/v1/webhooks/{webhook}/deliveries"),
            "/api/v1/webhooks/{id}/deliveries",
            None,
        ),
        (
            Method::POST,
            format!("/api/v1/webhooks/{webhook}/rotate-secret"),
            "/api/v1/webhooks/{id}/rotate-secret",
            None,
        ),
        (
            Method::POST,
            format!("/api/v1/webhooks/{webhook}/test"),
            "/api/v1/webhooks/{id}/test",
            None,
        ),
        (
            Method::POST,
            format!("/api/v1/webhooks/{webhook}/maker"),
            "/api/v1/webhooks/{id}/maker",
            None,
        ),
        (
            Method::DELETE,
            format!("/api/v1/webhooks/{webhook}"),
            one,
            None,
        ),
    ]
}

async fn session_of(app: &TestApp, token: &str) -> String {
    let started = app
        .start_session(token, None, json!({"goal": "Watch the webhooks"}))
        .await;
    started.id.to_string()
}

#[tokio::test]
async fn the_webhook_operations_answer_another_ones_or_an_ended_session_as_documented() {
    let app = crate::webhooks::private_app().await;
    let scopes = "chats:read,webhooks:write";
    let a = app.account("A", scopes).await;
    let b = app.account("B", scopes).await;
    app.journal_on(a.id).await;
    app.journal_on(b.id).await;
    let receiver = "http://127.0.0.1:9/in";
    let (webhook, _) =
        crate::webhooks::endpoint(&app, &a.token, receiver, &["session.ended"]).await;
    let others = session_of(&app, &b.token).await;
    let ended = session_of(&app, &a.token).await;
    app.end_session(&a.token, &ended, json!({"outcome": "Done"}))
        .ok(200)
        .await;
    let document = document();
    for (method, path, documented, body) in webhook_operations(&webhook) {
        let responses = declared(&document, &method, documented);
        for (session, status, slug) in [(&others, 404, "not-found"), (&ended, 409, "conflict")] {
            app.call(method.clone(), &path)
                .token(&a.token)
                .session(Some(session))
                .json_opt(body.clone())
                .problem(status, slug)
                .await;
            assert!(
                responses[status.to_string()].is_object(),
                "{method} {documented} answers {status} and does not document it"
            );
        }
    }
    // Nothing was done under either session: the endpoint is still there, unchanged.
    let kept = app
        .call(Method::GET, &format!("/api/v1/webhooks/{webhook}"))
        .token(&a.token)
        .ok(200)
        .await;
    assert_eq!(kept["description"], "test receiver", "{kept}");
}
