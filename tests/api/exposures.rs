//! Scrubbed-secret warnings (issue 24, part 3): a credential scrubbed from a purpose, goal,
//! outcome, hand-off item or target id becomes an exposure — one per credential and account,
//! counted per text — that the list, the catch-up brief (REST and MCP), `/journal.md` and the
//! journal page warn of until it is acknowledged; equal credentials in two accounts have
//! unrelated fingerprints; nothing stores or logs any eight characters of the credential; and a
//! deleted session takes its sightings, and the exposures it alone caused, with it.
//!
//! Credentials are made at run time (no real-looking token sits in the source).

use crate::common;

use crate::common::TestApp;
use crate::common::mcp::{call, connect, structured};
use chrono::{Duration, SubsecRound};
use n8v_journal::brief::CatchUp;
use n8v_journal::clock::Clock;
use n8v_journal::journal::exposures::{Exposure, ScrubbedFrom};
use reqwest::Method;
use reqwest::header::{ACCEPT, CONTENT_TYPE, COOKIE};
use serde_json::json;
use uuid::Uuid;

use crate::common::DELETING_SCOPES as SCOPES;

/// A fresh GitHub token (`ghp_` and 36 letters and digits).
fn github_token() -> String {
    format!("ghp_{}Zq9X", Uuid::new_v4().simple())
}

/// A fresh AWS access key id.
fn aws_key() -> String {
    let body: String = Uuid::new_v4()
        .simple()
        .to_string()
        .to_uppercase()
        .chars()
        .take(16)
        .collect();
    format!("AKIA{body}")
}

/// One ordinary call (list the Records) with `purpose`, in `session` when given.
async fn call_with(app: &TestApp, token: &str, session: Option<&str>, purpose: &str) {
    app.call(Method::GET, "/api/v1/records")
        .token(token)
        .session(session)
        .purpose(purpose)
        .ok(200)
        .await;
}

async fn started(app: &TestApp, token: &str, goal: &str) -> String {
    let session = app
        .start_session(token, None, json!({ "goal": goal }))
        .await;
    session.id.to_string()
}

/// The fingerprints stored for the credential's exposures, by account, read as the owner.
async fn fingerprints(app: &TestApp) -> Vec<(Uuid, Vec<u8>)> {
    sqlx::query_as("SELECT account_id, fingerprint FROM journal_exposures ORDER BY account_id")
        .fetch_all(&app.owner)
        .await
        .unwrap()
}

#[tokio::test]
async fn the_same_secret_twice_is_one_exposure_of_two_and_another_account_fingerprints_apart() {
    let app = common::spawn_app().await;
    let a = app.account("A", SCOPES).await;
    let b = app.account("B", SCOPES).await;
    app.journal_on(a.id).await;
    app.journal_on(b.id).await;
    let token = github_token();

    call_with(&app, &a.token, None, &format!("Push with {token}")).await;
    call_with(&app, &a.token, None, &format!("Again {token} please")).await;
    let listed = app.exposures(&a.token, "").await;
    assert_eq!(listed.len(), 1, "{listed:?}");
    let one = &listed[0];
    assert_eq!(
        (one.rule.as_str(), one.label.as_str()),
        ("github-pat", "a GitHub token")
    );
    assert_eq!(one.count, 2, "{one:?}");
    assert_eq!(one.scrubbed_from.purposes, 2, "{one:?}");
    assert!(!one.acknowledged);
    assert_eq!(one.sessions.len(), 1, "{one:?}");
    let day = app.clock.now().format("%-d %B");
    assert_eq!(
        one.warning,
        format!("A GitHub token was scrubbed from 2 purposes since {day}: rotate it.")
    );
    assert!(!common::json_text(&one).contains(&token[4..12]), "{one:?}");

    // The same credential in another account: its own exposure, an unrelated fingerprint.
    call_with(&app, &b.token, None, &format!("Push with {token}")).await;
    let theirs = app.exposures(&b.token, "").await;
    assert_eq!(theirs.len(), 1);
    assert_eq!(theirs[0].count, 1, "B counts only its own");
    assert_eq!(app.exposures(&a.token, "").await[0].count, 2);
    let stored = fingerprints(&app).await;
    assert_eq!(stored.len(), 2, "{stored:?}");
    assert_ne!(stored[0].0, stored[1].0);
    assert_eq!(stored[0].1.len(), 32);
    assert_ne!(
        stored[0].1, stored[1].1,
        "equal secrets in two accounts match"
    );

    // Another credential in A is another exposure, listed first (most recently scrubbed).
    app.clock.advance(Duration::minutes(5));
    call_with(&app, &a.token, None, &format!("Deploy with {}", aws_key())).await;
    let listed = app.exposures(&a.token, "").await;
    let rules: Vec<&str> = listed.iter().map(|e| e.rule.as_str()).collect();
    assert_eq!(rules, ["aws-access-key", "github-pat"]);
}

