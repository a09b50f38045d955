//! What MCP clients learn before they call: every tool's title, annotations (derived from its
//! operation's spec) and output schema (which a real call's structured content validates
//! against), the journal as resources, and the two prompts.

use crate::common;
use crate::common::mcp::{Client, call, connect, structured};
use n8v_journal::ops::digests::{DeleteDigest, ListDigests};
use n8v_journal::ops::episodes::PostEpisode;
use n8v_journal::ops::journal::{
    DeleteDay, DeleteSession, EndSession, GetEntry, GetSession, ListSessions, ReadCatchUp,
    StartSession,
};
use n8v_journal::ops::loops::{CloseLoop, DismissLoop, ListLoops};
use n8v_journal::ops::records::{AppendEntry, ListEntries, ListRecords};
use n8v_journal::ops::search::SearchJournal;
use n8v_journal::ops::{Effect, Op, Spec};
use rmcp::ServiceError;
use rmcp::model::{
    ErrorCode, GetPromptRequestParams, ReadResourceRequestParams, ResourceContents, Tool,
};
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// The operation behind each tool, as the tests know it (independently of the server's list).
fn specs() -> Vec<Spec> {
    vec![
        ReadCatchUp::SPEC,
        StartSession::SPEC,
        EndSession::SPEC,
        ListSessions::SPEC,
        ListLoops::SPEC,
        CloseLoop::SPEC,
        DismissLoop::SPEC,
        GetSession::SPEC,
        GetEntry::SPEC,
        DeleteSession::SPEC,
        DeleteDay::SPEC,
        ListDigests::SPEC,
        SearchJournal::SPEC,
        DeleteDigest::SPEC,
        PostEpisode::SPEC,
        ListRecords::SPEC,
        ListEntries::SPEC,
        AppendEntry::SPEC,
    ]
}

async fn tools(client: &Client) -> BTreeMap<String, Tool> {
    let tools = client.list_all_tools().await.unwrap();
    tools.into_iter().map(|t| (t.name.to_string(), t)).collect()
}

#[tokio::test]
async fn every_tool_has_a_title_and_the_annotations_of_its_operation() {
    let app = common::spawn_app().await;
    let a = app.account("A", "chats:read,records:read").await;
    let client = connect(&app, &a.token).await;
    let tools = tools(&client).await;
    let specs = specs();
    assert_eq!(
        tools.len(),
        specs.len(),
        "a tool without a spec in this table"
    );
    for spec in &specs {
        let name = spec.tool.unwrap();
        let tool = tools.get(name).unwrap_or_else(|| panic!("no tool {name}"));
        assert_eq!(tool.title.as_deref(), Some(spec.title), "{name}'s title");
        assert!(spec.title.len() > 5, "{name}'s title is a few words");
        let hints = tool
            .annotations
            .as_ref()
            .unwrap_or_else(|| panic!("{name} has no annotations"));
        assert_eq!(hints.open_world_hint, Some(false), "{name} is closed-world");
        match spec.effect {
            Effect::Reads => assert_eq!(hints.read_only_hint, Some(true), "{name} reads"),
            Effect::Writes { idempotent } => {
                assert_eq!(hints.read_only_hint, Some(false), "{name} writes");
                assert_eq!(hints.destructive_hint, Some(false), "{name} only adds");
                assert_eq!(hints.idempotent_hint, Some(idempotent), "{name}");
            }
            Effect::Deletes => {
                assert_eq!(hints.read_only_hint, Some(false), "{name} writes");
                assert_eq!(hints.destructive_hint, Some(true), "{name} deletes");
            }
        }
    }
    // The table above agrees with what the tools do, named one by one.
    for (name, tool) in &tools {
        let hints = tool.annotations.as_ref().unwrap();
        if name.starts_with("journal_delete_") {
            assert_eq!(hints.destructive_hint, Some(true), "{name}");
        } else {
            assert_ne!(
                hints.destructive_hint,
                Some(true),
                "{name} is not destructive"
            );
        }
        let reads = [
            "journal_catch_up",
            "journal_sessions",
            "journal_session",
            "journal_entry",
            "journal_loops",
            "journal_digests",
            "journal_search",
            "record_list",
            "record_read",
        ];
        assert_eq!(
            hints.read_only_hint,
            Some(reads.contains(&name.as_str())),
            "{name}"
        );
    }
    for (name, idempotent) in [
        ("session_start", false),
        ("record_append", false),
        ("session_end", true),
        ("journal_episode", true),
    ] {
        assert_eq!(
            tools[name].annotations.as_ref().unwrap().idempotent_hint,
            Some(idempotent),
            "{name}"
        );
    }
}

