//! The OpenAPI document: the committed copy is the generated one, every operation is fully
//! described, and the running app serves it (and Swagger UI).

use crate::common;

use serde_json::Value;
use std::path::PathBuf;

const STALE: &str =
    "openapi/openapi.json is stale; run `cargo run -q -- openapi > openapi/openapi.json`";

/// `/api/v1` operations that are not journalled, so they read neither `X-Purpose` nor
/// `X-Session-Id` (minting a token happens before any conversation).
/// Every `/api/v1` operation is journalled but deleting the account (the journal goes with it;
/// the operators' log keeps the deletion).
const NOT_JOURNALLED: &[&str] = &["deleteAccount"];

const METHODS: &[&str] = &["get", "put", "post", "delete", "patch", "head", "options"];

fn document() -> Value {
    serde_json::from_str(&n8v_journal::server::openapi_json()).expect("the document is JSON")
}

/// Every operation of the document, with its path.
fn operations(document: &Value) -> Vec<(String, String, Value)> {
    let mut out = Vec::new();
    for (path, item) in document["paths"].as_object().expect("paths") {
        for method in METHODS {
            if let Some(operation) = item.get(*method) {
                out.push((path.clone(), method.to_string(), operation.clone()));
            }
        }
    }
    out
}

#[test]
fn committed_document_is_current() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("openapi/openapi.json");
    let generated = n8v_journal::server::openapi_json();
    if std::env::var("UPDATE_OPENAPI").as_deref() == Ok("1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &generated).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    // Not assert_eq!: a diff of two whole documents helps nobody; the command does.
    assert!(committed == generated, "{STALE}");
}

#[test]
fn the_document_is_deterministic() {
    assert_eq!(
        n8v_journal::server::openapi_json(),
        n8v_journal::server::openapi_json()
    );
}

#[test]
fn every_operation_is_fully_described() {
    let document = document();
    assert_eq!(document["openapi"], "3.1.0");
    assert_eq!(document["info"]["title"], "n8v-journal");
    assert_eq!(document["info"]["version"], env!("CARGO_PKG_VERSION"));
    let operations = operations(&document);
    assert!(operations.len() >= 14, "{} operations", operations.len());
    let mut ids = std::collections::BTreeSet::new();
    for (path, method, op) in &operations {
        let name = format!("{} {path}", method.to_uppercase());
        let id = op["operationId"].as_str().unwrap_or_default();
        assert!(!id.is_empty(), "{name} has no operationId");
        assert!(ids.insert(id.to_owned()), "operationId {id} is used twice");
        assert!(
            op["tags"].as_array().is_some_and(|t| !t.is_empty()),
            "{name} has no tag"
        );
        assert!(op["summary"].is_string(), "{name} has no summary");
        // A paragraph after the summary line (redocly's operation-description, in api-check).
        assert!(
            op["description"]
                .as_str()
                .is_some_and(|d| !d.trim().is_empty()),
            "{name} has no description: write a paragraph after its summary line"
        );
        if op["parameters"].as_array().is_some_and(|p| {
            p.iter().any(|p| {
                p["name"] == "X-Purpose"
                    || p["$ref"].as_str().is_some_and(|r| r.contains("Purpose"))
            })
        }) {
            assert!(
                op["responses"]["400"].is_object(),
                "{name} takes X-Purpose and documents no 400 for a bad one"
            );
        }
        if op["requestBody"]["content"]["application/json"].is_object() {
            assert!(
                op["responses"]["415"].is_object(),
                "{name} takes a JSON body and documents no 415 for another content type"
            );
        }
        let responses = op["responses"].as_object().expect("responses");
        assert!(!responses.is_empty(), "{name} documents no response");
        for (status, response) in responses {
            assert!(
                response["description"]
                    .as_str()
                    .is_some_and(|d| !d.trim().is_empty()),
                "{name} {status} has no description"
            );
            if status.starts_with('4') || status.starts_with('5') {
                assert_eq!(
                    response["content"]["application/problem+json"]["schema"]["$ref"],
                    "#/components/schemas/Problem",
                    "{name} {status} is not a problem"
                );
            }
        }
        let public = path != "/healthz" && path != "/readyz";
        assert_eq!(
            op["security"] == serde_json::json!([{"bearer": []}]),
            public,
            "{name}: bearer security on every operation but the probes"
        );
        if path.starts_with("/api/v1/") && !NOT_JOURNALLED.contains(&id) {
            let headers: Vec<&str> = op["parameters"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|p| p["in"] == "header")
                .filter_map(|p| p["name"].as_str())
                .collect();
            for header in ["X-Purpose", "X-Session-Id", "X-Assistant"] {
                assert!(
                    headers.contains(&header),
                    "{name} does not document {header}"
                );
            }
            for (status, response) in responses.iter().filter(|(s, _)| s.starts_with('2')) {
                assert!(
                    response["headers"]["X-Session-Id"].is_object(),
                    "{name} {status} does not document the X-Session-Id response header"
                );
            }
        }
    }
    let schemes = &document["components"]["securitySchemes"]["bearer"];
    assert_eq!(schemes["type"], "http");
    assert_eq!(schemes["scheme"], "bearer");
}

#[tokio::test]
async fn the_app_serves_the_document_and_swagger_ui() {
    let app = common::spawn_app().await;
    let response = app.http.get(app.url("/openapi.json")).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/json");
    assert!(response.headers().contains_key("x-request-id"));
    assert_eq!(
        response.text().await.unwrap(),
        n8v_journal::server::openapi_json()
    );

    let response = app.http.get(app.url("/docs/")).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let content_type = response.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(content_type.starts_with("text/html"), "{content_type}");
    let html = response.text().await.unwrap();
    assert!(html.contains("swagger-ui"), "{html}");

    let config = app
        .http
        .get(app.url("/docs/swagger-initializer.js"))
        .send()
        .await
        .unwrap();
    assert_eq!(config.status(), 200);
    assert!(config.text().await.unwrap().contains("/openapi.json"));
}
