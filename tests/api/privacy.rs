//! Privacy, round two (issue 21): a session or a day deleted on purpose leaves nothing of itself
//! in the digests that covered it, nor in search, the markdown window or the pages; no key of an
//! account can pre-empt or break another's episode; a deleted account's name leaves the
//! operator log.

use crate::common;

use crate::common::TestApp;
use chrono::{Datelike, Duration, Utc};
use n8v_journal::clock::Clock;
use n8v_journal::jobs;
use reqwest::Method;
use reqwest::header::{ACCEPT, COOKIE};
use serde_json::{Value, json};

use crate::common::DELETING_SCOPES as SCOPES;

/// Opens and ends a session with `goal` and `outcome`; returns its id.
async fn ended(app: &TestApp, token: &str, goal: &str, outcome: &str) -> String {
    let session = app
        .start_session(token, Some("Start the work"), json!({ "goal": goal }))
        .await;
    let id = session.id.to_string();
    app.end_session(token, &id, json!({ "outcome": outcome }))
        .ok(200)
        .await;
    id
}

/// Moves a session `days` into the past (as the owner: the clock of the data, not the app).
async fn backdate(app: &TestApp, session: &str, to: chrono::DateTime<Utc>) {
    let id = n8v_journal::ids::parse(n8v_journal::ids::Kind::Session, session).unwrap();
    sqlx::query(
        "UPDATE journal_sessions SET started_at = $2, last_activity_at = $2 + interval '1 hour', \
             ended_at = $2 + interval '1 hour' WHERE session_id = $1",
    )
    .bind(id)
    .bind(to)
    .execute(&app.owner)
    .await
    .unwrap();
    sqlx::query("UPDATE journal_calls SET created_at = $2 WHERE session_id = $1")
        .bind(id)
        .bind(to)
        .execute(&app.owner)
        .await
        .unwrap();
}

