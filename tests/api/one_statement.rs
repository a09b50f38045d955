//! The journalled append in one statement (issue 56, `operation::fused`): the common case runs
//! as `n8v_append_journalled`, and records exactly what the general path records; every other
//! case is handed back to the general path before anything is stored.

use crate::common::{self, JOURNAL_SCOPES as SCOPES, TestApp};
use n8v_journal::admin;
use n8v_journal::flags::Flag;
use reqwest::Method;
use serde_json::{Value, json};
use sqlx::Connection;
use std::time::Duration;
use uuid::Uuid;

/// An app whose database counts the calls of its PL/pgSQL functions (`track_functions`, set
/// before the app's connections are made).
async fn counted_app() -> TestApp {
    let db_url = common::fresh_database().await;
    let database = db_url.rsplit('/').next().unwrap().to_owned();
    let mut conn = sqlx::PgConnection::connect(&common::server_url().await)
        .await
        .unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "ALTER DATABASE {database} SET track_functions = 'pl'"
    )))
    .execute(&mut conn)
    .await
    .unwrap();
    common::spawn_app_on(&db_url, |_| {}).await
}

/// How many times `n8v_append_journalled` returned (a refusal raised in it is not counted),
/// once the service's connections have reported it (a connection reports at most once a
/// second, and when idle, within ten seconds).
async fn one_statement_appends(app: &TestApp, at_least: i64) -> i64 {
    let mut seen = 0;
    for _ in 0..150 {
        let mut conn = app.owner.acquire().await.unwrap();
        sqlx::query("SELECT pg_stat_clear_snapshot()")
            .execute(&mut *conn)
            .await
            .unwrap();
        seen = sqlx::query_scalar(
            "SELECT COALESCE(sum(calls), 0)::bigint FROM pg_stat_user_functions \
              WHERE funcname = 'n8v_append_journalled'",
        )
        .fetch_one(&mut *conn)
        .await
        .unwrap();
        if seen >= at_least {
            return seen;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    seen
}

/// The calls of `key`, oldest first, with the columns both paths write (no ids, no times).
async fn calls_of(app: &TestApp, key: Uuid) -> Vec<Value> {
    sqlx::query_scalar(
        "SELECT jsonb_build_object('operation', c.operation, 'purpose', c.purpose, \
                'targets', c.target_ids, 'status', c.status, 'ok', c.ok, 'shape', c.input_shape, \
                'results', cardinality(c.result_ids), 'wrote', c.wrote, \
                'journal_read', c.journal_read, 'session', c.session_id, \
                'organization', c.organization_id, 'audit', jsonb_build_object( \
                   'method', a.method, 'path', a.path, 'status', a.status, \
                   'credential', a.credential_id)) \
           FROM journal_calls c JOIN audit_log a USING (account_id, audit_id) \
          WHERE c.credential_id = $1 ORDER BY c.created_at, c.call_id",
    )
    .bind(key)
    .fetch_all(&app.owner)
    .await
    .unwrap()
}

#[tokio::test]
async fn appends_after_the_first_run_as_one_statement_and_record_what_the_general_path_does() {
    let app = counted_app().await;
    let a = app.account("one", SCOPES).await;
    app.journal_on(a.id).await;
    let record = app.first_record(&a.token).await;
    let before = one_statement_appends(&app, 0).await;
    // The listing opened the key's session; the appends join it.
    let mut sessions = Vec::new();
    for n in 0..6 {
        let line = format!("step {n} done");
        sessions.push(
            app.append(&a.token, &record, None, Some("ship it"), &line)
                .await,
        );
    }
    assert!(sessions.iter().all(|s| *s == sessions[0]), "{sessions:?}");
    let appended = one_statement_appends(&app, before + 6).await - before;
    assert_eq!(
        appended, 6,
        "every append of an open session is one statement"
    );

    // Each append's call and audit entry, as the general path writes them: a listing (the
    // general path) and six appends, all in the one session.
    let calls = calls_of(&app, a.key_id).await;
    assert_eq!(calls.len(), 7, "{calls:#?}");
    let appends: Vec<&Value> = calls
        .iter()
        .filter(|c| c["operation"] == "appendRecordEntry")
        .collect();
    assert_eq!(appends.len(), 6);
    for call in &appends {
        assert_eq!(call["purpose"], "ship it");
        assert_eq!(call["targets"], json!([record]));
        assert_eq!(call["status"], 201);
        assert_eq!(call["ok"], true);
        assert_eq!(call["results"], 1);
        assert_eq!(call["wrote"], true);
        assert_eq!(call["journal_read"], false);
        assert_eq!(call["session"], calls[0]["session"]);
        assert_eq!(call["organization"], Value::Null);
        assert_eq!(call["audit"]["method"], "POST");
        assert_eq!(call["audit"]["status"], 201);
        assert_eq!(call["audit"]["credential"], json!(a.key_id));
        assert_eq!(
            call["audit"]["path"],
            format!("/api/v1/records/{record}/entries")
        );
        assert_eq!(call["shape"], appends[0]["shape"]);
    }
    // The entries, and each call naming its entry.
    let named: Vec<String> = sqlx::query_scalar(
        "SELECT c.result_ids[1] FROM journal_calls c \
          WHERE c.credential_id = $1 AND c.operation = 'appendRecordEntry' ORDER BY c.created_at",
    )
    .bind(a.key_id)
    .fetch_all(&app.owner)
    .await
    .unwrap();
    let listed = app
        .call(Method::GET, &format!("/api/v1/records/{record}/entries"))
        .token(&a.token)
        .ok(200)
        .await;
    let mut ids: Vec<String> = listed["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_owned())
        .collect();
    ids.reverse();
    assert_eq!(named, ids, "{listed:#}");
}

#[tokio::test]
async fn what_one_statement_does_not_handle_the_general_path_answers_and_records() {
    let app = common::spawn_app().await;
    let a = app.account("mine", SCOPES).await;
    let b = app.account("theirs", SCOPES).await;
    app.journal_on(a.id).await;
    let record = app.first_record(&a.token).await;
    let theirs = app.first_record(&b.token).await;
    app.append(&a.token, &record, None, Some("warm"), "first")
        .await;

    // Another account's Record: not visible, a 404 recorded as the failed call, nothing stored.
    let refused = app
        .call(Method::POST, &format!("/api/v1/records/{theirs}/entries"))
        .token(&a.token)
        .purpose("reach across")
        .json(json!({ "line": "not mine to write" }))
        .send()
        .await;
    assert_eq!(refused.status(), 404);
    let stored: i64 =
        sqlx::query_scalar("SELECT count(*) FROM record_entries WHERE line = 'not mine to write'")
            .fetch_one(&app.owner)
            .await
            .unwrap();
    assert_eq!(stored, 0);
    let failed: Vec<i32> = sqlx::query_scalar(
        "SELECT status FROM journal_calls WHERE credential_id = $1 AND purpose = 'reach across'",
    )
    .bind(a.key_id)
    .fetch_all(&app.owner)
    .await
    .unwrap();
    assert_eq!(failed, vec![404]);

    // A session that ended: 409, as the general path says it, and nothing stored.
    let session = app
        .start_session(
            &a.token,
            Some("a bounded task"),
            json!({ "goal": "one thing" }),
        )
        .await
        .id
        .to_string();
    app.call(
        Method::POST,
        &format!("/api/v1/journal/sessions/{session}/end"),
    )
    .token(&a.token)
    .purpose("done")
    .json(json!({ "outcome": "done" }))
    .ok(200)
    .await;
    let ended = app
        .call(Method::POST, &format!("/api/v1/records/{record}/entries"))
        .token(&a.token)
        .purpose("late")
        .session(Some(&session))
        .json(json!({ "line": "after the end" }))
        .send()
        .await;
    assert_eq!(ended.status(), 409);
    let stored: i64 =
        sqlx::query_scalar("SELECT count(*) FROM record_entries WHERE line = 'after the end'")
            .fetch_one(&app.owner)
            .await
            .unwrap();
    assert_eq!(stored, 0);

    // A credential in the purpose: kept scrubbed, its exposure recorded with the call.
    let secret = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
    app.append(
        &a.token,
        &record,
        None,
        Some(&format!("push with {secret}")),
        "pushed",
    )
    .await;
    let exposures: i64 = sqlx::query_scalar("SELECT count(*) FROM journal_exposures")
        .fetch_one(&app.owner)
        .await
        .unwrap();
    assert_eq!(exposures, 1);
    let kept: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM journal_calls WHERE strpos(coalesce(purpose, ''), $1) > 0",
    )
    .bind(secret)
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(kept, 0, "the purpose is kept scrubbed");

    // The journal off (the service still holding it on): the append answers, its audit entry
    // is written, no call.
    admin::set_flag(&app.owner, Flag::AssistantJournal, false, Some(a.id))
        .await
        .unwrap();
    app.call(Method::POST, &format!("/api/v1/records/{record}/entries"))
        .token(&a.token)
        .purpose("unjournalled")
        .json(json!({ "line": "journal off" }))
        .ok(201)
        .await;
    let counts: (i64, i64) = sqlx::query_as(
        "SELECT (SELECT count(*) FROM audit_log WHERE credential_id = $1 AND status = 201 \
                    AND path LIKE '%/entries'), \
                (SELECT count(*) FROM journal_calls WHERE credential_id = $1 AND status = 201 \
                    AND operation = 'appendRecordEntry')",
    )
    .bind(a.key_id)
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(counts, (3, 2), "the journal-off append is audited only");
}
