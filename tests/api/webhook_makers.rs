//! An endpoint stops with its maker (issue 44 finding 1): once the key that made it is revoked
//! (here with the real `admin revoke-key`), no delivery is made for it and none pending is
//! sent; its listing and Settings say so; the account hands it to a live key, whose reach is
//! then its ceiling, and events flow again.

use crate::common::receiver::{Receiver, verified};
use crate::common::{TestApp, page};
use crate::webhooks::{SCOPES, ended_session, endpoint, private_app, workers};
use n8v_journal::clock::Clock;
use n8v_journal::ids::{self, Kind};
use n8v_journal::jobs;
use n8v_journal::ops::webhooks::WebhookList;
use n8v_journal::webhooks::endpoints::Webhook;
use reqwest::Method;
use reqwest::header::{ACCEPT, CONTENT_TYPE, COOKIE};
use serde_json::json;
use uuid::Uuid;

const BIN: &str = env!("CARGO_BIN_EXE_n8v-journal");

/// `n8v-journal admin revoke-key`, the binary an operator runs.
fn revoke_with_cli(app: &TestApp, key: Uuid) {
    let key = ids::format(Kind::Key, key);
    let out = std::process::Command::new(BIN)
        .args(["admin", "revoke-key", "--key", &key])
        .env("DATABASE_URL", &app.db_url)
        .env_remove("N8V_MIGRATION_DATABASE_URL")
        .output()
        .expect("run the binary");
    assert!(
        out.status.success(),
        "revoke-key failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The endpoint's deliveries as stored: (status, excerpt), oldest first.
async fn stored(app: &TestApp, webhook: &str) -> Vec<(String, Option<String>)> {
    let id = ids::parse(Kind::Webhook, webhook).unwrap();
    sqlx::query_as(
        "SELECT status, last_excerpt FROM webhook_deliveries WHERE endpoint_id = $1
          ORDER BY created_at, delivery_id",
    )
    .bind(id)
    .fetch_all(&app.owner)
    .await
    .unwrap()
}

async fn listed(app: &TestApp, token: &str, webhook: &str) -> Webhook {
    let list: WebhookList = app.get_typed(token, "/api/v1/webhooks").await;
    let found = list.webhooks.iter().find(|w| w.id.to_string() == webhook);
    found
        .unwrap_or_else(|| panic!("{webhook} not listed: {list:?}"))
        .clone()
}

#[tokio::test]
async fn an_endpoint_stops_with_its_maker_and_flows_again_once_a_live_key_takes_it() {
    let app = private_app().await;
    let a = app.account("A", SCOPES).await;
    app.journal_on(a.id).await;
    let (_, live) = app.key(a.id, SCOPES, None).await;
    let receiver = Receiver::start().await;
    let (webhook, secret) = endpoint(&app, &a.token, &receiver.url(), &["session.ended"]).await;
    let state = workers(&app);

    // Ended before the revocation, not yet sent; then the maker is revoked.
    ended_session(&app, &live, json!({"decisions": ["Keep the flag"]})).await;
    revoke_with_cli(&app, a.key_id);
    app.call(Method::GET, "/api/v1/webhooks")
        .token(&a.token)
        .problem(401, "unauthorized")
        .await;
    ended_session(&app, &live, json!({"decisions": ["Drop the flag"]})).await;

    let counts = jobs::webhooks::deliver_due(&state).await.unwrap();
    assert_eq!(counts.delivered, 0, "{counts:?}");
    assert!(receiver.received().is_empty(), "nothing reached it");
    let rows = stored(&app, &webhook).await;
    assert_eq!(
        rows.len(),
        1,
        "no delivery made after the revocation: {rows:?}"
    );
    assert_eq!(rows[0].0, "failed", "the pending one ended: {rows:?}");
    assert!(
        rows[0].1.as_deref().unwrap_or_default().contains("revoked"),
        "{rows:?}"
    );
    let shown = listed(&app, &live, &webhook).await;
    assert!(shown.maker_revoked, "{shown:?}");
    let read = app
        .call(Method::GET, &format!("/api/v1/webhooks/{webhook}"))
        .token(&live)
        .ok(200)
        .await;
    assert_eq!(read["maker_revoked"], true, "{read}");

    // A live key of the account takes it: the next event goes out, signed as before.
    let taken = app
        .call(Method::POST, &format!("/api/v1/webhooks/{webhook}/maker"))
        .token(&live)
        .ok(200)
        .await;
    assert_eq!(taken["maker_revoked"], false, "{taken}");
    let session = ended_session(&app, &live, json!({"decisions": ["Ship it"]})).await;
    let counts = jobs::webhooks::deliver_due(&state).await.unwrap();
    assert_eq!(counts.delivered, 1, "{counts:?}");
    let got = verified(&secret, &receiver.received());
    assert_eq!(got.len(), 1);
    assert_eq!(got[0]["data"]["session"], json!(session));
}

#[tokio::test]
async fn the_new_maker_s_reach_is_the_ceiling_and_only_the_account_s_webhook_keys_may_take_it() {
    let app = private_app().await;
    let a = app.account("A", SCOPES).await;
    let b = app.account("B", SCOPES).await;
    app.journal_on(a.id).await;
    let (_, other) = app.key(a.id, SCOPES, None).await;
    let (_, narrow) = app.key(a.id, SCOPES, Some("acme/api")).await;
    let (_, reader) = app.key(a.id, crate::common::JOURNAL_SCOPES, None).await;
    let receiver = Receiver::start().await;
    let (webhook, secret) = endpoint(&app, &a.token, &receiver.url(), &["session.ended"]).await;
    let path = format!("/api/v1/webhooks/{webhook}/maker");

    app.call(Method::POST, &path)
        .token(&reader)
        .problem(403, "missing-scope")
        .await;
    app.call(Method::POST, &path)
        .token(&b.token)
        .problem(404, "not-found")
        .await;
    app.call(
        Method::POST,
        "/api/v1/webhooks/whk_0000000000000000000000000/maker",
    )
    .token(&other)
    .problem(404, "not-found")
    .await;

    // A repository-restricted key takes it: it hears of that key's sessions only.
    app.call(Method::POST, &path).token(&narrow).ok(200).await;
    let state = workers(&app);
    ended_session(&app, &other, json!({})).await;
    let own = ended_session(&app, &narrow, json!({})).await;
    assert_eq!(
        jobs::webhooks::deliver_due(&state).await.unwrap().delivered,
        1
    );
    let got = verified(&secret, &receiver.received());
    assert_eq!(got.len(), 1);
    assert_eq!(got[0]["data"]["session"], json!(own));
}

#[tokio::test]
async fn settings_say_the_maker_is_revoked_and_hand_the_endpoint_to_the_signed_in_key() {
    let app = private_app().await;
    let a = app.account("A", SCOPES).await;
    app.journal_on(a.id).await;
    let (_, live) = app.key(a.id, SCOPES, None).await;
    let receiver = Receiver::start().await;
    let (webhook, _) = endpoint(&app, &a.token, &receiver.url(), &["session.ended"]).await;
    n8v_journal::admin::revoke_key(&app.owner, a.key_id)
        .await
        .unwrap();
    let cookie = page::sign_in(&app, &live).await;
    let http = page::client();
    let settings = || {
        http.get(app.url("/journal/settings"))
            .header(ACCEPT, "text/html")
            .header(COOKIE, &cookie)
            .send()
    };
    let html = settings().await.unwrap().text().await.unwrap();
    let card = html.split(&format!("id=\"{webhook}\"")).nth(1).unwrap();
    let card = card.split("</li>\n{").next().unwrap_or(card);
    assert!(card.contains("the key that made it is revoked"), "{card}");
    let form = card
        .split("action=\"/journal/webhooks/maker\"")
        .nth(1)
        .unwrap_or_else(|| panic!("no hand-over form: {card}"));
    let csrf = page::csrf(form);
    let body = serde_urlencoded::to_string([("csrf", csrf.as_str()), ("webhook", &webhook)]);
    let posted = http
        .post(app.url("/journal/webhooks/maker"))
        .header(COOKIE, &cookie)
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(body.unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(posted.status(), 303);
    assert!(!listed(&app, &live, &webhook).await.maker_revoked);
    let html = settings().await.unwrap().text().await.unwrap();
    assert!(!html.contains("the key that made it is revoked"), "{html}");
}

#[tokio::test]
async fn a_delivery_left_pending_past_the_revocation_is_never_claimed_and_ends_with_the_reason() {
    let app = private_app().await;
    let a = app.account("A", SCOPES).await;
    app.journal_on(a.id).await;
    let (_, live) = app.key(a.id, SCOPES, None).await;
    let receiver = Receiver::start().await;
    let (webhook, _) = endpoint(&app, &a.token, &receiver.url(), &["session.ended"]).await;
    ended_session(&app, &live, json!({})).await;
    revoke_with_cli(&app, a.key_id);
    // As if made while the revocation committed (its ending of them did not see it): pending.
    sqlx::query(
        "UPDATE webhook_deliveries SET status = 'pending', last_excerpt = NULL
          WHERE endpoint_id = $1",
    )
    .bind(ids::parse(Kind::Webhook, &webhook).unwrap())
    .execute(&app.owner)
    .await
    .unwrap();
    let state = workers(&app);
    let counts = jobs::webhooks::deliver_due(&state).await.unwrap();
    assert_eq!(counts, Default::default(), "the claim skips it");
    assert!(receiver.received().is_empty());
    app.call(Method::POST, &format!("/api/v1/webhooks/{webhook}/test"))
        .token(&live)
        .problem(409, "conflict")
        .await;

    // 30 days on, it ends as failed with the reason (seen with a prune that deletes no event),
    // and then its event is pruned.
    app.clock.advance(chrono::Duration::days(31));
    let now = app.clock.now();
    n8v_journal::webhooks::deliveries::prune(&app.owner, now, 0)
        .await
        .unwrap();
    assert_eq!(
        stored(&app, &webhook).await,
        [(
            "failed".to_owned(),
            Some(n8v_journal::webhooks::deliveries::ENDED_MAKER_REVOKED.to_owned())
        )]
    );
    let counts = jobs::webhooks::deliver_due(&state).await.unwrap();
    assert_eq!(counts.pruned, 1, "{counts:?}");
    assert!(receiver.received().is_empty());
    assert!(
        stored(&app, &webhook).await.is_empty(),
        "gone with its event"
    );
}