/// Everything a reader of the account can see: search, the digests, `/journal.md`, the page.
async fn everything(app: &TestApp, token: &str, word: &str) -> String {
    let found = app
        .call(Method::GET, &format!("/api/v1/journal/search?q={word}"))
        .token(token)
        .ok(200)
        .await;
    let digests = app
        .call(Method::GET, "/api/v1/journal/digests")
        .token(token)
        .ok(200)
        .await;
    let markdown = app.get(token, "/journal.md").await;
    assert_eq!(markdown.status(), 200);
    let markdown = markdown.text().await.unwrap();
    // The pages' cookie is an access token minted from the key.
    let minted = app
        .call(Method::POST, "/api/v1/auth/token")
        .token(token)
        .ok(200)
        .await;
    let page = app
        .http
        .get(app.url("/journal"))
        .header(ACCEPT, "text/html")
        .header(
            COOKIE,
            format!("n8v_journal={}", minted["access_token"].as_str().unwrap()),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    let page = page.text().await.unwrap();
    // The search answer repeats the query; only its hits count.
    format!("{}\n{digests}\n{markdown}\n{page}", found["hits"])
}

fn digest_texts(list: &Value) -> Vec<String> {
    list["digests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| format!("{} {}", d["period"], d["summary"]))
        .collect()
}

#[tokio::test]
async fn a_deleted_session_leaves_nothing_in_the_digests_search_window_or_page() {
    let app = common::spawn_app().await;
    let a = app.account("Ada", SCOPES).await;
    app.journal_on(a.id).await;
    let gone = ended(
        &app,
        &a.token,
        "Move the zebrafish ledger",
        "Decided: keep the zebrafish ledger on Postgres.",
    )
    .await;
    let kept = ended(
        &app,
        &a.token,
        "Tidy the heron notes",
        "Decided: heron notes stay plain text.",
    )
    .await;
    // Both three weeks back, past the 14-day tier, in the same week.
    let now = app.clock.now();
    let monday = (now - Duration::weeks(3)).date_naive();
    let monday = monday - Duration::days(monday.weekday().num_days_from_monday() as i64);
    let at = monday.and_hms_opt(10, 0, 0).unwrap().and_utc();
    backdate(&app, &gone, at).await;
    backdate(&app, &kept, at + Duration::hours(3)).await;
    let state = app.workers(|_| {});
    let made = jobs::digests::roll_up(&state).await.unwrap();
    assert_eq!(made.week_digests, 1, "{made:?}");
    let before = everything(&app, &a.token, "zebrafish").await;
    assert!(
        before.matches("zebrafish").count() >= 4,
        "the digest shows the session everywhere first: {before}"
    );

    app.call(Method::DELETE, &format!("/api/v1/journal/sessions/{gone}"))
        .token(&a.token)
        .ok(200)
        .await;
    app.get_session(&a.token, &gone)
        .problem(404, "not-found")
        .await;
    let after = everything(&app, &a.token, "zebrafish").await;
    assert!(
        !after.contains("zebrafish"),
        "the deleted session lives on: {after}"
    );

    // The next pass makes the week again from what is left.
    let again = jobs::digests::roll_up(&state).await.unwrap();
    assert_eq!(again.week_digests, 1, "{again:?}");
    let list = app
        .call(Method::GET, "/api/v1/journal/digests")
        .token(&a.token)
        .ok(200)
        .await;
    let texts = digest_texts(&list);
    assert_eq!(texts.len(), 1, "{list}");
    assert!(texts[0].contains("heron"), "{list}");
    assert!(!texts[0].contains("zebrafish"), "{list}");
}

#[tokio::test]
async fn a_deleted_day_leaves_neither_its_week_nor_its_month_digest() {
    let app = common::spawn_app().await;
    let a = app.account("Ada", SCOPES).await;
    app.journal_on(a.id).await;
    // A repository-restricted key may delete its own sessions, and reads no digest: the
    // digests covering them go all the same.
    let (_, narrow) = app.key(a.id, SCOPES, Some("acme/app")).await;
    let gone = app
        .call(Method::POST, "/api/v1/journal/sessions")
        .token(&narrow)
        .purpose("Start the work")
        .json(json!({ "goal": "Rename the okapi queue", "repository": "acme/app" }))
        .ok(201)
        .await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    app.end_session(
        &narrow,
        &gone,
        json!({ "outcome": "Decided: the okapi queue becomes intake." }),
    )
    .ok(200)
    .await;
    let kept = ended(&app, &a.token, "Water the cactus", "Decided: weekly.").await;
    // Two days in one week of a month long past (its month digest is due too).
    let now = app.clock.now();
    let day = (now - Duration::days(200)).date_naive();
    let monday = day - Duration::days(day.weekday().num_days_from_monday() as i64);
    let at = monday.and_hms_opt(10, 0, 0).unwrap().and_utc();
    backdate(&app, &gone, at).await;
    backdate(&app, &kept, at + Duration::days(1)).await;
    let state = app.workers(|_| {});
    let made = jobs::digests::roll_up(&state).await.unwrap();
    assert_eq!((made.week_digests, made.month_digests), (1, 1), "{made:?}");
    let before = everything(&app, &a.token, "okapi").await;
    assert!(before.contains("okapi"), "{before}");

    app.call(Method::DELETE, &format!("/api/v1/journal/days/{monday}"))
        .token(&narrow)
        .ok(200)
        .await;
    let after = everything(&app, &a.token, "okapi").await;
    assert!(
        !after.contains("okapi"),
        "the deleted day lives on: {after}"
    );
    let again = jobs::digests::roll_up(&state).await.unwrap();
    assert_eq!(
        (again.week_digests, again.month_digests),
        (1, 1),
        "{again:?}"
    );
    let list = app
        .call(Method::GET, "/api/v1/journal/digests")
        .token(&a.token)
        .ok(200)
        .await;
    for text in digest_texts(&list) {
        assert!(text.contains("cactus") && !text.contains("okapi"), "{list}");
    }
}

fn episode(id: &str, said: &str) -> Value {
    json!({
        "episode_id": id, "harness": "claude-code",
        "started_at": "2026-11-10T09:00:00Z", "ended_at": "2026-11-10T09:40:00Z",
        "turns": [
            {"role": "user", "text": format!("Please look at {said}.")},
            {"role": "assistant", "text": format!("Done: {said} is fixed.")},
        ],
    })
}

fn post_episode<'a>(app: &'a TestApp, token: &str, body: Value) -> common::Call<'a> {
    app.call(Method::POST, "/api/v1/journal/episodes")
        .token(token)
        .json(body)
}

