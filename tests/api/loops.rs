//! Open loops (issue 24, part 1): the open questions and next steps sessions hand on become
//! items that stay open whatever the brief's window until closed (by `session_end`'s `resolved`
//! or the close endpoint), one item per text; they read as stale after 90 days; they are read
//! under the session list's visibility (REST, MCP, the page, the export); and a deleted session
//! leaves no word of itself in them.

use crate::common;

use crate::common::journal::texts;
use crate::common::mcp::{call, connect, error_text, structured};
use crate::common::{TestApp, page};
use chrono::Duration;
use n8v_journal::admin;
use n8v_journal::clock::Clock;
use n8v_journal::ids::{self, Kind};
use n8v_journal::jobs::sweep;
use n8v_journal::loops::Loop;
use n8v_journal::ops::journal::EndedSession;
use reqwest::Method;
use reqwest::header::{ACCEPT, CONTENT_TYPE, COOKIE};
use serde_json::{Value, json};

use crate::common::DELETING_SCOPES as ALL;

/// Opens a session with a plain goal and ends it with `end`, ten minutes on (so sessions and
/// their items are ordered); returns its id.
async fn ended(app: &TestApp, token: &str, end: Value) -> String {
    app.clock.advance(Duration::minutes(10));
    let id = opened(app, token).await;
    app.end_session(token, &id, end).ok(200).await;
    id
}

async fn opened(app: &TestApp, token: &str) -> String {
    app.start_session(token, None, json!({"goal": "Keep going"}))
        .await
        .id
        .to_string()
}

fn close<'a>(app: &'a TestApp, token: &str, item: &str, state: &str) -> common::Call<'a> {
    app.call(Method::POST, &format!("/api/v1/journal/loops/{item}/close"))
        .token(token)
        .json(json!({ "state": state }))
}

async fn window(app: &TestApp, token: &str) -> String {
    let md = app.get(token, "/journal.md?max_chars=20000").await;
    assert_eq!(md.status(), 200);
    md.text().await.unwrap()
}

fn item_texts(items: &[Loop]) -> Vec<&str> {
    items.iter().map(|i| i.text.as_str()).collect()
}

fn id(item: &Loop) -> String {
    item.id.to_string()
}

#[tokio::test]
async fn a_resolved_next_step_leaves_the_brief_and_an_old_open_question_stays() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let first = ended(
        &app,
        &a.token,
        json!({"outcome": "Drafted the retry change",
               "open_questions": ["Should the retry policy be configurable?"],
               "next_steps": ["Write the migration note"]}),
    )
    .await;
    let now = app.brief(&a.token, None).await;
    let step = &now.next_steps[0];
    assert_eq!(step.text, "Write the migration note", "{now:?}");
    let (step_id, question) = (now.next_steps[0].id, now.open_questions[0].id);
    assert_eq!((step.age, step.stated), (Some(0), true));
    assert_eq!(step.session_id.to_string(), first);
    let step = step_id.expect("an item").to_string();
    let question = question.expect("an item").to_string();

    // Ten days on, the first session is out of the brief's seven days; its items are not.
    app.clock.advance(Duration::days(10));
    ended(
        &app,
        &a.token,
        json!({"outcome": "Looked at the dashboards"}),
    )
    .await;
    let third = ended(
        &app,
        &a.token,
        json!({"outcome": "Wrote the note", "resolved": [step]}),
    )
    .await;
    let fourth = opened(&app, &a.token).await;
    let read = app.brief(&a.token, Some(&fourth)).await;
    assert!(
        read.sessions.iter().all(|s| s.id.to_string() != first),
        "the first session is out of the window: {read:?}"
    );
    assert!(read.next_steps.is_empty(), "{read:?}");
    assert_eq!(
        texts(&read.open_questions),
        ["Should the retry policy be configurable?"]
    );
    let open = &read.open_questions[0];
    assert_eq!(open.id.map(|i| i.to_string()), Some(question.clone()));
    assert_eq!(open.age, Some(10));
    // Decisions stay history: none was stated in the window.
    assert!(read.decisions.is_empty());

    let closed = app.loops(&a.token, "closed").await;
    assert_eq!(closed.len(), 1, "{closed:?}");
    assert_eq!(id(&closed[0]), step);
    assert_eq!(closed[0].state, "done");
    assert_eq!(
        closed[0].closed_session_id.map(|s| s.to_string()),
        Some(third)
    );
    assert!(closed[0].closed_at.is_some());

    let md = window(&app, &a.token).await;
    assert!(
        md.contains(&format!(
            "## Still open\n- Open: Should the retry policy be configurable? · {question} · open 10 days · "
        )),
        "{md}"
    );
    assert!(
        !md.contains("migration note"),
        "a closed item is nowhere in the window: {md}"
    );
}

