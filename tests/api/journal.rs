//! The journal over REST: implicit and explicit sessions, what a call keeps (and never keeps),
//! reading sessions and their actions.

use crate::common;

use crate::common::{expect_ok, expect_problem, session_of};
use chrono::Duration;
use reqwest::Method;
use serde_json::{Value, json};

use crate::common::JOURNAL_AND_ORG_SCOPES as ALL;

/// The line every append here writes (the tests look at sessions and purposes, not lines).
const LINE: &str = "checked the build";

#[tokio::test]
async fn implicit_sessions_are_joined_while_fresh_and_replaced_after_30_quiet_minutes_or_12_hours()
{
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let record = app.record_of(a.id).await;

    let first = app.append(&a.token, &record, None, Some("one"), LINE).await;
    assert!(first.starts_with("ses_"));
    app.clock.advance(Duration::minutes(29));
    assert_eq!(
        app.append(&a.token, &record, None, Some("two"), LINE).await,
        first,
        "joined within 30 quiet minutes"
    );
    app.clock.advance(Duration::minutes(29));
    assert_eq!(
        app.append(&a.token, &record, None, Some("three"), LINE)
            .await,
        first,
        "quiet time counts from the last call"
    );

    app.clock.advance(Duration::minutes(31));
    let second = app
        .append(&a.token, &record, None, Some("after a pause"), LINE)
        .await;
    assert_ne!(second, first, "a new session after 30 quiet minutes");
    let old = app.session_detail(&a.token, &first).await.session;
    assert_eq!(old.status, "closed");
    assert_eq!(old.end_reason.as_deref(), Some("retired"));
    assert_eq!(old.kind, "implicit");
    assert_eq!(old.call_count, 3);

    // Keep the second one busy (never 30 minutes quiet) until it is 12 hours old.
    for _ in 0..30 {
        app.clock.advance(Duration::minutes(29));
        let joined = app
            .append(&a.token, &record, None, Some("steady work"), LINE)
            .await;
        if joined != second {
            let age = app.session_detail(&a.token, &second).await.session;
            let (started, ended) = (age.started_at, age.ended_at.unwrap());
            assert!(
                ended - started >= Duration::hours(12),
                "replaced before 12 hours: {age:?}"
            );
            return;
        }
    }
    panic!("an implicit session was reused for more than 12 hours");
}

#[tokio::test]
async fn concurrent_first_calls_share_one_implicit_session() {
    let app = std::sync::Arc::new(common::spawn_app().await);
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let record = app.first_record(&a.token).await;
    // `first_record` itself opened the implicit session; move past it.
    app.clock.advance(Duration::hours(1));
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..6 {
        let (app, record, token) = (app.clone(), record.clone(), a.token.clone());
        tasks.spawn(async move {
            let purpose = format!("parallel {i}");
            app.append(&token, &record, None, Some(&purpose), "in parallel")
                .await
        });
    }
    let sessions = tasks.join_all().await;
    assert!(sessions.iter().all(|s| s == &sessions[0]), "{sessions:?}");
}

/// Issue 24, part 4: a call that names no session joins only a session of its own assistant
/// (`X-Assistant`, else the user agent's product name), so `codex` calls on a key do not land in
/// the implicit session `curl` opened on it, and a new curl version is still curl.
#[tokio::test]
async fn each_assistant_on_a_key_gets_its_own_implicit_session() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let record = app.record_of(a.id).await;
    let append = |assistant: Option<&'static str>, agent: &'static str| {
        let mut call = app
            .call(Method::POST, &format!("/api/v1/records/{record}/entries"))
            .token(&a.token)
            .purpose("Put the check on record")
            .header("user-agent", agent)
            .json(json!({ "line": LINE }));
        if let Some(name) = assistant {
            call = call.header("x-assistant", name);
        }
        async move {
            let response = call.send().await;
            let session = session_of(&response).expect("a journalled call names its session");
            expect_ok(response, 201).await;
            session
        }
    };
    let curl = append(None, "curl/7.88.1").await;
    let codex = append(Some("codex"), "curl/7.88.1").await;
    assert_ne!(codex, curl, "codex joined curl's session");
    app.clock.advance(Duration::minutes(5));
    assert_eq!(append(Some("Codex"), "python-httpx/0.27").await, codex);
    assert_eq!(append(None, "curl/8.5.0").await, curl);
    assert_eq!(append(Some("codex"), "curl/7.88.1").await, codex);

    // Each session keeps its own assistant's label and calls.
    for (id, label, calls) in [(&curl, "curl/7.88.1", 2), (&codex, "codex", 3)] {
        let read = app.session_detail(&a.token, id).await.session;
        assert_eq!(read.assistant, label, "{read:?}");
        assert_eq!(read.kind, "implicit", "{read:?}");
        assert_eq!(read.call_count, calls, "{read:?}");
    }
}

