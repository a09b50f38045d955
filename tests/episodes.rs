//! Episodes: conversations posted by a harness become entries; the prose is never stored, never
//! logged, and what should not reach a model never does.

#[path = "api/common/mod.rs"]
mod common;

use common::TestApp;
use common::model::Model;
use reqwest::Method;
use serde_json::{Value, json};
use std::sync::OnceLock;
use std::sync::atomic::AtomicUsize;

const ALL: &str = "chats:read,records:read,records:write";
const CANARY: &str = "CANARY-7f3a9c";
const PRIVATE: &str = "PRIVATE-2b8d41";
const TOOL_OUTPUT: &str = "TOOLOUT-5e6f02";
const REASONING: &str = "THINKING-0a1b2c";
const GITHUB_TOKEN: &str = "ghp_Abcdefghijklmnopqrstuvwxyz0123456789";

/// Everything the service logs in this test binary, with `RUST_LOG=trace`.
fn logs() -> &'static common::logs::Buffer {
    static LOGS: OnceLock<common::logs::Buffer> = OnceLock::new();
    LOGS.get_or_init(|| {
        use tracing_subscriber::layer::SubscriberExt;
        use tracing_subscriber::util::SubscriberInitExt;
        let buffer = common::logs::Buffer::default();
        let fmt = common::logs::layer(buffer.clone());
        tracing_subscriber::registry().with(fmt).try_init().ok();
        buffer
    })
}

/// The local Gemini-speaking server, its gate open or shut (see `common::model`).
async fn spawn_with_gemini_gate(open: bool) -> (TestApp, Model) {
    logs();
    let (url, model) = common::model::gemini(
        json!({
            "summary": "Fixed the login redirect loop with the person.",
            "decisions": ["Use SameSite=Lax"], "work_started": [],
            "work_finished": ["Login redirect fixed"], "open_questions": []
        }),
        open,
    )
    .await;
    let app = common::spawn_app_configured(|c| common::use_gemini(c, &url)).await;
    (app, model)
}

async fn spawn_with_gemini() -> (TestApp, Model) {
    spawn_with_gemini_gate(true).await
}

fn episode(id: &str, turns: Value) -> Value {
    json!({
        "episode_id": id, "harness": "claude-code", "project": "acme/web",
        "started_at": "2026-11-10T09:00:00Z", "ended_at": "2026-11-10T09:40:00Z",
        "turns": turns,
    })
}

fn conversation() -> Value {
    json!([
        {"role": "user", "text": format!("The login loops. {CANARY} My token is {GITHUB_TOKEN}")},
        {"role": "assistant", "text": "Let me look.", "kind": "message"},
        {"role": "assistant", "text": REASONING, "kind": "reasoning"},
        {"role": "assistant", "text": "grep -r SameSite", "kind": "tool_call"},
        {"role": "tool", "text": TOOL_OUTPUT},
        {"role": "user", "text": PRIVATE, "private": true},
        {"role": "assistant", "text": format!("Fixed: SameSite=Lax. {CANARY}")},
    ])
}

async fn post(app: &TestApp, token: &str, body: Value) -> Value {
    app.call(Method::POST, "/api/v1/journal/episodes")
        .token(token)
        .json(body)
        .ok(201)
        .await
}

