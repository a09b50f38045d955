//! Receipts (issue 46, part 3): each catch-up brief, `/journal.md` window and resource read
//! keeps which sessions and items it handed over and how many characters, so `journal_session`
//! (REST and MCP) answers what a conversation was told when it started and from where, and an
//! item in the list names the later conversations given it.

use crate::common;

use crate::common::TestApp;
use crate::common::mcp::{call, connect, structured};
use chrono::Duration;
use reqwest::Method;
use rmcp::model::{ReadResourceRequestParams, ResourceContents};
use serde_json::{Value, json};

use crate::common::DELETING_SCOPES as ALL;

async fn started(app: &TestApp, token: &str) -> String {
    app.clock.advance(Duration::minutes(10));
    app.start_session(token, None, json!({"goal": "Pick up the queue work"}))
        .await["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

async fn told(app: &TestApp, token: &str, session: &str) -> Vec<Value> {
    let detail = app.session_detail(token, session).await;
    detail["told"]
        .as_array()
        .unwrap_or_else(|| panic!("told in {detail}"))
        .clone()
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn a_session_says_what_it_was_told_and_an_item_who_was_given_it() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let first = started(&app, &a.token).await;
    app.end_session(
        &a.token,
        &first,
        json!({"outcome": "Designed the queue", "decisions": ["Use SKIP LOCKED"],
               "open_questions": ["Should the retry policy be configurable?"]}),
    )
    .ok(200)
    .await;

    // A later conversation catches up over REST and reads /journal.md, in its own session.
    let second = started(&app, &a.token).await;
    let brief = app
        .call(Method::GET, "/api/v1/journal/catch-up")
        .token(&a.token)
        .session(Some(&second))
        .purpose("Catch up before starting")
        .send()
        .await;
    assert_eq!(brief.status(), 200);
    let brief_text = brief.text().await.unwrap();
    let brief: Value = serde_json::from_str(&brief_text).unwrap();
    let decision = brief["decisions"][0]["id"].as_str().unwrap().to_owned();
    let question = brief["open_questions"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let md = app
        .call(Method::GET, "/journal.md?max_chars=20000")
        .token(&a.token)
        .session(Some(&second))
        .send()
        .await;
    assert_eq!(md.status(), 200);
    let md_text = md.text().await.unwrap();

    let receipts = told(&app, &a.token, &second).await;
    assert_eq!(receipts.len(), 2, "{receipts:?}");
    let (catch_up, window) = (&receipts[0], &receipts[1]);
    assert_eq!(catch_up["operation"], "getCatchUp");
    assert_eq!(catch_up["purpose"], "Catch up before starting");
    assert_eq!(
        catch_up["chars"],
        json!(brief_text.chars().count()),
        "the brief's size as answered"
    );
    assert!(
        strings(&catch_up["sessions"]).contains(&first),
        "{catch_up}"
    );
    let mut items = strings(&catch_up["items"]);
    items.sort();
    let mut expected = vec![decision.clone(), question.clone()];
    expected.sort();
    assert_eq!(items, expected, "{catch_up}");
    assert_eq!(window["operation"], "getJournalMarkdown");
    assert_eq!(window["chars"], json!(md_text.chars().count()));
    assert!(strings(&window["items"]).contains(&question), "{window}");
    assert!(strings(&window["items"]).contains(&decision), "{window}");
    // The first conversation was told nothing.
    assert_eq!(told(&app, &a.token, &first).await, Vec::<Value>::new());

    // The item names the conversation given it.
    let listed = app
        .call(Method::GET, "/api/v1/journal/loops")
        .token(&a.token)
        .ok(200)
        .await;
    assert_eq!(listed["loops"][0]["id"], question.as_str());
    assert_eq!(listed["loops"][0]["given_to"], json!([second]), "{listed}");
}

#[tokio::test]
async fn an_mcp_catch_up_is_a_receipt_and_journal_session_answers_it() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let first = started(&app, &a.token).await;
    app.end_session(
        &a.token,
        &first,
        json!({"outcome": "Done", "next_steps": ["Write the migration note"]}),
    )
    .ok(200)
    .await;
    let client = connect(&app, &a.token).await;
    let opened = call(
        &client,
        "session_start",
        json!({"purpose": "Start", "goal": "Carry on"}),
    )
    .await;
    let session = structured(&opened)["id"].as_str().unwrap().to_owned();
    let caught = call(
        &client,
        "journal_catch_up",
        json!({"purpose": "Catch up", "session": session}),
    )
    .await;
    let step = structured(&caught)["next_steps"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let receipts = told(&app, &a.token, &session).await;
    assert_eq!(receipts.len(), 1, "{receipts:?}");
    assert_eq!(receipts[0]["operation"], "journal_catch_up");
    assert_eq!(strings(&receipts[0]["items"]), std::slice::from_ref(&step));
    assert!(receipts[0]["chars"].as_i64().unwrap() > 100);

    // Reading the brief as a resource hands the journal over too: a second receipt, in the
    // session the reading conversation works in, with the same item.
    let read = client
        .read_resource(ReadResourceRequestParams::new("journal://brief"))
        .await
        .expect("resources/read");
    let ResourceContents::TextResourceContents { text, .. } = &read.contents[0] else {
        panic!("{read:?}")
    };
    assert!(text.contains(&step), "{text}");
    let receipts = told(&app, &a.token, &session).await;
    assert_eq!(receipts.len(), 2, "{receipts:?}");
    let resource = receipts
        .iter()
        .find(|r| r["purpose"] == "Read the journal resource journal://brief")
        .unwrap_or_else(|| panic!("no receipt of the resource read: {receipts:?}"));
    assert_eq!(strings(&resource["items"]), std::slice::from_ref(&step));
    assert!(resource["chars"].as_i64().unwrap() > 100, "{resource}");

    // The MCP session tool answers it as well.
    let read = call(
        &client,
        "journal_session",
        json!({"purpose": "What was I told", "session_id": session}),
    )
    .await;
    assert_eq!(structured(&read)["told"][0]["items"], json!([step]));
    client.cancel().await.unwrap();
}