#[tokio::test]
async fn explicit_sessions_start_take_calls_end_and_refuse_other_credentials() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let record = app.first_record(&a.token).await;

    let started = app
        .call(Method::POST, "/api/v1/journal/sessions")
        .token(&a.token)
        .purpose("Open this conversation")
        .header("x-assistant", "Claude Code")
        .json(json!({"goal": "Get the login fix ready for review", "repository": "acme/web"}))
        .send()
        .await;
    let header = session_of(&started).unwrap();
    let body = expect_ok(started, 201).await;
    let id = body["id"].as_str().unwrap().to_owned();
    assert_eq!(header, id);
    assert_eq!(body["kind"], "explicit");
    assert_eq!(body["status"], "open");
    assert_eq!(body["goal"], "Get the login fix ready for review");
    assert_eq!(body["assistant"], "Claude Code");
    assert_eq!(body["repository"], "acme/web");
    assert_eq!(
        body["scopes"],
        json!(["chats:read", "records:read", "records:write", "orgs:read"])
    );

    assert_eq!(
        app.append(&a.token, &record, Some(&id), Some("Record the fix"), LINE)
            .await,
        id
    );
    assert_eq!(
        app.append(
            &a.token,
            &record,
            Some(&id),
            Some("Record the test run"),
            LINE
        )
        .await,
        id
    );

    // Another credential of the same account cannot use it.
    let (_, other) = app.key(a.id, ALL, None).await;
    let problem = app
        .call(Method::GET, "/api/v1/records")
        .token(&other)
        .session(Some(&id))
        .problem(404, "not-found")
        .await;
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("cannot be shared"),
        "{problem}"
    );
    let end_by_other = app
        .end_session(&other, &id, json!({"outcome": "x"}))
        .send()
        .await;
    expect_problem(end_by_other, 404, "not-found").await;

    let ended = app
        .end_session(
            &a.token,
            &id,
            json!({"outcome": "Fix ready for review; tests passed"}),
        )
        .send()
        .await;
    assert_eq!(ended.status(), 200);
    assert_eq!(session_of(&ended).as_deref(), Some(id.as_str()));
    let ended: Value = ended.json().await.unwrap();
    assert_eq!(ended["status"], "closed");
    assert_eq!(ended["end_reason"], "ended");
    assert_eq!(ended["outcome"], "Fix ready for review; tests passed");

    // An ended session is refused.
    app.call(Method::GET, "/api/v1/records")
        .token(&a.token)
        .session(Some(&id))
        .problem(409, "conflict")
        .await;
    // Ending it again names the session in the path, not a header the caller never sent.
    let again = app.end_session(&a.token, &id, json!({})).send().await;
    let problem = expect_problem(again, 409, "conflict").await;
    let detail = problem["detail"].as_str().unwrap();
    assert!(
        detail.contains("has ended") && !detail.contains("X-Session-Id"),
        "{problem}"
    );

    let read = app.session_detail(&a.token, &id).await;
    let operations: Vec<&str> = read.actions.iter().map(|c| c.operation.as_str()).collect();
    assert_eq!(
        operations,
        [
            "startSession",
            "appendRecordEntry",
            "appendRecordEntry",
            "endSession"
        ]
    );
    // The shape of what was sent: `organization` was not, so it is not in the shape.
    assert_eq!(
        read.actions[0].input_shape,
        Some(json!({"body": {"goal": "string", "repository": "string"}}))
    );
    let purposes: Vec<&str> = read
        .actions
        .iter()
        .map(|c| c.purpose.as_deref().unwrap_or(""))
        .collect();
    assert_eq!(
        purposes,
        [
            "Open this conversation",
            "Record the fix",
            "Record the test run",
            ""
        ]
    );
    assert_eq!((read.session.call_count, read.session.write_count), (4, 2));
    // Bad session headers are 400s, not silent drops.
    app.call(Method::GET, "/api/v1/records")
        .token(&a.token)
        .session(Some("nope"))
        .problem(400, "bad-request")
        .await;
}

