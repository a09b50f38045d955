//! The journal pages at a real account's volume: every list filled past its page size, and
//! each next link followed to its end. Until the templates' `urlencode` filter was built in,
//! every page with a next link answered 500.

use crate::common::page::{client, sign_in};
use crate::common::{self, bulk};
use n8v_journal::ids::{CallId, SessionId};
use reqwest::header::{ACCEPT, COOKIE};
use uuid::Uuid;

/// Each page from `path` on, following the link whose text is `next` until a page has none;
/// every page answers 200.
async fn follow(app: &common::TestApp, cookie: &str, path: &str, next: &str) -> Vec<String> {
    let http = client();
    let mut pages = Vec::new();
    let mut path = path.to_owned();
    loop {
        let answer = http
            .get(app.url(&path))
            .header(ACCEPT, "text/html")
            .header(COOKIE, cookie)
            .send()
            .await
            .unwrap();
        let status = answer.status();
        let html = answer.text().await.unwrap();
        assert_eq!(status, 200, "{path} (page {}): {html}", pages.len() + 1);
        let link = html.find(&format!("\">{next}</a>")).map(|end| {
            let start = html[..end].rfind("href=\"").expect("the link's href") + 6;
            html[start..end].replace("&amp;", "&")
        });
        pages.push(html);
        match link {
            Some(link) => path = link,
            None => return pages,
        }
        assert!(pages.len() < 50, "{path}: the next links never end");
    }
}

/// The ids among `ids` that no page shows.
fn unseen(pages: &[String], ids: &[String]) -> Vec<String> {
    let all = pages.concat();
    ids.iter()
        .filter(|id| !all.contains(id.as_str()))
        .cloned()
        .collect()
}

#[tokio::test]
async fn every_journal_page_lists_past_its_first_page_to_the_end() {
    let app = common::spawn_app().await;
    let a = app.account("Ada", "chats:read").await;
    app.journal_on(a.id).await;
    let at = chrono::Utc::now() - chrono::Duration::hours(3);
    // 230 sessions: three pages of the journal (100 a page), five of Settings › Journal (50).
    let sessions =
        bulk::sessions_with_calls(&app, a.id, a.key_id, &["chats:read"], 230, 1, at).await;
    // And one session with 120 actions: three pages of its actions (50 a page).
    let long =
        bulk::sessions_with_calls(&app, a.id, a.key_id, &["chats:read"], 1, 120, at).await[0];
    let ids: Vec<String> = sessions
        .iter()
        .chain([&long])
        .map(|s| SessionId(*s).to_string())
        .collect();
    let cookie = sign_in(&app, &a.token).await;

    let journal = follow(&app, &cookie, "/journal", "Older entries ›").await;
    assert_eq!(journal.len(), 3, "231 sessions at 100 a page");
    assert_eq!(unseen(&journal, &ids), Vec::<String>::new());

    let settings = follow(&app, &cookie, "/journal/settings", "Older sessions").await;
    assert_eq!(settings.len(), 5, "231 sessions at 50 a page");
    assert_eq!(unseen(&settings, &ids), Vec::<String>::new());

    let calls: Vec<Uuid> =
        sqlx::query_scalar("SELECT call_id FROM journal_calls WHERE session_id = $1")
            .bind(long)
            .fetch_all(&app.owner)
            .await
            .unwrap();
    let calls: Vec<String> = calls.into_iter().map(|c| CallId(c).to_string()).collect();
    let path = format!("/journal/sessions/{}", SessionId(long));
    let actions = follow(&app, &cookie, &path, "More actions").await;
    assert_eq!(actions.len(), 3, "120 actions at 50 a page");
    assert_eq!(unseen(&actions, &calls), Vec::<String>::new());
}