/// Validates a tool result's structured content against the tool's output schema.
fn validate(tool: &Tool, content: &Value) {
    let schema = Value::Object((*tool.output_schema.clone().unwrap()).clone());
    let validator = jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap_or_else(|e| panic!("{}'s output schema: {e}", tool.name));
    let errors: Vec<String> = validator
        .iter_errors(content)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{}'s structured content does not validate: {errors:?}\n{content:#}",
        tool.name
    );
}

#[tokio::test]
async fn every_tools_structured_content_validates_against_its_output_schema() {
    let app = common::spawn_app().await;
    let a = app.account("A", crate::common::DELETING_SCOPES).await;
    app.journal_on(a.id).await;
    let client = connect(&app, &a.token).await;
    let tools = tools(&client).await;
    for (name, tool) in &tools {
        let schema = tool
            .output_schema
            .as_ref()
            .unwrap_or_else(|| panic!("{name} has no output schema"));
        assert_eq!(schema.get("type"), Some(&json!("object")), "{name}'s root");
    }

    let mut validated = Vec::new();
    let mut check = async |name: &str, args: Value| -> Value {
        let result = call(&client, name, args).await;
        let content = structured(&result);
        validate(&tools[name], &content);
        validated.push(name.to_owned());
        content
    };
    let started = check(
        "session_start",
        json!({"goal": "Ship the login fix", "repository": "acme/web"}),
    )
    .await;
    let session = started["id"].as_str().unwrap().to_owned();
    // The schema says something: a session whose id is a number does not validate.
    let mut wrong = started.clone();
    wrong["id"] = json!(42);
    let schema = Value::Object((*tools["session_start"].output_schema.clone().unwrap()).clone());
    assert!(
        !jsonschema::draft202012::new(&schema)
            .unwrap()
            .is_valid(&wrong)
    );
    let records = check("record_list", json!({"session": session})).await;
    let record = records["records"][0]["id"].as_str().unwrap().to_owned();
    check(
        "record_append",
        json!({"record_id": record, "line": "Login fix merged", "session": session}),
    )
    .await;
    check(
        "record_read",
        json!({"record_id": record, "session": session}),
    )
    .await;
    check(
        "session_end",
        json!({
            "session": session,
            "outcome": "Fix merged. Decided: keep SameSite=Lax",
            "decisions": ["Keep SameSite=Lax"],
            "open_questions": ["Remove the old login route?"],
            "next_steps": ["Watch the error rate"]
        }),
    )
    .await;
    check("journal_catch_up", json!({})).await;
    check("journal_catch_up", json!({"since": session})).await;
    check("journal_sessions", json!({})).await;
    let detail = check("journal_session", json!({"session_id": session})).await;
    let entry = detail["actions"][0]["id"].as_str().unwrap().to_owned();
    check("journal_entry", json!({"entry_id": entry})).await;
    let loops = check("journal_loops", json!({"state": "all"})).await;
    let step = loops["loops"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["kind"] == "next_step")
        .unwrap()["id"]
        .clone();
    let closed = check("journal_loop_close", json!({"item": step, "state": "done"})).await;
    assert_eq!(closed["state"], "done", "{closed}");
    check("journal_search", json!({"q": "login"})).await;
    check("journal_digests", json!({})).await;
    check(
        "journal_episode",
        json!({
            "episode_id": "ep-1", "harness": "codex",
            "started_at": "2026-11-10T09:00:00Z", "ended_at": "2026-11-10T09:30:00Z",
            "turns": [{"role": "user", "text": "Fix the login loop"},
                      {"role": "assistant", "text": "Fixed it"}]
        }),
    )
    .await;
    check("journal_delete_session", json!({"session_id": session})).await;
    check("journal_delete_day", json!({"date": "2026-11-10"})).await;
    validated.sort();
    validated.dedup();
    // No digest exists in a fresh account, so journal_delete_digest only answers an error
    // (`isError`), which no output schema covers, and so does journal_loop_dismiss with no
    // organization member's item to dismiss; every other tool was validated.
    let mut expected: Vec<&String> = tools
        .keys()
        .filter(|n| *n != "journal_delete_digest" && *n != "journal_loop_dismiss")
        .collect();
    expected.sort();
    assert_eq!(validated.iter().collect::<Vec<_>>(), expected);
}