#[tokio::test]
async fn a_repeated_item_joins_the_open_one_and_a_closed_one_opens_anew() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let first = ended(
        &app,
        &a.token,
        json!({"open_questions": ["Use advisory locks for the sweep?"]}),
    )
    .await;
    // Again in other case and punctuation, stated and marked in the outcome.
    ended(
        &app,
        &a.token,
        json!({"outcome": "Open question: use advisory locks for the sweep?",
               "open_questions": ["use advisory locks for the sweep"]}),
    )
    .await;
    let open = app.loops(&a.token, "open").await;
    assert_eq!(open.len(), 1, "{open:?}");
    assert_eq!(open[0].text, "Use advisory locks for the sweep?");
    assert_eq!(open[0].session_id.to_string(), first);
    let read = app.brief(&a.token, None).await;
    assert_eq!(
        texts(&read.open_questions),
        ["Use advisory locks for the sweep?"],
        "{read:?}"
    );

    close(&app, &a.token, &id(&open[0]), "answered")
        .ok(200)
        .await;
    let third = ended(
        &app,
        &a.token,
        json!({"open_questions": ["Use advisory locks for the sweep?"]}),
    )
    .await;
    let open = app.loops(&a.token, "open").await;
    assert_eq!(open.len(), 1, "{open:?}");
    assert_eq!(open[0].session_id.to_string(), third);
    assert_eq!(app.loops(&a.token, "all").await.len(), 2);

    // Another key of the account opens its own item (one it can surely read).
    let (_, other) = app.key(a.id, ALL, None).await;
    ended(
        &app,
        &other,
        json!({"open_questions": ["Use advisory locks for the sweep?"]}),
    )
    .await;
    assert_eq!(app.loops(&a.token, "open").await.len(), 2);
}

#[tokio::test]
async fn items_of_another_account_or_of_unreadable_sessions_are_404() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    let b = app.account("B", ALL).await;
    app.journal_on(a.id).await;
    app.journal_on(b.id).await;
    ended(
        &app,
        &a.token,
        json!({"next_steps": ["Rotate the staging keys"]}),
    )
    .await;
    let item = id(&app.loops(&a.token, "open").await[0]);

    let (_, restricted) = app.key(a.id, ALL, Some("acme/app")).await;
    let (_, narrow) = app.key(a.id, "chats:read", None).await;
    for token in [&b.token, &restricted, &narrow] {
        assert!(app.loops(token, "all").await.is_empty());
        let read = app.brief(token, None).await;
        assert!(read.next_steps.is_empty(), "{read:?}");
        close(&app, token, &item, "done")
            .problem(404, "not-found")
            .await;
    }
    // Another account's session_end naming it closes nothing of it, and ends all the same.
    let theirs = opened(&app, &b.token).await;
    let ended_theirs: EndedSession = app
        .end_session(&b.token, &theirs, json!({"resolved": [item]}))
        .typed(200)
        .await;
    assert_eq!(
        common::ids(&ended_theirs.not_resolved),
        [item],
        "{ended_theirs:?}"
    );
    assert_eq!(ended_theirs.session.status, "closed", "{ended_theirs:?}");
    assert_eq!(app.loops(&a.token, "open").await.len(), 1);

    // An organization's owner reads its member's organization items, and does not close them.
    let o = app
        .account("O", crate::common::JOURNAL_AND_ORG_SCOPES)
        .await;
    app.journal_on(o.id).await;
    let org = admin::create_org(&app.owner, o.id, "Org").await.unwrap();
    admin::add_member(&app.owner, org, a.id, true)
        .await
        .unwrap();
    let (_, member) = app.key(a.id, "chats:read,records:read", None).await;
    let org_ext = ids::format(Kind::Organization, org);
    let work = app
        .start_session(
            &member,
            None,
            json!({"goal": "Org work", "organization": org_ext}),
        )
        .await
        .id
        .to_string();
    app.end_session(
        &member,
        &work,
        json!({"open_questions": ["Who pays for the org plan?"]}),
    )
    .ok(200)
    .await;
    let seen = app.loops(&o.token, "open").await;
    assert_eq!(item_texts(&seen), ["Who pays for the org plan?"]);
    let refused = close(&app, &o.token, &id(&seen[0]), "answered")
        .problem(404, "not-found")
        .await;
    let detail = refused["detail"].as_str().unwrap();
    let dismiss = format!("POST /api/v1/journal/loops/{}/dismiss", id(&seen[0]));
    assert!(
        detail.contains(&dismiss),
        "the REST words of the remedy: {detail}"
    );
    let owners = opened(&app, &o.token).await;
    let ended_owners: EndedSession = app
        .end_session(&o.token, &owners, json!({"resolved": [id(&seen[0])]}))
        .typed(200)
        .await;
    assert_eq!(ended_owners.not_resolved, [seen[0].id]);
    assert_eq!(app.loops(&o.token, "open").await.len(), 1);
    close(&app, &member, &id(&seen[0]), "answered")
        .ok(200)
        .await;
}