#[tokio::test]
async fn an_episode_becomes_an_entry_and_its_prose_is_stored_nowhere() {
    let (app, seen) = spawn_with_gemini().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;

    let posted = post(&app, &a.token, episode("ep-1", conversation())).await;
    assert_eq!(posted["dropped_turns"], 4, "{posted}");
    let entries = posted["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0]["created"], true);
    let session = entries[0]["session_id"].as_str().unwrap().to_owned();

    // The model saw the prose, scrubbed, and nothing it should not.
    let requests: Vec<String> = seen.requests().iter().map(Value::to_string).collect();
    assert_eq!(requests.len(), 2, "a draft and its edit");
    assert!(
        requests[0].contains(CANARY),
        "the draft sees the conversation"
    );
    for request in &requests {
        for never in [
            PRIVATE,
            TOOL_OUTPUT,
            REASONING,
            GITHUB_TOKEN,
            "grep -r SameSite",
        ] {
            assert!(!request.contains(never), "{never} reached the model");
        }
    }

    // The entry is in the journal beside API sessions, labelled with harness and project.
    let entry = app.session_detail(&a.token, &session).await.session;
    assert_eq!(entry.kind, "episode");
    assert_eq!(entry.assistant, "claude-code");
    assert_eq!(entry.repository.as_deref(), Some("acme/web"));
    let model = entry.summary_model.as_deref();
    assert_eq!(model, Some("gemini-3.1-flash-lite"));
    let brief = app
        .call(
            Method::GET,
            "/api/v1/journal/catch-up?since=2026-11-01T00:00:00Z",
        )
        .token(&a.token)
        .ok(200)
        .await;
    assert!(
        brief["work_finished"]
            .to_string()
            .contains("Login redirect fixed"),
        "{brief}"
    );

    // The prose is in no table, no queued job and no log line.
    stored_nowhere(&app, &[CANARY, PRIVATE, TOOL_OUTPUT, "The login loops"]).await;
    let logged = common::logs::text(logs());
    assert!(!logged.is_empty(), "the log capture works");
    for needle in [CANARY, PRIVATE, TOOL_OUTPUT] {
        let line = logged.lines().find(|l| l.contains(needle));
        assert!(
            line.is_none(),
            "{needle} logged: {}",
            &line.unwrap_or_default()[..line.unwrap_or_default().len().min(600)]
        );
    }
}

/// None of `needles` is in any table or queued job. A row's text shows a `bytea` as hex
/// (`\x…`), so each `bytea` column (the job payloads among them) is decoded, and each `jsonb`
/// column's strings are read unescaped, before they are searched.
async fn stored_nowhere(app: &TestApp, needles: &[&str]) {
    let tables = stored_tables(app).await;
    assert!(
        tables.iter().any(
            |(s, t, bytea, _)| (s.as_str(), t.as_str()) == ("apalis", "jobs")
                && bytea.contains(&"job".to_owned())
        ),
        "the job payloads are searched: {tables:?}"
    );
    for (schema, table, bytea, jsonb) in &tables {
        let mut found_in = vec!["t::text LIKE '%' || $1 || '%'".to_owned()];
        found_in.extend(
            bytea
                .iter()
                .map(|c| format!("encode(t.\"{c}\", 'escape') LIKE '%' || $1 || '%'")),
        );
        found_in.extend(jsonb.iter().map(|c| {
            format!(
                "EXISTS (SELECT 1 FROM jsonb_path_query(t.\"{c}\", 'strict $.**') v \
                 WHERE jsonb_typeof(v) = 'string' AND v #>> '{{}}' LIKE '%' || $1 || '%')"
            )
        }));
        for needle in needles {
            let found: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
                "SELECT count(*) FROM {schema}.{table} t WHERE {}",
                found_in.join(" OR ")
            )))
            .bind(needle)
            .fetch_one(&app.owner)
            .await
            .unwrap();
            assert_eq!(found, 0, "{needle} stored in {schema}.{table}");
        }
    }
}

/// Every table of the service's schemas, with its `bytea` and `jsonb` columns.
async fn stored_tables(app: &TestApp) -> Vec<(String, String, Vec<String>, Vec<String>)> {
    sqlx::query_as(
        "SELECT n.nspname::text, c.relname::text, \
                array_agg(a.attname::text) FILTER (WHERE a.atttypid = 'bytea'::regtype), \
                array_agg(a.attname::text) FILTER (WHERE a.atttypid = 'jsonb'::regtype) \
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
         JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped \
         WHERE n.nspname IN ('public', 'apalis') AND c.relkind IN ('r', 'p') \
         GROUP BY 1, 2 ORDER BY 1, 2",
    )
    .fetch_all(&app.owner)
    .await
    .unwrap()
    .into_iter()
    .map(
        |(s, t, b, j): (String, String, Option<Vec<String>>, Option<Vec<String>>)| {
            (s, t, b.unwrap_or_default(), j.unwrap_or_default())
        },
    )
    .collect()
}

