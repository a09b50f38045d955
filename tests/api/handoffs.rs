//! Hand-offs that do not depend on a paid model: the decisions, open questions and next steps
//! an assistant states when it ends a session, and those its own text marks, reach the
//! catch-up brief and `/journal.md` with no model anywhere; with a model they merge with the
//! model's items without duplicates; the lists are capped, scrubbed and private; customer
//! accounts can be sent to an OpenAI-compatible endpoint.

use crate::common;

use crate::common::TestApp;
use crate::common::journal::texts;
use crate::common::mcp::{call, connect, error_text, structured};
use axum::Json;
use axum::extract::State;
use chrono::Duration;
use n8v_journal::brief::CatchUp;
use n8v_journal::config::{Config, CustomerProvider, ProviderSettings};
use n8v_journal::jobs::summary;
use n8v_journal::journal::Session;
use n8v_journal::journal::handoff::Handoff;
use n8v_journal::ops::digests::DigestList;
use n8v_journal::ops::journal::EndedSession;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};

use crate::common::JOURNAL_SCOPES as ALL;

/// Opens a session with `goal`, appends once with `purpose`, ends it with `end`; returns its
/// id. The clock moves ten minutes first, so sessions are ordered.
async fn worked(app: &TestApp, token: &str, goal: &str, purpose: &str, end: Value) -> String {
    app.clock.advance(Duration::minutes(10));
    let record = app.first_record(token).await;
    let id = app
        .start_session(token, None, json!({"goal": goal}))
        .await
        .id
        .to_string();
    app.append(token, &record, Some(&id), Some(purpose), "A line")
        .await;
    app.end_session(token, &id, end).ok(200).await;
    id
}

async fn summarise_all(app: &TestApp, configure: impl Fn(&mut Config)) {
    let state = app.workers(configure);
    for job in app.queued_summaries().await {
        summary::summarize_session(&state, &job).await.unwrap();
    }
}

async fn window(app: &TestApp, token: &str, max_chars: usize) -> String {
    let md = app
        .get(token, &format!("/journal.md?max_chars={max_chars}"))
        .await;
    assert_eq!(md.status(), 200);
    md.text().await.unwrap()
}

/// Eight sessions: four end with explicit lists, four only mark their decisions and questions
/// in their outcome or a purpose; a ninth says nothing of the kind.
async fn eight_sessions(app: &TestApp, token: &str) -> Vec<String> {
    let mut ids = Vec::new();
    for i in 1..=4 {
        let end = json!({
            "outcome": format!("Finished task {i}"),
            "decisions": [format!("Keep cache layer {i}")],
            "open_questions": [format!("Should limit {i} be configurable?")],
            "next_steps": [format!("Benchmark variant {i}")],
        });
        ids.push(worked(app, token, &format!("Task {i}"), "Log progress", end).await);
    }
    let marked = [
        (
            "Log progress",
            "Shipped part 5. Decided: use approach 5. Open question: should we revisit area 5?",
        ),
        (
            "Decided: use approach 6",
            "Shipped part 6.\nOpen question: should we revisit area 6?",
        ),
        (
            "Log progress",
            "Shipped part 7. Decision: use approach 7. TODO: revisit area 7",
        ),
        (
            "Log progress",
            "Shipped part 8; decided: use approach 8. Can area 8 wait until January?",
        ),
    ];
    for (i, (purpose, outcome)) in (5..).zip(marked) {
        let end = json!({"outcome": outcome});
        ids.push(worked(app, token, &format!("Task {i}"), purpose, end).await);
    }
    let plain = json!({"outcome": "Tidied the README and fixed two links."});
    ids.push(worked(app, token, "Tidy the README", "Fix two links", plain).await);
    ids
}