#[tokio::test]
async fn every_kind_of_text_counts_and_the_brief_the_markdown_and_the_page_warn_until_acknowledged()
{
    let app = common::spawn_app().await;
    let a = app.account("A", SCOPES).await;
    app.journal_on(a.id).await;
    let token = github_token();

    // A goal, an outcome, two hand-off items, a target id and a purpose, all holding it.
    let session = started(&app, &a.token, &format!("Rotate {token} today")).await;
    app.call(Method::GET, &format!("/api/v1/journal/entries/{token}"))
        .token(&a.token)
        .session(Some(&session))
        .problem(404, "not-found")
        .await;
    call_with(&app, &a.token, Some(&session), &format!("Use {token}")).await;
    app.end_session(
        &a.token,
        &session,
        json!({
            "outcome": format!("Done; {token} still in use"),
            "decisions": [format!("Keep {token} until Friday")],
            "next_steps": [format!("Revoke {token}"), "Tell the team"],
        }),
    )
    .ok(200)
    .await;
    let listed = app.exposures(&a.token, "").await;
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(
        listed[0].scrubbed_from,
        ScrubbedFrom {
            purposes: 1,
            goals: 1,
            outcomes: 1,
            handoff_items: 2,
            targets: 1
        }
    );
    assert_eq!(listed[0].count, 6);
    let warning = &listed[0].warning;
    assert!(
        warning.contains(
            "scrubbed from 1 purpose, 1 goal, 1 outcome, 2 hand-off items and 1 target id since"
        ),
        "{warning}"
    );
    let id = listed[0].id.to_string();

    // A refused operation keeps its call's purpose, and only that.
    app.call(Method::POST, "/api/v1/journal/sessions")
        .token(&a.token)
        .purpose(&format!("Try {token}"))
        .json(json!({ "goal": format!("Goal {token}"), "organization": "org_nope" }))
        .problem(404, "not-found")
        .await;
    let listed = app.exposures(&a.token, "").await;
    assert_eq!(listed[0].scrubbed_from.purposes, 2, "{listed:?}");
    assert_eq!(
        listed[0].scrubbed_from.goals, 1,
        "the refused goal was never stored"
    );
    let warning = listed[0].warning.clone();

    // The brief (REST and MCP), /journal.md and the page warn of it.
    let brief = app.brief(&a.token, None).await;
    assert_eq!(brief.exposures[0].id.to_string(), id, "{brief:?}");
    let client = connect(&app, &a.token).await;
    let mcp_brief: CatchUp = common::decode(structured(
        &call(&client, "journal_catch_up", json!({})).await,
    ));
    assert_eq!(mcp_brief.exposures[0].warning, warning);
    let markdown = app.get(&a.token, "/journal.md").await.text().await.unwrap();
    let first = markdown.lines().next().unwrap();
    assert!(
        first.starts_with("> **Warning:** ") && first.contains(&warning),
        "{markdown}"
    );
    let cookie = common::page::sign_in(&app, &a.token).await;
    let page = journal_page(&app, &cookie).await;
    assert!(page.contains(&warning), "{page}");

    // Acknowledged on the page ("I rotated it"): gone from the brief, the markdown, the page.
    let http = common::page::client();
    let csrf = common::page::csrf(&page);
    let done = http
        .post(app.url(&format!("/journal/exposures/{id}/acknowledge")))
        .header(ACCEPT, "text/html")
        .header(COOKIE, &cookie)
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(format!("csrf={csrf}"))
        .send()
        .await
        .unwrap();
    assert_eq!(done.status(), 303, "{:?}", done.text().await);
    let brief = app.brief(&a.token, None).await;
    assert!(brief.exposures.is_empty(), "{brief:?}");
    let markdown = app.get(&a.token, "/journal.md").await.text().await.unwrap();
    assert!(!markdown.contains("Warning"), "{markdown}");
    assert!(!journal_page(&app, &cookie).await.contains(&warning));
    let all = app.exposures(&a.token, "").await;
    assert!(all[0].acknowledged, "{all:?}");
    assert!(all[0].acknowledged_at.is_some());
    // Acknowledged, it no longer asks for a rotation: it says when it was acknowledged.
    let today = app.clock.now().format("%-d %B").to_string();
    let settled = &all[0].warning;
    assert!(
        settled.ends_with(&format!("; acknowledged as rotated on {today}.")),
        "{settled}"
    );
    assert!(!settled.contains("rotate it"), "{settled}");
    assert!(
        app.exposures(&a.token, "?unacknowledged=true")
            .await
            .is_empty()
    );

    // Scrubbed again later: back in the brief, until acknowledged over REST.
    app.clock.advance(Duration::minutes(1));
    call_with(&app, &a.token, None, &format!("Oops {token}")).await;
    let again = app.exposures(&a.token, "?unacknowledged=true").await;
    assert_eq!(again.len(), 1);
    assert_eq!(again[0].id.to_string(), id);
    let warned = &again[0].warning;
    assert!(warned.ends_with(": rotate it."), "{warned}");
    let acknowledged: Exposure = app
        .call(
            Method::POST,
            &format!("/api/v1/journal/exposures/{id}/acknowledge"),
        )
        .token(&a.token)
        .typed(200)
        .await;
    assert!(acknowledged.acknowledged, "{acknowledged:?}");
    assert!(
        app.exposures(&a.token, "?unacknowledged=true")
            .await
            .is_empty()
    );
    app.call(
        Method::POST,
        "/api/v1/journal/exposures/exp_01M72AZ1M0ETFB59TDWH9EDD1R/acknowledge",
    )
    .token(&a.token)
    .problem(404, "not-found")
    .await;
    app.call(Method::GET, "/api/v1/journal/exposures?nope=1")
        .token(&a.token)
        .problem(400, "bad-request")
        .await;
}

