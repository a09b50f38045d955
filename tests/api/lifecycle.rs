//! The data lifecycle: retention at its boundaries, caps keeping the newest, audit retention on
//! its own, passes that may run twice at once, and account deletion checked against the catalog.

use crate::common;

use crate::common::TestApp;
use chrono::{DateTime, Duration, Utc};
use n8v_journal::clock::Clock;
use n8v_journal::jobs::{self, WorkerState};
use n8v_journal::retention::Rules;
use reqwest::Method;
use serde_json::{Value, json};
use std::sync::atomic::AtomicUsize;
use uuid::Uuid;

use crate::common::JOURNAL_AND_ORG_SCOPES as ALL;

fn workers(app: &TestApp, rules: Rules) -> WorkerState {
    app.workers(|c| c.lifecycle.retention = rules)
}

/// A session of the account's key, last active at `at`, as the owner writes it.
async fn session_at(app: &TestApp, account: Uuid, key: Uuid, at: DateTime<Utc>) -> Uuid {
    let id = Uuid::now_v7();
    sqlx::query(
        "INSERT INTO journal_sessions (account_id, session_id, credential_id, kind, assistant, \
             scopes, started_at, last_activity_at, ended_at, end_reason, journal_only, summary, \
             summary_model) \
         VALUES ($1, $2, $3, 'explicit', 'test', '{chats:read}', $4, $4, $4, 'ended', false, \
             '{\"summary\": \"kept\", \"decisions\": [], \"work_started\": [], \
               \"work_finished\": [], \"open_questions\": []}', 'code')",
    )
    .bind(account)
    .bind(id)
    .bind(key)
    .bind(at)
    .execute(&app.owner)
    .await
    .unwrap();
    id
}

/// A call in the session made at `at`, linked to an audit entry made at the same time.
async fn call_at(
    app: &TestApp,
    account: Uuid,
    key: Uuid,
    session: Uuid,
    at: DateTime<Utc>,
) -> Uuid {
    let (call, audit) = (Uuid::now_v7(), Uuid::now_v7());
    sqlx::query(
        "INSERT INTO audit_log (account_id, audit_id, credential_id, request_id, method, path, \
             status, created_at) VALUES ($1, $2, $3, '-', 'GET', '/api/v1/records', 200, $4)",
    )
    .bind(account)
    .bind(audit)
    .bind(key)
    .bind(at)
    .execute(&app.owner)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO journal_calls (account_id, call_id, session_id, credential_id, operation, \
             status, ok, wrote, journal_read, duration_ms, audit_id, created_at) \
         VALUES ($1, $2, $3, $4, 'listRecords', 200, true, false, false, 1, $5, $6)",
    )
    .bind(account)
    .bind(call)
    .bind(session)
    .bind(key)
    .bind(audit)
    .bind(at)
    .execute(&app.owner)
    .await
    .unwrap();
    call
}

async fn ids(app: &TestApp, sql: &str, account: Uuid) -> Vec<Uuid> {
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_owned()))
        .bind(account)
        .fetch_all(&app.owner)
        .await
        .unwrap()
}