#[tokio::test]
async fn with_no_model_the_brief_and_the_window_carry_every_decision_and_question_stated() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let ids = eight_sessions(&app, &a.token).await;

    let decisions: Vec<String> = (5..=8)
        .rev()
        .map(|i| format!("use approach {i}"))
        .chain((1..=4).rev().map(|i| format!("Keep cache layer {i}")))
        .collect();
    let mut open_questions = vec![
        "Can area 8 wait until January?".to_owned(),
        "TODO: revisit area 7".to_owned(),
        "should we revisit area 6?".to_owned(),
        "should we revisit area 5?".to_owned(),
    ];
    open_questions.extend(
        (1..=4)
            .rev()
            .map(|i| format!("Should limit {i} be configurable?")),
    );
    let next_steps: Vec<String> = (1..=4)
        .rev()
        .map(|i| format!("Benchmark variant {i}"))
        .collect();

    // Before any summary is written, and after code (no model is configured) wrote them all.
    for phase in ["unsummarised", "code summaries"] {
        if phase == "code summaries" {
            summarise_all(&app, |_| {}).await;
            let read = app.session_detail(&a.token, &ids[0]).await;
            let model = read.session.summary_model.as_deref();
            assert_eq!(model, Some("code"), "{read:?}");
        }
        let brief = app.brief(&a.token, None).await;
        assert_eq!(texts(&brief.decisions), decisions, "{phase}: {brief:?}");
        assert_eq!(texts(&brief.open_questions), open_questions, "{phase}");
        assert_eq!(texts(&brief.next_steps), next_steps, "{phase}");
        let of = |i: usize| {
            let d = &brief.decisions[i];
            (d.session_id.to_string(), d.stated)
        };
        assert_eq!(of(7), (ids[0].clone(), true));
        assert_eq!(of(0), (ids[7].clone(), false));

        let md = window(&app, &a.token, 9_500).await;
        assert!(md.chars().count() <= 9_500, "{phase}: {}", md.len());
        for text in decisions.iter().chain(&open_questions).chain(&next_steps) {
            assert!(
                md.contains(text.as_str()),
                "{phase}: {text:?} missing from\n{md}"
            );
        }
        assert!(md.contains("- Next: Benchmark variant 1"), "{md}");
        let plain = md
            .split("\n## ")
            .find(|entry| entry.contains("Tidy the README") || entry.contains("two links"))
            .unwrap_or_else(|| panic!("{md}"));
        assert!(
            !plain.contains("- Decided:") && !plain.contains("- Open:"),
            "{phase}: a session that stated none carries none: {plain}"
        );
    }

    let first = app.session_detail(&a.token, &ids[0]).await;
    assert_eq!(
        first.session.handoff,
        Some(Handoff {
            decisions: vec!["Keep cache layer 1".into()],
            open_questions: vec!["Should limit 1 be configurable?".into()],
            next_steps: vec!["Benchmark variant 1".into()],
            replaces: vec![],
        })
    );
    let plain = app.session_detail(&a.token, &ids[8]).await;
    assert_eq!(plain.session.handoff, None);
}

#[tokio::test]
async fn stated_items_and_a_models_items_merge_without_duplicates() {
    let summary = json!({
        "summary": "Worked on the cache.",
        "decisions": ["keep cache layer 1.", "Move the cron to 02:00"],
        "work_started": [],
        "work_finished": ["Cache shipped"],
        "open_questions": ["should limit 1 be configurable"]
    });
    let (gemini, _) = common::model::gemini(summary, true).await;
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let end = json!({
        "outcome": "Cache shipped",
        "decisions": ["Keep cache layer 1"],
        "open_questions": ["Should limit 1 be configurable?"],
    });
    let id = worked(&app, &a.token, "Ship the cache", "Log progress", end).await;
    summarise_all(&app, |c| common::use_gemini(c, &gemini)).await;
    let read = app.session_detail(&a.token, &id).await;
    let model = read.session.summary_model.as_deref();
    assert_eq!(model, Some("gemini-3.1-flash-lite"));

    let brief = app.brief(&a.token, None).await;
    let decisions: Vec<(&str, bool)> = brief
        .decisions
        .iter()
        .map(|i| (i.text.as_str(), i.stated))
        .collect();
    assert_eq!(
        decisions,
        [
            ("Keep cache layer 1", true),
            ("Move the cron to 02:00", false)
        ]
    );
    assert_eq!(
        texts(&brief.open_questions),
        ["Should limit 1 be configurable?"]
    );
    let md = window(&app, &a.token, 9_500).await;
    assert_eq!(md.matches("ache layer 1").count(), 1, "{md}");
    assert_eq!(md.matches("configurable").count(), 1, "{md}");
    // The model's line, marked as its reading.
    assert!(
        md.contains("- [derived] Decided: Move the cron to 02:00"),
        "{md}"
    );
}

