//! OpenTelemetry export, end to end: the real binary, pointed at a local OTLP/HTTP receiver
//! (`OTEL_EXPORTER_OTLP_ENDPOINT`, JSON encoding), sends spans named after the service with the
//! operation id and account id of each journalled operation (REST and MCP), plus the request
//! metrics; and never a purpose, a token or a Record line. Spans arrive whatever `RUST_LOG`
//! says, and no directive, however specific, gets a tool call's prose into the logs or traces.

use crate::common;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::Uri;
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::{Value, json};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_n8v-journal");

type Received = Arc<Mutex<Vec<(String, Value)>>>;

/// An OTLP/HTTP receiver: keeps every JSON export request by path (`/v1/traces`, …).
async fn receiver() -> (String, Received) {
    let received: Received = Arc::default();
    let app = Router::new()
        .fallback(
            |State(store): State<Received>, uri: Uri, body: Bytes| async move {
                let value: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                store.lock().unwrap().push((uri.path().to_owned(), value));
                axum::Json(json!({}))
            },
        )
        .with_state(received.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (base, received)
}

/// The service's `api` binary with telemetry pointed at `otlp`, ready to serve; `env` adds to
/// (or overrides) the defaults.
async fn spawn_api(db: &str, otlp: &str, env: &[(&str, &str)]) -> (std::process::Child, String) {
    let port = common::free_port();
    let mut command = Command::new(BIN);
    command
        .arg("api")
        .env("DATABASE_URL", db)
        .env("N8V_BIND", format!("127.0.0.1:{port}"))
        .env("N8V_LOG_FORMAT", "json")
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp)
        .env("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json")
        .env("OTEL_BSP_SCHEDULE_DELAY", "100")
        .env("OTEL_METRIC_EXPORT_INTERVAL", "500")
        .env_remove("RUST_LOG")
        .env_remove("N8V_OTEL_FILTER")
        .env_remove("OTEL_SERVICE_NAME")
        .env_remove("OTEL_RESOURCE_ATTRIBUTES")
        .env_remove("OTEL_SDK_DISABLED");
    for (name, value) in env {
        command.env(name, value);
    }
    let mut child = command
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let base = format!("http://127.0.0.1:{port}");
    let http = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !matches!(http.get(format!("{base}/readyz")).send().await, Ok(r) if r.status() == 200) {
        if Instant::now() > deadline || child.try_wait().unwrap().is_some() {
            let _ = child.kill();
            let output = child.wait_with_output().unwrap();
            panic!(
                "the server never became ready: {}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    (child, base)
}

/// SIGTERM, then the process's stderr: it flushes its exporters before it exits.
async fn stop(child: std::process::Child) -> String {
    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    let output = tokio::task::spawn_blocking(move || child.wait_with_output())
        .await
        .unwrap()
        .unwrap();
    assert!(output.status.success(), "{:?}", output.status);
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// An account with the journal on and a key for everything these tests call.
async fn account(db: &str) -> (uuid::Uuid, String) {
    let owner = sqlx::postgres::PgPoolOptions::new()
        .max_connections(1)
        .connect(db)
        .await
        .unwrap();
    let account = n8v_journal::admin::create_account(&owner, "Otel", false)
        .await
        .unwrap();
    n8v_journal::admin::set_flag(
        &owner,
        n8v_journal::flags::Flag::AssistantJournal,
        true,
        Some(account),
    )
    .await
    .unwrap();
    let scopes = n8v_journal::auth::Scopes::parse(crate::common::JOURNAL_SCOPES).unwrap();
    let key = n8v_journal::admin::create_key(&owner, account, &scopes, None, "otel")
        .await
        .unwrap();
    owner.close().await;
    (account, key.token)
}

fn attr<'a>(attributes: &'a Value, key: &str) -> Option<&'a str> {
    attributes.as_array()?.iter().find(|a| a["key"] == key)?["value"]["stringValue"].as_str()
}

/// Every span received: (service.name of its resource, the span).
fn spans(received: &Received) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for (path, body) in received.lock().unwrap().iter() {
        if path != "/v1/traces" {
            continue;
        }
        for rs in body["resourceSpans"].as_array().into_iter().flatten() {
            let service = attr(&rs["resource"]["attributes"], "service.name")
                .unwrap_or_default()
                .to_owned();
            for ss in rs["scopeSpans"].as_array().into_iter().flatten() {
                for span in ss["spans"].as_array().into_iter().flatten() {
                    out.push((service.clone(), span.clone()));
                }
            }
        }
    }
    out
}

#[tokio::test]
async fn spans_and_metrics_reach_an_otlp_receiver_without_purposes_or_tokens() {
    let (otlp, received) = receiver().await;
    let db = common::fresh_database().await;
    let (account, token) = account(&db).await;
    let owner = sqlx::postgres::PgPoolOptions::new()
        .max_connections(1)
        .connect(&db)
        .await
        .unwrap();
    let record: uuid::Uuid = sqlx::query_scalar(
        "SELECT record_id FROM records WHERE account_id = $1 AND organization_id IS NULL",
    )
    .bind(account)
    .fetch_one(&owner)
    .await
    .unwrap();
    let record = n8v_journal::ids::format(n8v_journal::ids::Kind::Record, record);
    let account_ext = n8v_journal::ids::format(n8v_journal::ids::Kind::Account, account);

    let (child, base) = spawn_api(&db, &otlp, &[]).await;
    let http = reqwest::Client::new();

    let purpose = "PURPOSE-MUST-NOT-LEAK put the fix on record";
    let line = "LINE-MUST-NOT-LEAK login fix merged";
    let appended = http
        .post(format!("{base}/api/v1/records/{record}/entries"))
        .bearer_auth(&token)
        .header("X-Purpose", purpose)
        .header(
            "traceparent",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        )
        .json(&json!({"line": line}))
        .send()
        .await
        .unwrap();
    assert_eq!(appended.status(), 201);

    // The same operation kind through MCP: its call runs inside the /mcp request's span.
    let config = StreamableHttpClientTransportConfig::with_uri(format!("{base}/mcp"))
        .auth_header(token.clone());
    let client = ().serve(StreamableHttpClientTransport::from_config(config)).await.unwrap();
    let args = json!({"purpose": purpose, "record_id": record, "line": line});
    let result = client
        .call_tool(
            CallToolRequestParams::new("record_append")
                .with_arguments(args.as_object().unwrap().clone()),
        )
        .await
        .unwrap();
    assert_ne!(result.is_error, Some(true), "{result:?}");
    client.cancel().await.unwrap();

    let logs = stop(child).await;

    let spans = spans(&received);
    assert!(!spans.is_empty(), "no spans arrived");
    assert!(
        spans.iter().all(|(service, _)| service == "n8v-journal"),
        "service names: {:?}",
        spans.iter().map(|s| &s.0).collect::<Vec<_>>()
    );
    let operations: Vec<&Value> = spans
        .iter()
        .map(|(_, span)| span)
        .filter(|span| attr(&span["attributes"], "operation_id") == Some("appendRecordEntry"))
        .collect();
    assert!(
        !operations.is_empty(),
        "no span for appendRecordEntry: {spans:#?}"
    );
    let rest = operations
        .iter()
        .find(|s| attr(&s["attributes"], "route") == Some("/api/v1/records/{id}/entries"))
        .expect("the REST request's span");
    assert_eq!(
        attr(&rest["attributes"], "account_id"),
        Some(account_ext.as_str())
    );
    assert_eq!(rest["name"], "POST /api/v1/records/{id}/entries");
    assert_eq!(rest["kind"], 2, "a server span: {rest}");
    // The caller's traceparent is continued.
    assert_eq!(
        rest["traceId"].as_str().unwrap().to_lowercase(),
        "4bf92f3577b34da6a3ce929d0e0e4736"
    );
    assert_eq!(
        rest["parentSpanId"].as_str().unwrap().to_lowercase(),
        "00f067aa0ba902b7"
    );

    // Through MCP the operation runs inside rmcp's own span (`serve_inner`, shown when rmcp
    // logs at info), a child of the /mcp request's span: the attributes are on the request
    // span or on that child, in the request's trace.
    fn op_attr<'a>(s: &'a Value, key: &str) -> Option<&'a str> {
        attr(&s["attributes"], key).or_else(|| attr(&s["attributes"], &format!("n8v.{key}")))
    }
    let mcp_requests: Vec<&Value> = spans
        .iter()
        .map(|(_, span)| span)
        .filter(|s| attr(&s["attributes"], "route") == Some("/mcp"))
        .collect();
    assert!(!mcp_requests.is_empty(), "no /mcp request span");
    let mcp = spans
        .iter()
        .map(|(_, span)| span)
        .find(|s| {
            op_attr(s, "operation_id") == Some("appendRecordEntry")
                && mcp_requests.iter().any(|r| {
                    r["traceId"] == s["traceId"]
                        && (r["spanId"] == s["spanId"] || r["spanId"] == s["parentSpanId"])
                })
        })
        .expect("the MCP tool call's operation on its request span or that span's child");
    assert_eq!(op_attr(mcp, "account_id"), Some(account_ext.as_str()));

    // Nothing secret anywhere in what was exported, spans and metrics alike.
    let everything = serde_json::to_string(&*received.lock().unwrap()).unwrap();
    for secret in [
        purpose,
        line,
        token.as_str(),
        "PURPOSE-MUST-NOT-LEAK",
        "LINE-MUST-NOT-LEAK",
    ] {
        assert!(!everything.contains(secret), "{secret:?} was exported");
    }

    // The request metrics arrived too, by route.
    assert!(
        everything.contains("http.server.request.duration")
            && everything.contains("/api/v1/records/{id}/entries"),
        "no request metrics: {everything}"
    );

    // Log lines inside a request carry the trace id.
    assert!(
        logs.contains("4bf92f3577b34da6a3ce929d0e0e4736"),
        "no log line with the trace id: {logs}"
    );
}

