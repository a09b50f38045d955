//! `GET /api/v1/journal/export` and the page's "Download my journal": every visible session,
//! call, summary and digest exactly once, in time order, past the export's page size; never
//! another account's; markdown; the refusals.

use crate::common;

use crate::common::{TestApp, bulk, expect_problem, page};
use chrono::{DateTime, Duration, Utc};
use n8v_journal::admin;
use n8v_journal::clock::Clock;
use n8v_journal::ids::{self, Kind};
use reqwest::Method;
use reqwest::header::{CONTENT_DISPOSITION, CONTENT_TYPE, COOKIE};
use serde_json::{Value, json};
use std::collections::{BTreeSet, HashSet};
use uuid::Uuid;

use crate::common::JOURNAL_AND_ORG_SCOPES as ALL_SCOPES;
const PURPOSE: &str = "take the journal elsewhere";

/// The export as `token` reads it (`query` empty or `?…`): asserts 200 and the content type.
async fn export(app: &TestApp, token: &str, query: &str) -> reqwest::Response {
    let response = app
        .call(Method::GET, &format!("/api/v1/journal/export{query}"))
        .token(token)
        .purpose(PURPOSE)
        .send()
        .await;
    assert_eq!(response.status().as_u16(), 200);
    response
}

/// NDJSON lines, each one JSON object (the body ends with a newline).
fn lines(body: &str) -> Vec<Value> {
    assert!(
        body.is_empty() || body.ends_with('\n'),
        "ends with a newline"
    );
    body.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

async fn export_lines(app: &TestApp, token: &str) -> Vec<Value> {
    let response = export(app, token, "").await;
    assert_eq!(response.headers()[CONTENT_TYPE], "application/x-ndjson");
    lines(&response.text().await.unwrap())
}

/// A line's place in time: when the session started, the call was made, the summary was
/// stored, the digest was made, the open loop was opened.
fn time_of(line: &Value) -> DateTime<Utc> {
    let field = match line["type"].as_str().unwrap() {
        "session" => "started_at",
        "call" | "summary" => "at",
        "digest" | "loop" => "created_at",
        other => panic!("unknown type {other}"),
    };
    line[field].as_str().unwrap().parse().unwrap()
}

/// The ids of one type's lines, asserting none repeats.
fn ids_of(lines: &[Value], kind: &str) -> BTreeSet<String> {
    let field = if kind == "summary" {
        "session_id"
    } else {
        "id"
    };
    let ids: Vec<String> = lines
        .iter()
        .filter(|l| l["type"] == kind)
        .map(|l| l[field].as_str().unwrap().to_owned())
        .collect();
    let set: BTreeSet<String> = ids.iter().cloned().collect();
    assert_eq!(set.len(), ids.len(), "a {kind} exported twice");
    set
}

/// The owner's count of `sql` for `account` (the oracle, read past row-level security).
async fn owner_ids(app: &TestApp, sql: &str, kind: Kind, account: Uuid) -> BTreeSet<String> {
    let ids: Vec<Uuid> = sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_owned()))
        .bind(account)
        .fetch_all(&app.owner)
        .await
        .unwrap();
    ids.into_iter().map(|id| ids::format(kind, id)).collect()
}

/// The two sets are equal; otherwise says what is missing and what is extra, briefly.
fn same(exported: &BTreeSet<String>, expected: &BTreeSet<String>, what: &str) {
    let missing: Vec<_> = expected.difference(exported).take(5).collect();
    let extra: Vec<_> = exported.difference(expected).take(5).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{what}: {} exported, {} expected; missing {missing:?}…, extra {extra:?}…",
        exported.len(),
        expected.len()
    );
}