#[tokio::test]
async fn retention_deletes_past_the_boundaries_keeps_inside_them_and_leaves_the_audit_log() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    let now = app.clock.now();
    let days = |d: i64| now - Duration::days(d);

    let old_session = session_at(&app, a.id, a.key_id, days(401)).await;
    let old_session_call = call_at(&app, a.id, a.key_id, old_session, days(401)).await;
    let kept_session = session_at(&app, a.id, a.key_id, days(399)).await;
    let expired = call_at(&app, a.id, a.key_id, kept_session, days(91)).await;
    let kept = call_at(&app, a.id, a.key_id, kept_session, days(89)).await;
    let audit_before: i64 = sqlx::query_scalar("SELECT count(*) FROM audit_log")
        .fetch_one(&app.owner)
        .await
        .unwrap();

    let counts = jobs::retention(&workers(&app, Rules::default()))
        .await
        .unwrap();
    assert_eq!(counts.calls_deleted, 2, "{counts:?}");
    assert_eq!(counts.sessions_deleted, 1, "{counts:?}");
    assert_eq!((counts.calls_capped, counts.sessions_capped), (0, 0));

    let calls = ids(
        &app,
        "SELECT call_id FROM journal_calls WHERE account_id = $1",
        a.id,
    )
    .await;
    assert_eq!(calls, [kept]);
    assert!(!calls.contains(&expired) && !calls.contains(&old_session_call));
    let sessions = ids(
        &app,
        "SELECT session_id FROM journal_sessions WHERE account_id = $1",
        a.id,
    )
    .await;
    assert_eq!(sessions, [kept_session]);
    // The kept session keeps its summary though some of its calls expired.
    let summary: Option<Value> =
        sqlx::query_scalar("SELECT summary FROM journal_sessions WHERE session_id = $1")
            .bind(kept_session)
            .fetch_one(&app.owner)
            .await
            .unwrap();
    assert_eq!(summary.unwrap()["summary"], "kept");
    let audit_after: i64 = sqlx::query_scalar("SELECT count(*) FROM audit_log")
        .fetch_one(&app.owner)
        .await
        .unwrap();
    assert_eq!(
        audit_after, audit_before,
        "the journal's retention never touches the audit log"
    );

    // The audit log has its own retention: 401-day entries go, 399-day ones stay; the kept
    // call still shows where its (expired or not) audit entry was.
    let state = workers(&app, Rules::default());
    let audit = jobs::audit_retention(&state).await.unwrap();
    assert_eq!(audit.audit_entries_deleted, 1, "{audit:?}");
    let left: Vec<DateTime<Utc>> =
        sqlx::query_scalar("SELECT created_at FROM audit_log WHERE account_id = $1")
            .bind(a.id)
            .fetch_all(&app.owner)
            .await
            .unwrap();
    assert!(left.iter().all(|t| *t > days(400)), "{left:?}");
    let call_audit: Option<Uuid> =
        sqlx::query_scalar("SELECT audit_id FROM journal_calls WHERE call_id = $1")
            .bind(kept)
            .fetch_one(&app.owner)
            .await
            .unwrap();
    assert!(call_audit.is_some());
}

#[tokio::test]
async fn caps_keep_the_newest_sessions_and_calls() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    let b = app.account("B", ALL).await;
    let now = app.clock.now();
    let mut sessions = Vec::new();
    let mut calls = Vec::new();
    for i in 0..5 {
        let at = now - Duration::hours(10 - i);
        let s = session_at(&app, a.id, a.key_id, at).await;
        sessions.push(s);
        calls.push(call_at(&app, a.id, a.key_id, s, at - Duration::minutes(2)).await);
        calls.push(call_at(&app, a.id, a.key_id, s, at - Duration::minutes(1)).await);
        // B is under its caps and must not lose anything.
        if i < 2 {
            let bs = session_at(&app, b.id, b.key_id, at).await;
            call_at(&app, b.id, b.key_id, bs, at).await;
        }
    }
    let rules = Rules {
        cap_sessions: 3,
        cap_calls: 5,
        batch: 2,
        ..Rules::default()
    };
    let counts = jobs::retention(&workers(&app, rules)).await.unwrap();
    assert_eq!(counts.sessions_capped, 2, "{counts:?}");
    assert_eq!(
        counts.calls_capped, 5,
        "4 in the capped sessions, then the oldest one"
    );
    let left = ids(
        &app,
        "SELECT session_id FROM journal_sessions WHERE account_id = $1 ORDER BY last_activity_at",
        a.id,
    )
    .await;
    assert_eq!(left, sessions[2..]);
    let left = ids(
        &app,
        "SELECT call_id FROM journal_calls WHERE account_id = $1 ORDER BY created_at",
        a.id,
    )
    .await;
    assert_eq!(left, calls[5..]);
    let b_calls: i64 =
        sqlx::query_scalar("SELECT count(*) FROM journal_calls WHERE account_id = $1")
            .bind(b.id)
            .fetch_one(&app.owner)
            .await
            .unwrap();
    assert_eq!(b_calls, 2);
}