async fn journal_page(app: &TestApp, cookie: &str) -> String {
    let page = common::page::client()
        .get(app.url("/journal"))
        .header(ACCEPT, "text/html")
        .header(COOKIE, cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    page.text().await.unwrap()
}

#[tokio::test]
async fn a_credential_sees_exposures_through_the_sessions_it_can_read() {
    let app = common::spawn_app().await;
    let a = app.account("A", SCOPES).await;
    let member = app.account("Member", SCOPES).await;
    app.journal_on(a.id).await;
    app.journal_on(member.id).await;
    let token = github_token();
    call_with(&app, &a.token, None, &format!("Push with {token}")).await;
    let id = app.exposures(&a.token, "").await[0].id.to_string();

    // A repository-restricted key of the same account reads only its own sessions.
    let (_, restricted) = app.key(a.id, SCOPES, Some("acme/app")).await;
    assert!(app.exposures(&restricted, "").await.is_empty());
    app.call(
        Method::POST,
        &format!("/api/v1/journal/exposures/{id}/acknowledge"),
    )
    .token(&restricted)
    .problem(404, "not-found")
    .await;
    call_with(&app, &restricted, None, &format!("Mine too {token}")).await;
    let own = app.exposures(&restricted, "").await;
    assert_eq!((own[0].id.to_string(), own[0].count), (id, 1));
    assert_eq!(app.exposures(&a.token, "").await[0].count, 2);

    // An organization's owner reads its members' organization sessions, not their exposures.
    let org = app.organization_with_reader(a.id, "Acme", member.id).await;
    let org = n8v_journal::ids::format(n8v_journal::ids::Kind::Organization, org);
    let session = app
        .start_session(
            &member.token,
            None,
            json!({ "goal": format!("Ship {}", aws_key()), "organization": org }),
        )
        .await;
    let (_, owner) = app.key(a.id, &format!("{SCOPES},orgs:read"), None).await;
    let seen = app.session_detail(&owner, &session.id.to_string()).await;
    assert_eq!(seen.session.id, session.id, "the owner reads the session");
    let listed = app.exposures(&owner, "").await;
    let rules: Vec<&str> = listed.iter().map(|e| e.rule.as_str()).collect();
    assert_eq!(
        rules,
        ["github-pat"],
        "the member's exposure stays the member's"
    );
}

#[tokio::test]
async fn deleting_a_session_a_day_or_the_account_takes_its_sightings_and_what_it_alone_caused() {
    let app = common::spawn_app().await;
    let a = app.account("A", &format!("{SCOPES},account:delete")).await;
    app.journal_on(a.id).await;
    let shared = github_token();
    let alone = aws_key();

    let kept = started(&app, &a.token, "Keep this one").await;
    call_with(&app, &a.token, Some(&kept), &format!("Use {shared}")).await;
    let gone = started(&app, &a.token, "Delete this one").await;
    call_with(&app, &a.token, Some(&gone), &format!("Use {shared}")).await;
    call_with(&app, &a.token, Some(&gone), &format!("Use {alone}")).await;
    let listed = app.exposures(&a.token, "").await;
    assert_eq!(listed.len(), 2, "{listed:?}");
    let github = listed.iter().find(|e| e.rule == "github-pat").unwrap();
    assert_eq!(github.sessions.len(), 2);

    app.call(Method::DELETE, &format!("/api/v1/journal/sessions/{gone}"))
        .token(&a.token)
        .ok(200)
        .await;
    let listed = app.exposures(&a.token, "").await;
    assert_eq!(listed.len(), 1, "the AWS key's exposure goes: {listed:?}");
    assert_eq!(
        (listed[0].rule.as_str(), listed[0].count),
        ("github-pat", 1)
    );
    assert_eq!(
        common::ids(&listed[0].sessions),
        std::slice::from_ref(&kept)
    );
    let rows: i64 = sqlx::query_scalar("SELECT count(*) FROM journal_exposures")
        .fetch_one(&app.owner)
        .await
        .unwrap();
    assert_eq!(
        rows, 1,
        "nothing of the deleted session's own exposure is left"
    );

    // A day: the sessions that started on it go, and with them what only they saw.
    let yesterday = app.clock.now() - Duration::days(1);
    sqlx::query("UPDATE journal_sessions SET started_at = $1 WHERE session_id = $2")
        .bind(yesterday)
        .bind(n8v_journal::ids::parse(n8v_journal::ids::Kind::Session, &kept).unwrap())
        .execute(&app.owner)
        .await
        .unwrap();
    let today = started(&app, &a.token, "Today's").await;
    call_with(&app, &a.token, Some(&today), &format!("Use {shared}")).await;
    assert_eq!(app.exposures(&a.token, "").await[0].count, 2);
    let day = yesterday.date_naive();
    app.call(Method::DELETE, &format!("/api/v1/journal/days/{day}"))
        .token(&a.token)
        .ok(200)
        .await;
    let listed = app.exposures(&a.token, "").await;
    assert_eq!(common::ids(&listed[0].sessions), [today], "{listed:?}");
    app.call(
        Method::DELETE,
        &format!("/api/v1/journal/days/{}", app.clock.now().date_naive()),
    )
    .token(&a.token)
    .ok(200)
    .await;
    assert!(app.exposures(&a.token, "").await.is_empty());

    // The account: every exposure and sighting with it.
    call_with(&app, &a.token, None, &format!("Use {shared}")).await;
    app.call(Method::DELETE, "/api/v1/account")
        .token(&a.token)
        .json(json!({ "confirm": a.ext }))
        .ok(200)
        .await;
    let left: i64 = sqlx::query_scalar(
        "SELECT (SELECT count(*) FROM journal_exposures) \
              + (SELECT count(*) FROM journal_exposure_sightings)",
    )
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(left, 0);
}

#[tokio::test]
async fn an_exposure_expires_with_the_last_session_it_was_seen_in() {
    let app = common::spawn_app().await;
    let a = app.account("A", SCOPES).await;
    app.journal_on(a.id).await;
    call_with(
        &app,
        &a.token,
        None,
        &format!("Push with {}", github_token()),
    )
    .await;
    app.clock.advance(Duration::days(401));
    let counts = n8v_journal::jobs::retention(&app.workers(|_| {}))
        .await
        .unwrap();
    assert_eq!(counts.sessions_deleted, 1, "{counts:?}");
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM journal_exposures")
        .fetch_one(&app.owner)
        .await
        .unwrap();
    assert_eq!(left, 0, "retention's deletions take the exposure too");
}

#[tokio::test]
async fn no_table_job_row_or_log_holds_eight_characters_of_a_scrubbed_secret() {
    let (_guard, logs) = common::logs::capture_on_this_thread();
    let app = common::spawn_app().await;
    let a = app.account("A", SCOPES).await;
    app.journal_on(a.id).await;
    let token = github_token();
    let canary = format!("Canary{}", &Uuid::new_v4().simple().to_string()[..10]);

    // Every kind of text, over REST and MCP; the session's summary job runs too.
    let session = started(&app, &a.token, &format!("{canary} with {token}")).await;
    call_with(&app, &a.token, Some(&session), &format!("{canary} {token}")).await;
    app.call(Method::GET, &format!("/api/v1/journal/sessions/{token}"))
        .token(&a.token)
        .problem(404, "not-found")
        .await;
    let client = connect(&app, &a.token).await;
    let record = app.first_record(&a.token).await;
    call(
        &client,
        "record_read",
        json!({ "record_id": record, "purpose": format!("Read with {token}"), "session": session }),
    )
    .await;
    call(
        &client,
        "journal_entry",
        json!({ "entry_id": token, "purpose": "Look it up" }),
    )
    .await;
    app.end_session(
        &a.token,
        &session,
        json!({ "outcome": format!("{canary}: {token}"), "next_steps": [format!("Revoke {token}")] }),
    )
    .ok(200)
    .await;
    let state = app.workers(|_| {});
    for job in app.queued_summaries().await {
        n8v_journal::jobs::summary::summarize_session(&state, &job)
            .await
            .unwrap();
    }
    let listed = app.exposures(&a.token, "").await;
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert!(listed[0].count >= 6, "{listed:?}");
    app.get(&a.token, "/journal.md").await;

    // The scan finds what is stored (the canary beside the token), and nothing of the token.
    let control = common::scan::stored_matches(&app, &common::scan::windows(&canary)).await;
    assert!(
        control
            .iter()
            .any(|(c, _)| c == "public.journal_calls.purpose"),
        "the scan reads the tables: {control:?}"
    );
    let stored = common::scan::stored_matches(&app, &common::scan::windows(&token)).await;
    assert_eq!(
        stored,
        Vec::<(String, i64)>::new(),
        "part of the secret is stored"
    );
    let logged = common::logs::text(&logs);
    assert!(
        logged.contains("/api/v1/journal/exposures"),
        "the log capture works: {}",
        &logged[..logged.len().min(2000)]
    );
    let pattern = regex::Regex::new(&common::scan::windows(&token)).unwrap();
    let line = logged.lines().find(|l| pattern.is_match(l));
    assert!(line.is_none(), "part of the secret logged: {line:?}");
}

#[tokio::test]
async fn the_last_two_sessions_of_an_exposure_deleted_at_once_take_it() {
    let app = common::spawn_app().await;
    let a = app.account("A", SCOPES).await;
    app.journal_on(a.id).await;
    let token = github_token();
    let first = started(&app, &a.token, "First").await;
    call_with(&app, &a.token, Some(&first), &format!("Use {token}")).await;
    let second = started(&app, &a.token, "Second").await;
    call_with(&app, &a.token, Some(&second), &format!("Use {token}")).await;
    assert_eq!(app.exposures(&a.token, "").await[0].count, 2);

    // Each deletion's statement runs while the other's is not committed: each must not count
    // the other's sightings as ones left.
    let session = |id: &str| n8v_journal::ids::parse(n8v_journal::ids::Kind::Session, id).unwrap();
    common::race::delete_concurrently(
        &app.db_url,
        a.id,
        SCOPES,
        [session(&first), session(&second)],
    )
    .await;
    let left: i64 = sqlx::query_scalar(
        "SELECT (SELECT count(*) FROM journal_exposures) \
              + (SELECT count(*) FROM journal_exposure_sightings)",
    )
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(
        left, 0,
        "the exposure outlived every session it was seen in"
    );
}

#[tokio::test]
async fn a_sighting_is_recorded_only_in_the_callers_own_session_and_the_owner_sees_one_account() {
    let app = common::spawn_app().await;
    let a = app.account("A", SCOPES).await;
    app.journal_on(a.id).await;
    let (other, _) = app.key(a.id, SCOPES, None).await;
    let session = started(&app, &a.token, "Mine").await;
    let session = n8v_journal::ids::parse(n8v_journal::ids::Kind::Session, &session).unwrap();

    // As the application role, for `credential` of A: an exposure, and a sighting of it in
    // the first key's session.
    let record = |credential: Uuid| {
        let owner = app.owner.clone();
        let role = app.db.app_role().to_owned();
        async move {
            let mut tx = owner.begin().await.unwrap();
            sqlx::query(
                "SELECT set_config('role', $4, true), \
                        set_config('app.account_id', $1::text, true), \
                        set_config('app.credential_id', $2::text, true), \
                        set_config('app.scopes', $3, true)",
            )
            .bind(a.id.to_string())
            .bind(credential.to_string())
            .bind(SCOPES)
            .bind(role)
            .execute(&mut *tx)
            .await
            .unwrap();
            let recorded = sqlx::query(
                "WITH e AS (INSERT INTO journal_exposures \
                              (account_id, exposure_id, rule, fingerprint, created_at) \
                            VALUES (n8v_account(), gen_random_uuid(), 'github-pat', \
                                    sha256(gen_random_uuid()::text::bytea), now()) \
                            RETURNING exposure_id) \
                 INSERT INTO journal_exposure_sightings (account_id, exposure_id, session_id, \
                     field, count, first_seen, last_seen) \
                 SELECT n8v_account(), e.exposure_id, $1, 'purpose', 1, now(), now() FROM e",
            )
            .bind(session)
            .execute(&mut *tx)
            .await;
            recorded.map(|_| ()).map_err(|e| {
                e.as_database_error()
                    .and_then(|d| d.code())
                    .unwrap_or_default()
                    .into_owned()
            })
        }
    };
    assert_eq!(record(a.key_id).await, Ok(()), "its own session's key");
    assert_eq!(
        record(other).await,
        Err("42501".to_owned()),
        "another key of the account records nothing in that session"
    );

    // The owner's policies (the cleanup trigger's) reach the acting account's rows only.
    let quals: Vec<(String, String)> = sqlx::query_as(
        "SELECT policyname::text, coalesce(qual, with_check) FROM pg_policies \
          WHERE policyname LIKE 'journal\\_%\\_owner\\_%' \
            AND tablename IN ('journal_loops', 'journal_loop_sources', \
                              'journal_exposures', 'journal_exposure_sightings')",
    )
    .fetch_all(&app.owner)
    .await
    .unwrap();
    assert_eq!(quals.len(), 7, "{quals:?}");
    for (policy, qual) in quals {
        assert!(qual.contains("n8v_account()"), "{policy}: {qual}");
    }
}

#[tokio::test]
async fn a_key_repeated_on_every_call_adds_to_one_count_not_a_row_per_call() {
    let app = common::spawn_app().await;
    let a = app.account("A", SCOPES).await;
    app.journal_on(a.id).await;
    let token = github_token();
    let session = started(&app, &a.token, "Busy").await;
    let first = app.clock.now().trunc_subsecs(6);
    for _ in 0..5 {
        call_with(&app, &a.token, Some(&session), &format!("Use {token}")).await;
        app.clock.advance(Duration::minutes(1));
    }
    // Two texts of one call (its purpose and a target id) count apart, under their kinds.
    app.call(Method::GET, &format!("/api/v1/journal/entries/{token}"))
        .token(&a.token)
        .session(Some(&session))
        .purpose(&format!("Read {token}"))
        .problem(404, "not-found")
        .await;
    let listed = app.exposures(&a.token, "").await;
    assert_eq!(listed.len(), 1, "{listed:?}");
    let one = &listed[0];
    assert_eq!(one.count, 7, "{listed:?}");
    let from = one.scrubbed_from;
    assert_eq!((from.purposes, from.targets), (6, 1), "{listed:?}");
    assert_eq!(common::ids(&one.sessions), [session]);
    assert_eq!(one.first_seen, first);
    assert_eq!(one.last_seen, app.clock.now().trunc_subsecs(6));
    let rows: i64 = sqlx::query_scalar("SELECT count(*) FROM journal_exposure_sightings")
        .fetch_one(&app.owner)
        .await
        .unwrap();
    assert_eq!(rows, 2, "one row per session and kind of text");
}