async fn summarise(app: &TestApp, account: Uuid, session: Uuid, at: DateTime<Utc>) {
    sqlx::query(
        "INSERT INTO session_summaries (account_id, session_id, snapshot, summary, model, \
             input_tokens, output_tokens, cost_usd, created_at) \
         VALUES ($1, $2, 1, '{\"summary\": \"Wrote the heron notes\"}', 'code', 0, 0, 0, $3)",
    )
    .bind(account)
    .bind(session)
    .bind(at)
    .execute(&app.owner)
    .await
    .unwrap();
    sqlx::query(
        "UPDATE journal_sessions SET summary = '{\"summary\": \"Wrote the heron notes\", \
             \"decisions\": [\"Keep herons\"], \"work_started\": [], \"work_finished\": [], \
             \"open_questions\": []}', summary_model = 'code', summary_cost_usd = 0, \
             summary_snapshot = 1 WHERE account_id = $1 AND session_id = $2",
    )
    .bind(account)
    .bind(session)
    .execute(&app.owner)
    .await
    .unwrap();
}

fn uuid_of(session: &str) -> Uuid {
    ids::parse(Kind::Session, session).unwrap()
}

#[tokio::test]
async fn the_export_holds_every_visible_item_once_in_time_order() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL_SCOPES).await;
    let b = app.account("B", ALL_SCOPES).await;
    app.journal_on(a.id).await;
    app.journal_on(b.id).await;

    // Over the export's page (500 a kind), with equal times that only ids order.
    let long_ago = app.clock.now() - Duration::days(30);
    let scopes: Vec<&str> = ALL_SCOPES.split(',').collect();
    let bulk = bulk::sessions_with_calls(&app, a.id, a.key_id, &scopes, 260, 3, long_ago).await;
    // B's journal, seeded the same way at the same time and through the API: never in A's.
    let theirs = bulk::sessions_with_calls(&app, b.id, b.key_id, &scopes, 5, 2, long_ago).await;

    // Through the API: an explicit session with calls, closed and summarised; an implicit one.
    let rec = app.first_record(&a.token).await;
    let s1 = app
        .start_session(&a.token, Some(PURPOSE), json!({"goal": "heron notes"}))
        .await;
    let s1 = s1.id.to_string();
    for n in 0..3 {
        app.clock.advance(Duration::seconds(5));
        app.append(
            &a.token,
            &rec,
            Some(&s1),
            Some(PURPOSE),
            &format!("heron {n}"),
        )
        .await;
    }
    app.end_session(&a.token, &s1, json!({"outcome": "notes written"}))
        .purpose(PURPOSE)
        .ok(200)
        .await;
    summarise(&app, a.id, uuid_of(&s1), app.clock.now()).await;
    summarise(&app, a.id, bulk[7], long_ago + Duration::hours(1)).await;
    common::seed::worker_rows(&app, a.id, bulk[0], 2).await;
    let b_rec = app.first_record(&b.token).await;
    app.start_session(&b.token, Some(PURPOSE), json!({"goal": "bittern secret"}))
        .await;
    app.append(&b.token, &b_rec, None, Some("bittern call"), "bittern")
        .await;
    app.clock.advance(Duration::minutes(1));
    app.append(&a.token, &rec, None, Some("implicit work"), "egret")
        .await;

    let listed: BTreeSet<String> = app
        .paged_ids(&a.token, "/api/v1/journal/sessions", 100, "sessions")
        .await
        .into_iter()
        .collect();
    let exported = export_lines(&app, &a.token).await;

    // Every session the list shows, and only those.
    let sessions = ids_of(&exported, "session");
    same(&sessions, &listed, "sessions");
    assert_eq!(sessions.len(), 262, "260 seeded, s1 and the implicit one");
    // Every call of those sessions (the export's own call included: recorded before it is
    // read), as the owner counts them.
    let calls = owner_ids(
        &app,
        "SELECT c.call_id FROM journal_calls c JOIN journal_sessions s USING (account_id, session_id) \
          WHERE c.account_id = $1 AND NOT s.journal_only",
        Kind::Call,
        a.id,
    )
    .await;
    assert!(calls.len() > 780, "{}", calls.len());
    same(&ids_of(&exported, "call"), &calls, "calls");
    let summaries = ids_of(&exported, "summary");
    assert_eq!(
        summaries,
        [s1.clone(), ids::format(Kind::Session, bulk[7])]
            .into_iter()
            .collect()
    );
    assert_eq!(ids_of(&exported, "digest").len(), 1);

    // In time order, and each object as the API answers it.
    let times: Vec<DateTime<Utc>> = exported.iter().map(time_of).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "not in time order");
    let detail = app.session_detail(&a.token, &s1).await;
    let line = exported.iter().find(|l| l["id"] == s1.as_str()).unwrap();
    let mut as_listed = serde_json::to_value(&detail.session).unwrap();
    as_listed["type"] = json!("session");
    assert_eq!(line, &as_listed);
    let summary = exported
        .iter()
        .find(|l| l["type"] == "summary" && l["session_id"] == s1.as_str())
        .unwrap();
    assert_eq!(summary["summary"]["decisions"], json!(["Keep herons"]));
    assert_eq!(summary["model"], "code");

    // Nothing of B's.
    let text = serde_json::to_string(&exported).unwrap();
    assert!(!text.contains("bittern") && !text.contains(&b.ext));
    for id in &theirs {
        assert!(!text.contains(&ids::format(Kind::Session, *id)));
    }
    // And B's export holds B's journal only.
    let b_export = export_lines(&app, &b.token).await;
    // Its 5 seeded sessions, the explicit one and the implicit one of its calls.
    assert_eq!(ids_of(&b_export, "session").len(), 7);
    let b_text = serde_json::to_string(&b_export).unwrap();
    assert!(!b_text.contains("heron") && !b_text.contains(&a.ext));
}