#[tokio::test]
async fn two_passes_at_once_delete_and_count_every_row_once() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    let now = app.clock.now();
    let old = session_at(&app, a.id, a.key_id, now).await;
    for i in 0..300 {
        let at = now - Duration::days(100) + Duration::seconds(i);
        call_at(&app, a.id, a.key_id, old, at).await;
    }
    for i in 0..40 {
        session_at(&app, a.id, a.key_id, now - Duration::minutes(100 - i)).await;
    }
    let rules = Rules {
        cap_sessions: 11,
        batch: 7,
        ..Rules::default()
    };
    let state = workers(&app, rules);
    // The test locks the oldest session over the cap until both passes wait at it, so both
    // pick the same first batch while neither has deleted it: a pass that counted what it picked
    // rather than what its own deletes removed would count that batch twice.
    let oldest: Uuid = sqlx::query_scalar(
        "SELECT session_id FROM journal_sessions WHERE account_id = $1 \
         ORDER BY last_activity_at, session_id LIMIT 1",
    )
    .bind(a.id)
    .fetch_one(&app.owner)
    .await
    .unwrap();
    let hold = common::race::Hold::take(
        &app.db_url,
        "SELECT 1 FROM journal_sessions WHERE session_id = $1 FOR UPDATE",
        oldest,
    )
    .await;
    let done = AtomicUsize::new(0);
    let (x, y, ()) = tokio::join!(
        common::race::counted(&done, jobs::retention(&state)),
        common::race::counted(&done, jobs::retention(&state)),
        hold.release_when(&app.db_url, 2, &done)
    );
    let (x, y) = (x.unwrap(), y.unwrap());
    assert_eq!(x.calls_deleted + y.calls_deleted, 300, "{x:?} {y:?}");
    assert_eq!(x.sessions_capped + y.sessions_capped, 30, "{x:?} {y:?}");
    let left: i64 =
        sqlx::query_scalar("SELECT count(*) FROM journal_sessions WHERE account_id = $1")
            .bind(a.id)
            .fetch_one(&app.owner)
            .await
            .unwrap();
    assert_eq!(left, 11);
}

async fn rows_of(app: &TestApp, account: Uuid) -> Vec<(String, i64)> {
    let mut out = Vec::new();
    for table in common::seed::account_tables(&app.owner).await {
        let n: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "SELECT count(*) FROM {table} WHERE account_id = $1"
        )))
        .bind(account)
        .fetch_one(&app.owner)
        .await
        .unwrap();
        out.push((table, n));
    }
    let jobs: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM apalis.jobs \
         WHERE convert_from(job, 'UTF8')::jsonb ->> 'account_id' = $1::text",
    )
    .bind(account)
    .fetch_one(&app.owner)
    .await
    .unwrap();
    out.push(("apalis.jobs".into(), jobs));
    out
}

/// Gives the account a row in every tenant table it can have one in, through the API where
/// there is one.
async fn populate(app: &TestApp, token: &str, account: Uuid, member: Uuid) {
    app.journal_on(account).await;
    // A connected assistant: an OAuth grant (its credential, the grant, a refresh token).
    let (grant, _) = app.key(account, "chats:read", None).await;
    sqlx::query(
        "INSERT INTO oauth_grants (account_id, credential_id, client_id, client_name, resource, \
                                   redirect_uri, code_challenge, approved_by) \
         VALUES ($1, $2, 'n8v_cl_x', 'Tool', 'http://x/mcp', 'http://127.0.0.1/cb', 'c', $2); ",
    )
    .bind(account)
    .bind(grant)
    .execute(&app.owner)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO oauth_tokens (account_id, token_hash, credential_id, kind, expires_at) \
         VALUES ($1, gen_random_uuid()::text::bytea, $2, 'refresh', now() + interval '1 day')",
    )
    .bind(account)
    .bind(grant)
    .execute(&app.owner)
    .await
    .unwrap();
    let org = n8v_journal::admin::create_org(&app.owner, account, "Org")
        .await
        .unwrap();
    n8v_journal::admin::add_member(&app.owner, org, member, true)
        .await
        .unwrap();
    let record = app.record_of(account).await;
    let session = app
        .call(Method::POST, "/api/v1/journal/sessions")
        .token(token)
        .json(json!({"goal": "Everything"}))
        .ok(201)
        .await;
    let sid = session["id"].as_str().unwrap();
    app.call(Method::POST, &format!("/api/v1/records/{record}/entries"))
        .token(token)
        .session(Some(sid))
        .json(json!({"line": "on record"}))
        .ok(201)
        .await;
    app.call(Method::POST, &format!("/api/v1/journal/sessions/{sid}/end"))
        .token(token)
        .json(json!({"outcome": "done"}))
        .ok(200)
        .await;
    let session = n8v_journal::ids::parse(n8v_journal::ids::Kind::Session, sid).unwrap();
    common::seed::worker_rows(app, account, session, 2).await;
}

