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

/// An account whose journal pages each fill past their page size: 230 sessions (three pages of
/// the journal at 100 a page, five of Settings › Journal at 50) and one session with 120
/// actions (three pages at 50 a page).
pub(crate) struct Volume {
    pub account: common::Account,
    /// Every session (`ses_…`), the long one last.
    pub sessions: Vec<String>,
    /// The long session.
    pub long: SessionId,
    /// The long session's calls (`call_…`).
    pub calls: Vec<String>,
}

/// The pages of [`Volume`]: how many each list takes.
pub(crate) const JOURNAL_PAGES: usize = 3;
pub(crate) const SETTINGS_PAGES: usize = 5;
pub(crate) const ACTION_PAGES: usize = 3;

pub(crate) async fn filled(app: &common::TestApp) -> Volume {
    let a = app.account("Ada", "chats:read").await;
    app.journal_on(a.id).await;
    let at = chrono::Utc::now() - chrono::Duration::hours(3);
    let sessions =
        bulk::sessions_with_calls(app, a.id, a.key_id, &["chats:read"], 230, 1, at).await;
    let long = bulk::sessions_with_calls(app, a.id, a.key_id, &["chats:read"], 1, 120, at).await[0];
    let ids: Vec<String> = sessions
        .iter()
        .chain([&long])
        .map(|s| SessionId(*s).to_string())
        .collect();
    let calls: Vec<Uuid> =
        sqlx::query_scalar("SELECT call_id FROM journal_calls WHERE session_id = $1")
            .bind(long)
            .fetch_all(&app.owner)
            .await
            .unwrap();
    Volume {
        account: a,
        sessions: ids,
        long: SessionId(long),
        calls: calls.into_iter().map(|c| CallId(c).to_string()).collect(),
    }
}

#[tokio::test]
async fn every_journal_page_lists_past_its_first_page_to_the_end() {
    let app = common::spawn_app().await;
    let volume = filled(&app).await;
    let cookie = sign_in(&app, &volume.account.token).await;

    let journal = follow(&app, &cookie, "/journal", "Older entries ›").await;
    assert_eq!(journal.len(), JOURNAL_PAGES, "231 sessions at 100 a page");
    assert_eq!(unseen(&journal, &volume.sessions), Vec::<String>::new());

    let settings = follow(&app, &cookie, "/journal/settings", "Older sessions").await;
    assert_eq!(settings.len(), SETTINGS_PAGES, "231 sessions at 50 a page");
    assert_eq!(unseen(&settings, &volume.sessions), Vec::<String>::new());

    let path = format!("/journal/sessions/{}", volume.long);
    let actions = follow(&app, &cookie, &path, "More actions").await;
    assert_eq!(actions.len(), ACTION_PAGES, "120 actions at 50 a page");
    assert_eq!(unseen(&actions, &volume.calls), Vec::<String>::new());
}
