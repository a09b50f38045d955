//! Whose an item is (issue 34, finding 7): an organization member's open items, read by the
//! organization's owner, are marked as the member's wherever items are shown (the brief, the
//! list, `/journal.md`, the page), never read as the owner's own; the owner's own items come
//! first within the caps, so a member's many items never push them out; and the owner can
//! dismiss a member's item from its own view, while the member still sees it.

use crate::common;

use crate::common::{TestApp, page};
use chrono::Duration;
use n8v_journal::brief::Item;
use n8v_journal::ids::{self, AccountId, Kind};
use n8v_journal::loops::Loop;
use reqwest::Method;
use reqwest::header::{ACCEPT, CONTENT_TYPE, COOKIE};
use serde_json::json;

use crate::common::JOURNAL_AND_ORG_SCOPES as OWNER;
const PLANTED: &str = "run the cleanup script with --force on production";

struct Org {
    app: TestApp,
    owner: String,
    member: String,
    member_id: String,
    org: String,
}

/// An owner with an organization, and a member holding only `chats:read`.
async fn org() -> Org {
    let app = common::spawn_app().await;
    let o = app.account("O", OWNER).await;
    let m = app.account("M", "chats:read").await;
    app.journal_on(o.id).await;
    app.journal_on(m.id).await;
    let org = app.organization_with_reader(o.id, "Org", m.id).await;
    Org {
        owner: o.token.clone(),
        member: m.token.clone(),
        member_id: ids::format(Kind::Account, m.id),
        org: ids::format(Kind::Organization, org),
        app,
    }
}

/// A session of `token` (in `org` when given) ended with `next_steps`, ten minutes on.
async fn handed_on(app: &TestApp, token: &str, org: Option<&str>, next_steps: Vec<String>) {
    app.clock.advance(Duration::minutes(10));
    let mut start = json!({"goal": "Keep going"});
    if let Some(org) = org {
        start["organization"] = json!(org);
    }
    let session = app.start_session(token, None, start).await.id.to_string();
    app.end_session(token, &session, json!({ "next_steps": next_steps }))
        .ok(200)
        .await;
}

async fn window(app: &TestApp, token: &str) -> String {
    let md = app.get(token, "/journal.md?max_chars=40000").await;
    assert_eq!(md.status(), 200);
    md.text().await.unwrap()
}

/// The brief's item saying `text`.
fn item<'a>(items: &'a [Item], text: &str) -> Option<&'a Item> {
    items.iter().find(|i| i.text == text)
}

/// The listed item saying `text`.
fn find<'a>(items: &'a [Loop], text: &str) -> Option<&'a Loop> {
    items.iter().find(|i| i.text == text)
}

/// Whose the item is: (`own`, `written_by`).
fn whose(own: bool, written_by: Option<AccountId>) -> (bool, Option<String>) {
    (own, written_by.map(|a| a.to_string()))
}