#[tokio::test]
async fn a_call_keeps_purpose_targets_shape_outcome_and_audit_link_but_never_the_payload() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let record = app.first_record(&a.token).await;
    let distinctive = "zebra-quartz-7f3a9c";
    let response = app
        .call(Method::POST, &format!("/api/v1/records/{record}/entries"))
        .token(&a.token)
        .purpose("Note the deploy")
        .json(json!({"line": format!("deployed {distinctive}")}))
        .send()
        .await;
    let session_id = session_of(&response).unwrap();
    let entry = expect_ok(response, 201).await;

    let read = app.session_detail(&a.token, &session_id).await;
    let call = read
        .actions
        .iter()
        .find(|c| c.operation == "appendRecordEntry")
        .unwrap();
    assert_eq!(call.purpose.as_deref(), Some("Note the deploy"));
    assert_eq!(call.target_ids, std::slice::from_ref(&record));
    assert_eq!(call.result_ids, [entry["id"].as_str().unwrap()]);
    assert_eq!((call.status, call.outcome.as_str()), (201, "ok"));
    assert!(call.wrote && !call.journal_read);
    let shape = json!({"body": {"line": "string"}});
    assert_eq!(call.input_shape, Some(shape));

    let one: Value = app
        .get(&a.token, &format!("/api/v1/journal/entries/{}", call.id))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(one["id"], call.id.to_string());
    let audit: Value = app
        .get(&a.token, one["audit_url"].as_str().unwrap())
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(audit["id"], one["audit_id"]);
    assert_eq!(audit["method"], "POST");
    assert_eq!(audit["path"], format!("/api/v1/records/{record}/entries"));
    assert_eq!(audit["status"], 201);
    assert_eq!(
        audit["key_id"],
        n8v_journal::ids::format(n8v_journal::ids::Kind::Key, a.key_id)
    );
    assert!(audit["request_id"].as_str().is_some_and(|r| r.len() > 8));

    // The distinctive value reached the Record (that is the operation) but no journal table.
    for table in ["journal_sessions", "journal_calls", "audit_log"] {
        let sql = format!("SELECT count(*) FROM {table} t WHERE t::text LIKE '%' || $1 || '%'");
        let hits: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
            .bind(distinctive)
            .fetch_one(&app.owner)
            .await
            .unwrap();
        assert_eq!(hits, 0, "{table} holds the payload");
    }
    let stored: i64 =
        sqlx::query_scalar("SELECT count(*) FROM record_entries WHERE line LIKE '%' || $1 || '%'")
            .bind(distinctive)
            .fetch_one(&app.owner)
            .await
            .unwrap();
    assert_eq!(stored, 1);
}

#[tokio::test]
async fn failed_calls_are_recorded_with_their_outcome_and_leave_no_effect() {
    let app = common::spawn_app().await;
    let a = app.account("A", "chats:read,records:read").await;
    app.journal_on(a.id).await;
    let record = app.first_record(&a.token).await;
    let denied = app
        .call(Method::POST, &format!("/api/v1/records/{record}/entries"))
        .token(&a.token)
        .purpose("Try to write")
        .json(json!({"line": "nope"}))
        .send()
        .await;
    let session_id = session_of(&denied).unwrap();
    expect_problem(denied, 403, "missing-scope").await;
    let read = app.session_detail(&a.token, &session_id).await;
    let failed = read
        .actions
        .iter()
        .find(|c| c.purpose.as_deref() == Some("Try to write"))
        .unwrap();
    assert_eq!((failed.outcome.as_str(), failed.status), ("error", 403));
    assert!(!failed.wrote);
    let lines: i64 = sqlx::query_scalar("SELECT count(*) FROM record_entries")
        .fetch_one(&app.owner)
        .await
        .unwrap();
    assert_eq!(lines, 0);
}

