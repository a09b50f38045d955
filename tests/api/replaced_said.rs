//! A replaced decision is not said as decided (issue 52 item 3c): wherever a decision's own line
//! is shown — a week digest in `/journal.md` and the window resource, a session's entry on the
//! journal pages, a session of the catch-up brief (REST, `journal_catch_up`, `journal://brief`)
//! and of the session reads, a digest in the digest list and on the journal page — it carries
//! how it stands now, and names the decision that replaced it only to a reader who can read
//! that one.

use crate::common;
use crate::common::TestApp;
use crate::common::mcp::{Client, call, connect, structured};
use crate::common::page::{client, sign_in};
use crate::decisions::{decision_id, opened};
use chrono::Duration;
use n8v_journal::jobs;
use reqwest::Method;
use reqwest::header::{ACCEPT, COOKIE};
use rmcp::model::{ReadResourceRequestParams, ResourceContents};
use serde_json::{Value, json};

use crate::common::JOURNAL_SCOPES as ALL;

const OLD: &str = "Old plan K: run the queue on advisory locks";
const NEW: &str = "New plan: run the queue on SKIP LOCKED";
/// The narrow key's scopes: it reads the old decision's session, not the new one's.
const NARROW: &str = "chats:read";

/// A session of `token` ended with `decision`; its id.
async fn ended(app: &TestApp, token: &str, assistant: &str, decision: &str) -> String {
    let id = opened(app, token, assistant).await;
    let end = json!({"outcome": "Queue designed", "decisions": [decision]});
    app.end_session(token, &id, end).ok(200).await;
    id
}

/// The scene of every test: an account's whole key (`wide`) and a narrow one; the old
/// decision, made with the narrow key, and, `between` later, the new one, made with the wide
/// key, which replaces it by the replace operation.
struct Scene {
    app: TestApp,
    wide: String,
    narrow: String,
    /// The old decision (`itm_…`), the new one, and the old decision's session (`ses_…`).
    old: String,
    new: String,
    session: String,
}

async fn scene(between: Duration) -> Scene {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let (_, narrow) = app.key(a.id, NARROW, None).await;
    let wide = a.token;
    let session = ended(&app, &narrow, "Codex", OLD).await;
    let old = decision_id(&app.brief(&narrow, None).await, OLD);
    app.clock.advance(between);
    after_the_old(&app).await;
    ended(&app, &wide, "Claude Code", NEW).await;
    let new = decision_id(&app.brief(&wide, None).await, NEW);
    app.call(
        Method::POST,
        &format!("/api/v1/journal/decisions/{old}/replace"),
    )
    .token(&wide)
    .json(json!({ "by": new }))
    .ok(200)
    .await;
    Scene {
        app,
        wide,
        narrow,
        old,
        new,
        session,
    }
}

/// Between the two decisions: the week digests that are due by now are made.
async fn after_the_old(app: &TestApp) {
    jobs::digests::roll_up(&app.workers(|_| {})).await.unwrap();
}

async fn window(app: &TestApp, token: &str) -> String {
    app.text(token, "/journal.md?max_chars=20000").await
}

async fn resource(client: &Client, uri: &str) -> String {
    let read = client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await
        .unwrap();
    match &read.contents[..] {
        [ResourceContents::TextResourceContents { text, .. }] => text.clone(),
        other => panic!("{uri}: {other:?}"),
    }
}