#[tokio::test]
async fn handoff_lists_are_capped_scrubbed_and_private() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    let b = app.account("B", ALL).await;
    app.journal_on(a.id).await;
    app.journal_on(b.id).await;
    let started = app
        .start_session(&a.token, None, json!({"goal": "Rotate keys"}))
        .await;
    let id = &started.id.to_string();

    let many: Vec<String> = (0..21).map(|i| format!("Decision {i}")).collect();
    let problem = app
        .end_session(&a.token, id, json!({"decisions": many}))
        .problem(400, "bad-request")
        .await;
    assert!(
        problem["detail"].as_str().unwrap().contains("at most 20"),
        "{problem}"
    );
    let long = "x".repeat(301);
    let problem = app
        .end_session(&a.token, id, json!({"next_steps": ["fine", long]}))
        .problem(400, "bad-request")
        .await;
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("next_steps[1]"),
        "{problem}"
    );
    app.end_session(&a.token, id, json!({"open_questions": ["two\nlines"]}))
        .problem(400, "bad-request")
        .await;
    app.end_session(&a.token, id, json!({"decisions": "not a list"}))
        .problem(422, "invalid-body")
        .await;
    app.end_session(&b.token, id, json!({"decisions": ["Take it over"]}))
        .problem(404, "not-found")
        .await;
    let still = app.session_detail(&a.token, id).await;
    assert_eq!(still.session.status, "open", "refused ends change nothing");

    let secret = "ghp_Abcdefghijklmnopqrstuvwxyz0123456789";
    let ended: EndedSession = app
        .end_session(
            &a.token,
            id,
            json!({"decisions": [format!("Rotate {secret} today"), " ", "Rotate the key today"],
                   "next_steps": ["Tell the team"]}),
        )
        .typed(200)
        .await;
    let decisions = &ended.session.handoff.as_ref().unwrap().decisions;
    assert_eq!(decisions.len(), 2, "blank items dropped: {ended:?}");
    assert!(!common::json_text(&ended).contains(secret), "{ended:?}");
    let brief_a = app.brief(&a.token, None).await;
    assert!(!common::json_text(&brief_a).contains(secret));
    assert_eq!(texts(&brief_a.next_steps), ["Tell the team"]);

    // Hand-off items are searched with the rest of the session's prose, by its own account.
    let found = app.search(&a.token, "q=tell%20team").await;
    let session = found[0].session_id.map(|s| s.to_string());
    assert_eq!(session.as_deref(), Some(id.as_str()), "{found:?}");

    // B sees none of it, anywhere.
    let found = app.search(&b.token, "q=tell%20team").await;
    assert!(found.is_empty(), "{found:?}");
    app.get_session(&b.token, id)
        .problem(404, "not-found")
        .await;
    let brief_b = app.brief(&b.token, None).await;
    assert!(
        !common::json_text(&brief_b).contains("Tell the team"),
        "{brief_b:?}"
    );
    assert!(brief_b.decisions.is_empty());
    assert!(
        !window(&app, &b.token, 9_500)
            .await
            .contains("Tell the team")
    );
}

