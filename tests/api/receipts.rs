//! Receipts (issue 46, part 3): each catch-up brief, `/journal.md` window and resource read
//! keeps which sessions and items it handed over and how many characters, so `journal_session`
//! (REST and MCP) answers what a conversation was told when it started and from where, and an
//! item in the list names the later conversations given it.

use crate::common;

use crate::common::TestApp;
use crate::common::mcp::{call, connect, structured};
use chrono::Duration;
use n8v_journal::brief::CatchUp;
use reqwest::Method;
use rmcp::model::{ReadResourceRequestParams, ResourceContents};
use serde_json::json;

use crate::common::DELETING_SCOPES as ALL;

async fn started(app: &TestApp, token: &str) -> String {
    app.clock.advance(Duration::minutes(10));
    app.start_session(token, None, json!({"goal": "Pick up the queue work"}))
        .await
        .id
        .to_string()
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
    let brief: CatchUp = common::decode(serde_json::from_str(&brief_text).unwrap());
    let decision = brief.decisions[0].id.unwrap().to_string();
    let question = brief.open_questions[0].id.unwrap().to_string();
    let md = app
        .call(Method::GET, "/journal.md?max_chars=20000")
        .token(&a.token)
        .session(Some(&second))
        .send()
        .await;
    assert_eq!(md.status(), 200);
    let md_text = md.text().await.unwrap();

    let receipts = app.session_detail(&a.token, &second).await.told;
    assert_eq!(receipts.len(), 2, "{receipts:?}");
    let (catch_up, window) = (&receipts[0], &receipts[1]);
    assert_eq!(catch_up.operation, "getCatchUp");
    assert_eq!(
        catch_up.purpose.as_deref(),
        Some("Catch up before starting")
    );
    assert_eq!(
        catch_up.chars.unwrap() as usize,
        brief_text.chars().count(),
        "the brief's size as answered"
    );
    assert!(
        common::ids(&catch_up.sessions).contains(&first),
        "{catch_up:?}"
    );
    let mut items = common::ids(&catch_up.items);
    items.sort();
    let mut expected = vec![decision.clone(), question.clone()];
    expected.sort();
    assert_eq!(items, expected, "{catch_up:?}");
    assert_eq!(window.operation, "getJournalMarkdown");
    assert_eq!(window.chars.unwrap() as usize, md_text.chars().count());
    let shown = common::ids(&window.items);
    assert!(shown.contains(&question), "{window:?}");
    assert!(shown.contains(&decision), "{window:?}");
    // The first conversation was told nothing.
    assert!(app.session_detail(&a.token, &first).await.told.is_empty());

    // The item names the conversation given it.
    let listed = app.loops(&a.token, "open").await;
    assert_eq!(listed[0].id.to_string(), question);
    assert_eq!(common::ids(&listed[0].given_to), [second], "{listed:?}");
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
    let receipts = app.session_detail(&a.token, &session).await.told;
    assert_eq!(receipts.len(), 1, "{receipts:?}");
    assert_eq!(receipts[0].operation, "journal_catch_up");
    assert_eq!(common::ids(&receipts[0].items), std::slice::from_ref(&step));
    assert!(receipts[0].chars.unwrap() > 100);

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
    let receipts = app.session_detail(&a.token, &session).await.told;
    assert_eq!(receipts.len(), 2, "{receipts:?}");
    let resource = receipts
        .iter()
        .find(|r| r.purpose.as_deref() == Some("Read the journal resource journal://brief"))
        .unwrap_or_else(|| panic!("no receipt of the resource read: {receipts:?}"));
    assert_eq!(common::ids(&resource.items), std::slice::from_ref(&step));
    assert!(resource.chars.unwrap() > 100, "{resource:?}");

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