#[tokio::test]
async fn a_week_digest_says_its_replaced_decision_is_replaced_and_by_what_if_readable() {
    // Three weeks on, the old decision's week is digested (14 days after the week ends); the
    // new decision replaces it after that.
    let Scene {
        app,
        wide,
        narrow,
        new,
        ..
    } = scene(Duration::days(22)).await;
    let digests: Value = app.get_typed(&wide, "/api/v1/journal/digests").await;
    assert_eq!(
        digests["digests"][0]["summary"]["decisions"],
        json!([OLD]),
        "the week's digest holds the old decision: {digests}"
    );

    let said = format!("- Decided: {OLD} (replaced by {new}: {NEW})\n");
    let md = window(&app, &wide).await;
    assert!(
        !md.contains(&format!("- Decided: {OLD}\n")),
        "the digest says the replaced decision as decided:\n{md}"
    );
    assert!(md.contains(&said), "{md}");
    let client = connect(&app, &wide).await;
    let resourced = resource(&client, "journal://window").await;
    assert!(resourced.contains(&said), "{resourced}");
    client.cancel().await.unwrap();

    // The narrow key reads the digest but not the session that replaced its decision: it is
    // told the decision was replaced, and nothing of what replaced it.
    let md = window(&app, &narrow).await;
    assert!(
        md.contains(&format!("- Decided: {OLD} (replaced since)\n")),
        "{md}"
    );
    assert!(!md.contains(NEW) && !md.contains(&new), "{md}");
}

/// The session of `id` in a brief's (or a list's) `sessions`.
fn session<'a>(sessions: &'a Value, id: &str) -> &'a Value {
    let all = sessions.as_array().unwrap();
    let found = all.iter().find(|s| s["id"] == id);
    found.unwrap_or_else(|| panic!("{id} in {sessions}"))
}

/// What `session` (as the API answers it) says of its decisions: its hand-off's lines, and
/// each decision item's text, state and replacement.
fn stands(session: &Value) -> (Value, Vec<Value>) {
    let decisions = session["decisions"].as_array().cloned().unwrap_or_default();
    let said = decisions
        .iter()
        .map(|d| {
            json!([
                d["text"],
                d["state"],
                d["replaced_by"],
                d["replaced_by_text"]
            ])
        })
        .collect();
    (session["handoff"]["decisions"].clone(), said)
}

async fn page(app: &TestApp, cookie: &str, path: &str) -> String {
    let answer = client()
        .get(app.url(path))
        .header(ACCEPT, "text/html")
        .header(COOKIE, cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 200, "{path}");
    answer.text().await.unwrap()
}

#[tokio::test]
async fn a_sessions_replaced_decision_says_so_in_the_brief_the_session_reads_and_the_pages() {
    let Scene {
        app,
        wide,
        narrow,
        new,
        session: session_id,
        ..
    } = scene(Duration::hours(1)).await;
    let replaced_by = (json!([OLD]), vec![json!([OLD, "replaced", new, NEW])]);
    let unnamed = (json!([OLD]), vec![json!([OLD, "replaced", null, null])]);

    // The brief, over REST, MCP's tool and its resource.
    let brief: Value = app.get_typed(&wide, "/api/v1/journal/catch-up").await;
    assert_eq!(
        stands(session(&brief["sessions"], &session_id)),
        replaced_by
    );
    let client = connect(&app, &wide).await;
    let caught = call(&client, "journal_catch_up", json!({"purpose": "Catch up"})).await;
    let caught = structured(&caught);
    assert_eq!(
        stands(session(&caught["sessions"], &session_id)),
        replaced_by
    );
    let resourced: Value =
        serde_json::from_str(&resource(&client, "journal://brief").await).unwrap();
    assert_eq!(
        stands(session(&resourced["sessions"], &session_id)),
        replaced_by
    );
    // And the session reads: the list and the session, over REST and MCP.
    let listed: Value = app.get_typed(&wide, "/api/v1/journal/sessions").await;
    assert_eq!(
        stands(session(&listed["sessions"], &session_id)),
        replaced_by
    );
    let read = call(
        &client,
        "journal_session",
        json!({"session_id": session_id}),
    )
    .await;
    assert_eq!(stands(&structured(&read)["session"]), replaced_by);
    client.cancel().await.unwrap();

    // The narrow key cannot read the decision that replaced it: replaced, by nothing it names.
    let brief: Value = app.get_typed(&narrow, "/api/v1/journal/catch-up").await;
    assert_eq!(stands(session(&brief["sessions"], &session_id)), unnamed);
    let path = format!("/api/v1/journal/sessions/{session_id}");
    let read: Value = app.get_typed(&narrow, &path).await;
    assert_eq!(stands(&read["session"]), unnamed);
    assert!(!read.to_string().contains(&new), "{read}");

    // The pages: the journal, Settings › Journal and the session, for both.
    let cookie = sign_in(&app, &wide).await;
    let session_page = format!("/journal/sessions/{session_id}");
    for path in ["/journal", "/journal/settings", session_page.as_str()] {
        let html = page(&app, &cookie, path).await;
        let said = format!(
            "<del>{OLD}</del> <span class=\"meta\">· stated</span> <span class=\"meta replaced\">\
             · replaced by “{NEW}” ({new})</span>"
        );
        assert!(html.contains(&said), "{path}: {html}");
    }
    let cookie = sign_in(&app, &narrow).await;
    for path in ["/journal", "/journal/settings", session_page.as_str()] {
        let html = page(&app, &cookie, path).await;
        let said = format!(
            "<del>{OLD}</del> <span class=\"meta\">· stated</span> <span class=\"meta replaced\">\
             · replaced since</span>"
        );
        assert!(html.contains(&said), "{path}: {html}");
        assert!(
            !html.contains(NEW) && !html.contains(&new),
            "{path}: {html}"
        );
    }
}