#[tokio::test]
async fn the_close_endpoint_closes_once_in_the_callers_session_and_refuses_bad_input() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    ended(
        &app,
        &a.token,
        json!({"next_steps": ["Tag the release", "Email the team", "Update the docs"]}),
    )
    .await;
    // Newest first; items opened together in the order they were stated; paged.
    let paged = app
        .paged_ids(&a.token, "/api/v1/journal/loops", 2, "loops")
        .await;
    let open = app.loops(&a.token, "open").await;
    assert_eq!(
        item_texts(&open),
        ["Tag the release", "Email the team", "Update the docs"]
    );
    assert_eq!(paged, open.iter().map(id).collect::<Vec<_>>());
    let (tag, email, docs) = (id(&open[0]), id(&open[1]), id(&open[2]));

    let mine = opened(&app, &a.token).await;
    let closed: Loop = close(&app, &a.token, &tag, "dropped")
        .session(Some(&mine))
        .typed(200)
        .await;
    assert_eq!(closed.state, "dropped");
    assert_eq!(closed.closed_session_id.map(|s| s.to_string()), Some(mine));
    close(&app, &a.token, &tag, "done")
        .problem(409, "conflict")
        .await;
    // Without X-Session-Id, the session the call joins closes it.
    let response = close(&app, &a.token, &email, "done").send().await;
    let joined = common::session_of(&response).unwrap();
    let closed: Loop = common::decode(common::expect_ok(response, 200).await);
    assert_eq!(
        closed.closed_session_id.map(|s| s.to_string()),
        Some(joined)
    );

    close(&app, &a.token, &docs, "finished")
        .problem(400, "bad-request")
        .await;
    for bad in ["itm_nope", "ses_01M72AZ1M0ETFB59TDWH9EDD1R", "nope"] {
        close(&app, &a.token, bad, "done")
            .problem(404, "not-found")
            .await;
    }
    app.call(Method::POST, &format!("/api/v1/journal/loops/{docs}/close"))
        .token(&a.token)
        .json(json!({}))
        .problem(422, "invalid-body")
        .await;
    for query in [
        "state=pending",
        "state=",
        "state=%20open",
        "limit=0",
        "cursor=zzz",
        "colour=red",
    ] {
        app.call(Method::GET, &format!("/api/v1/journal/loops?{query}"))
            .token(&a.token)
            .problem(400, "bad-request")
            .await;
    }
    let session = opened(&app, &a.token).await;
    let many: Vec<String> = (0..101).map(|_| docs.clone()).collect();
    for resolved in [json!(["nope"]), json!(many)] {
        app.end_session(&a.token, &session, json!({ "resolved": resolved }))
            .problem(400, "bad-request")
            .await;
    }
    let (_, records_only) = app.key(a.id, "records:read", None).await;
    close(&app, &records_only, &docs, "done")
        .problem(403, "missing-scope")
        .await;
    assert_eq!(app.loops(&a.token, "open").await.len(), 1);
}