#[tokio::test]
async fn purposes_are_validated_and_scrubbed() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    app.call(Method::GET, "/api/v1/records")
        .token(&a.token)
        .purpose(&"x".repeat(501))
        .problem(400, "bad-request")
        .await;
    app.call(Method::GET, "/api/v1/records")
        .token(&a.token)
        .purpose("a\tb")
        .problem(400, "bad-request")
        .await;
    let calls: i64 = sqlx::query_scalar("SELECT count(*) FROM journal_calls")
        .fetch_one(&app.owner)
        .await
        .unwrap();
    assert_eq!(calls, 0, "refused requests are not journalled");

    let token = format!(
        "ghp_{}",
        "a1B2c3D4e5".repeat(4).chars().take(36).collect::<String>()
    );
    let leaky = app
        .call(Method::GET, "/api/v1/records")
        .token(&a.token)
        .purpose(&format!("use {token} to fetch the repo"))
        .send()
        .await;
    assert_eq!(leaky.status(), 200);
    let stored: String = sqlx::query_scalar("SELECT purpose FROM journal_calls")
        .fetch_one(&app.owner)
        .await
        .unwrap();
    assert!(!stored.contains(&token), "{stored}");
    assert!(stored.contains("[REDACTED:"), "{stored}");
}

#[tokio::test]
async fn read_only_sessions_stay_out_of_the_list_and_writes_filter_works() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    // Session 1 only reads the journal.
    let list = app.get(&a.token, "/api/v1/journal/sessions").await;
    let reader = session_of(&list).unwrap();
    let listed: Value = list.json().await.unwrap();
    assert_eq!(listed["sessions"], json!([]));
    // Session 2 (an hour later) does Record work: reads, then a write.
    app.clock.advance(Duration::hours(1));
    let record = app.first_record(&a.token).await;
    let worker = app
        .append(&a.token, &record, None, Some("write it down"), LINE)
        .await;
    assert_ne!(reader, worker);
    let ids = app.session_ids(&a.token, None, "").await;
    assert_eq!(ids, std::slice::from_ref(&worker));
    // Its journal read is recorded all the same.
    let read_session = app.session_detail(&a.token, &reader).await;
    let first = &read_session.actions[0];
    assert_eq!(first.operation, "listSessions");
    assert!(first.journal_read);

    let writes = app
        .session_detail(&a.token, &format!("{worker}?writes=true"))
        .await;
    let ops: Vec<&str> = writes
        .actions
        .iter()
        .map(|c| c.operation.as_str())
        .collect();
    assert_eq!(ops, ["appendRecordEntry"]);
    let everything = app.session_detail(&a.token, &worker).await;
    assert!(everything.actions.len() >= 2);
}

#[tokio::test]
async fn action_limits_and_paging_return_every_item_once() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let record = app.first_record(&a.token).await;
    let started = app
        .start_session(&a.token, None, json!({"goal": "many calls"}))
        .await;
    let id = started.id.to_string();
    for i in 0..7 {
        app.append(
            &a.token,
            &record,
            Some(&id),
            Some(&format!("call {i}")),
            LINE,
        )
        .await;
    }
    // What was made, read independently (as the owner, so nothing is journalled): the start
    // and the seven appends, oldest first.
    let session = n8v_journal::ids::parse(n8v_journal::ids::Kind::Session, &id).unwrap();
    let made: Vec<(uuid::Uuid, Option<String>)> = sqlx::query_as(
        "SELECT call_id, purpose FROM journal_calls WHERE session_id = $1 \
         ORDER BY created_at, call_id",
    )
    .bind(session)
    .fetch_all(&app.owner)
    .await
    .unwrap();
    let purposes: Vec<_> = made.iter().map(|(_, p)| p.clone()).collect();
    let mut expected = vec![None];
    expected.extend((0..7).map(|i| Some(format!("call {i}"))));
    assert_eq!(purposes, expected, "the start, then the seven appends");
    let made: Vec<String> = made
        .into_iter()
        .map(|(c, _)| n8v_journal::ids::format(n8v_journal::ids::Kind::Call, c))
        .collect();
    assert_eq!(
        app.get_session(&a.token, &format!("{id}?limit=300"))
            .send()
            .await
            .status(),
        200
    );
    app.get_session(&a.token, &format!("{id}?limit=301"))
        .problem(400, "bad-request")
        .await;
    let seen = app
        .paged_ids(
            &a.token,
            &format!("/api/v1/journal/sessions/{id}"),
            3,
            "actions",
        )
        .await;
    // start + 7 appends (the page reads themselves land in this session too, after the start).
    let unique: std::collections::BTreeSet<_> = seen.iter().collect();
    assert_eq!(unique.len(), seen.len(), "an action came back twice");
    // Oldest first: the eight made, then the page reads journalled after them.
    assert_eq!(seen[..8], made[..], "{seen:?}");
}

