//! MCP over streamable HTTP, driven by rmcp's own client: the tools, journalling through them,
//! and the same tenancy and scope rules as REST.

use crate::common;

use crate::common::mcp::{call, connect, error_text, meta_session, structured};
use serde_json::{Value, json};

#[tokio::test]
async fn an_assistant_works_a_whole_conversation_through_mcp() {
    let app = common::spawn_app().await;
    let a = app.account("A", crate::common::JOURNAL_SCOPES).await;
    app.journal_on(a.id).await;
    let client = connect(&app, &a.token).await;

    let info = client.peer_info().unwrap();
    assert!(
        info.instructions
            .as_deref()
            .unwrap()
            .contains("journal_catch_up")
    );
    let tools = client.list_all_tools().await.unwrap();
    let mut names: Vec<String> = tools.iter().map(|t| t.name.to_string()).collect();
    names.sort();
    assert_eq!(
        names,
        [
            "journal_catch_up",
            "journal_delete_day",
            "journal_delete_digest",
            "journal_delete_session",
            "journal_digests",
            "journal_entry",
            "journal_episode",
            "journal_loop_close",
            "journal_loop_dismiss",
            "journal_loops",
            "journal_search",
            "journal_session",
            "journal_sessions",
            "record_append",
            "record_list",
            "record_read",
            "session_end",
            "session_start"
        ]
    );
    // The book's MCP chapter says the list once, in its first paragraph, with the count in words.
    let chapter = include_str!("../../docs/mcp.md");
    let paragraph = chapter
        .split("\n\n")
        .find(|p| p.starts_with("**MCP** at `/mcp`"))
        .expect("the MCP chapter's first paragraph (docs/mcp.md)");
    let mut listed: Vec<&str> = paragraph
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|w| {
            ["journal_", "session_", "record_"]
                .iter()
                .any(|p| w.starts_with(p) && !w.contains(' '))
        })
        .collect();
    listed.sort();
    listed.dedup();
    assert_eq!(listed, names, "docs/mcp.md lists other tools");
    let words = [
        "",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
    ];
    assert!(
        paragraph.contains(&format!("serves {} tools", words[names.len()])),
        "docs/mcp.md's tool count: {paragraph}"
    );
    for tool in &tools {
        let schema = Value::Object((*tool.input_schema).clone());
        assert!(
            schema["properties"]["purpose"].is_object(),
            "{} lacks purpose",
            tool.name
        );
        assert!(
            schema["properties"]["session"].is_object(),
            "{} lacks session",
            tool.name
        );
        assert!(
            tool.description.as_deref().is_some_and(|d| d.len() > 20),
            "{} undescribed",
            tool.name
        );
    }

    let brief = call(
        &client,
        "journal_catch_up",
        json!({"purpose": "Pick up where we stopped"}),
    )
    .await;
    assert!(structured(&brief)["sessions"].is_array());

    let started = call(
        &client,
        "session_start",
        json!({"goal": "Get the login fix ready for review", "purpose": "Open this conversation"}),
    )
    .await;
    let session = structured(&started);
    let id = session["id"].as_str().unwrap().to_owned();
    assert_eq!(session["goal"], "Get the login fix ready for review");
    assert_eq!(meta_session(&started).as_deref(), Some(id.as_str()));

    let records = structured(
        &call(
            &client,
            "record_list",
            json!({"session": id, "purpose": "Find my Record"}),
        )
        .await,
    );
    assert_eq!(
        records["session"],
        id.as_str(),
        "ordinary results include session"
    );
    let record = records["records"][0]["id"].as_str().unwrap().to_owned();
    let appended = call(&client, "record_append", json!({"record_id": record, "line": "Login fix merged", "session": id, "purpose": "Put the fix on record"})).await;
    assert_eq!(structured(&appended)["line"], "Login fix merged");
    assert_eq!(meta_session(&appended).as_deref(), Some(id.as_str()));
    let lines = structured(
        &call(
            &client,
            "record_read",
            json!({"record_id": record, "session": id}),
        )
        .await,
    );
    assert_eq!(lines["entries"][0]["line"], "Login fix merged");

    let ended = call(&client, "session_end", json!({"session": id, "outcome": "Fix ready for review; tests passed", "purpose": "Leave a handoff"})).await;
    assert_eq!(structured(&ended)["status"], "closed");

    // Read it back: the purposes were journalled, each call under its tool's name.
    let read = call(
        &client,
        "journal_session",
        json!({"session_id": id, "purpose": "Read the earlier actions"}),
    )
    .await;
    let read = structured(&read);
    assert_eq!(
        read["session"]["id"],
        id.as_str(),
        "journal tools keep the full session object"
    );
    let actions: Vec<(String, String)> = read["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["operation"].as_str().unwrap().to_owned(),
                c["purpose"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    assert_eq!(
        actions,
        [
            (
                "session_start".to_owned(),
                "Open this conversation".to_owned()
            ),
            ("record_list".to_owned(), "Find my Record".to_owned()),
            (
                "record_append".to_owned(),
                "Put the fix on record".to_owned()
            ),
            ("record_read".to_owned(), "".to_owned()),
            ("session_end".to_owned(), "Leave a handoff".to_owned()),
        ]
    );
    let append_call = read["actions"][2]["id"].as_str().unwrap().to_owned();
    let entry = structured(&call(&client, "journal_entry", json!({"entry_id": append_call})).await);
    assert_eq!(
        entry["input_shape"],
        json!({"arguments": {"line": "string", "record_id": "string"}})
    );
    assert!(
        entry["audit_url"]
            .as_str()
            .unwrap()
            .starts_with("/api/v1/audit/aud_")
    );

    let listed = structured(
        &call(
            &client,
            "journal_sessions",
            json!({"assistant": "", "limit": 20}),
        )
        .await,
    );
    assert!(
        listed["sessions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["id"] == id.as_str())
    );

    let brief = structured(&call(&client, "journal_catch_up", json!({"since": id})).await);
    assert_eq!(
        brief["work_finished"][0]["text"],
        "Fix ready for review; tests passed"
    );
    assert_eq!(brief["records"][0]["newest_lines"][0], "Login fix merged");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn tool_errors_say_what_to_do() {
    let app = common::spawn_app().await;
    let a = app.account("A", "records:read").await;
    let client = connect(&app, &a.token).await;
    // Journal off for this account.
    let off = call(&client, "journal_sessions", json!({})).await;
    assert!(error_text(&off).contains("journal is off"), "{off:?}");
    app.journal_on(a.id).await;
    // Missing scope.
    let scope = call(&client, "journal_sessions", json!({})).await;
    assert!(error_text(&scope).contains("chats:read"));
    // Unknown session; a malformed one; a bad purpose.
    let unknown = call(
        &client,
        "record_list",
        json!({"session": "ses_00000000000000000000000000"}),
    )
    .await;
    // The remedy in the tools' words, never a REST endpoint or header (REST says its own).
    let unknown = error_text(&unknown);
    assert!(
        unknown.contains("start one with session_start"),
        "{unknown}"
    );
    assert!(
        !unknown.contains("/api/v1") && !unknown.contains("X-Session-Id"),
        "{unknown}"
    );
    let rest = app
        .call(reqwest::Method::GET, "/api/v1/records")
        .token(&a.token)
        .session(Some("ses_00000000000000000000000000"))
        .problem(404, "not-found")
        .await;
    let rest = rest["detail"].as_str().unwrap();
    assert!(
        rest.contains("POST /api/v1/journal/sessions") && rest.contains("X-Session-Id"),
        "{rest}"
    );
    assert!(
        error_text(&call(&client, "record_list", json!({"session": "nope"})).await)
            .contains("not a session id")
    );
    assert!(
        error_text(&call(&client, "record_list", json!({"purpose": "x".repeat(600)})).await)
            .contains("500")
    );
    let missing = call(&client, "session_end", json!({"outcome": "done"})).await;
    assert!(error_text(&missing).contains("session"));
    // Failed calls are journalled like REST ones, and the session is still in _meta.
    let write = call(
        &client,
        "record_append",
        json!({"record_id": "rec_nope", "line": "x", "purpose": "try"}),
    )
    .await;
    assert!(error_text(&write).contains("records:write"));
    assert!(meta_session(&write).is_some());
}

#[tokio::test]
async fn mcp_needs_credentials_and_keeps_accounts_apart() {
    let app = common::spawn_app().await;
    let a = app.account("A", crate::common::JOURNAL_SCOPES).await;
    let b = app.account("B", crate::common::JOURNAL_SCOPES).await;
    app.journal_on(a.id).await;
    app.journal_on(b.id).await;

    let anonymous = reqwest::Client::new()
        .post(app.url("/mcp"))
        .header("accept", "application/json, text/event-stream")
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
        .send()
        .await
        .unwrap();
    common::expect_problem(anonymous, 401, "unauthorized").await;

    let client_a = connect(&app, &a.token).await;
    let started =
        structured(&call(&client_a, "session_start", json!({"goal": "secret plans"})).await);
    let a_session = started["id"].as_str().unwrap().to_owned();
    let records = structured(&call(&client_a, "record_list", json!({"session": a_session})).await);
    let a_record = records["records"][0]["id"].as_str().unwrap().to_owned();
    let detail = structured(
        &call(
            &client_a,
            "journal_session",
            json!({"session_id": a_session}),
        )
        .await,
    );
    let a_call = detail["actions"][0]["id"].as_str().unwrap().to_owned();

    let client_b = connect(&app, &b.token).await;
    for (tool, args) in [
        ("journal_session", json!({"session_id": a_session})),
        ("journal_entry", json!({"entry_id": a_call})),
        ("record_read", json!({"record_id": a_record})),
        (
            "record_append",
            json!({"record_id": a_record, "line": "hijack"}),
        ),
        (
            "session_end",
            json!({"session": a_session, "outcome": "hijacked"}),
        ),
        ("record_list", json!({"session": a_session})),
        ("journal_catch_up", json!({"since": a_session})),
    ] {
        let result = call(&client_b, tool, args).await;
        assert!(
            error_text(&result).contains("Not found"),
            "{tool}: {result:?}"
        );
    }
    // Refused in words, and in fact: A's Record holds no line and A's session is still open,
    // read back as A.
    let read = structured(&call(&client_a, "record_read", json!({"record_id": a_record})).await);
    assert!(!read.to_string().contains("hijack"), "{read}");
    let a_record_id = n8v_journal::ids::parse(n8v_journal::ids::Kind::Record, &a_record).unwrap();
    let lines: i64 = sqlx::query_scalar("SELECT count(*) FROM record_entries WHERE record_id = $1")
        .bind(a_record_id)
        .fetch_one(&app.owner)
        .await
        .unwrap();
    assert_eq!(lines, 0, "B's append reached A's Record");
    let after = structured(
        &call(
            &client_a,
            "journal_session",
            json!({"session_id": a_session}),
        )
        .await,
    );
    assert_eq!(after["session"]["id"], a_session.as_str(), "{after}");
    assert!(after["session"]["ended_at"].is_null(), "{after}");
    assert!(after["session"]["outcome"].is_null(), "{after}");
    let listed = structured(&call(&client_b, "journal_sessions", json!({})).await);
    assert!(!listed.to_string().contains(&a_session));
    let brief = structured(&call(&client_b, "journal_catch_up", json!({})).await);
    assert!(!brief.to_string().contains("secret plans"));

    // A key without chats:read: the journal tools refuse.
    let (_, writer) = app.key(a.id, "records:read,records:write", None).await;
    let client_w = connect(&app, &writer).await;
    for tool in ["journal_catch_up", "journal_sessions"] {
        assert!(
            error_text(&call(&client_w, tool, json!({})).await).contains("chats:read"),
            "{tool}"
        );
    }
    assert!(
        error_text(
            &call(
                &client_w,
                "journal_session",
                json!({"session_id": a_session})
            )
            .await
        )
        .contains("chats:read")
    );
}

/// Every `type` and `anyOf`/`oneOf` branch in `schema` that allows `null`, as JSON paths.
fn null_types(schema: &Value, path: &str, found: &mut Vec<String>) {
    match schema {
        Value::Object(map) => {
            let nullable = match map.get("type") {
                Some(Value::Array(types)) => types.iter().any(|t| t == "null"),
                Some(t) => t == "null",
                None => false,
            };
            if nullable {
                found.push(path.to_owned());
            }
            for (key, value) in map {
                null_types(value, &format!("{path}/{key}"), found);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                null_types(item, &format!("{path}/{i}"), found);
            }
        }
        _ => {}
    }
}

#[tokio::test]
async fn tool_input_schemas_use_plain_optional_properties() {
    // On main every optional argument was typed ["string","null"] (66 schema-portability
    // warnings in the Inspector; Gemini-style clients refuse such schemas).
    let app = common::spawn_app().await;
    let a = app.account("A", crate::common::JOURNAL_SCOPES).await;
    app.journal_on(a.id).await;
    let client = connect(&app, &a.token).await;
    let tools = client.list_all_tools().await.unwrap();
    let mut found = Vec::new();
    for tool in &tools {
        let schema = Value::Object((*tool.input_schema).clone());
        null_types(&schema, &tool.name, &mut found);
        let required: Vec<&str> = schema["required"]
            .as_array()
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        assert!(
            !required.contains(&"purpose") && !required.contains(&"session"),
            "{}: the conversation's arguments stay optional",
            tool.name
        );
    }
    assert!(found.is_empty(), "null types left: {found:?}");
    // Optional arguments still take an explicit null, as clients that send one expect.
    let started = call(
        &client,
        "session_start",
        json!({"goal": "Portable schemas", "purpose": null, "organization": null}),
    )
    .await;
    assert!(
        !started.is_error.unwrap_or(false),
        "{}",
        error_text(&started)
    );
}

/// DNS rebinding (the MCP transport specification: servers MUST validate `Origin`): a page of
/// another site is refused before its credentials are looked at, with a problem that names the
/// setting; the service's own origin and clients that send no `Origin` are served.
#[tokio::test]
async fn mcp_refuses_pages_of_foreign_origins() {
    let app = common::spawn_app().await;
    let a = app.account("A", "chats:read,records:read").await;
    app.journal_on(a.id).await;
    let list = |origin: Option<&str>, token: Option<&str>| {
        let mut request = app
            .http
            .post(app.url("/mcp"))
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2025-11-25")
            .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
        if let Some(origin) = origin {
            request = request.header("origin", origin);
        }
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        request.send()
    };

    for token in [Some(a.token.as_str()), None] {
        let refused = list(Some("http://evil.example.com"), token).await.unwrap();
        let body = common::expect_problem(refused, 403, "forbidden").await;
        let detail = body["detail"].as_str().unwrap();
        assert!(
            detail.contains("N8V_MCP_ALLOWED_ORIGINS") && detail.contains("evil.example.com"),
            "{detail}"
        );
    }
    // The own origin (the listening address here: no N8V_PUBLIC_URL), and no Origin at all.
    for origin in [Some(app.base.as_str()), None] {
        let served = list(origin, Some(&a.token)).await.unwrap();
        assert_eq!(served.status(), 200, "{origin:?}");
        let text = served.text().await.unwrap();
        assert!(text.contains("journal_catch_up"), "{origin:?}: {text}");
    }
}

/// A host name the deployment does not list (`N8V_MCP_ALLOWED_HOSTS`) is refused with a problem
/// that names the setting and the name (rmcp's own answer was plain text naming neither); a
/// client without a token is first told how to get one (`401`), as before. Listed, the same
/// name is served.
#[tokio::test]
async fn a_host_name_not_allowed_is_refused_naming_the_setting() {
    let list = |app: &common::TestApp, host: &'static str, token: Option<String>| {
        let mut request = app
            .http
            .post(app.url("/mcp"))
            .header("host", host)
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2025-11-25")
            .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        request.send()
    };
    let app = common::spawn_app().await;
    let a = app.account("A", "chats:read,records:read").await;
    app.journal_on(a.id).await;
    let refused = list(&app, "journal.example.com", Some(a.token.clone()))
        .await
        .unwrap();
    let body = common::expect_problem(refused, 403, "forbidden").await;
    let detail = body["detail"].as_str().unwrap();
    assert!(
        detail.contains("N8V_MCP_ALLOWED_HOSTS") && detail.contains("journal.example.com"),
        "{detail}"
    );
    let anonymous = list(&app, "journal.example.com", None).await.unwrap();
    assert_eq!(anonymous.status(), 401);
    let served = list(&app, "localhost", Some(a.token.clone()))
        .await
        .unwrap();
    assert_eq!(served.status(), 200);

    let listed = common::spawn_app_configured(|config| {
        config.mcp_allowed_hosts = Some(vec!["journal.example.com".into()]);
    })
    .await;
    let b = listed.account("B", "chats:read,records:read").await;
    listed.journal_on(b.id).await;
    let served = list(&listed, "journal.example.com", Some(b.token.clone()))
        .await
        .unwrap();
    assert_eq!(served.status(), 200);
    assert!(served.text().await.unwrap().contains("journal_catch_up"));
}