#[tokio::test]
async fn an_item_open_for_ninety_days_reads_as_stale_and_leaves_the_brief() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    ended(
        &app,
        &a.token,
        json!({"open_questions": ["Is the okapi queue needed?"]}),
    )
    .await;
    app.clock.advance(Duration::days(89));
    assert_eq!(app.loops(&a.token, "open").await[0].state, "open");
    app.clock.advance(Duration::days(1));
    let open = app.loops(&a.token, "open").await;
    assert_eq!((open[0].state.as_str(), open[0].age), ("stale", 90));
    let read = app.brief(&a.token, None).await;
    assert!(read.open_questions.is_empty(), "{read:?}");
    assert!(!window(&app, &a.token).await.contains("okapi"));

    // Stated again, it opens afresh; the stale one can still be closed.
    ended(
        &app,
        &a.token,
        json!({"open_questions": ["Is the okapi queue needed?"]}),
    )
    .await;
    let open = app.loops(&a.token, "open").await;
    let states: Vec<&str> = open.iter().map(|l| l.state.as_str()).collect();
    assert_eq!(states, ["open", "stale"]);
    assert_eq!(app.brief(&a.token, None).await.open_questions.len(), 1);
    close(&app, &a.token, &id(&open[1]), "dropped")
        .ok(200)
        .await;
}

#[tokio::test]
async fn marked_questions_show_derived_while_open_and_become_items_when_swept() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let record = app.first_record(&a.token).await;
    app.append(
        &a.token,
        &record,
        None,
        Some("Question: who owns the billing job?"),
        "A line",
    )
    .await;
    let read = app.brief(&a.token, None).await;
    assert_eq!(texts(&read.open_questions), ["who owns the billing job?"]);
    assert!(read.open_questions[0].id.is_none(), "{read:?}");
    assert!(app.loops(&a.token, "all").await.is_empty());

    app.clock.advance(Duration::hours(3));
    let closed = sweep::close_quiet_sessions(&app.db, app.clock.now(), Duration::hours(2))
        .await
        .unwrap();
    assert!(closed >= 1);
    let open = app.loops(&a.token, "open").await;
    assert_eq!(item_texts(&open), ["who owns the billing job?"]);
    assert!(!open[0].stated);
    let read = app.brief(&a.token, None).await;
    assert_eq!(read.open_questions.len(), 1, "{read:?}");
    assert_eq!(read.open_questions[0].id, Some(open[0].id));
}

#[tokio::test]
async fn mcp_lists_items_and_session_end_resolves_them() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let client = connect(&app, &a.token).await;
    let start = |goal: &str| call(&client, "session_start", json!({"goal": goal}));
    let first = structured(&start("Plan the release").await)["id"]
        .as_str()
        .unwrap()
        .to_owned();
    call(
        &client,
        "session_end",
        json!({"session": first, "outcome": "Planned",
               "next_steps": ["Cut the release branch"]}),
    )
    .await;
    let listed = structured(
        &call(
            &client,
            "journal_loops",
            json!({"purpose": "What is open?"}),
        )
        .await,
    );
    let item = listed["loops"][0]["id"].as_str().unwrap().to_owned();
    assert_eq!(
        listed["loops"][0]["text"], "Cut the release branch",
        "{listed}"
    );

    let second = structured(&start("Cut it").await)["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let ended = call(
        &client,
        "session_end",
        json!({"session": second, "outcome": "Cut", "resolved": [item]}),
    )
    .await;
    structured(&ended);
    let closed = structured(&call(&client, "journal_loops", json!({"state": "closed"})).await);
    assert_eq!(closed["loops"][0]["id"], item.as_str());
    assert_eq!(closed["loops"][0]["state"], "done");
    assert_eq!(closed["loops"][0]["closed_session_id"], second.as_str());
    let open = structured(&call(&client, "journal_loops", json!({})).await);
    assert_eq!(open["loops"], json!([]));

    let bad = call(&client, "journal_loops", json!({"state": "pending"})).await;
    assert!(error_text(&bad).contains("state"));
    let third = structured(&start("Again").await)["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let bad = call(
        &client,
        "session_end",
        json!({"session": third, "outcome": "x", "resolved": ["itm_nope"]}),
    )
    .await;
    assert!(error_text(&bad).contains("resolved[0]"));
}