#[tokio::test]
async fn deleting_an_account_leaves_no_row_of_it_in_any_table_or_queue() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    let b = app.account("B", ALL).await;
    populate(&app, &a.token, a.id, b.id).await;
    let b_org = n8v_journal::admin::create_org(&app.owner, b.id, "B's org")
        .await
        .unwrap();
    n8v_journal::admin::add_member(&app.owner, b_org, a.id, true)
        .await
        .unwrap();
    populate(&app, &b.token, b.id, a.id).await;
    let (_, deleter) = app.key(a.id, "account:delete", None).await;
    let before = rows_of(&app, a.id).await;
    for (table, n) in &before {
        assert!(*n > 0, "the test gives A a row in {table}: {before:?}");
    }
    let b_before = rows_of(&app, b.id).await;

    // Without the scope, or without the confirmation, nothing happens.
    app.call(Method::DELETE, "/api/v1/account")
        .token(&a.token)
        .json(json!({"confirm": a.ext}))
        .problem(403, "missing-scope")
        .await;
    app.call(Method::DELETE, "/api/v1/account")
        .token(&deleter)
        .json(json!({"confirm": b.ext}))
        .problem(400, "bad-request")
        .await;
    assert_eq!(rows_of(&app, a.id).await, before);

    let deleted = app
        .call(Method::DELETE, "/api/v1/account")
        .token(&deleter)
        .json(json!({"confirm": a.ext}))
        .ok(200)
        .await;
    assert_eq!(deleted["account_id"], a.ext.as_str());
    assert_eq!(
        deleted["deleted"]["journal_calls"],
        before.iter().find(|(t, _)| t == "journal_calls").unwrap().1
    );
    for (table, n) in rows_of(&app, a.id).await {
        assert_eq!(n, 0, "{table} still holds rows of the deleted account");
    }
    // B keeps everything but what A owned that B was part of (A's organization).
    let b_after = rows_of(&app, b.id).await;
    for ((table, was), (_, now)) in b_before.iter().zip(&b_after) {
        let lost_membership = table == "organization_members";
        assert!(
            now == was || (lost_membership && *now == was - 1),
            "{table}: {was} -> {now}"
        );
    }
    // Its keys no longer authenticate; the operators' log has the deletion.
    app.call(Method::GET, "/api/v1/records")
        .token(&a.token)
        .problem(401, "unauthorized")
        .await;
    let logged: (String, String) =
        sqlx::query_as("SELECT action, subject FROM operator_log ORDER BY created_at DESC LIMIT 1")
            .fetch_one(&app.owner)
            .await
            .unwrap();
    assert_eq!(logged, ("delete-account".into(), a.id.to_string()));

    // The command line does the same through the same function.
    let c = app.account("C", ALL).await;
    let out = n8v_journal::admin::delete_account(&app.owner, c.id, "cli")
        .await
        .unwrap();
    assert_eq!(out["accounts"], 1);
    for (table, n) in rows_of(&app, c.id).await {
        assert_eq!(n, 0, "{table}");
    }
}