#[tokio::test]
async fn session_end_over_mcp_takes_the_lists_and_says_how_to_use_them() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let client = connect(&app, &a.token).await;
    let tools = client.list_all_tools().await.unwrap();
    let end = tools.iter().find(|t| t.name == "session_end").unwrap();
    let description = end.description.as_deref().unwrap_or_default();
    assert!(description.contains("decisions") && description.contains("open_questions"));
    let schema = serde_json::to_value(&end.input_schema).unwrap();
    assert_eq!(
        schema["properties"]["decisions"]["maxItems"], 20,
        "{schema}"
    );
    assert_eq!(
        schema["properties"]["next_steps"]["items"]["maxLength"], 300,
        "{schema}"
    );

    let started =
        structured(&call(&client, "session_start", json!({"goal": "Fix the login"})).await);
    let id = started["id"].as_str().unwrap();
    let many: Vec<String> = (0..21).map(|i| format!("Decision {i}")).collect();
    let refused = call(
        &client,
        "session_end",
        json!({"session": id, "outcome": "Done", "decisions": many}),
    )
    .await;
    assert!(error_text(&refused).contains("at most 20"), "{refused:?}");
    let ended = call(
        &client,
        "session_end",
        json!({"session": id, "outcome": "Fix merged",
               "decisions": ["Keep SameSite=Lax"], "open_questions": ["Remove the old route?"],
               "next_steps": ["Watch the error rate"]}),
    )
    .await;
    assert_eq!(
        structured(&ended)["handoff"]["next_steps"][0],
        "Watch the error rate"
    );
    let brief: CatchUp = common::decode(structured(
        &call(&client, "journal_catch_up", json!({})).await,
    ));
    assert_eq!(texts(&brief.decisions), ["Keep SameSite=Lax"]);
    assert_eq!(texts(&brief.open_questions), ["Remove the old route?"]);
}

#[tokio::test]
async fn an_open_sessions_provisional_account_names_distinct_purposes_and_counts() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let record = app.first_record(&a.token).await;
    let id = app
        .start_session(&a.token, None, json!({"goal": "Tidy"}))
        .await
        .id
        .to_string();
    for purpose in [
        "Log step",
        "Log step",
        "Check the log",
        "Log step",
        "Log step",
    ] {
        app.clock.advance(Duration::seconds(5));
        app.append(&a.token, &record, Some(&id), Some(purpose), "line")
            .await;
    }
    let read = app.session_detail(&a.token, &id).await;
    let provisional = read.session.provisional.as_ref().unwrap();
    assert_eq!(
        provisional.recent_purposes,
        ["Log step", "Check the log"],
        "{read:?}"
    );
    assert_eq!(provisional.writes, 5);
    assert_eq!(provisional.calls, read.session.call_count);
    let md = window(&app, &a.token, 9_500).await;
    assert!(md.contains("so far, 5 of them writes."), "{md}");
    assert_eq!(md.matches("- Log step").count(), 1, "{md}");
}

