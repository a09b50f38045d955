//! Text that no stored string can hold, sent through every door: a NUL (PostgreSQL's `text`
//! and `jsonb` refuse it) and a lone surrogate (`\ud800` in JSON, its bytes in a query or a
//! header; no UTF-8 string holds one). Every string of every REST body the committed document
//! describes, and of every MCP tool's arguments, every query parameter and every journal
//! header of every operation: each answers a 2xx or a 4xx problem, never a 500.

use crate::common::{self, Account, TestApp};
use reqwest::Method;
use reqwest::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderValue};
use serde_json::{Value, json};

use crate::common::CUSTOMER_SCOPES as ALL;
/// Appended to a string in the JSON value; replaced by a lone surrogate's escape in its text.
const SURROGATE_MARK: &str = "\u{E000}lone\u{E000}";
/// Ids that are well formed and name nothing.
const NO_CALL: &str = "call_01KYP3WV40ER08K6AGV0VFCXEC";
const NO_SESSION: &str = "ses_01KYP3WV40ER08K6AGV0VFCXEC";
const NO_DIGEST: &str = "dig_01KYP3WV40ER08K6AGV0VFCXEC";
const NO_ITEM: &str = "itm_01KYP3WV40ER08K6AGV0VFCXEC";

/// What the sweep sends to: an account with every scope, one of its sessions, its Record, and
/// one of its webhook endpoints.
struct Fixture {
    app: TestApp,
    a: Account,
    session: String,
    record: String,
    webhook: String,
}

async fn fixture() -> Fixture {
    let app = crate::webhooks::private_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let session = app
        .start_session(&a.token, None, json!({"goal": "Sweep"}))
        .await
        .id
        .to_string();
    let record = app.record_of(a.id).await;
    let receiver = "http://127.0.0.1:9/in";
    let (webhook, _) =
        crate::webhooks::endpoint(&app, &a.token, receiver, &["session.ended"]).await;
    Fixture {
        app,
        a,
        session,
        record,
        webhook,
    }
}

fn episode() -> Value {
    json!({
        "episode_id": "ep-sweep", "harness": "claude-code", "project": "acme/web",
        "started_at": "2026-11-10T09:00:00Z", "ended_at": "2026-11-10T09:40:00Z",
        "turns": [
            {"role": "user", "text": "Fix the login", "kind": "message"},
            {"role": "assistant", "text": "Fixed it", "kind": "message"},
        ],
        "ended": true,
    })
}

impl Fixture {
    /// A body for each operation that takes one, with every string field it has.
    fn body(&self, operation: &str) -> Option<Value> {
        Some(match operation {
            "deleteAccount" => json!({"confirm": "not the account's name"}),
            "mintToken" => json!({"scopes": ["chats:read"], "expires_in": 600}),
            "postEpisode" => episode(),
            "answerClaudeCodeHook" => {
                json!({"hook_event_name": "UserPromptSubmit", "session_id": "s-1"})
            }
            "closeLoop" => json!({"state": "done"}),
            "replaceDecision" => json!({"by": "itm_01KYP3WV40ER08K6AGV0VFCXEC"}),
            "startSession" => json!({"goal": "g", "organization": null, "repository": "acme/web"}),
            "endSession" => json!({
                "outcome": "o", "decisions": ["d"], "next_steps": ["n"],
                "open_questions": ["q"], "resolved": ["itm_01KYP3WV40ER08K6AGV0VFCXEC"],
                "replaces": ["itm_01KYP3WV40ER08K6AGV0VFCXED"],
            }),
            "appendRecordEntry" => json!({"line": "a line"}),
            "createWebhook" => json!({
                "url": "http://127.0.0.1:9/other", "events": ["session.ended"],
                "description": "d",
            }),
            "updateWebhook" => json!({
                "url": "http://127.0.0.1:9/other", "events": ["session.ended"],
                "description": "d",
            }),
            _ => return None,
        })
    }