async fn read(client: &Client, uri: &str) -> Result<(String, String), ServiceError> {
    let result = client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await?;
    match &result.contents[..] {
        [
            ResourceContents::TextResourceContents {
                uri: read,
                mime_type,
                text,
                ..
            },
        ] => {
            assert_eq!(read, uri);
            Ok((mime_type.clone().unwrap(), text.clone()))
        }
        other => panic!("{uri}: {other:?}"),
    }
}

fn mcp_error(result: Result<(String, String), ServiceError>) -> rmcp::ErrorData {
    match result {
        Err(ServiceError::McpError(e)) => e,
        other => panic!("expected a JSON-RPC error: {other:?}"),
    }
}

#[tokio::test]
async fn the_journal_is_offered_as_resources_read_as_the_caller() {
    let app = common::spawn_app().await;
    let a = app.account("A", "chats:read,records:read").await;
    let b = app.account("B", "chats:read,records:read").await;
    app.journal_on(a.id).await;
    app.journal_on(b.id).await;
    let client_a = connect(&app, &a.token).await;
    let started = structured(
        &call(
            &client_a,
            "session_start",
            json!({"goal": "Plan the secret launch"}),
        )
        .await,
    );
    let session = started["id"].as_str().unwrap().to_owned();
    call(
        &client_a,
        "session_end",
        json!({"session": session, "outcome": "Launch planned", "decisions": ["Launch on Tuesday"]}),
    )
    .await;

    let mut listed: Vec<(String, Option<String>)> = client_a
        .list_all_resources()
        .await
        .unwrap()
        .into_iter()
        .map(|r| (r.uri, r.mime_type))
        .collect();
    listed.sort();
    assert_eq!(
        listed,
        [
            ("journal://brief".into(), Some("application/json".into())),
            ("journal://window".into(), Some("text/markdown".into())),
            (
                "ui://n8v-journal/catch-up".into(),
                Some("text/html;profile=mcp-app".into())
            ),
        ]
    );
    let templates = client_a.list_all_resource_templates().await.unwrap();
    assert_eq!(templates.len(), 1);
    assert_eq!(templates[0].uri_template, "journal://sessions/{id}");

    let (mime, window) = read(&client_a, "journal://window").await.unwrap();
    assert_eq!(mime, "text/markdown");
    assert!(window.contains("Plan the secret launch"), "{window}");
    let (mime, brief) = read(&client_a, "journal://brief").await.unwrap();
    assert_eq!(mime, "application/json");
    let brief: Value = serde_json::from_str(&brief).unwrap();
    assert_eq!(
        brief["decisions"][0]["text"], "Launch on Tuesday",
        "{brief}"
    );
    let uri = format!("journal://sessions/{session}");
    let (_, detail) = read(&client_a, &uri).await.unwrap();
    let detail: Value = serde_json::from_str(&detail).unwrap();
    assert_eq!(detail["session"]["id"], session.as_str());
    assert_eq!(detail["session"]["goal"], "Plan the secret launch");

    // Each read was journalled as A's, with a purpose that says what was read.
    let purposes: Vec<(String, String)> = sqlx::query_as(
        "SELECT operation, purpose FROM journal_calls \
         WHERE account_id = $1 AND purpose LIKE 'Read the journal resource %' ORDER BY created_at",
    )
    .bind(a.id)
    .fetch_all(&app.owner)
    .await
    .unwrap();
    assert_eq!(
        purposes,
        [
            (
                "getJournalMarkdown".into(),
                "Read the journal resource journal://window".into()
            ),
            (
                "journal_catch_up".into(),
                "Read the journal resource journal://brief".into()
            ),
            (
                "journal_session".into(),
                format!("Read the journal resource {uri}")
            ),
        ]
    );

    // B reads nothing of A's: the session is not found, the window and brief are B's own.
    let client_b = connect(&app, &b.token).await;
    let refused = mcp_error(read(&client_b, &uri).await);
    assert_eq!(refused.code, ErrorCode::RESOURCE_NOT_FOUND, "{refused:?}");
    let (_, window) = read(&client_b, "journal://window").await.unwrap();
    assert!(!window.contains("secret"), "{window}");
    let (_, brief) = read(&client_b, "journal://brief").await.unwrap();
    assert!(
        !brief.contains("secret") && !brief.contains(&session),
        "{brief}"
    );
    let bad = mcp_error(read(&client_b, "journal://sessions/nope").await);
    assert_eq!(bad.code, ErrorCode::RESOURCE_NOT_FOUND, "{bad:?}");
    let unknown = mcp_error(read(&client_b, "journal://elsewhere").await);
    assert_eq!(unknown.code, ErrorCode::RESOURCE_NOT_FOUND, "{unknown:?}");

    // Without chats:read, the same refusal as the tool's.
    let (_, records_only) = app.key(a.id, "records:read", None).await;
    let client_r = connect(&app, &records_only).await;
    let tool = common::mcp::error_text(&call(&client_r, "journal_catch_up", json!({})).await);
    assert!(tool.contains("chats:read"), "{tool}");
    for uri in ["journal://window", "journal://brief", uri.as_str()] {
        let refused = mcp_error(read(&client_r, uri).await);
        assert!(refused.message.contains("chats:read"), "{uri}: {refused:?}");
        assert_eq!(refused.data.as_ref().unwrap()["status"], 403, "{uri}");
    }
}

