//! The write path's caches and its one-statement recording (issue 11): credentials and flags
//! are cached, yet a revocation or a flag change takes effect on the very next request, on
//! every instance; concurrent calls in one session lose nothing and invent nothing.

use crate::common::*;
use n8v_journal::admin;
use n8v_journal::db::Db;
use n8v_journal::flags::Flag;
use std::sync::Arc;

/// A second service instance on the same database, with caches of its own.
async fn second_instance(app: &TestApp) -> String {
    let config = n8v_journal::config::Config::for_database(&app.db_url);
    let db = Db::connect(&app.db_url, config.app_role.as_deref(), 5)
        .await
        .unwrap();
    let clock = Arc::new(n8v_journal::clock::ManualClock::new(chrono::Utc::now()));
    serve(n8v_journal::ops::Services::new(db, config, clock)).await
}

#[tokio::test]
async fn a_revoked_key_fails_on_the_next_request_on_every_instance_despite_the_caches() {
    let app = spawn_app().await;
    let other = second_instance(&app).await;
    let a = app.account("A", "records:read").await;
    let http = reqwest::Client::new();
    let get = |base: String| {
        let http = http.clone();
        let token = a.token.clone();
        async move {
            http.get(format!("{base}/api/v1/records"))
                .bearer_auth(token)
                .send()
                .await
                .unwrap()
        }
    };
    // Both instances now hold the key (and the flag) in their caches.
    for _ in 0..2 {
        assert_eq!(get(app.base.clone()).await.status(), 200);
        assert_eq!(get(other.clone()).await.status(), 200);
    }
    admin::revoke_key(&app.owner, a.key_id).await.unwrap();
    // No pause: the very next request, on either instance, is refused.
    for base in [app.base.clone(), other.clone()] {
        let response = get(base).await;
        let body = expect_problem(response, 401, "unauthorized").await;
        assert!(
            body["detail"].as_str().unwrap().contains("revoked"),
            "{body}"
        );
    }
}

#[tokio::test]
async fn a_flag_change_takes_effect_on_the_next_request_on_every_instance() {
    let app = spawn_app().await;
    let other = second_instance(&app).await;
    let a = app.account("A", "chats:read,records:read").await;
    app.journal_on(a.id).await;
    let http = reqwest::Client::new();
    let sessions = |base: String| {
        let http = http.clone();
        let token = a.token.clone();
        async move {
            http.get(format!("{base}/api/v1/journal/sessions"))
                .bearer_auth(token)
                .send()
                .await
                .unwrap()
        }
    };
    for base in [app.base.clone(), other.clone()] {
        assert_eq!(sessions(base.clone()).await.status(), 200);
        assert_eq!(sessions(base).await.status(), 200);
    }
    admin::set_flag(&app.owner, Flag::AssistantJournal, false, Some(a.id))
        .await
        .unwrap();
    for base in [app.base.clone(), other.clone()] {
        expect_problem(sessions(base).await, 404, "journal-off").await;
    }
    admin::set_flag(&app.owner, Flag::AssistantJournal, true, Some(a.id))
        .await
        .unwrap();
    for base in [app.base.clone(), other.clone()] {
        assert_eq!(sessions(base).await.status(), 200);
    }
}

#[tokio::test]
async fn concurrent_calls_in_one_implicit_session_are_all_recorded_once_with_exact_counts() {
    let app = spawn_app().await;
    let a = app.account("A", crate::common::JOURNAL_SCOPES).await;
    app.journal_on(a.id).await;
    let record = app.first_record(&a.token).await;
    let calls = (0..40).map(|i| {
        let app = &app;
        let token = a.token.clone();
        let record = record.clone();
        async move {
            let response = app
                .call(
                    reqwest::Method::POST,
                    &format!("/api/v1/records/{record}/entries"),
                )
                .token(&token)
                .purpose("Put the result on record")
                .json(serde_json::json!({ "line": format!("line {i}") }))
                .send()
                .await;
            assert_eq!(response.status(), 201);
            session_of(&response).expect("the call names its session")
        }
    });
    let sessions = futures::future::join_all(calls).await;
    assert!(
        sessions.iter().all(|s| s == &sessions[0]),
        "one implicit session"
    );
    let detail = app.session_detail(&a.token, &sessions[0]).await;
    // first_record's list call plus the 40 appends, every one of them once.
    let counts = (detail.session.call_count, detail.session.write_count);
    assert_eq!(counts, (41, 40), "{detail:?}");
    let recorded: i64 =
        sqlx::query_scalar("SELECT count(*) FROM journal_calls WHERE account_id = $1")
            .bind(a.id)
            .fetch_one(&app.owner)
            .await
            .unwrap();
    let entries: i64 =
        sqlx::query_scalar("SELECT count(*) FROM record_entries WHERE account_id = $1")
            .bind(a.id)
            .fetch_one(&app.owner)
            .await
            .unwrap();
    // ...and the detail read itself, recorded once it answered.
    assert_eq!((recorded, entries), (42, 40));
}