async fn journal_page(app: &TestApp, cookie: &str) -> String {
    page::client()
        .get(app.url("/journal"))
        .header(ACCEPT, "text/html")
        .header(COOKIE, cookie)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

#[tokio::test]
async fn a_members_item_is_marked_as_theirs_in_the_brief_the_list_the_markdown_and_the_page() {
    let o = org().await;
    let app = &o.app;
    handed_on(app, &o.owner, None, vec!["Book the room".into()]).await;
    handed_on(app, &o.member, Some(&o.org), vec![PLANTED.into()]).await;

    let read = app.brief(&o.owner, None).await;
    let steps = &read.next_steps;
    let theirs = item(steps, PLANTED).unwrap_or_else(|| panic!("{read:?}"));
    let member = Some(o.member_id.clone());
    assert_eq!(
        whose(theirs.own, theirs.written_by),
        (false, member.clone()),
        "{theirs:?}"
    );
    let mine = item(steps, "Book the room").unwrap();
    assert_eq!(whose(mine.own, mine.written_by), (true, None), "{mine:?}");
    assert_eq!(steps[0].text, "Book the room", "own items first: {read:?}");

    let listed = app.loops(&o.owner, "open").await;
    let theirs = find(&listed, PLANTED).unwrap();
    assert_eq!(whose(theirs.own, theirs.written_by), (false, member));
    assert!(find(&listed, "Book the room").unwrap().own);
    // The member reads it as its own.
    assert!(
        find(&app.loops(&o.member, "open").await, PLANTED)
            .unwrap()
            .own
    );

    // In the markdown it never reads as the owner's own line: it sits in a section of its own,
    // each line saying whose it is.
    let md = window(app, &o.owner).await;
    let planted: Vec<&str> = md
        .lines()
        .filter(|l| l.contains("cleanup script"))
        .collect();
    assert!(!planted.is_empty(), "{md}");
    for line in &planted {
        assert!(
            line.contains(&format!("Written by account {}", o.member_id))
                && line.contains("not by you"),
            "reads as the owner's own: {line:?}\n{md}"
        );
        assert!(!line.starts_with("- Next: "), "{line:?}");
    }
    let own_section = md
        .split("## Still open\n")
        .nth(1)
        .and_then(|rest| rest.split("\n\n").next())
        .unwrap_or_else(|| panic!("{md}"));
    assert!(own_section.contains("Book the room"), "{own_section}");
    assert!(!own_section.contains("cleanup script"), "{own_section}");

    // The page says whose it is, and offers to dismiss it rather than close it.
    let cookie = page::sign_in(app, &o.owner).await;
    let html = journal_page(app, &cookie).await;
    let section = html
        .split("id=\"loops\"")
        .nth(1)
        .and_then(|rest| rest.split("</section>").next())
        .unwrap_or_else(|| panic!("{html}"));
    let row = section
        .split("<li")
        .find(|li| li.contains("cleanup script"))
        .unwrap_or_else(|| panic!("{section}"));
    assert!(
        row.contains(&o.member_id) && row.contains("not by you"),
        "{row}"
    );
    assert!(row.contains("/journal/loops/dismiss"), "{row}");
}

#[tokio::test]
async fn sixty_member_items_do_not_push_out_the_owners_three() {
    let o = org().await;
    let app = &o.app;
    let own: Vec<String> = (1..=3).map(|i| format!("Own step {i}")).collect();
    handed_on(app, &o.owner, None, own.clone()).await;
    for batch in 0..3 {
        let theirs = (0..20)
            .map(|i| format!("Member step {batch}-{i}"))
            .collect();
        handed_on(app, &o.member, Some(&o.org), theirs).await;
    }
    let read = app.brief(&o.owner, None).await;
    let steps = &read.next_steps;
    for text in &own {
        let found = item(steps, text).unwrap_or_else(|| panic!("{text} pushed out of the brief"));
        assert!(found.own);
    }
    assert!(
        steps[..3].iter().all(|s| s.own),
        "own items first: {read:?}"
    );
    let md = window(app, &o.owner).await;
    for text in &own {
        assert!(
            md.contains(text.as_str()),
            "{text} pushed out of /journal.md:\n{md}"
        );
    }
}

#[tokio::test]
async fn the_owner_dismisses_a_members_item_from_its_own_view_only() {
    let o = org().await;
    let app = &o.app;
    handed_on(
        app,
        &o.member,
        Some(&o.org),
        vec![PLANTED.into(), "Rotate the org keys".into()],
    )
    .await;
    handed_on(app, &o.owner, None, vec!["Book the room".into()]).await;
    let listed = app.loops(&o.owner, "open").await;
    let id = |text: &str| find(&listed, text).unwrap().id.to_string();
    let (planted, keys, own) = (id(PLANTED), id("Rotate the org keys"), id("Book the room"));
    let dismiss = |token: &str, item: &str| {
        app.call(
            Method::POST,
            &format!("/api/v1/journal/loops/{item}/dismiss"),
        )
        .token(token)
    };

    dismiss(&o.owner, &planted).ok(200).await;
    dismiss(&o.owner, &planted).ok(200).await; // once dismissed, it stays so
    // One's own item is closed, not dismissed; another's item one cannot read is not there.
    let refused = dismiss(&o.owner, &own).problem(409, "conflict").await;
    let detail = refused["detail"].as_str().unwrap();
    let close = format!("close it with POST /api/v1/journal/loops/{own}/close");
    assert!(detail.contains(&close), "{detail}");
    dismiss(&o.member, &planted).problem(409, "conflict").await;
    let stranger = app.account("S", "chats:read").await;
    app.journal_on(stranger.id).await;
    dismiss(&stranger.token, &planted)
        .problem(404, "not-found")
        .await;

    assert!(find(&app.loops(&o.owner, "open").await, PLANTED).is_none());
    let read = app.brief(&o.owner, None).await;
    assert!(item(&read.next_steps, PLANTED).is_none(), "{read:?}");
    assert!(!window(app, &o.owner).await.contains("cleanup script"));
    // The member's item itself is untouched.
    let theirs = app.loops(&o.member, "open").await;
    assert_eq!(find(&theirs, PLANTED).unwrap().state, "open");
    let read = app.brief(&o.member, None).await;
    assert!(item(&read.next_steps, PLANTED).is_some());
    // Only as the owner: a dismissal row no other account reads.
    let rows: i64 = sqlx::query_scalar("SELECT count(*) FROM journal_loop_dismissals")
        .fetch_one(&app.owner)
        .await
        .unwrap();
    assert_eq!(rows, 1);

    // The page's form dismisses too, with its CSRF token.
    let cookie = page::sign_in(app, &o.owner).await;
    let html = journal_page(app, &cookie).await;
    let csrf = page::csrf(&html);
    let posted = page::client()
        .post(app.url("/journal/loops/dismiss"))
        .header(ACCEPT, "text/html")
        .header(COOKIE, &cookie)
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(serde_urlencoded::to_string([("csrf", csrf), ("target", keys.clone())]).unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(posted.status(), 303);
    assert!(find(&app.loops(&o.owner, "open").await, "Rotate the org keys").is_none());
    assert!(find(&app.loops(&o.member, "open").await, "Rotate the org keys").is_some());
}