#[tokio::test]
async fn admin_run_prints_what_one_pass_did() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    let now = Utc::now();
    let s = session_at(&app, a.id, a.key_id, now - Duration::days(1)).await;
    call_at(&app, a.id, a.key_id, s, now - Duration::days(100)).await;
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_n8v-journal"))
        .args(["admin", "run", "retention"])
        .env("DATABASE_URL", &app.db_url)
        .env_remove("N8V_MIGRATION_DATABASE_URL")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed: Value =
        serde_json::from_str(String::from_utf8_lossy(&out.stdout).lines().last().unwrap()).unwrap();
    assert_eq!(printed["calls_deleted"], 1, "{printed}");
    assert_eq!(printed["sessions_deleted"], 0, "{printed}");
}

#[tokio::test]
async fn a_retention_pass_killed_mid_batch_is_finished_by_the_next_and_spares_the_rest() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    let now = Utc::now();
    let s = session_at(&app, a.id, a.key_id, now).await;
    // 20,000 expired calls and 50 fresh ones.
    sqlx::query(
        "INSERT INTO journal_calls (account_id, call_id, session_id, credential_id, operation, \
             status, ok, wrote, journal_read, duration_ms, created_at) \
         SELECT $1, gen_random_uuid(), $2, $3, 'listRecords', 200, true, false, false, 1, \
                $4 - make_interval(days => CASE WHEN i <= 20000 THEN 100 ELSE 1 END, secs => i) \
           FROM generate_series(1, 20050) AS i",
    )
    .bind(a.id)
    .bind(s)
    .bind(a.key_id)
    .bind(now)
    .execute(&app.owner)
    .await
    .unwrap();
    let remaining = || async {
        let n: i64 = sqlx::query_scalar("SELECT count(*) FROM journal_calls WHERE account_id = $1")
            .bind(a.id)
            .fetch_one(&app.owner)
            .await
            .unwrap();
        n
    };
    let run = || {
        std::process::Command::new(env!("CARGO_BIN_EXE_n8v-journal"))
            .args(["admin", "run", "retention"])
            .env("DATABASE_URL", &app.db_url)
            .env("N8V_RETENTION_BATCH", "50")
            .env_remove("N8V_MIGRATION_DATABASE_URL")
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let mut first = run();
    // Kill it (SIGKILL) once it has deleted some, but not all.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let n = remaining().await;
        if n < 20_050 {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the pass never started"
        );
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    first.kill().unwrap();
    first.wait().unwrap();
    let after_kill = remaining().await;
    assert!(
        after_kill > 50 && after_kill < 20_050,
        "killed mid-pass: {after_kill} left"
    );
    let second = run().wait_with_output().unwrap();
    assert!(second.status.success());
    let printed: Value = serde_json::from_str(
        String::from_utf8_lossy(&second.stdout)
            .lines()
            .last()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(
        printed["calls_deleted"].as_i64().unwrap(),
        after_kill - 50,
        "the second pass deleted exactly what the first left: {printed}"
    );
    assert_eq!(remaining().await, 50, "the fresh calls are all there");
}

#[tokio::test]
async fn the_quiet_sweep_closes_at_two_hours_not_at_one_fifty_nine_and_enqueues_one_summary() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let session = app
        .start_session(&a.token, None, json!({"goal": "left open"}))
        .await;
    let id = session.id.0;
    let sweep = || {
        n8v_journal::jobs::sweep::close_quiet_sessions(&app.db, app.clock.now(), Duration::hours(2))
    };
    app.clock.advance(Duration::minutes(119));
    assert_eq!(sweep().await.unwrap(), 0, "quiet for 1 h 59");
    app.clock.advance(Duration::minutes(1));
    assert_eq!(sweep().await.unwrap(), 1, "quiet for 2 h");
    assert_eq!(sweep().await.unwrap(), 0);
    let jobs: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM apalis.jobs \
         WHERE convert_from(job, 'UTF8')::jsonb ->> 'session_id' = $1::text",
    )
    .bind(id)
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(jobs, 1);
}