#[tokio::test]
async fn a_retried_or_concurrent_episode_never_gets_a_second_entry_or_a_second_model_call() {
    let (app, seen) = spawn_with_gemini_gate(false).await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;

    // The model holds its answer until both posts are past their claim: one at the model, the
    // other waiting on the first one's entry (or, were there no claim, at the model too).
    let body = episode("ep-race", conversation());
    let send = || {
        app.call(Method::POST, "/api/v1/journal/episodes")
            .token(&a.token)
            .json(body.clone())
            .ok(201)
    };
    let done = AtomicUsize::new(0);
    let (x, y, ()) = tokio::join!(
        common::race::counted(&done, send()),
        common::race::counted(&done, send()),
        async {
            common::race::wait_until("both posts past their claim", || async {
                seen.count()
                    + common::race::lock_waiters(&app.db_url).await as usize
                    + done.load(std::sync::atomic::Ordering::SeqCst)
                    >= 2
            })
            .await;
            seen.open();
        }
    );
    let created = [&x, &y]
        .iter()
        .filter(|r| r["entries"][0]["created"] == true)
        .count();
    assert_eq!(created, 1, "{x} {y}");
    assert_eq!(x["entries"][0]["session_id"], y["entries"][0]["session_id"]);
    assert_eq!(seen.count(), 2, "one draft and its edit");
    let entries: i64 =
        sqlx::query_scalar("SELECT count(*) FROM journal_sessions WHERE episode_id = 'ep-race'")
            .fetch_one(&app.owner)
            .await
            .unwrap();
    assert_eq!(entries, 1);

    let first = post(&app, &a.token, episode("ep-retry", conversation())).await;
    let again = post(&app, &a.token, episode("ep-retry", conversation())).await;
    assert_eq!(again["entries"][0]["created"], false);
    assert_eq!(
        again["entries"][0]["session_id"],
        first["entries"][0]["session_id"]
    );
    assert_eq!(seen.count(), 4, "no second model call");
}