/// Issue 25: an unsummarised session's purposes are folded onto it with its counts (migration
/// 0016), so reads need not go through its calls: the newest distinct purposes and the marked
/// ones, whatever their age in the session (a marker 110 calls back is still carried), are what
/// the list, the brief and the window show before a summary is written.
#[tokio::test]
async fn an_unsummarised_sessions_purposes_and_markers_are_folded_onto_it() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let record = app.first_record(&a.token).await;
    let id = app
        .start_session(&a.token, Some("Open the tidy-up"), json!({"goal": "Tidy"}))
        .await
        .id
        .to_string();
    let mut purposes = vec!["Decided: keep the v1 route".to_owned()];
    purposes.extend((0..110).map(|i| format!("Log step {}", i % 3)));
    purposes.extend([
        "Question: who owns billing?".to_owned(),
        "Check the log".to_owned(),
    ]);
    for purpose in &purposes {
        app.clock.advance(Duration::seconds(1));
        app.append(&a.token, &record, Some(&id), Some(purpose), "line")
            .await;
    }
    // Two minutes on, the next call moves the stored last activity, and folds the calls made
    // until 30 s before it.
    app.clock.advance(Duration::minutes(2));
    app.append(&a.token, &record, Some(&id), Some("Log step 1"), "line")
        .await;
    let folded = || async {
        let (calls, recent, marked): (i32, Vec<String>, Vec<String>) = sqlx::query_as(
            "SELECT counted_calls, folded_purposes, folded_marked FROM journal_sessions \
             WHERE account_id = $1 AND kind = 'explicit'",
        )
        .bind(a.id)
        .fetch_one(&app.owner)
        .await
        .unwrap();
        (calls, recent, marked)
    };
    let (calls, recent, marked) = folded().await;
    // The opening and the 113 appends; not the last one, made after the fold's bound.
    assert_eq!(calls, 114);
    assert_eq!(
        recent,
        [
            "Check the log",
            "Question: who owns billing?",
            "Log step 1",
            "Log step 0",
            "Log step 2"
        ]
    );
    assert_eq!(
        marked,
        ["Question: who owns billing?", "Decided: keep the v1 route"]
    );

    // The read puts the calls since the fold first: the last append's purpose leads.
    let read = app.session_detail(&a.token, &id).await;
    let provisional = read.session.provisional.as_ref().unwrap();
    assert_eq!(
        provisional.recent_purposes,
        [
            "Log step 1",
            "Check the log",
            "Question: who owns billing?",
            "Log step 0",
            "Log step 2"
        ],
        "{read:?}"
    );
    assert_eq!(provisional.calls, 115, "{read:?}");

    // Ending folds again, up to 30 s before the end; the end call itself is read live.
    app.clock.advance(Duration::minutes(1));
    app.end_session(&a.token, &id, json!({"outcome": "Tidied"}))
        .ok(200)
        .await;
    let (calls, recent, _) = folded().await;
    // And the read above, which named no session and so joined this open one.
    assert_eq!(calls, 116);
    assert_eq!(recent[0], "Log step 1");
    let brief = app.brief(&a.token, None).await;
    assert!(brief.sessions[0].summary.is_none(), "{brief:#?}");
    assert_eq!(texts(&brief.decisions), ["keep the v1 route"], "{brief:#?}");
    assert_eq!(
        texts(&brief.open_questions),
        ["who owns billing?"],
        "{brief:#?}"
    );
    let md = window(&app, &a.token, 9_500).await;
    assert!(md.contains("- Decided: keep the v1 route"), "{md}");
    assert!(md.contains("- Open: who owns billing?"), "{md}");
}

/// A local server speaking the OpenAI `chat/completions` wire format; it keeps the models it
/// was asked for.
async fn openai_compatible() -> (String, Arc<Mutex<Vec<String>>>) {
    type Seen = Arc<Mutex<Vec<String>>>;
    async fn complete(State(seen): State<Seen>, Json(body): Json<Value>) -> Json<Value> {
        seen.lock()
            .unwrap()
            .push(body["model"].as_str().unwrap_or_default().to_owned());
        let summary = json!({"summary": "Worked.", "decisions": ["Use the local model"],
            "work_started": [], "work_finished": [], "open_questions": []});
        Json(json!({
            "id": "chatcmpl-1", "object": "chat.completion", "created": 1_790_000_000,
            "model": body["model"],
            "choices": [{"index": 0, "finish_reason": "stop",
                "message": {"role": "assistant", "content": summary.to_string()}}],
            "usage": {"prompt_tokens": 1000, "completion_tokens": 200, "total_tokens": 1200}
        }))
    }
    let seen: Seen = Arc::default();
    let app = axum::Router::new()
        .route("/v1/chat/completions", axum::routing::post(complete))
        .with_state(seen.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url, seen)
}