#[tokio::test]
async fn the_export_carries_items_in_time_order_and_the_page_closes_them() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    ended(
        &app,
        &a.token,
        json!({"open_questions": ["Which region first?"], "next_steps": ["Book the room"]}),
    )
    .await;
    let question = id(&app.loops(&a.token, "open").await[0]);
    close(&app, &a.token, &question, "answered").ok(200).await;

    let ndjson = app.text(&a.token, "/api/v1/journal/export").await;
    let lines: Vec<Value> = ndjson
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let items: Vec<&Value> = lines.iter().filter(|l| l["type"] == "loop").collect();
    assert_eq!(items.len(), 2, "{ndjson}");
    assert_eq!(items[0]["text"], "Which region first?");
    assert_eq!(items[0]["state"], "answered");
    assert_eq!(items[1]["text"], "Book the room");
    let session = lines.iter().position(|l| l["type"] == "session").unwrap();
    let first_item = lines.iter().position(|l| l["type"] == "loop").unwrap();
    assert!(session < first_item, "in time order: {ndjson}");
    let markdown = app
        .call(Method::GET, "/api/v1/journal/export?format=markdown")
        .token(&a.token)
        .send()
        .await
        .text()
        .await
        .unwrap();
    assert!(markdown.contains(&format!(
        "{question} · Open: Which region first? · answered"
    )));
    assert!(markdown.contains("2 loops.\n"), "{markdown}");

    // The page lists the open one with a form that needs its CSRF token.
    let cookie = page::sign_in(&app, &a.token).await;
    let http = page::client();
    let html = http
        .get(app.url("/journal"))
        .header(ACCEPT, "text/html")
        .header(COOKIE, &cookie)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let section = html
        .split("id=\"loops\"")
        .nth(1)
        .and_then(|rest| rest.split("</section>").next())
        .unwrap_or_else(|| panic!("no open loops on the page: {html}"));
    assert!(section.contains("Book the room"), "{section}");
    assert!(!section.contains("Which region first?"), "{section}");
    let step = id(&app.loops(&a.token, "open").await[0]);
    let token = page::csrf(&html);
    let post = |form: Vec<(&'static str, String)>| {
        http.post(app.url("/journal/loops/close"))
            .header(ACCEPT, "text/html")
            .header(COOKIE, &cookie)
            .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(serde_urlencoded::to_string(form).unwrap())
            .send()
    };
    let forged = post(vec![("target", step.clone()), ("state", "done".into())])
        .await
        .unwrap();
    assert_eq!(forged.status(), 403);
    assert_eq!(app.loops(&a.token, "open").await.len(), 1);
    let closed = post(vec![
        ("csrf", token),
        ("target", step.clone()),
        ("state", "done".into()),
    ])
    .await
    .unwrap();
    assert_eq!(closed.status(), 303);
    assert!(app.loops(&a.token, "open").await.is_empty());
}

/// Everything a reader of the account sees of its items: the list, the brief, the window, the
/// export and the page.
async fn everything(app: &TestApp, token: &str) -> String {
    let listed = app.loops(token, "all").await;
    let read = serde_json::to_string(&app.brief(token, None).await).unwrap();
    let md = window(app, token).await;
    let export = app
        .call(Method::GET, "/api/v1/journal/export")
        .token(token)
        .send()
        .await
        .text()
        .await
        .unwrap();
    let cookie = page::sign_in(app, token).await;
    let html = page::client()
        .get(app.url("/journal"))
        .header(ACCEPT, "text/html")
        .header(COOKIE, cookie)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    format!("{listed:?}\n{read}\n{md}\n{export}\n{html}")
}

