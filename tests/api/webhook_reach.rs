//! Who hears of an event, and with which secret: another account's events never reach an
//! endpoint; an organization's sessions reach its owner's endpoints made with `orgs:read` (never
//! a member's exposures); a rotated secret keeps signing beside the new one for its grace
//! period; an endpoint failing a run of attempts is disabled, and the others are told; a
//! disabled endpoint's deliveries end when their events are due to go, so the events go on time.

use crate::common::receiver::{Answer, Receiver, verified, verify};
use crate::webhooks::{SCOPES, ended_session, endpoint, private_app, workers};
use chrono::Duration;
use n8v_journal::jobs;
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn another_accounts_events_never_reach_an_endpoint_and_its_endpoints_stay_hidden() {
    let app = private_app().await;
    let a = app.account("A", SCOPES).await;
    let b = app.account("B", SCOPES).await;
    app.journal_on(a.id).await;
    app.journal_on(b.id).await;
    let (ra, rb) = (Receiver::start().await, Receiver::start().await);
    let (wa, secret_a) = endpoint(&app, &a.token, &ra.url(), &["session.ended"]).await;
    let (_, secret_b) = endpoint(&app, &b.token, &rb.url(), &["session.ended"]).await;
    let sa = ended_session(&app, &a.token, json!({})).await;
    let sb = ended_session(&app, &b.token, json!({})).await;
    jobs::webhooks::deliver_due(&workers(&app)).await.unwrap();
    let got_a = verified(&secret_a, &ra.received());
    let got_b = verified(&secret_b, &rb.received());
    assert_eq!(got_a.len(), 1);
    assert_eq!(got_a[0]["data"]["session"], json!(sa));
    assert_eq!(got_b.len(), 1);
    assert_eq!(got_b[0]["data"]["session"], json!(sb));
    // B's secret does not verify A's deliveries.
    assert!(verify(&secret_b, &ra.received())[0].is_err());
    // B reads, changes and deletes nothing of A's.
    let listed = app
        .call(Method::GET, "/api/v1/webhooks")
        .token(&b.token)
        .ok(200)
        .await;
    assert_eq!(listed["webhooks"].as_array().unwrap().len(), 1);
    for (method, path) in [
        (Method::GET, format!("/api/v1/webhooks/{wa}")),
        (Method::DELETE, format!("/api/v1/webhooks/{wa}")),
        (Method::POST, format!("/api/v1/webhooks/{wa}/rotate-secret")),
        (Method::GET, format!("/api/v1/webhooks/{wa}/deliveries")),
    ] {
        app.call(method, &path)
            .token(&b.token)
            .problem(404, "not-found")
            .await;
    }
    app.call(Method::GET, &format!("/api/v1/webhooks/{wa}"))
        .token(&a.token)
        .ok(200)
        .await;
}

#[tokio::test]
async fn an_organizations_session_reaches_its_owner_only_with_orgs_read_and_never_its_exposures() {
    let app = private_app().await;
    let owner = app.account("Owner", &format!("{SCOPES},orgs:read")).await;
    let member = app.account("Member", SCOPES).await;
    app.journal_on(owner.id).await;
    app.journal_on(member.id).await;
    let org = app
        .organization_with_reader(owner.id, "Team", member.id)
        .await;
    let org = n8v_journal::ids::format(n8v_journal::ids::Kind::Organization, org);
    let (with_org, without_org) = (Receiver::start().await, Receiver::start().await);
    let events = ["session.ended", "exposure.seen"];
    let (_, secret) = endpoint(&app, &owner.token, &with_org.url(), &events).await;
    let (_, plain_key) = app.key(owner.id, SCOPES, None).await;
    endpoint(&app, &plain_key, &without_org.url(), &events).await;

    let token = format!("ghp_{}Zq9X", uuid::Uuid::new_v4().simple());
    let session = app
        .start_session(
            &member.token,
            Some(&format!("Push with {token}")),
            json!({"goal": "Team work", "organization": org}),
        )
        .await;
    let id = session.id.to_string();
    app.end_session(&member.token, &id, json!({"outcome": "Done"}))
        .ok(200)
        .await;
    // The member's own session, outside the organization: the owner never hears of it.
    ended_session(&app, &member.token, json!({})).await;
    jobs::webhooks::deliver_due(&workers(&app)).await.unwrap();
    let got = verified(&secret, &with_org.received());
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0]["type"], "session.ended");
    assert_eq!(
        (&got[0]["data"]["session"], &got[0]["data"]["organization"]),
        (&json!(id), &json!(org))
    );
    assert!(
        without_org.received().is_empty(),
        "an endpoint made without orgs:read"
    );
}

