//! Text is normalized, then scrubbed, on every path that stores or logs it (issue 34, finding
//! 8): a target id with a zero-width space inside its token, a User-Agent whose disallowed
//! character sits inside a token, an episode's `harness` and `episode_id`, and `X-Request-Id`.
//! Each is sent with a real token format; afterwards no stored row (read as the owner) and no
//! trace-level log line holds any eight characters of the token, while a canary sent beside it
//! is found (the scan and the capture work).

use crate::common;

use crate::common::TestApp;
use reqwest::Method;
use serde_json::json;
use uuid::Uuid;

use crate::common::DELETING_SCOPES as SCOPES;

/// A fresh GitHub token (`ghp_` and 36 letters and digits).
fn github_token() -> String {
    format!("ghp_{}Zq9X", Uuid::new_v4().simple())
}

fn canary() -> String {
    format!("Canary{}", &Uuid::new_v4().simple().to_string()[..10])
}

/// `token` with `inserted` after its fifth character.
fn split(token: &str, inserted: &str) -> String {
    format!("{}{inserted}{}", &token[..5], &token[5..])
}

/// An app whose log lines are captured at trace level, an account with the journal on, the
/// token a test hides and a canary it sends beside it.
struct Scene {
    _guard: tracing::subscriber::DefaultGuard,
    logs: common::logs::Buffer,
    app: TestApp,
    account: common::Account,
    secret: String,
    canary: String,
}

impl Scene {
    async fn new() -> Self {
        let (_guard, logs) = common::logs::capture_on_this_thread();
        let app = common::spawn_app().await;
        let account = app.account("A", SCOPES).await;
        app.journal_on(account.id).await;
        Scene {
            _guard,
            logs,
            app,
            account,
            secret: github_token(),
            canary: canary(),
        }
    }

    /// Nothing of the token stored or logged, where the canary is found stored.
    async fn nothing_stored_or_logged(&self) {
        let (app, token, canary) = (&self.app, &self.secret, &self.canary);
        let control = common::scan::stored_matches(app, &common::scan::windows(canary)).await;
        assert!(!control.is_empty(), "the scan finds the canary");
        let stored = common::scan::stored_matches(app, &common::scan::windows(token)).await;
        assert_eq!(
            stored,
            Vec::<(String, i64)>::new(),
            "part of the token is stored"
        );
        let logged = common::logs::text(&self.logs);
        assert!(logged.contains("/api/v1/"), "the log capture works");
        let pattern = regex::Regex::new(&common::scan::windows(token)).unwrap();
        let line = logged.lines().find(|l| pattern.is_match(l));
        assert!(line.is_none(), "part of the token logged: {line:?}");
    }
}

#[tokio::test]
async fn a_zero_width_space_inside_a_target_ids_token_hides_nothing() {
    let scene = Scene::new().await;
    let (app, a, token, canary) = (&scene.app, &scene.account, &scene.secret, &scene.canary);
    let target = split(token, "\u{200B}");
    let encoded =
        percent_encoding::utf8_percent_encode(&target, percent_encoding::NON_ALPHANUMERIC);
    app.call(Method::GET, &format!("/api/v1/journal/sessions/{encoded}"))
        .token(&a.token)
        .purpose(&format!("Look up {canary}"))
        .problem(404, "not-found")
        .await;
    let client = common::mcp::connect(app, &a.token).await;
    common::mcp::call(
        &client,
        "journal_entry",
        json!({ "entry_id": target, "purpose": format!("Look it up {canary}") }),
    )
    .await;
    scene.nothing_stored_or_logged().await;
}

#[tokio::test]
async fn a_disallowed_character_inside_a_user_agents_token_hides_nothing() {
    let scene = Scene::new().await;
    let (app, a, token, canary) = (&scene.app, &scene.account, &scene.secret, &scene.canary);
    for agent in [
        format!("{canary} {}", split(token, "!")),
        format!("{canary}/1.0 {}", split(token, "#")),
    ] {
        app.call(Method::GET, "/api/v1/records")
            .token(&a.token)
            .purpose(&format!("List {canary}"))
            .header("user-agent", &agent)
            .ok(200)
            .await;
    }
    scene.nothing_stored_or_logged().await;
}

#[tokio::test]
async fn an_episodes_harness_and_id_holding_a_token_are_scrubbed() {
    let scene = Scene::new().await;
    let (app, a, token, canary) = (&scene.app, &scene.account, &scene.secret, &scene.canary);
    let episode = |id: &str, harness: &str| {
        json!({
            "episode_id": id, "harness": harness,
            "started_at": "2026-11-10T09:00:00Z", "ended_at": "2026-11-10T09:40:00Z",
            "turns": [
                {"role": "user", "text": format!("Fix the login {canary}")},
                {"role": "assistant", "text": "Fixed."},
            ],
        })
    };
    for body in [
        episode(&format!("ep-{canary}"), token),
        episode(token, "claude-code"),
    ] {
        let response = app
            .call(Method::POST, "/api/v1/journal/episodes")
            .token(&a.token)
            .purpose(&format!("Post {canary}"))
            .json(body)
            .send()
            .await;
        let status = response.status().as_u16();
        let text = response.text().await.unwrap();
        assert_eq!(status, 201, "scrubbed and stored like any text: {text}");
        assert!(
            !text.contains(&token[..12]),
            "the answer repeats it: {text}"
        );
    }
    // Both are kept scrubbed: the harness as the entry's assistant, the id as its episode.
    let kept: Vec<(String, String)> = sqlx::query_as(
        "SELECT assistant, episode_id FROM journal_sessions WHERE kind = 'episode' \
         ORDER BY assistant",
    )
    .fetch_all(&app.owner)
    .await
    .unwrap();
    assert_eq!(kept.len(), 2, "{kept:?}");
    assert!(
        kept.iter()
            .any(|(harness, _)| harness.starts_with("[REDACTED:"))
            && kept.iter().any(|(_, id)| id.starts_with("[REDACTED:")),
        "{kept:?}"
    );
    // What the scrub removed is an exposure of the posting call, as from any other text.
    let sightings: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM journal_exposure_sightings WHERE field = 'target'",
    )
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert!(sightings >= 1, "no exposure recorded");
    scene.nothing_stored_or_logged().await;
}

#[tokio::test]
async fn a_request_id_holding_a_token_is_neither_stored_nor_logged() {
    let scene = Scene::new().await;
    let (app, a, token, canary) = (&scene.app, &scene.account, &scene.secret, &scene.canary);
    let response = app
        .call(Method::GET, "/api/v1/records")
        .token(&a.token)
        .purpose(&format!("List {canary}"))
        .header("x-request-id", token)
        .send()
        .await;
    assert_eq!(response.status(), 200);
    let echoed = response.headers()["x-request-id"]
        .to_str()
        .unwrap()
        .to_owned();
    assert_ne!(&echoed, token, "a fresh request id replaces it");
    // An acceptable one is still kept.
    let mine = format!("req-{canary}");
    let kept = app
        .call(Method::GET, "/api/v1/records")
        .token(&a.token)
        .header("x-request-id", &mine)
        .send()
        .await;
    assert_eq!(kept.headers()["x-request-id"], mine.as_str());
    scene.nothing_stored_or_logged().await;
}