async fn owner_count(app: &TestApp, sql: &'static str, account: uuid::Uuid) -> i64 {
    sqlx::query_scalar(sql)
        .bind(account)
        .fetch_one(&app.owner)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_deleted_session_leaves_no_word_of_itself_in_any_item() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let keeper = ended(
        &app,
        &a.token,
        json!({"open_questions": ["Rename the egret queue?"]}),
    )
    .await;
    let egret = id(&app.loops(&a.token, "open").await[0]);
    let gone = ended(
        &app,
        &a.token,
        json!({"open_questions": ["Is the zebrafish ledger still needed?"],
               "next_steps": ["Move the Heron notes"], "resolved": [egret]}),
    )
    .await;
    let later = ended(
        &app,
        &a.token,
        json!({"next_steps": ["move the heron notes"]}),
    )
    .await;
    let before = everything(&app, &a.token).await;
    assert!(before.contains("zebrafish") && before.contains("Move the Heron notes"));

    app.call(Method::DELETE, &format!("/api/v1/journal/sessions/{gone}"))
        .token(&a.token)
        .ok(200)
        .await;
    let after = everything(&app, &a.token).await;
    assert!(!after.contains("zebrafish"), "{after}");
    assert!(!after.contains("Move the Heron"), "{after}");
    // (The deleting call keeps the id as its target, as every deletion's does; no item does.)
    let listed = json!(app.loops(&a.token, "all").await).to_string();
    assert!(!listed.contains(&gone), "{listed}");
    let rows = "SELECT count(*) FROM (SELECT text FROM journal_loops WHERE account_id = $1 \
                UNION ALL SELECT text FROM journal_loop_sources WHERE account_id = $1) t \
                WHERE text ILIKE '%zebrafish%' OR text LIKE '%Heron%'";
    assert_eq!(owner_count(&app, rows, a.id).await, 0);
    // The item it repeated lives on in the later session's words; the one it closed stays
    // closed, without it.
    let all = app.loops(&a.token, "all").await;
    let heron = all
        .iter()
        .find(|l| l.text == "move the heron notes")
        .unwrap();
    assert_eq!(
        (heron.state.as_str(), heron.session_id.to_string()),
        ("open", later.clone())
    );
    let closed = all.iter().find(|l| id(l) == egret).unwrap();
    assert_eq!(closed.state, "answered");
    assert_eq!(closed.closed_session_id, None);
    assert_eq!(closed.session_id.to_string(), keeper);
    assert_eq!(all.len(), 2, "{all:?}");

    // The days of the sessions left, then the account: nothing of the items stays.
    let mut days = Vec::new();
    for session in [&keeper, &later] {
        let read = app.session_detail(&a.token, session).await;
        days.push(read.session.started_at.date_naive().to_string());
    }
    days.dedup();
    for day in days {
        app.call(Method::DELETE, &format!("/api/v1/journal/days/{day}"))
            .token(&a.token)
            .ok(200)
            .await;
    }
    assert!(app.loops(&a.token, "all").await.is_empty());
    let items = "SELECT count(*) FROM journal_loops WHERE account_id = $1";
    assert_eq!(owner_count(&app, items, a.id).await, 0);
    let (_, deleter) = app.key(a.id, "chats:read,account:delete", None).await;
    ended(&app, &deleter, json!({"next_steps": ["Say goodbye"]})).await;
    assert_eq!(owner_count(&app, items, a.id).await, 1);
    app.call(Method::DELETE, "/api/v1/account")
        .token(&deleter)
        .json(json!({ "confirm": a.ext }))
        .ok(200)
        .await;
    assert_eq!(owner_count(&app, items, a.id).await, 0);
    let sources = "SELECT count(*) FROM journal_loop_sources WHERE account_id = $1";
    assert_eq!(owner_count(&app, sources, a.id).await, 0);
}

/// The session ids as stored.
fn uuid(session: &str) -> uuid::Uuid {
    ids::parse(Kind::Session, session).unwrap()
}