#[tokio::test]
async fn a_rotated_secret_signs_beside_the_new_one_until_its_grace_period_ends() {
    let app = private_app().await;
    let a = app.account("A", SCOPES).await;
    app.journal_on(a.id).await;
    let receiver = Receiver::start().await;
    let (webhook, old) = endpoint(&app, &a.token, &receiver.url(), &["session.ended"]).await;
    let rotated = app
        .call(
            Method::POST,
            &format!("/api/v1/webhooks/{webhook}/rotate-secret"),
        )
        .token(&a.token)
        .ok(200)
        .await;
    let new = rotated["secret"].as_str().unwrap().to_owned();
    assert!(new.starts_with("whsec_") && new != old, "{rotated}");
    let state = workers(&app);
    ended_session(&app, &a.token, json!({})).await;
    jobs::webhooks::deliver_due(&state).await.unwrap();
    let first = receiver.received();
    let signature = first[0].headers["webhook-signature"].as_str().unwrap();
    assert_eq!(signature.split(' ').count(), 2, "{signature}");
    verified(&old, &first);
    verified(&new, &first);

    app.clock.advance(Duration::hours(25));
    ended_session(&app, &a.token, json!({})).await;
    jobs::webhooks::deliver_due(&state).await.unwrap();
    let later = receiver.received()[1..].to_vec();
    verified(&new, &later);
    assert!(
        verify(&old, &later)[0].is_err(),
        "the old secret stopped signing"
    );
}

#[tokio::test]
async fn an_endpoint_failing_a_run_of_attempts_is_disabled_and_the_others_are_told() {
    let app = private_app().await;
    let a = app.account("A", SCOPES).await;
    app.journal_on(a.id).await;
    let (failing, watching) = (Receiver::start().await, Receiver::start().await);
    failing.answer(Answer::Fail);
    let (broken, _) = endpoint(&app, &a.token, &failing.url(), &["session.ended"]).await;
    let (_, secret) = endpoint(&app, &a.token, &watching.url(), &["endpoint.disabled"]).await;
    let state = app.workers(|c| {
        c.webhooks.allow_private = true;
        c.webhooks.disable_after = 3;
    });
    ended_session(&app, &a.token, json!({})).await;
    for _ in 0..3 {
        jobs::webhooks::deliver_due(&state).await.unwrap();
        app.clock.advance(Duration::hours(11));
    }
    assert_eq!(failing.received().len(), 3);
    let endpoint = app
        .call(Method::GET, &format!("/api/v1/webhooks/{broken}"))
        .token(&a.token)
        .ok(200)
        .await;
    assert_eq!(
        (&endpoint["enabled"], &endpoint["failures"]),
        (&json!(false), &json!(3))
    );
    let told = verified(&secret, &watching.received());
    assert_eq!(told.len(), 1);
    assert_eq!(
        (&told[0]["type"], &told[0]["data"]["webhook"]),
        (&json!("endpoint.disabled"), &json!(broken))
    );
    // Disabled: nothing more is tried, until it is turned on again; then the pending delivery goes.
    jobs::webhooks::deliver_due(&state).await.unwrap();
    assert_eq!(failing.received().len(), 3);
    failing.answer(Answer::Ok);
    app.call(Method::PATCH, &format!("/api/v1/webhooks/{broken}"))
        .token(&a.token)
        .json(json!({"enabled": true}))
        .ok(200)
        .await;
    let counts = jobs::webhooks::deliver_due(&state).await.unwrap();
    assert_eq!(counts.delivered, 1, "{counts:?}");
}

