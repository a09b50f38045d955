//! What a reader is shown of what a conversation was handed (issue 52, 3d): an organization's
//! owner reads a member's organization session, and its receipts, but never the member's
//! private sessions and items they name, nor the answer's size; a key that cannot read a
//! decision is never named it as another's replacement in its export.

use crate::common::{self, JOURNAL_AND_ORG_SCOPES as OWNER, TestApp};
use crate::decisions::ALL;
use n8v_journal::ids::{ItemId, SessionId};
use reqwest::Method;
use serde_json::json;
use uuid::Uuid;

async fn item(app: &TestApp, text: &str) -> String {
    let id: Uuid = sqlx::query_scalar("SELECT loop_id FROM journal_loops WHERE text = $1")
        .bind(text)
        .fetch_one(&app.owner)
        .await
        .unwrap();
    ItemId(id).to_string()
}

#[tokio::test]
async fn an_owner_reads_a_members_receipts_without_what_it_cannot_read() {
    let app = common::spawn_app().await;
    let (o, m, org) = app.owner_and_member(OWNER).await;
    // The member's private session, with a private decision.
    let private = app
        .start_session(&m.token, None, json!({"goal": "My own thing"}))
        .await
        .id
        .to_string();
    app.end_session(
        &m.token,
        &private,
        json!({"outcome": "Done", "decisions": ["Private plan"]}),
    )
    .ok(200)
    .await;
    let decision = item(&app, "Private plan").await;
    // Its organization session catches up: the brief hands it the private session and item.
    let shared = app
        .start_session(
            &m.token,
            None,
            json!({"goal": "Org work", "organization": org}),
        )
        .await
        .id
        .to_string();
    app.call(Method::GET, "/api/v1/journal/catch-up")
        .token(&m.token)
        .session(Some(&shared))
        .ok(200)
        .await;

    // The member reads its own receipt whole.
    let own = app.session_detail(&m.token, &shared).await.told;
    assert_eq!(own.len(), 1, "{own:?}");
    assert!(common::ids(&own[0].sessions).contains(&private), "{own:?}");
    assert_eq!(common::ids(&own[0].items), vec![decision.clone()]);
    assert!(own[0].chars.is_some() && own[0].unreadable == 0, "{own:?}");

    // The owner reads the session and its receipt, without the member's private ones.
    let told = app.session_detail(&o.token, &shared).await.told;
    assert_eq!(told.len(), 1, "{told:?}");
    assert!(
        !common::ids(&told[0].sessions).contains(&private),
        "{told:?}"
    );
    assert!(told[0].items.is_empty(), "{told:?}");
    assert!(told[0].unreadable >= 2, "counted, not named: {told:?}");
    assert_eq!(told[0].chars, None, "the size would tell of them: {told:?}");
    // Nor in the call itself, nor in the session's actions.
    let entry = app
        .get_typed::<serde_json::Value>(
            &o.token,
            &format!("/api/v1/journal/entries/{}", told[0].call_id),
        )
        .await;
    let text = entry.to_string();
    assert!(
        !text.contains(&private) && !text.contains(&decision),
        "{text}"
    );
    let detail = app
        .get_typed::<serde_json::Value>(&o.token, &format!("/api/v1/journal/sessions/{shared}"))
        .await
        .to_string();
    assert!(
        !detail.contains(&private) && !detail.contains(&decision),
        "{detail}"
    );
    // The member's own read of the call names them.
    let entry = app
        .get_typed::<serde_json::Value>(
            &m.token,
            &format!("/api/v1/journal/entries/{}", told[0].call_id),
        )
        .await
        .to_string();
    assert!(
        entry.contains(&private) && entry.contains(&decision),
        "{entry}"
    );
}

#[tokio::test]
async fn an_export_never_names_a_replacement_its_key_cannot_read() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL).await;
    app.journal_on(a.id).await;
    let (_, narrow) = app.key(a.id, "chats:read", None).await;
    // The narrow key's decision, replaced by one made with every scope (which it cannot read).
    for (token, text) in [(&narrow, "Narrow plan"), (&a.token, "Wide plan")] {
        let session: SessionId = app
            .start_session(token, None, json!({"goal": "Plan"}))
            .await
            .id;
        app.end_session(
            token,
            &session.to_string(),
            json!({"outcome": "Done", "decisions": [text]}),
        )
        .ok(200)
        .await;
    }
    let (old, new) = (
        item(&app, "Narrow plan").await,
        item(&app, "Wide plan").await,
    );
    app.call(
        Method::POST,
        &format!("/api/v1/journal/decisions/{old}/replace"),
    )
    .token(&a.token)
    .json(json!({ "by": new }))
    .ok(200)
    .await;
    let theirs = app.text(&narrow, "/api/v1/journal/export").await;
    let line = theirs
        .lines()
        .find(|l| l.contains(&old) && l.contains("\"loop\""))
        .unwrap_or_else(|| panic!("the replaced decision is exported: {theirs}"));
    let line: serde_json::Value = serde_json::from_str(line).unwrap();
    assert_eq!(line["state"], "replaced", "{line}");
    assert!(line["replaced_by"].is_null(), "{line}");
    assert!(!theirs.contains(&new), "{theirs}");
    // The key that reads both is told which replaced it.
    let whole = app.text(&a.token, "/api/v1/journal/export").await;
    assert!(
        whole.contains(&format!("\"replaced_by\":\"{new}\"")),
        "{whole}"
    );
}