    /// The arguments of each MCP tool, with every string argument it takes.
    fn arguments(&self, tool: &str) -> Value {
        let (session, record) = (&self.session, &self.record);
        let mut args = match tool {
            "journal_catch_up" => {
                json!({"since": "2026-11-01T00:00:00Z", "min_tier": "derived"})
            }
            "session_start" => json!({"goal": "g", "repository": "acme/web", "organization": null}),
            "session_end" => json!({
                "outcome": "o", "decisions": ["d"], "next_steps": ["n"],
                "open_questions": ["q"], "resolved": ["itm_01KYP3WV40ER08K6AGV0VFCXEC"],
                "replaces": ["itm_01KYP3WV40ER08K6AGV0VFCXED"],
            }),
            "journal_sessions" => json!({
                "repo": "acme/web", "assistant": "a", "key": "key_01KYP3WV40ER08K6AGV0VFCXEC",
                "organization": "org_01KYP3WV40ER08K6AGV0VFCXEC", "cursor": "",
                "from": "2026-01-01", "to": "2026-12-31",
            }),
            "journal_loops" => json!({"state": "open", "cursor": ""}),
            "journal_loop_close" => json!({"item": NO_ITEM, "state": "done"}),
            "journal_loop_dismiss" => json!({"item": NO_ITEM}),
            "journal_session" => json!({"session_id": session, "cursor": ""}),
            "journal_entry" => json!({"entry_id": NO_CALL}),
            "journal_delete_session" => json!({"session_id": NO_SESSION}),
            "journal_delete_day" => json!({"date": "2020-01-01"}),
            "journal_digests" => {
                json!({"period": "week", "from": "2026-01-01", "to": "2026-12-31"})
            }
            "journal_search" => json!({
                "q": "login", "repo": "acme/web", "assistant": "a",
                "organization": "org_01KYP3WV40ER08K6AGV0VFCXEC",
                "from": "2026-01-01", "to": "2026-12-31",
            }),
            "journal_delete_digest" => json!({"digest_id": NO_DIGEST}),
            "journal_episode" => episode(),
            "record_list" => json!({}),
            "record_read" => json!({"record_id": record, "cursor": ""}),
            "record_append" => json!({"record_id": record, "line": "a line"}),
            other => panic!("no arguments written for the tool {other}: add them here"),
        };
        args["purpose"] = json!("Sweep the doors");
        args["session"] = json!(session);
        args
    }

    /// `path` with its parameters naming the fixture's things (or well-formed ids of nothing).
    fn path(&self, path: &str) -> String {
        let id = match path.split('/').nth(3) {
            Some("journal") => match path.split('/').nth(4) {
                Some("sessions") => self.session.as_str(),
                Some("days") => "2020-01-01",
                Some("digests") => NO_DIGEST,
                Some("entries") => NO_CALL,
                Some("loops") => "itm_01KYP3WV40ER08K6AGV0VFCXEC",
                _ => "exp_01KYP3WV40ER08K6AGV0VFCXEC",
            },
            Some("records") => self.record.as_str(),
            Some("webhooks") => self.webhook.as_str(),
            _ => "aud_01KYP3WV40ER08K6AGV0VFCXEC",
        };
        path.replace("{id}", id).replace("{date}", id)
    }
}

/// The pointers of every string in `value` (`/turns/0/text`…).
fn strings(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::String(_) => out.push(at),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                strings(item, format!("{at}/{i}"), out);
            }
        }
        Value::Object(fields) => {
            for (name, field) in fields {
                strings(field, format!("{at}/{name}"), out);
            }
        }
        _ => {}
    }
}

/// `value` with the string at `pointer` holding a NUL, and (as JSON text) a lone surrogate.
fn spoilt(value: &Value, pointer: &str) -> [String; 2] {
    let with = |suffix: &str| {
        let mut copy = value.clone();
        let text = copy.pointer_mut(pointer).unwrap();
        *text = json!(format!("{}{suffix}x", text.as_str().unwrap()));
        copy.to_string()
    };
    [
        with("\u{0}"),
        with(SURROGATE_MARK).replace(SURROGATE_MARK, "\\ud800"),
    ]
}

/// A 2xx, or a 4xx problem+json; never a 5xx.
async fn answered_well(response: reqwest::Response, what: &str) {
    let status = response.status();
    let kind = response
        .headers()
        .get(CONTENT_TYPE)
        .map(|v| v.to_str().unwrap_or_default().to_owned())
        .unwrap_or_default();
    let text = response.text().await.unwrap();
    assert!(
        status.is_success() || status.is_client_error(),
        "{what}: {status} {text}"
    );
    if status.is_client_error() {
        assert_eq!(kind, "application/problem+json", "{what}: {status} {text}");
    }
}

/// One operation of the committed document, and the texts it takes besides its path.
struct Door {
    path: String,
    method: Method,
    id: String,
    queries: Vec<String>,
    headers: Vec<String>,
    takes_body: bool,
}

/// The committed document's operations under `/api/v1` and `/journal.md`.
fn doors(document: &Value) -> Vec<Door> {
    let mut out = Vec::new();
    for (path, item) in document["paths"].as_object().unwrap() {
        if !(path.starts_with("/api/v1/") || path == "/journal.md") {
            continue;
        }
        for (method, operation) in item.as_object().unwrap() {
            let Ok(method) = method.to_uppercase().parse::<Method>() else {
                continue;
            };
            let named = |place: &str| -> Vec<String> {
                let parameters = operation["parameters"].as_array().cloned();
                parameters
                    .unwrap_or_default()
                    .iter()
                    .filter(|p| p["in"] == place)
                    .map(|p| p["name"].as_str().unwrap().to_owned())
                    .collect()
            };
            out.push(Door {
                path: path.clone(),
                method,
                id: operation["operationId"].as_str().unwrap().to_owned(),
                queries: named("query"),
                headers: named("header"),
                takes_body: operation["requestBody"].is_object(),
            });
        }
    }
    out
}

