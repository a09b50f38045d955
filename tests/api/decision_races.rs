//! Replacing decisions under real use (issue 52, 3a and 3b): replacements racing in opposite
//! directions, an owner reaching for a member's decision, and cycles an earlier race left.

use crate::common::{self, JOURNAL_AND_ORG_SCOPES as OWNER, TestApp};
use crate::decisions::ALL;
use n8v_journal::ids::ItemId;
use reqwest::Method;
use serde_json::json;
use uuid::Uuid;

/// A session of `token` ended with the decision `text` (in `org` when given); its item's id.
async fn decided(app: &TestApp, token: &str, text: &str, org: Option<&str>) -> Uuid {
    let mut start = json!({"goal": "Decide"});
    if let Some(org) = org {
        start["organization"] = json!(org);
    }
    let session = app.start_session(token, None, start).await.id.to_string();
    app.end_session(
        token,
        &session,
        json!({"outcome": "Decided", "decisions": [text]}),
    )
    .ok(200)
    .await;
    sqlx::query_scalar("SELECT loop_id FROM journal_loops WHERE text = $1 AND kind = 'decision'")
        .bind(text)
        .fetch_one(&app.owner)
        .await
        .unwrap()
}

async fn replace(app: &TestApp, token: &str, id: Uuid, by: Uuid) -> u16 {
    app.call(
        Method::POST,
        &format!("/api/v1/journal/decisions/{}/replace", ItemId(id)),
    )
    .token(token)
    .json(json!({ "by": ItemId(by).to_string() }))
    .send()
    .await
    .status()
    .as_u16()
}

/// Each decision's state and what replaced it.
async fn states(app: &TestApp, ids: &[Uuid]) -> Vec<(String, Option<Uuid>)> {
    let mut out = Vec::new();
    for id in ids {
        let row: (String, Option<Uuid>) =
            sqlx::query_as("SELECT state, replaced_by FROM journal_loops WHERE loop_id = $1")
                .bind(id)
                .fetch_one(&app.owner)
                .await
                .unwrap();
        out.push(row);
    }
    out
}

#[tokio::test]
async fn replacements_racing_in_opposite_directions_leave_one_decision_current() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let (_, other) = app.key(a.id, ALL, None).await;
    for n in 0..30 {
        let p = decided(&app, &a.token, &format!("Plan P{n}"), None).await;
        let q = decided(&app, &other, &format!("Plan Q{n}"), None).await;
        let (one, two) = tokio::join!(replace(&app, &a.token, p, q), replace(&app, &other, q, p));
        let mut answers = [one, two];
        answers.sort();
        assert_eq!(
            answers,
            [200, 409],
            "pair {n}: one stands, the other is refused"
        );
        let states = states(&app, &[p, q]).await;
        let current = states.iter().filter(|(s, _)| s == "open").count();
        assert_eq!(current, 1, "pair {n}: exactly one is current: {states:?}");
    }
}

#[tokio::test]
async fn an_owner_cannot_replace_its_decision_by_a_members() {
    let app = common::spawn_app().await;
    let (o, m, org) = app.owner_and_member(OWNER).await;
    let theirs = decided(&app, &m.token, "The member's plan", Some(&org)).await;
    let mine = decided(&app, &o.token, "The owner's plan", None).await;
    // The owner reads the member's decision ...
    let brief = app.brief(&o.token, None).await;
    assert!(
        brief
            .decisions
            .iter()
            .any(|d| d.text == "The member's plan"),
        "{brief:?}"
    );
    // ... but may not use it: refused as any decision it may not use, and nothing changes.
    let status = replace(&app, &o.token, mine, theirs).await;
    assert_eq!(status, 404);
    let states = states(&app, &[mine, theirs]).await;
    assert!(
        states.iter().all(|(s, by)| s == "open" && by.is_none()),
        "{states:?}"
    );
}

#[tokio::test]
async fn a_stored_cycle_is_repaired_the_later_replacement_standing() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let p = decided(&app, &a.token, "Plan P", None).await;
    let q = decided(&app, &a.token, "Plan Q", None).await;
    let r = decided(&app, &a.token, "Plan R", None).await;
    // As two racing replacements once left them: P replaced by Q, then Q by P; and R, which
    // replaced nothing, replaced by P (a chain into the cycle, not part of it).
    for (id, by, at) in [
        (p, q, "2026-11-01"),
        (q, p, "2026-11-02"),
        (r, p, "2026-11-03"),
    ] {
        sqlx::query(
            "UPDATE journal_loops SET state = 'replaced', replaced_by = $2, \
                 closed_at = $3::timestamptz WHERE loop_id = $1",
        )
        .bind(id)
        .bind(by)
        .bind(at)
        .execute(&app.owner)
        .await
        .unwrap();
    }
    sqlx::raw_sql(include_str!("../../migrations/0034_decision_cycles.sql"))
        .execute(&app.owner)
        .await
        .unwrap();
    let states = states(&app, &[p, q, r]).await;
    assert_eq!(
        states,
        vec![
            ("open".to_owned(), None),
            ("replaced".to_owned(), Some(p)),
            ("replaced".to_owned(), Some(p)),
        ]
    );
    // P is current again, and can be replaced as any current decision.
    assert_eq!(
        replace(
            &app,
            &a.token,
            p,
            decided(&app, &a.token, "Plan S", None).await
        )
        .await,
        200
    );
}