#[tokio::test]
async fn deleting_a_session_or_a_day_on_purpose_removes_it_for_everyone() {
    let app = common::spawn_app().await;
    let owner = app.account("Owner", ALL).await;
    let member = app.account("Member", ALL).await;
    for acc in [&owner, &member] {
        app.journal_on(acc.id).await;
    }
    let org = n8v_journal::admin::create_org(&app.owner, owner.id, "Acme")
        .await
        .unwrap();
    n8v_journal::admin::add_member(&app.owner, org, member.id, true)
        .await
        .unwrap();
    let org_ext = n8v_journal::ids::format(n8v_journal::ids::Kind::Organization, org);
    let (_, deleter) = app
        .key(member.id, &format!("{ALL},chats:delete"), None)
        .await;
    let (_, owner_deleter) = app
        .key(owner.id, &format!("{ALL},chats:delete"), None)
        .await;

    let record = app.record_of(member.id).await;
    let start = |goal: &'static str| {
        app.call(Method::POST, "/api/v1/journal/sessions")
            .token(&member.token)
            .json(json!({"goal": goal, "organization": org_ext}))
            .ok(201)
    };
    let doomed = start("Delete me").await["id"].as_str().unwrap().to_owned();
    let doomed_call = app
        .append(
            &member.token,
            &record,
            Some(&doomed),
            Some("work"),
            "a line",
        )
        .await;
    assert_eq!(doomed_call, doomed);
    let call_id = app.session_detail(&member.token, &doomed).await.actions[1]
        .id
        .to_string();

    // Without chats:delete: refused. The organization's owner reads it but may not delete it.
    app.call(
        Method::DELETE,
        &format!("/api/v1/journal/sessions/{doomed}"),
    )
    .token(&member.token)
    .problem(403, "missing-scope")
    .await;
    app.call(Method::GET, &format!("/api/v1/journal/sessions/{doomed}"))
        .token(&owner.token)
        .ok(200)
        .await;
    app.call(
        Method::DELETE,
        &format!("/api/v1/journal/sessions/{doomed}"),
    )
    .token(&owner_deleter)
    .problem(404, "not-found")
    .await;

    let deleted = app
        .call(
            Method::DELETE,
            &format!("/api/v1/journal/sessions/{doomed}"),
        )
        .token(&deleter)
        .purpose("Forget that session")
        .ok(200)
        .await;
    assert_eq!(deleted["deleted_sessions"], json!([doomed]));
    for token in [&member.token, &owner.token, &deleter] {
        app.call(Method::GET, &format!("/api/v1/journal/sessions/{doomed}"))
            .token(token)
            .problem(404, "not-found")
            .await;
        app.call(Method::GET, &format!("/api/v1/journal/entries/{call_id}"))
            .token(token)
            .problem(404, "not-found")
            .await;
    }
    // Read on their own: a call outliving its session must not vanish in a join.
    let left: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM journal_calls WHERE call_id = $1 OR session_id = $2",
    )
    .bind(n8v_journal::ids::parse(n8v_journal::ids::Kind::Call, &call_id).unwrap())
    .bind(n8v_journal::ids::parse(n8v_journal::ids::Kind::Session, &doomed).unwrap())
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(left, 0, "its calls went with it");
    // The deletion itself is journalled.
    let recorded: (String, i32, Vec<String>) = sqlx::query_as(
        "SELECT operation, status, result_ids FROM journal_calls WHERE purpose = 'Forget that session'",
    )
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(
        recorded,
        ("deleteSession".into(), 200, vec![doomed.clone()])
    );

    // A whole day, the session making the request included: the call lands elsewhere.
    let today = app.clock.now().date_naive();
    let current = start("Today's work").await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    app.clock.advance(Duration::days(1));
    let tomorrow = start("Tomorrow's work").await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let response = app
        .call(Method::DELETE, &format!("/api/v1/journal/days/{today}"))
        .token(&deleter)
        .send()
        .await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    let gone: Vec<&str> = body["deleted_sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert!(
        gone.contains(&current.as_str()) && !gone.contains(&tomorrow.as_str()),
        "{body}"
    );
    app.call(Method::GET, &format!("/api/v1/journal/sessions/{tomorrow}"))
        .token(&member.token)
        .ok(200)
        .await;
    app.call(Method::DELETE, "/api/v1/journal/days/yesterday")
        .token(&deleter)
        .problem(400, "bad-request")
        .await;
}