#[tokio::test]
async fn a_nul_or_a_lone_surrogate_in_any_rest_text_is_never_a_500() {
    let f = fixture().await;
    let (app, token) = (&f.app, f.a.token.as_str());
    let document: Value = serde_json::from_str(&n8v_journal::server::openapi_json()).unwrap();
    let doors = doors(&document);
    assert!(doors.len() >= 30, "{} operations", doors.len());
    for door in doors {
        let Door {
            path,
            method,
            id,
            queries,
            headers,
            takes_body,
        } = door;
        let url = app.url(&f.path(&path));
        let request = || app.http.request(method.clone(), &url).bearer_auth(token);
        if takes_body {
            let body = f
                .body(&id)
                .unwrap_or_else(|| panic!("no body written for {id}"));
            swept_fields(&document, &path, &method, &body, &id);
            let mut pointers = Vec::new();
            strings(&body, String::new(), &mut pointers);
            for pointer in pointers {
                for text in spoilt(&body, &pointer) {
                    let sent = request()
                        .header(CONTENT_TYPE, "application/json")
                        .body(text.clone());
                    answered_well(sent.send().await.unwrap(), &format!("{id} {text}")).await;
                }
            }
        }
        for query in queries {
            for value in ["a%00b", "a%ED%A0%80b", "%C0%80"] {
                let sent = app
                    .http
                    .request(method.clone(), format!("{url}?{query}={value}"))
                    .bearer_auth(token);
                answered_well(
                    sent.send().await.unwrap(),
                    &format!("{id} ?{query}={value}"),
                )
                .await;
            }
        }
        for header in headers {
            for value in [&b"a\xed\xa0\x80b"[..], b"a\tb", b"\xc0\x80", b"%00"] {
                let sent = request().header(&header, HeaderValue::from_bytes(value).unwrap());
                let what = format!("{id} {header}: {value:?}");
                answered_well(sent.send().await.unwrap(), &what).await;
            }
        }
    }
    // A NUL cannot be in a header at all (RFC 9110 §5.5): the server refuses the request.
    let raw = format!(
        "GET /api/v1/records HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n\
         X-Purpose: a\0b\r\nConnection: close\r\n\r\n"
    );
    let status = raw_status(app, raw.as_bytes()).await;
    assert!(status.starts_with("HTTP/1.1 4"), "{status}");
}

/// Every string (or list) field of the operation's body schema is in `body`.
fn swept_fields(document: &Value, path: &str, method: &Method, body: &Value, id: &str) {
    let operation = &document["paths"][path][method.as_str().to_lowercase()];
    let schema = &operation["requestBody"]["content"]["application/json"]["schema"];
    let reference = schema["$ref"]
        .as_str()
        .or(schema["oneOf"][0]["$ref"].as_str());
    let name = reference.unwrap().rsplit('/').next().unwrap();
    let properties = &document["components"]["schemas"][name]["properties"];
    for (field, schema) in properties.as_object().unwrap() {
        let typed = schema["type"].to_string();
        if typed.contains("string") || typed.contains("array") {
            assert!(body.get(field).is_some(), "{id}'s {field} is not swept");
        }
    }
}