#[tokio::test]
async fn two_sessions_of_one_item_deleted_at_once_take_the_item_and_their_words() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let first = ended(
        &app,
        &a.token,
        json!({"open_questions": ["Is the Osprey index worth keeping?"]}),
    )
    .await;
    let second = ended(
        &app,
        &a.token,
        json!({"open_questions": ["is the osprey index worth keeping?"]}),
    )
    .await;
    assert_eq!(app.loops(&a.token, "open").await.len(), 1, "one item");

    // Each deletion's statement runs while the other's is not committed: each must not count
    // the other's source as one left.
    common::race::delete_concurrently(&app.db_url, a.id, ALL, [uuid(&first), uuid(&second)]).await;
    assert!(app.loops(&a.token, "all").await.is_empty());
    let rows = "SELECT count(*) FROM (SELECT text FROM journal_loops WHERE account_id = $1 \
                UNION ALL SELECT text FROM journal_loop_sources WHERE account_id = $1) t";
    assert_eq!(owner_count(&app, rows, a.id).await, 0, "no word of either");
}

#[tokio::test]
async fn a_session_joining_an_item_while_its_last_source_is_deleted_opens_its_own() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let gone = ended(
        &app,
        &a.token,
        json!({"next_steps": ["Retire the Kestrel cron"]}),
    )
    .await;
    app.clock.advance(Duration::minutes(10));
    let joining = opened(&app, &a.token).await;

    // The deletion of the item's only session is not committed when the end reads the item.
    let mut deleting = common::race::Deleting::begin(&app.db_url, a.id, ALL).await;
    deleting.session(uuid(&gone)).await;
    let done = std::sync::atomic::AtomicUsize::new(0);
    let end = common::race::counted(
        &done,
        app.end_session(
            &a.token,
            &joining,
            json!({"next_steps": ["retire the kestrel cron"]}),
        )
        .ok(200),
    );
    let release = async {
        common::race::wait_until("the end to wait for the deletion", || async {
            common::race::lock_waiters(&app.db_url).await
                + done.load(std::sync::atomic::Ordering::SeqCst) as i64
                >= 1
        })
        .await;
        deleting.commit().await;
    };
    tokio::join!(end, release);
    let open = app.loops(&a.token, "open").await;
    assert_eq!(item_texts(&open), ["retire the kestrel cron"], "{open:?}");
    assert_eq!(open[0].session_id.to_string(), joining);
    let words = "SELECT count(*) FROM journal_loop_sources WHERE account_id = $1";
    assert_eq!(owner_count(&app, words, a.id).await, 1);
}

#[tokio::test]
async fn a_session_end_skips_the_items_it_may_not_close_names_them_and_keeps_its_hand_off() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    ended(
        &app,
        &a.token,
        json!({"next_steps": ["Rotate the staging keys"]}),
    )
    .await;
    let rotate = id(&app.loops(&a.token, "open").await[0]);
    let gone = ended(
        &app,
        &a.token,
        json!({"open_questions": ["Drop the gull table?"]}),
    )
    .await;
    let gull = app.loops(&a.token, "open").await;
    let gull = id(gull
        .iter()
        .find(|l| l.text == "Drop the gull table?")
        .unwrap());
    app.call(Method::DELETE, &format!("/api/v1/journal/sessions/{gone}"))
        .token(&a.token)
        .ok(200)
        .await;

    app.clock.advance(Duration::minutes(10));
    let session = opened(&app, &a.token).await;
    let answer: EndedSession = app
        .end_session(
            &a.token,
            &session,
            json!({"outcome": "Rotated the keys", "next_steps": ["Tell the team"],
                   "resolved": [gull, rotate, gull]}),
        )
        .typed(200)
        .await;
    assert_eq!(common::ids(&answer.not_resolved), [gull], "{answer:?}");
    assert_eq!(answer.session.id.to_string(), session, "{answer:?}");
    assert_eq!(answer.session.status, "closed", "{answer:?}");
    let all = app.loops(&a.token, "all").await;
    let done = all.iter().find(|l| id(l) == rotate).unwrap();
    assert_eq!(
        (
            done.state.as_str(),
            done.closed_session_id.map(|s| s.to_string())
        ),
        ("done", Some(session))
    );
    assert_eq!(
        item_texts(&app.loops(&a.token, "open").await),
        ["Tell the team"],
        "the hand-off is kept"
    );

    // Every id closable: nothing to name.
    let next = opened(&app, &a.token).await;
    let answer: EndedSession = app
        .end_session(&a.token, &next, json!({"resolved": [rotate]}))
        .typed(200)
        .await;
    assert!(answer.not_resolved.is_empty(), "{answer:?}");
}