/// What the digest list says of its first digest's decisions: each one's text, state and
/// replacement.
fn digest_stands(list: &Value) -> Vec<Value> {
    let decisions = list["digests"][0]["decisions"].as_array().cloned();
    let said = decisions.unwrap_or_default().into_iter();
    said.map(|d| {
        json!([
            d["text"],
            d["state"],
            d["replaced_by"],
            d["replaced_by_text"]
        ])
    })
    .collect()
}

#[tokio::test]
async fn the_digest_list_and_the_journal_page_say_a_digests_decision_was_replaced() {
    let Scene {
        app,
        wide,
        narrow,
        old,
        new,
        ..
    } = scene(Duration::days(22)).await;

    // The list, over REST and MCP.
    let replaced_by = vec![json!([OLD, "replaced", new, NEW])];
    let listed: Value = app.get_typed(&wide, "/api/v1/journal/digests").await;
    assert_eq!(listed["digests"][0]["summary"]["decisions"], json!([OLD]));
    assert_eq!(digest_stands(&listed), replaced_by, "{listed}");
    assert_eq!(listed["digests"][0]["decisions"][0]["id"], json!(old));
    let client = connect(&app, &wide).await;
    let tool = call(
        &client,
        "journal_digests",
        json!({"purpose": "Read the digests"}),
    )
    .await;
    assert_eq!(digest_stands(&structured(&tool)), replaced_by);
    client.cancel().await.unwrap();
    let listed: Value = app.get_typed(&narrow, "/api/v1/journal/digests").await;
    let unnamed = vec![json!([OLD, "replaced", null, null])];
    assert_eq!(digest_stands(&listed), unnamed, "{listed}");

    // The journal page's digest, for both.
    let cookie = sign_in(&app, &wide).await;
    let html = page(&app, &cookie, "/journal").await;
    let said = format!(
        "<strong>Decisions:</strong> <del>{OLD}</del> <span class=\"meta replaced\">· replaced by \
         “{NEW}” ({new})</span>"
    );
    assert!(html.contains(&said), "{html}");
    let cookie = sign_in(&app, &narrow).await;
    let html = page(&app, &cookie, "/journal").await;
    let said = format!(
        "<strong>Decisions:</strong> <del>{OLD}</del> <span class=\"meta replaced\">· replaced \
         since</span>"
    );
    assert!(html.contains(&said), "{html}");
    assert!(!html.contains(NEW) && !html.contains(&new), "{html}");
}