#[tokio::test]
async fn session_list_filters_and_pages_every_session_once() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let (second_key_id, second_key) = app.key(a.id, ALL, None).await;
    let record = app.record_of(a.id).await;
    let mut made = Vec::new();
    for i in 0..7 {
        let token = if i % 2 == 0 { &a.token } else { &second_key };
        let assistant = if i < 3 { "Claude Code" } else { "Codex CLI" };
        let started = app
            .call(Method::POST, "/api/v1/journal/sessions")
            .token(token)
            .header("x-assistant", assistant)
            .json(json!({"goal": format!("goal {i}"), "repository": if i == 0 { "acme/api" } else { "acme/web" }}))
            .ok(201)
            .await;
        let id = started["id"].as_str().unwrap().to_owned();
        app.append(token, &record, Some(&id), Some("work"), LINE)
            .await;
        made.push(id);
        app.clock.advance(Duration::minutes(5));
    }
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let path = match &cursor {
            Some(c) => format!("/api/v1/journal/sessions?limit=2&cursor={c}"),
            None => "/api/v1/journal/sessions?limit=2".into(),
        };
        let page: Value = app.get(&a.token, &path).await.json().await.unwrap();
        seen.extend(
            page["sessions"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["id"].as_str().unwrap().to_owned()),
        );
        match page["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => break,
        }
    }
    let mut newest_first = made.clone();
    newest_first.reverse();
    assert_eq!(
        seen, newest_first,
        "paging returns every session once, newest first"
    );

    let claude = app.session_ids(&a.token, None, "?assistant=claude").await;
    assert_eq!(claude, [made[2].clone(), made[1].clone(), made[0].clone()]);
    let key = n8v_journal::ids::format(n8v_journal::ids::Kind::Key, second_key_id);
    let by_key = app
        .session_ids(&a.token, None, &format!("?key={key}"))
        .await;
    assert_eq!(by_key, [made[5].clone(), made[3].clone(), made[1].clone()]);
    let by_repo = app.session_ids(&a.token, None, "?repo=acme/api").await;
    assert_eq!(by_repo, [made[0].clone()]);
    let first = app.session_detail(&a.token, &made[3]).await.session;
    let from = first
        .started_at
        .to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true);
    let later = app
        .session_ids(&a.token, None, &format!("?from={from}"))
        .await;
    assert_eq!(
        later,
        [
            made[6].clone(),
            made[5].clone(),
            made[4].clone(),
            made[3].clone()
        ]
    );
    let earlier = app
        .session_ids(&a.token, None, &format!("?to={from}"))
        .await;
    assert_eq!(earlier, [made[2].clone(), made[1].clone(), made[0].clone()]);
    expect_problem(
        app.get(&a.token, "/api/v1/journal/sessions?key=nope").await,
        400,
        "bad-request",
    )
    .await;
    expect_problem(
        app.get(&a.token, "/api/v1/journal/sessions?from=yesterday")
            .await,
        400,
        "bad-request",
    )
    .await;
    expect_problem(
        app.get(&a.token, "/api/v1/journal/sessions?limit=101")
            .await,
        400,
        "bad-request",
    )
    .await;
    expect_problem(
        app.get(&a.token, "/api/v1/journal/sessions?cursor=abc")
            .await,
        400,
        "bad-request",
    )
    .await;

    // Journal endpoints need chats:read.
    let (_, writer) = app.key(a.id, "records:write", None).await;
    expect_problem(
        app.get(&writer, "/api/v1/journal/sessions").await,
        403,
        "missing-scope",
    )
    .await;
}