/// The status line the app answers a raw request with.
async fn raw_status(app: &TestApp, request: &[u8]) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let address = app.base.trim_start_matches("http://").to_owned();
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    stream.write_all(request).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    let answer = String::from_utf8_lossy(&answer);
    answer.lines().next().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn a_nul_or_a_lone_surrogate_in_any_tool_argument_is_never_a_500() {
    let f = fixture().await;
    let (app, token) = (&f.app, f.a.token.as_str());
    let mcp = |body: String| {
        app.http
            .post(app.url("/mcp"))
            .header(AUTHORIZATION, format!("Bearer {token}"))
            .header(ACCEPT, "application/json, text/event-stream")
            .header(CONTENT_TYPE, "application/json")
            .body(body)
            .send()
    };
    let listed: Value = mcp(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).to_string())
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let tools = listed["result"]["tools"].as_array().unwrap();
    assert!(tools.len() >= 16, "{listed}");
    for tool in tools {
        let name = tool["name"].as_str().unwrap();
        let args = f.arguments(name);
        // Every string (or list) argument the tool takes is in its arguments above.
        for (field, schema) in tool["inputSchema"]["properties"].as_object().unwrap() {
            let typed = schema["type"].to_string();
            if typed.contains("string") || typed.contains("array") {
                assert!(args.get(field).is_some(), "{name}'s {field} is not swept");
            }
        }
        let call = json!({
            "jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": name, "arguments": args},
        });
        let mut pointers = Vec::new();
        strings(&call["params"]["arguments"], String::new(), &mut pointers);
        for pointer in pointers {
            for text in spoilt(&call, &format!("/params/arguments{pointer}")) {
                let response = mcp(text.clone()).await.unwrap();
                let status = response.status();
                let answer = response.text().await.unwrap();
                assert!(status.as_u16() < 500, "{name} {text}: {status} {answer}");
                let answer: Value = serde_json::from_str(&answer).unwrap_or_else(|e| {
                    panic!("{name} {text}: {status}, not JSON ({e}): {answer}")
                });
                // A JSON-RPC answer (a result or an error), or a problem refusing the request.
                let rpc = answer.get("result").is_some() || answer.get("error").is_some();
                let problem = status.is_client_error() && answer["status"] == status.as_u16();
                assert!(rpc || problem, "{name} {text}: {status} {answer}");
                assert_ne!(answer["error"]["code"], -32603, "{name} {text}: {answer}");
                let result = &answer["result"]["structuredContent"];
                assert_ne!(result["status"], 500, "{name} {text}: {answer}");
            }
        }
    }
}

/// The OAuth server's doors (their errors are RFC 6749's JSON, not problems): registration's
/// JSON, the authorization request's query, the token and revocation endpoints' forms.
#[tokio::test]
async fn a_nul_or_a_lone_surrogate_at_the_oauth_doors_is_never_a_500() {
    let app = common::spawn_app_configured(|c| c.oauth.registrations_per_minute = 1000).await;
    let http = &app.http;
    let registration = json!({
        "client_name": "Tool", "redirect_uris": ["http://127.0.0.1:9/callback"],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"], "token_endpoint_auth_method": "none", "scope": "chats:read",
    });
    let mut pointers = Vec::new();
    strings(&registration, String::new(), &mut pointers);
    for pointer in pointers {
        for text in spoilt(&registration, &pointer) {
            let response = http
                .post(app.url("/oauth/register"))
                .header(CONTENT_TYPE, "application/json")
                .body(text.clone())
                .send()
                .await
                .unwrap();
            let status = response.status();
            assert!(status.as_u16() < 500, "register {text}: {status}");
        }
    }
    let client_id = crate::common::oauth::register(&app, "Tool", "http://127.0.0.1:9/cb").await;
    let resource = app.url("/mcp");
    let authorize = [
        ("response_type", "code"),
        ("client_id", client_id.as_str()),
        ("redirect_uri", "http://127.0.0.1:9/cb"),
        ("state", "st"),
        (
            "code_challenge",
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGSSDdzKDA",
        ),
        ("code_challenge_method", "S256"),
        ("scope", "chats:read"),
        ("resource", resource.as_str()),
    ];
    let forms: [(&str, Vec<(&str, &str)>); 3] = [
        ("/oauth/authorize", authorize.to_vec()),
        (
            "/oauth/token",
            vec![
                ("grant_type", "authorization_code"),
                ("code", "c"),
                ("client_id", client_id.as_str()),
                ("redirect_uri", "http://127.0.0.1:9/cb"),
                ("code_verifier", "v"),
                ("refresh_token", "r"),
                ("resource", resource.as_str()),
                ("scope", "chats:read"),
            ],
        ),
        (
            "/oauth/revoke",
            vec![
                ("token", "t"),
                ("token_type_hint", "refresh_token"),
                ("client_id", "c"),
            ],
        ),
    ];
    for (path, fields) in forms {
        for spoil in 0..fields.len() {
            for bad in ["%00", "%ED%A0%80"] {
                let encoded: Vec<String> = fields
                    .iter()
                    .enumerate()
                    .map(|(i, (name, value))| {
                        let value = serde_urlencoded::to_string([(name, value)]).unwrap();
                        if i == spoil {
                            format!("{value}{bad}x")
                        } else {
                            value
                        }
                    })
                    .collect();
                let encoded = encoded.join("&");
                let response = match path {
                    "/oauth/authorize" => http.get(app.url(&format!("{path}?{encoded}"))),
                    _ => http
                        .post(app.url(path))
                        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
                        .body(encoded.clone()),
                };
                let response = response.send().await.unwrap();
                let status = response.status();
                let text = response.text().await.unwrap();
                assert!(status.as_u16() < 500, "{path} {encoded}: {status} {text}");
            }
        }
    }
}