#[tokio::test]
async fn a_disabled_endpoints_pending_deliveries_end_so_its_events_go_after_thirty_days() {
    let app = private_app().await;
    let a = app.account("A", SCOPES).await;
    app.journal_on(a.id).await;
    let failing = Receiver::start().await;
    failing.answer(Answer::Fail);
    let (broken, _) = endpoint(&app, &a.token, &failing.url(), &["session.ended"]).await;
    let state = app.workers(|c| {
        c.webhooks.allow_private = true;
        c.webhooks.disable_after = 1;
    });
    ended_session(&app, &a.token, json!({})).await;
    jobs::webhooks::deliver_due(&state).await.unwrap();
    let path = format!("/api/v1/webhooks/{broken}");
    let endpoint = app.call(Method::GET, &path).token(&a.token).ok(200).await;
    assert_eq!(endpoint["enabled"], false, "{endpoint}");
    // Pending while it may still be turned on again (and then sent, see above).
    let deliveries = format!("{path}/deliveries");
    let page = app
        .call(Method::GET, &deliveries)
        .token(&a.token)
        .ok(200)
        .await;
    assert_eq!(page["deliveries"][0]["status"], "pending", "{page}");
    // Still disabled when the event is 30 days old: the delivery ends, and the event (which
    // holds the session's words) goes on time, with it.
    app.clock.advance(Duration::days(31));
    let counts = jobs::webhooks::deliver_due(&state).await.unwrap();
    assert_eq!(counts.pruned, 1, "{counts:?}");
    let page = app
        .call(Method::GET, &deliveries)
        .token(&a.token)
        .ok(200)
        .await;
    assert_eq!(page["deliveries"], json!([]), "{page}");
    assert_eq!(failing.received().len(), 1, "nothing more was sent to it");
}

#[tokio::test]
async fn the_settings_page_lists_endpoints_and_their_deliveries_and_sends_a_test_event() {
    use reqwest::header::{ACCEPT, CONTENT_TYPE, COOKIE};
    let app = private_app().await;
    let a = app.account("A", SCOPES).await;
    app.journal_on(a.id).await;
    let receiver = Receiver::start().await;
    let (webhook, secret) = endpoint(&app, &a.token, &receiver.url(), &["loop.closed"]).await;
    let cookie = crate::common::page::sign_in(&app, &a.token).await;
    let http = crate::common::page::client();
    let settings = || {
        http.get(app.url("/journal/settings"))
            .header(ACCEPT, "text/html")
            .header(COOKIE, &cookie)
            .send()
    };
    let html = settings().await.unwrap().text().await.unwrap();
    assert!(
        html.contains(&webhook) && html.contains("No delivery yet."),
        "{html}"
    );
    let form = html.split(&format!("id=\"{webhook}\"")).nth(1).unwrap();
    let csrf = crate::common::page::csrf(form);
    let body =
        serde_urlencoded::to_string([("csrf", csrf.as_str()), ("webhook", webhook.as_str())]);
    let posted = http
        .post(app.url("/journal/webhooks/test"))
        .header(COOKIE, &cookie)
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(body.unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(posted.status(), 303);
    jobs::webhooks::deliver_due(&workers(&app)).await.unwrap();
    let got = verified(&secret, &receiver.received());
    assert_eq!(got.len(), 1);
    assert_eq!(
        (&got[0]["type"], &got[0]["data"]["webhook"]),
        (&json!("webhook.test"), &json!(webhook))
    );
    let html = settings().await.unwrap().text().await.unwrap();
    assert!(
        html.contains("webhook.test · delivered after 1 attempt"),
        "{html}"
    );
}