#[tokio::test]
async fn an_organization_owner_exports_its_members_organization_work_only() {
    let app = common::spawn_app().await;
    let o = app.account("O", ALL_SCOPES).await;
    let m = app.account("M", crate::common::JOURNAL_SCOPES).await;
    for acc in [&o, &m] {
        app.journal_on(acc.id).await;
    }
    let org = app.organization_with_reader(o.id, "Org", m.id).await;
    let org_ext = ids::format(Kind::Organization, org);
    let rec = app.first_record(&m.token).await;
    let shared = app
        .start_session(
            &m.token,
            Some(PURPOSE),
            json!({"goal": "org work", "organization": org_ext}),
        )
        .await;
    let shared = shared.id.to_string();
    app.append(&m.token, &rec, Some(&shared), Some("for the org"), "x")
        .await;
    let private = app
        .start_session(&m.token, Some(PURPOSE), json!({"goal": "private work"}))
        .await;
    let private = private.id.to_string();

    let exported = export_lines(&app, &o.token).await;
    let sessions = ids_of(&exported, "session");
    assert!(sessions.contains(&shared), "{sessions:?}");
    assert!(!sessions.contains(&private));
    let shared_calls: HashSet<&str> = exported
        .iter()
        .filter(|l| l["type"] == "call" && l["session_id"] == shared.as_str())
        .map(|l| l["operation"].as_str().unwrap())
        .collect();
    assert!(
        shared_calls.contains("appendRecordEntry"),
        "{shared_calls:?}"
    );
    assert!(
        !serde_json::to_string(&exported)
            .unwrap()
            .contains("private work")
    );
}