#[tokio::test]
async fn customer_accounts_can_use_an_openai_compatible_model_at_the_same_rates() {
    let (url, seen) = openai_compatible().await;
    let app = common::spawn_app().await;
    let customer = app.account("Customer", ALL).await;
    app.journal_on(customer.id).await;
    let internal_id = n8v_journal::admin::create_account(&app.owner, "n8v", true)
        .await
        .unwrap();
    let (_, internal) = app.key(internal_id, ALL, None).await;
    app.journal_on(internal_id).await;
    let paid = worked(
        &app,
        &customer.token,
        "Ship",
        "Log",
        json!({"outcome": "Shipped"}),
    )
    .await;
    let free = worked(
        &app,
        &internal,
        "Ship",
        "Log",
        json!({"outcome": "Shipped"}),
    )
    .await;
    summarise_all(&app, |c| {
        c.summaries.proxy = Some(ProviderSettings {
            base_url: url.clone().into(),
            api_key: "local".into(),
            model: "local-llama".into(),
        });
        c.summaries.customer_provider = CustomerProvider::Proxy;
    })
    .await;
    // Two model calls per summary (a draft, then a cut-only edit), both to the local model.
    assert_eq!(*seen.lock().unwrap(), ["local-llama"; 4]);
    let paid = app.session_detail(&customer.token, &paid).await;
    let model_and_cost = |s: &Session| {
        let model = s.summary_model.clone().unwrap_or_default();
        (model, s.summary_cost_usd.clone().unwrap_or_default())
    };
    // Twice 1,000 input tokens at $0.25/Mtok and 200 output tokens at $1.50/Mtok.
    assert_eq!(
        model_and_cost(&paid.session),
        ("local-llama".into(), "0.0011".into()),
        "{paid:?}"
    );
    let free = app.session_detail(&internal, &free).await;
    assert_eq!(
        model_and_cost(&free.session),
        ("local-llama".into(), "0".into())
    );

    let err = CustomerProvider::parse("openai").unwrap_err().to_string();
    assert!(
        err.contains("gemini") && err.contains("proxy") && err.contains("code"),
        "{err}"
    );
    assert_eq!(
        CustomerProvider::parse("Code").unwrap(),
        CustomerProvider::Code
    );
}

#[tokio::test]
async fn a_week_digest_keeps_the_stated_and_the_marked_items() {
    use chrono::Datelike;
    use n8v_journal::clock::Clock;
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let today = app.clock.now().date_naive();
    let monday = today - Duration::days(today.weekday().num_days_from_monday() as i64 + 21);
    let at = monday.and_hms_opt(10, 0, 0).unwrap().and_utc();
    let insert = |outcome: &'static str, summary: Option<Value>, handoff: Option<Value>| {
        sqlx::query(
            "INSERT INTO journal_sessions (account_id, session_id, credential_id, kind, \
                 assistant, scopes, goal, outcome, started_at, last_activity_at, ended_at, \
                 end_reason, journal_only, summary, summary_model, handoff) \
             VALUES ($1, $2, $3, 'explicit', 'Claude', '{chats:read}', 'a goal', $4, $5, $5, \
                 $5, 'ended', false, $6, CASE WHEN $6 IS NULL THEN NULL ELSE 'code' END, $7)",
        )
        .bind(a.id)
        .bind(uuid::Uuid::now_v7())
        .bind(a.key_id)
        .bind(outcome)
        .bind(at)
        .bind(summary)
        .bind(handoff)
        .execute(&app.owner)
    };
    let summary = json!({"summary": "Cache work", "decisions": ["Keep cache layer 1."],
        "work_started": [], "work_finished": [], "open_questions": []});
    insert(
        "Cache shipped",
        Some(summary),
        Some(
            json!({"decisions": ["Keep cache layer 1", "Pin the toolchain"],
                    "open_questions": ["Should limit 1 be configurable?"], "next_steps": []}),
        ),
    )
    .await
    .unwrap();
    insert(
        "Shipped. Decided: use approach 5. Can area 5 wait?",
        None,
        None,
    )
    .await
    .unwrap();
    n8v_journal::jobs::digests::roll_up(&app.workers(|_| {}))
        .await
        .unwrap();
    let digests: DigestList = app
        .get_typed(&a.token, "/api/v1/journal/digests?period=week")
        .await;
    let week = &digests.digests[0].summary;
    assert_eq!(
        week.decisions,
        ["Keep cache layer 1", "Pin the toolchain", "use approach 5"],
        "{digests:?}"
    );
    assert_eq!(
        week.open_questions,
        ["Should limit 1 be configurable?", "Can area 5 wait?"]
    );
}