#[tokio::test]
async fn the_brief_and_the_loops_name_a_view_that_needs_no_outside_origin() {
    let app = common::spawn_app().await;
    let a = app.account("A", "chats:read").await;
    let client = connect(&app, &a.token).await;
    let view = "ui://n8v-journal/catch-up";
    for (name, tool) in tools(&client).await {
        let tool = serde_json::to_value(&tool).unwrap();
        let named = &tool["_meta"]["ui"]["resourceUri"];
        if ["journal_catch_up", "journal_loops"].contains(&name.as_str()) {
            assert_eq!(named, view, "{name}");
        } else {
            assert!(tool.get("_meta").is_none(), "{name}: {tool}");
        }
    }
    let result = client
        .read_resource(ReadResourceRequestParams::new(view))
        .await
        .unwrap();
    let result = serde_json::to_value(&result).unwrap();
    let contents = &result["contents"][0];
    assert_eq!(contents["mimeType"], "text/html;profile=mcp-app");
    let csp = &contents["_meta"]["ui"]["csp"];
    for list in [
        "connectDomains",
        "resourceDomains",
        "frameDomains",
        "baseUriDomains",
    ] {
        assert_eq!(csp[list], json!([]), "{list} names no domain: {csp}");
    }
    let html = contents["text"].as_str().unwrap();
    assert!(html.starts_with("<!doctype html>"), "one HTML document");
    // Everything inline, nothing fetched, and nothing written as markup.
    for absent in [
        "http://",
        "https://",
        "innerHTML",
        "outerHTML",
        "insertAdjacentHTML",
        "document.write",
    ] {
        assert!(!html.contains(absent), "the view holds {absent:?}");
    }
}

#[tokio::test]
async fn the_prompts_lead_to_the_brief_and_to_a_hand_off() {
    let app = common::spawn_app().await;
    let a = app.account("A", "chats:read").await;
    let client = connect(&app, &a.token).await;
    let mut names: Vec<String> = client
        .list_all_prompts()
        .await
        .unwrap()
        .into_iter()
        .map(|p| {
            assert!(p.title.is_some() && p.description.is_some(), "{p:?}");
            p.name
        })
        .collect();
    names.sort();
    assert_eq!(names, ["catch_up", "hand_off"]);

    let text = |result: rmcp::model::GetPromptResult| {
        serde_json::to_value(&result.messages).unwrap().to_string()
    };
    let catch_up = client
        .get_prompt(GetPromptRequestParams::new("catch_up"))
        .await
        .unwrap();
    let catch_up = text(catch_up);
    assert!(catch_up.contains("journal_catch_up"), "{catch_up}");
    assert!(catch_up.contains("session_start"), "{catch_up}");

    let mut arguments = serde_json::Map::new();
    arguments.insert("session".into(), json!("ses_01KYP3WV40ER08K6AGV0VFCXEC"));
    let hand_off = client
        .get_prompt(GetPromptRequestParams::new("hand_off").with_arguments(arguments))
        .await
        .unwrap();
    let hand_off = text(hand_off);
    for word in [
        "session_end",
        "ses_01KYP3WV40ER08K6AGV0VFCXEC",
        "`outcome`",
        "`decisions`",
        "`open_questions`",
        "`next_steps`",
        "`resolved`",
        "Decided:",
        "TODO:",
    ] {
        assert!(hand_off.contains(word), "{word}: {hand_off}");
    }
    let unknown = client.get_prompt(GetPromptRequestParams::new("nope")).await;
    assert!(
        matches!(&unknown, Err(ServiceError::McpError(e)) if e.code == ErrorCode::INVALID_PARAMS),
        "{unknown:?}"
    );
}
