//! An exposure shows a credential only what it could read of its sightings (issue 34, finding
//! 9): a repository-restricted key that puts a candidate credential in its own purpose learns
//! nothing of the account's earlier sightings of it (not their time through the exposure's id,
//! not their acknowledgement), and acknowledging it silences only its own sightings, never the
//! warning the account's other keys are given.

use crate::common;

use crate::common::TestApp;
use chrono::Duration;
use n8v_journal::clock::Clock;
use reqwest::Method;
use uuid::Uuid;

use crate::common::DELETING_SCOPES as SCOPES;

fn github_token() -> String {
    format!("ghp_{}Zq9X", Uuid::new_v4().simple())
}

async fn purpose(app: &TestApp, token: &str, purpose: &str) {
    app.call(Method::GET, "/api/v1/records")
        .token(token)
        .purpose(purpose)
        .ok(200)
        .await;
}

fn acknowledge<'a>(app: &'a TestApp, token: &str, id: &str) -> common::Call<'a> {
    app.call(
        Method::POST,
        &format!("/api/v1/journal/exposures/{id}/acknowledge"),
    )
    .token(token)
}

/// The time an `exp_…` id carries, if it is a time-ordered (version 7) UUID.
fn time_in(id: &str) -> Option<(u64, u32)> {
    let uuid = n8v_journal::ids::parse(n8v_journal::ids::Kind::Exposure, id).expect("an id");
    uuid.get_timestamp().map(|t| t.to_unix())
}

#[tokio::test]
async fn a_restricted_key_learns_nothing_of_earlier_sightings_and_silences_only_its_own() {
    let app = common::spawn_app().await;
    let a = app.account("A", SCOPES).await;
    app.journal_on(a.id).await;
    let token = github_token();

    // The unrestricted key's session holds the credential, and it was acknowledged once.
    purpose(&app, &a.token, &format!("Deploy with {token}")).await;
    let earlier = app.exposures(&a.token, "").await;
    let id = earlier[0].id.to_string();
    app.clock.advance(Duration::hours(1));
    acknowledge(&app, &a.token, &id).ok(200).await;

    // A day later a repository-restricted key tries the same credential in its own purpose.
    app.clock.advance(Duration::days(1));
    let (_, restricted) = app.key(a.id, SCOPES, Some("acme/app")).await;
    purpose(&app, &restricted, &format!("Is this scrubbed? {token}")).await;
    let seen_at = app.clock.now();
    let own = app.exposures(&restricted, "").await;
    assert_eq!(own.len(), 1, "{own:?}");
    let mine = &own[0];
    assert_eq!((mine.count, mine.acknowledged), (1, false), "{mine:?}");
    assert_eq!(
        mine.acknowledged_at, None,
        "the other key's acknowledgement shows: {mine:?}"
    );
    assert!(
        mine.first_seen >= seen_at - Duration::seconds(1),
        "{mine:?}"
    );
    let shown = &mine.id.to_string();
    assert_eq!(
        time_in(shown),
        None,
        "the exposure's id dates the account's first sighting: {mine:?}"
    );

    // Acknowledging silences its own sighting only: the other key's warning stays.
    let (_, unrestricted) = app.key(a.id, SCOPES, None).await;
    purpose(&app, &unrestricted, &format!("Again {token}")).await;
    acknowledge(&app, &restricted, shown).ok(200).await;
    assert!(app.exposures(&restricted, "").await[0].acknowledged);
    let brief = app.brief(&a.token, None).await;
    let warned = &brief.exposures;
    assert_eq!(
        warned.len(),
        1,
        "the restricted key silenced the account's warning: {brief:?}"
    );
    assert_eq!(warned[0].count, 3, "{brief:?}");

    // A key that reads none of its sightings may not acknowledge it.
    let (_, other_repo) = app.key(a.id, SCOPES, Some("acme/other")).await;
    acknowledge(&app, &other_repo, shown)
        .problem(404, "not-found")
        .await;
}
