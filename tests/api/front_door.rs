//! Issue 45, finding 7: the service is found where people look. `GET /` and `/docs` point to
//! MCP, the OAuth metadata and the integrations guide (served at `/integrations.md`); the docs
//! carry the binary's version, say which URL to give MCP clients, and show how to verify a
//! webhook in Python and TypeScript (the Python shown is run as written, on a real delivery),
//! `webhook.test` among the events; the pages have a favicon; and `server.json`, the MCP
//! Registry's entry, is valid against the registry's schema (vendored in `schemas/`) and names
//! this version.

use crate::common;
use crate::common::receiver::{Received, Receiver};
use n8v_journal::jobs;
use reqwest::Method;
use reqwest::header::CONTENT_TYPE;
use serde_json::Value;

const MANIFEST: &str = env!("CARGO_MANIFEST_DIR");

fn read(path: &str) -> String {
    std::fs::read_to_string(format!("{MANIFEST}/{path}")).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn content_type(response: &reqwest::Response) -> String {
    response.headers()[CONTENT_TYPE]
        .to_str()
        .unwrap()
        .to_owned()
}

#[tokio::test]
async fn the_root_names_mcp_the_oauth_metadata_and_the_integrations_guide() {
    let app = common::spawn_app().await;
    let root: Value = app
        .http
        .get(app.url("/"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(root["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(root["mcp_url"], app.url("/mcp"));
    let connect = root["connect"].as_str().unwrap();
    assert!(
        connect.starts_with(&format!("Give MCP clients {}", app.url("/mcp"))),
        "{connect}"
    );
    let links = &root["links"];
    for (name, href, answer) in [
        ("mcp", "/mcp", 401),
        (
            "oauth_protected_resource",
            "/.well-known/oauth-protected-resource/mcp",
            200,
        ),
        (
            "oauth_authorization_server",
            "/.well-known/oauth-authorization-server",
            200,
        ),
        ("integrations", "/integrations.md", 200),
        ("docs", "/docs", 200),
    ] {
        assert_eq!(links[name]["href"], href, "{root}");
        let status = app.http.get(app.url(href)).send().await.unwrap().status();
        // (reqwest follows /docs's redirect to Swagger UI.)
        assert_eq!(status.as_u16(), answer, "{href}");
    }

    // The guide served is this build's integrations/README.md, as markdown.
    let guide = app
        .http
        .get(app.url("/integrations.md"))
        .send()
        .await
        .unwrap();
    assert_eq!(content_type(&guide), "text/markdown; charset=utf-8");
    assert_eq!(guide.text().await.unwrap(), read("integrations/README.md"));
}

#[tokio::test]
async fn the_docs_carry_the_version_the_way_to_connect_and_webhook_verification() {
    let app = common::spawn_app().await;
    let document: Value = app
        .http
        .get(app.url("/openapi.json"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(document["info"]["version"], env!("CARGO_PKG_VERSION"));
    let description = document["info"]["description"].as_str().unwrap();
    for named in [
        "](/mcp)",
        "](/.well-known/oauth-protected-resource/mcp)",
        "](/.well-known/oauth-authorization-server)",
        "](/integrations.md)",
        "`<N8V_PUBLIC_URL>/mcp`",
        "`http://localhost:PORT/mcp`",
        "`server.json`",
    ] {
        assert!(description.contains(named), "{named} not in {description}");
    }
    // Every link the docs give goes somewhere.
    for link in description.split("](").skip(1) {
        let href = &link[..link.find(')').unwrap()];
        let status = app.http.get(app.url(href)).send().await.unwrap().status();
        assert!([200, 401].contains(&status.as_u16()), "{href}: {status}");
    }

    let webhooks = document["tags"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "webhooks")
        .unwrap()["description"]
        .as_str()
        .unwrap();
    for shown in [
        "pip install standardwebhooks",
        "```python\nfrom standardwebhooks import Webhook\n",
        "event = Webhook(secret).verify(body, headers)",
        "npm install standardwebhooks",
        "```ts\nimport { Webhook } from \"standardwebhooks\";\n",
        "const event = new Webhook(secret).verify(body, headers);",
        "`webhook.test`",
    ] {
        assert!(webhooks.contains(shown), "{shown} not in {webhooks}");
    }
    // Each event, the test event too, has its body in the document's webhooks.
    for event in [
        "session.ended",
        "summary.ready",
        "loop.opened",
        "loop.closed",
        "exposure.seen",
        "digest.ready",
        "endpoint.disabled",
        "webhook.test",
    ] {
        assert!(webhooks.contains(&format!("`{event}`")), "{event}");
        assert!(document["webhooks"][event]["post"].is_object(), "{event}");
    }
    let test = &document["components"]["schemas"]["WebhookTest"];
    assert_eq!(test["required"], serde_json::json!(["webhook", "message"]));

    // Swagger UI at /docs shows that document.
    let docs = app.http.get(app.url("/docs/")).send().await.unwrap();
    assert_eq!(docs.status(), 200);
    assert!(content_type(&docs).starts_with("text/html"));
}

#[tokio::test]
async fn a_favicon_is_served_and_every_page_links_it() {
    let app = common::spawn_app().await;
    for path in ["/favicon.ico", "/favicon.svg"] {
        let response = app.http.get(app.url(path)).send().await.unwrap();
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(content_type(&response), "image/svg+xml", "{path}");
        let body = response.text().await.unwrap();
        assert!(
            body.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\"") && body.len() < 1024,
            "{path}: {body}"
        );
        assert!(
            !body.contains("href") && !body.contains("<image"),
            "no external asset"
        );
    }
    // The pages share one head (templates/base.html); the sign-in page is one of them.
    let page = app
        .http
        .get(app.url("/journal/sign-in"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        page.contains(r#"<link rel="icon" href="/favicon.svg" type="image/svg+xml">"#),
        "{page}"
    );
}

#[test]
fn server_json_is_a_valid_registry_entry_for_this_version() {
    use sha2::Digest;
    let schema_text = read("schemas/mcp-registry-server.2025-12-11.schema.json");
    // The vendored schema is the registry's, unmodified (its hash in schemas/README.md).
    assert_eq!(
        hex::encode(sha2::Sha256::digest(schema_text.as_bytes())),
        "3fba09590c99f61735d234822279f4223fab9e300c0a81e81c91ab62a4114de0"
    );
    assert!(
        read("schemas/README.md")
            .contains("3fba09590c99f61735d234822279f4223fab9e300c0a81e81c91ab62a4114de0")
    );
    let schema: Value = serde_json::from_str(&schema_text).unwrap();
    let entry: Value = serde_json::from_str(&read("server.json")).unwrap();
    assert_eq!(entry["$schema"], schema["$id"]);

    let validator = jsonschema::draft7::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the registry's schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(&entry)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "server.json: {errors:?}");
    // The check can fail: an entry without a version, or a remote of an unknown type, is not.
    let mut broken = entry.clone();
    broken.as_object_mut().unwrap().remove("version");
    broken["remotes"][0]["type"] = "websocket".into();
    assert!(validator.iter_errors(&broken).count() >= 2);

    assert_eq!(entry["version"], env!("CARGO_PKG_VERSION"));
    let remote = &entry["remotes"][0];
    assert_eq!(remote["type"], "streamable-http");
    assert!(
        remote["url"].as_str().unwrap().ends_with("/mcp"),
        "{remote}"
    );
    let authorization = remote["headers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["name"] == "Authorization")
        .expect("the bearer header");
    assert_eq!(authorization["isSecret"], true);
    assert!(
        authorization["value"]
            .as_str()
            .is_some_and(|v| v.starts_with("Bearer ")),
        "{authorization}"
    );
}

/// The code between "```python\n" and the next "```" in `text`.
fn python_block(text: &str) -> &str {
    let start = text.find("```python\n").expect("a Python block") + "```python\n".len();
    &text[start..start + text[start..].find("```").unwrap()]
}

/// Runs the docs' Python verification on one delivery: what it printed, or its error.
fn run_documented_python(
    snippet: &str,
    secret: &str,
    received: &Received,
) -> Result<Value, String> {
    let python = std::env::var("N8V_MCP_PYTHON")
        .unwrap_or_else(|_| "/var/tmp/n8v-journal-venv/bin/python".to_owned());
    let program = format!(
        "import json, sys\njob = json.load(sys.stdin)\nsecret, body, headers = job['secret'], \
         job['body'], job['headers']\n{snippet}\nprint(json.dumps(event))\n"
    );
    let mut child = std::process::Command::new(python)
        .args(["-c", &program])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let job =
        serde_json::json!({"secret": secret, "body": received.body, "headers": received.headers});
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(job.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    if out.status.success() {
        Ok(serde_json::from_slice(&out.stdout).unwrap())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

#[tokio::test]
async fn the_documented_python_verification_accepts_a_test_event_and_refuses_a_forgery() {
    let app = crate::webhooks::private_app().await;
    let person = app.account("Ada", crate::webhooks::SCOPES).await;
    let receiver = Receiver::start().await;
    let (webhook, secret) =
        crate::webhooks::endpoint(&app, &person.token, &receiver.url(), &["session.ended"]).await;
    let sent = app
        .call(Method::POST, &format!("/api/v1/webhooks/{webhook}/test"))
        .token(&person.token)
        .send()
        .await;
    assert!(sent.status().is_success(), "{}", sent.status());
    let state = crate::webhooks::workers(&app);
    jobs::webhooks::deliver_due(&state).await.unwrap();
    let received = receiver.received();
    assert_eq!(received.len(), 1, "{received:?}");

    let document: Value = serde_json::from_str(&n8v_journal::server::openapi_json()).unwrap();
    let tag = document["tags"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "webhooks")
        .unwrap();
    let snippet = python_block(tag["description"].as_str().unwrap());
    let event = run_documented_python(snippet, &secret, &received[0]).unwrap();
    assert_eq!(event["type"], "webhook.test", "{event}");
    assert_eq!(event["data"]["webhook"], webhook.as_str());
    assert!(event["data"]["message"].is_string(), "{event}");

    let mut forged = received[0].clone();
    forged.body = forged.body.replace("A test event", "A forged event");
    assert_ne!(forged.body, received[0].body);
    let refused = run_documented_python(snippet, &secret, &forged).unwrap_err();
    assert!(refused.contains("WebhookVerificationError"), "{refused}");
}