#[tokio::test]
async fn markdown_is_one_document_with_its_tally() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL_SCOPES).await;
    let b = app.account("B", ALL_SCOPES).await;
    app.journal_on(a.id).await;
    app.journal_on(b.id).await;
    let s = app
        .start_session(&a.token, Some(PURPOSE), json!({"goal": "heron *notes*"}))
        .await;
    let s = s.id.to_string();
    app.start_session(&b.token, Some(PURPOSE), json!({"goal": "bittern"}))
        .await;

    let response = export(&app, &a.token, "?format=markdown").await;
    assert_eq!(
        response.headers()[CONTENT_TYPE],
        "text/markdown; charset=utf-8"
    );
    let disposition = response.headers()[CONTENT_DISPOSITION].to_str().unwrap();
    assert!(disposition.starts_with("attachment; filename=\"journal-"));
    assert!(disposition.ends_with(".md\""));
    let text = response.text().await.unwrap();
    assert!(text.starts_with("# Assistant journal: export\n"), "{text}");
    assert!(text.contains(&format!("- Session {s}\n")), "{text}");
    assert!(text.contains("Goal: heron \\*notes\\*"), "{text}");
    assert!(
        text.contains(&format!(" · {s} · startSession · ok 201")),
        "{text}"
    );
    assert!(!text.contains("bittern"));
    // The export's own call joins the credential's open session, recorded before the read.
    assert!(
        text.contains(&format!(" · {s} · exportJournal · ok 200")),
        "{text}"
    );
    assert!(
        text.ends_with("End of the export: 1 session, 2 calls, 0 summaries, 0 digests, 0 loops.\n"),
        "{text}"
    );
}

#[tokio::test]
async fn the_export_refuses_a_bad_format_a_missing_scope_and_operators() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL_SCOPES).await;
    app.journal_on(a.id).await;
    app.call(Method::GET, "/api/v1/journal/export?format=csv")
        .token(&a.token)
        .problem(400, "bad-request")
        .await;
    app.call(Method::GET, "/api/v1/journal/export?since=2026-01-01")
        .token(&a.token)
        .problem(400, "bad-request")
        .await;
    let (_, records_only) = app.key(a.id, "records:read", None).await;
    app.call(Method::GET, "/api/v1/journal/export")
        .token(&records_only)
        .problem(403, "missing-scope")
        .await;
    let operator = admin::create_operator_key(&app.owner, "ops").await.unwrap();
    let response = app
        .call(Method::GET, "/api/v1/journal/export")
        .token(&operator.token)
        .send()
        .await;
    expect_problem(response, 403, "forbidden").await;
    app.call(Method::GET, "/api/v1/journal/export")
        .problem(401, "unauthorized")
        .await;
}

#[tokio::test]
async fn the_journal_page_downloads_the_journal_with_its_own_cookie() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL_SCOPES).await;
    app.journal_on(a.id).await;
    let s = app
        .start_session(&a.token, Some(PURPOSE), json!({"goal": "heron notes"}))
        .await;
    let cookie = page::sign_in(&app, &a.token).await;
    let http = page::client();
    let journal = http
        .get(app.url("/journal"))
        .header(COOKIE, &cookie)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(journal.contains("href=\"/journal/export\""), "{journal}");
    assert!(journal.contains("Download my journal"));

    let download = http
        .get(app.url("/journal/export"))
        .header(COOKIE, &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(download.status().as_u16(), 200);
    assert_eq!(download.headers()[CONTENT_TYPE], "application/x-ndjson");
    assert!(
        download.headers()[CONTENT_DISPOSITION]
            .to_str()
            .unwrap()
            .starts_with("attachment")
    );
    let exported = lines(&download.text().await.unwrap());
    assert!(ids_of(&exported, "session").contains(&s.id.to_string()));

    let markdown = http
        .get(app.url("/journal/export?format=markdown"))
        .header(COOKIE, &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(markdown.status().as_u16(), 200);
    assert!(markdown.text().await.unwrap().contains("heron notes"));

    // Without the cookie, the page sends to sign-in; a bearer key is not the page's auth.
    let anonymous = http
        .get(app.url("/journal/export"))
        .bearer_auth(&a.token)
        .send()
        .await
        .unwrap();
    assert!(
        anonymous.status().is_redirection(),
        "{}",
        anonymous.status()
    );
}