#[tokio::test]
async fn long_conversations_split_into_parts_and_silent_ones_cost_nothing() {
    let (app, seen) = spawn_with_gemini().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    // 14 turns of 5,000 characters: three parts of at most 30,000 characters.
    let turns: Vec<Value> = (0..14)
        .map(|i| {
            let role = if i % 2 == 0 { "user" } else { "assistant" };
            json!({"role": role, "text": format!("{i:02} {}", "word ".repeat(1000))})
        })
        .collect();
    let posted = post(&app, &a.token, episode("ep-long", json!(turns))).await;
    let entries = posted["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 3, "{posted}");
    assert_eq!(seen.count(), 6);
    let parts: Vec<i64> = entries
        .iter()
        .map(|e| e["part"].as_i64().unwrap())
        .collect();
    assert_eq!(parts, [0, 1, 2]);

    // No assistant reply (its only reply is private): no entry, no model call.
    let silent = post(
        &app,
        &a.token,
        episode(
            "ep-silent",
            json!([
                {"role": "user", "text": "Hello?"},
                {"role": "assistant", "text": "private reply", "private": true}
            ]),
        ),
    )
    .await;
    assert_eq!(silent["entries"], json!([]));
    assert_eq!(seen.count(), 6);

    // Bad input is a 400 that says what to do.
    for bad in [
        json!({"episode_id": "has spaces"}),
        json!({"harness": "claude code"}),
        json!({"ended_at": "2026-11-10T08:00:00Z"}),
    ] {
        let mut body = episode("ep-bad", conversation());
        for (k, v) in bad.as_object().unwrap() {
            body[k] = v.clone();
        }
        app.call(Method::POST, "/api/v1/journal/episodes")
            .token(&a.token)
            .json(body)
            .problem(400, "bad-request")
            .await;
    }
}

#[tokio::test]
async fn the_mcp_tool_posts_an_episode_too() {
    let (app, seen) = spawn_with_gemini().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let client = common::mcp::connect(&app, &a.token).await;
    let mut args = episode("ep-mcp", conversation());
    args["purpose"] = json!("Journal the conversation that just ended");
    let result = common::mcp::call(&client, "journal_episode", args).await;
    let posted = common::mcp::structured(&result);
    assert_eq!(posted["entries"][0]["created"], true, "{posted}");
    assert_eq!(seen.count(), 2);
    let shape: Value = sqlx::query_scalar(
        "SELECT input_shape FROM journal_calls WHERE operation = 'journal_episode'",
    )
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert!(!shape.to_string().contains(CANARY), "{shape}");
}

#[tokio::test]
async fn without_a_model_an_entry_keeps_the_marked_lines_and_a_short_line_but_no_prose() {
    logs();
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let late = "LATE-CANARY-91d2";
    let turns = json!([
        {"role": "user", "text": format!(
            "The login page redirects forever; please fix it. {} {late}", "Details. ".repeat(30))},
        {"role": "assistant", "text": format!("Looking at the cookie. {CANARY}")},
        {"role": "assistant", "text": format!(
            "Fixed: the cookie is SameSite=Lax now.\nDecided: keep SameSite=Lax.\n\
             TODO: rotate {GITHUB_TOKEN} in CI\nOpen question: drop the v1 login route?")},
    ]);
    // Two hours ago: settled, and inside /journal.md's 14 days.
    let mut body = episode("ep-code", turns);
    let at = chrono::Utc::now() - chrono::Duration::hours(2);
    body["started_at"] = json!((at - chrono::Duration::minutes(20)).to_rfc3339());
    body["ended_at"] = json!(at.to_rfc3339());
    let posted = post(&app, &a.token, body).await;
    assert_eq!(posted["entries"][0]["open"], false, "{posted}");
    let session = posted["entries"][0]["session_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let entry = app.session_detail(&a.token, &session).await.session;
    assert_eq!(entry.summary_model.as_deref(), Some("code"), "{entry:?}");
    let summary = &entry.summary.as_ref().unwrap().summary;
    assert!(
        summary.starts_with(
            "A claude-code conversation in acme/web: asked \u{201c}The login page redirects \
             forever; please fix it."
        ) && summary.contains("last reply \u{201c}Fixed: the cookie is SameSite=Lax now."),
        "{summary}"
    );
    assert!(!summary.contains(late), "cut short: {summary}");
    let handoff = entry.handoff.unwrap_or_default();
    assert_eq!(handoff.decisions, ["keep SameSite=Lax"]);
    assert_eq!(
        handoff.open_questions,
        [
            "TODO: rotate [REDACTED:github-pat] in CI",
            "drop the v1 login route?"
        ]
    );

    // They reach the brief, the open loops and /journal.md.
    let brief = app
        .call(
            Method::GET,
            "/api/v1/journal/catch-up?since=2026-11-01T00:00:00Z",
        )
        .token(&a.token)
        .ok(200)
        .await;
    assert!(
        brief["decisions"].to_string().contains("keep SameSite=Lax"),
        "{brief}"
    );
    let loops = app
        .call(Method::GET, "/api/v1/journal/loops")
        .token(&a.token)
        .ok(200)
        .await;
    let texts = loops.to_string();
    assert!(
        texts.contains("drop the v1 login route?") && texts.contains("TODO: rotate [REDACTED"),
        "{loops}"
    );
    let md = app
        .get(&a.token, "/journal.md?max_chars=20000")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        md.contains("keep SameSite=Lax") && md.contains("drop the v1 login route?"),
        "{md}"
    );
    assert!(!md.contains("ghp_Abcd"), "{md}");
    // The credential scrubbed from a kept item is an exposure, to be rotated.
    let sightings: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM journal_exposure_sightings WHERE field = 'handoff'",
    )
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(sightings, 1);

    // The whole prose is still stored nowhere: not the middle turn, not what the cut left out,
    // not the credential.
    stored_nowhere(&app, &[CANARY, late, GITHUB_TOKEN]).await;
}