/// An operator who quiets the logs keeps the traces: `RUST_LOG` filters log lines only.
#[tokio::test]
async fn spans_arrive_when_the_logs_are_quieted_to_warn() {
    let (otlp, received) = receiver().await;
    let db = common::fresh_database().await;
    let (_, token) = account(&db).await;
    let (child, base) = spawn_api(&db, &otlp, &[("RUST_LOG", "warn")]).await;
    let listed = reqwest::Client::new()
        .get(format!("{base}/api/v1/records"))
        .bearer_auth(&token)
        .header("X-Purpose", "see what I can open")
        .send()
        .await
        .unwrap();
    assert_eq!(listed.status(), 200);
    let logs = stop(child).await;

    let spans = spans(&received);
    assert!(
        spans.iter().any(
            |(_, s)| attr(&s["attributes"], "route") == Some("/api/v1/records")
                && attr(&s["attributes"], "operation_id") == Some("listRecords")
        ),
        "no span for the request at RUST_LOG=warn: {spans:#?}"
    );
    // The log filter still holds for the log lines.
    assert!(
        !logs.contains("\"level\":\"INFO\""),
        "an INFO line at RUST_LOG=warn: {logs}"
    );
}

/// The directives an operator types to debug MCP, each more specific than the last, and the
/// most verbose of all: none gets a tool call's prose into a log line or an exported span.
#[tokio::test]
async fn no_directive_gets_a_tool_calls_prose_into_the_logs_or_the_traces() {
    const PROSE: &str = "PROSE-MUST-NOT-LEAK-7c41 my card is 4111 1111 1111 1111";
    let db = common::fresh_database().await;
    let (_, token) = account(&db).await;
    for directives in [
        "info,rmcp::service=debug",
        "info,rmcp::service::server=trace,rmcp::transport=trace",
        "rmcp=trace",
        "trace",
    ] {
        let (otlp, received) = receiver().await;
        let env = [("RUST_LOG", directives), ("N8V_OTEL_FILTER", directives)];
        let (child, base) = spawn_api(&db, &otlp, &env).await;
        let config = StreamableHttpClientTransportConfig::with_uri(format!("{base}/mcp"))
            .auth_header(token.clone());
        let client = ().serve(StreamableHttpClientTransport::from_config(config)).await.unwrap();
        let args = json!({
            "purpose": "Journal the conversation that just ended",
            "episode_id": format!("ep-{}", directives.len()), "harness": "claude-code",
            "project": "acme/web",
            "started_at": "2026-11-10T09:00:00Z", "ended_at": "2026-11-10T09:40:00Z",
            "turns": [
                {"role": "user", "text": format!("The login loops. {PROSE}")},
                {"role": "assistant", "text": format!("Fixed it. {PROSE}")},
            ],
        });
        // The tool's own outcome does not matter here (it may have no model to draft with):
        // the call reached rmcp, which is what would log it.
        client
            .call_tool(
                CallToolRequestParams::new("journal_episode")
                    .with_arguments(args.as_object().unwrap().clone()),
            )
            .await
            .unwrap();
        client.cancel().await.unwrap();
        let logs = stop(child).await;

        if !directives.starts_with("rmcp") {
            // The capture works: the /mcp request's own lines and spans are there.
            assert!(logs.contains("/mcp"), "{directives}: no /mcp line: {logs}");
            assert!(
                spans(&received)
                    .iter()
                    .any(|(_, s)| attr(&s["attributes"], "route") == Some("/mcp")),
                "{directives}: no /mcp span"
            );
        }
        let line = logs.lines().find(|l| l.contains("PROSE-MUST-NOT-LEAK"));
        assert!(line.is_none(), "{directives}: prose logged: {line:?}");
        let exported = serde_json::to_string(&*received.lock().unwrap()).unwrap();
        assert!(
            !exported.contains("PROSE-MUST-NOT-LEAK"),
            "{directives}: prose exported"
        );
    }
}