#[tokio::test]
async fn a_narrow_key_posting_a_wider_keys_episode_id_gets_its_own_entry() {
    let app = common::spawn_app().await;
    let a = app.account("Ada", SCOPES).await;
    app.journal_on(a.id).await;

    // A chats:read-only key posts an id a wider key posted: its own entry, not a 500.
    let wide = post_episode(&app, &a.token, episode("ep-1", "the login loop"))
        .ok(201)
        .await;
    let (_, reader) = app.key(a.id, "chats:read", None).await;
    let narrow = post_episode(&app, &reader, episode("ep-1", "the login loop"))
        .ok(201)
        .await;
    assert_eq!(narrow["entries"][0]["created"], true, "{narrow}");
    assert_ne!(
        narrow["entries"][0]["session_id"], wide["entries"][0]["session_id"],
        "{narrow}"
    );
}

#[tokio::test]
async fn a_restricted_key_posting_an_id_first_keeps_no_other_keys_episode_out() {
    let app = common::spawn_app().await;
    let a = app.account("Ada", SCOPES).await;
    app.journal_on(a.id).await;
    // A repository-restricted key posts junk under an id first: the full key's conversation,
    // posted later under the same id, is still recorded.
    let (_, restricted) = app.key(a.id, SCOPES, Some("acme/app")).await;
    post_episode(&app, &restricted, episode("ep-2", "junk"))
        .ok(201)
        .await;
    let real = post_episode(&app, &a.token, episode("ep-2", "the billing export"))
        .ok(201)
        .await;
    assert_eq!(real["entries"][0]["created"], true, "{real}");
    let entry = real["entries"][0]["session_id"].as_str().unwrap();
    let detail = app.session_detail(&a.token, entry).await;
    assert_eq!(
        detail.session.key_id.0, a.key_id,
        "the full key's own entry: {detail:?}"
    );

    // The same key again (a retry) makes nothing new.
    let again = post_episode(&app, &a.token, episode("ep-2", "the billing export"))
        .ok(201)
        .await;
    assert_eq!(again["entries"][0]["created"], false, "{again}");
    assert_eq!(again["entries"][0]["session_id"], entry);

    // A token minted from the key with fewer scopes cannot read the key's part: a clear 409.
    let minted = app
        .call(Method::POST, "/api/v1/auth/token")
        .token(&a.token)
        .json(json!({ "scopes": ["chats:read"] }))
        .ok(200)
        .await;
    let problem = post_episode(
        &app,
        minted["access_token"].as_str().unwrap(),
        episode("ep-2", "the billing export"),
    )
    .problem(409, "conflict")
    .await;
    assert!(
        problem["detail"].as_str().unwrap().contains("scopes"),
        "{problem}"
    );
}

#[tokio::test]
async fn a_deleted_accounts_name_leaves_the_operator_log_and_its_facts_stay() {
    let app = common::spawn_app().await;
    let frank = app
        .account("Frank Private-Name", "chats:read,account:delete")
        .await;
    // An operator action on the account: the log names it by name and id.
    app.journal_on(frank.id).await;
    let named: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM operator_log WHERE detail::text LIKE '%Private-Name%'",
    )
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(named, 1, "the flag action names the account first");

    app.call(Method::DELETE, "/api/v1/account")
        .token(&frank.token)
        .json(json!({ "confirm": frank.ext }))
        .ok(200)
        .await;
    let log: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT action, subject, detail::text FROM operator_log ORDER BY created_at, action",
    )
    .fetch_all(&app.owner)
    .await
    .unwrap();
    for (action, subject, detail) in &log {
        assert!(
            !format!("{action} {subject} {detail}").contains("Private-Name"),
            "{log:?}"
        );
    }
    let id = frank.id.to_string();
    assert!(
        log.iter()
            .any(|(action, _, detail)| action == "set-flag" && detail.contains(&id)),
        "the flag action's facts stay: {log:?}"
    );
    assert!(
        log.iter()
            .any(|(action, subject, _)| action == "delete-account" && *subject == id),
        "{log:?}"
    );
}
