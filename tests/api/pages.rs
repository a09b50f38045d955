//! The pages' security, over plain HTTP: cookies, CSRF, who reaches the console and the journal
//! pages, and that a page of one account never shows another's data. (The journeys themselves
//! run in a real browser: tests/browser.rs.)

use crate::common;

use crate::common::page::{client, csrf, set_cookie, value};
use reqwest::header::{ACCEPT, CONTENT_TYPE, COOKIE, LOCATION};
use serde_json::json;

struct Browser {
    http: reqwest::Client,
    base: String,
}

impl Browser {
    fn new(app: &common::TestApp) -> Self {
        Self {
            http: client(),
            base: app.base.clone(),
        }
    }

    async fn get(&self, path: &str, cookie: &str) -> reqwest::Response {
        self.http
            .get(format!("{}{path}", self.base))
            .header(ACCEPT, "text/html")
            .header(COOKIE, cookie)
            .send()
            .await
            .unwrap()
    }

    async fn post(&self, path: &str, cookie: &str, form: &[(&str, &str)]) -> reqwest::Response {
        self.http
            .post(format!("{}{path}", self.base))
            .header(ACCEPT, "text/html")
            .header(COOKIE, cookie)
            .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(serde_urlencoded::to_string(form).unwrap())
            .send()
            .await
            .unwrap()
    }

    /// Signs in at `form_path` with `key`; returns the sign-in's response and the cookie
    /// header to send afterwards.
    async fn sign_in(
        &self,
        form_path: &str,
        post_path: &str,
        key: &str,
        extra: &[(&str, &str)],
    ) -> reqwest::Response {
        let page = self.get(form_path, "").await;
        let pre = value(&set_cookie(&page, "n8v_pre").expect("a pre-sign-in cookie"));
        let token = csrf(&page.text().await.unwrap());
        let mut form = vec![("key", key), ("csrf", token.as_str())];
        form.extend_from_slice(extra);
        self.post(post_path, &pre, &form).await
    }
}

#[tokio::test]
async fn sign_in_sets_a_strict_http_only_cookie_and_forms_need_their_csrf_token() {
    let app = common::spawn_app().await;
    let a = app.account("Ada", "chats:read,chats:delete").await;
    app.journal_on(a.id).await;
    let session = app
        .start_session(&a.token, None, json!({"goal": "Keep this one"}))
        .await;
    let id = &session.id.to_string();
    let browser = Browser::new(&app);

    // Behind a TLS proxy the cookie is Secure too.
    let signed = browser
        .sign_in("/journal/sign-in", "/journal/sign-in", &a.token, &[])
        .await;
    assert_eq!(signed.status(), 303);
    let set = set_cookie(&signed, "n8v_journal").expect("the sign-in cookie");
    assert!(
        set.contains("HttpOnly") && set.contains("SameSite=Strict"),
        "{set}"
    );
    assert!(!set.contains("Secure"), "plain HTTP: {set}");
    let cookie = value(&set);
    let tls = browser
        .http
        .get(format!("{}/journal/sign-in", app.base))
        .header("x-forwarded-proto", "https")
        .send()
        .await
        .unwrap();
    assert!(set_cookie(&tls, "n8v_pre").unwrap().contains("Secure"));

    // A form without its token, or with another cookie's, is refused and changes nothing.
    let page = browser
        .get(&format!("/journal/sessions/{id}"), &cookie)
        .await;
    assert_eq!(page.status(), 200);
    let token = csrf(&page.text().await.unwrap());
    let form = [("what", "session"), ("target", id), ("confirm", "yes")];
    let refused = browser.post("/journal/delete", &cookie, &form).await;
    assert_eq!(refused.status(), 403);
    let zeros = "0".repeat(64);
    let forged = [
        ("csrf", zeros.as_str()),
        ("what", "session"),
        ("target", id),
        ("confirm", "yes"),
    ];
    assert_eq!(
        browser
            .post("/journal/delete", &cookie, &forged)
            .await
            .status(),
        403
    );
    app.session_detail(&a.token, id).await;
    // Unconfirmed: nothing deleted either.
    let unconfirmed = [
        ("csrf", token.as_str()),
        ("what", "session"),
        ("target", id),
    ];
    assert_eq!(
        browser
            .post("/journal/delete", &cookie, &unconfirmed)
            .await
            .status(),
        400
    );
    app.session_detail(&a.token, id).await;
    // With its token and the confirmation: deleted.
    let good = [
        ("csrf", token.as_str()),
        ("what", "session"),
        ("target", id),
        ("confirm", "yes"),
    ];
    let deleted = browser.post("/journal/delete", &cookie, &good).await;
    assert_eq!(deleted.status(), 303);
    app.get_session(&a.token, id)
        .problem(404, "not-found")
        .await;

    // The sign-in form itself needs its token.
    let bare = browser
        .post("/journal/sign-in", "", &[("key", a.token.as_str())])
        .await;
    assert_eq!(bare.status(), 403);
    assert!(set_cookie(&bare, "n8v_journal").is_none());

    // Signing out clears the cookie.
    let out = browser
        .post("/journal/sign-out", &cookie, &[("csrf", token.as_str())])
        .await;
    assert!(
        set_cookie(&out, "n8v_journal")
            .unwrap()
            .contains("Max-Age=0")
    );
    // Without a cookie, the pages send to sign-in.
    let anonymous = browser.get("/journal", "").await;
    assert_eq!(anonymous.status(), 303);
    assert_eq!(anonymous.headers()[LOCATION], "/journal/sign-in");
}

#[tokio::test]
async fn a_page_of_one_account_never_shows_anothers_data() {
    let app = common::spawn_app().await;
    let a = app.account("Ada", "chats:read").await;
    let b = app.account("Bea", "chats:read").await;
    app.journal_on(a.id).await;
    app.journal_on(b.id).await;
    app.start_session(&a.token, None, json!({"goal": "Ada's albatross"}))
        .await;
    let theirs = app
        .start_session(&b.token, None, json!({"goal": "Bea's bittern"}))
        .await;
    let theirs = &theirs.id.to_string();
    let browser = Browser::new(&app);
    let signed = browser
        .sign_in("/journal/sign-in", "/journal/sign-in", &a.token, &[])
        .await;
    let cookie = value(&set_cookie(&signed, "n8v_journal").unwrap());

    for path in ["/journal", "/journal/settings", "/journal/search?q=bittern"] {
        let page = browser.get(path, &cookie).await;
        assert_eq!(page.status(), 200, "{path}");
        let html = page.text().await.unwrap();
        assert!(
            !html.contains("bittern") || path.contains("bittern"),
            "{path}"
        );
        assert!(!html.contains(theirs), "{path} shows B's session");
    }
    let search = browser
        .get("/journal/search?q=bittern", &cookie)
        .await
        .text()
        .await
        .unwrap();
    assert!(search.contains("Nothing matches"), "{search}");
    let albatross = browser.get("/journal", &cookie).await.text().await.unwrap();
    assert!(albatross.contains("Ada&#x27;s albatross") || albatross.contains("Ada's albatross"));
    let other = browser
        .get(&format!("/journal/sessions/{theirs}"), &cookie)
        .await;
    assert_eq!(other.status(), 404);
    assert!(!other.text().await.unwrap().contains("bittern"));
}

#[tokio::test]
async fn customers_cannot_reach_the_console_and_operators_no_journal_page() {
    let app = common::spawn_app().await;
    let a = app.account("Ada", "chats:read").await;
    app.journal_on(a.id).await;
    app.start_session(&a.token, None, json!({"goal": "private goal"}))
        .await;
    let operator = n8v_journal::admin::create_operator_key(&app.owner, "Olive")
        .await
        .unwrap();
    let browser = Browser::new(&app);
    let console = "/internal/admin/feature-flags";

    // A customer's key, as a bearer or posted on the console's form, and a customer's page
    // cookie: 404, the console is not there for them.
    let bearer = browser
        .http
        .get(format!("{}{console}", app.base))
        .header(ACCEPT, "text/html")
        .bearer_auth(&a.token)
        .send()
        .await
        .unwrap();
    assert_eq!(bearer.status(), 404);
    let posted = browser
        .sign_in(console, console, &a.token, &[("action", "sign-in")])
        .await;
    assert_eq!(posted.status(), 404);
    assert!(set_cookie(&posted, "n8v_console").is_none());
    let signed = browser
        .sign_in("/journal/sign-in", "/journal/sign-in", &a.token, &[])
        .await;
    // A browser signed in to the journal holds no key: it gets the console's sign-in, as
    // anyone else, and nothing of the journal or the console.
    let customer = value(&set_cookie(&signed, "n8v_journal").unwrap());
    let shown = browser.get(console, &customer).await;
    assert_eq!(shown.status(), 200);
    let shown = shown.text().await.unwrap();
    assert!(shown.contains("operator sign-in"), "{shown}");
    assert!(!shown.contains("no such endpoint") && !shown.contains("private goal"));
    assert!(!shown.contains("assistantJournal"), "{shown}");
    // Scripts keep the JSON API, where a customer key gets the same 404: the console's
    // existence is an operator's matter.
    let json = app.get(&a.token, console).await;
    common::expect_problem(json, 404, "not-found").await;

    // The operator signs in to the console.
    let op = browser
        .sign_in(console, console, &operator.token, &[("action", "sign-in")])
        .await;
    assert_eq!(op.status(), 303);
    let set = set_cookie(&op, "n8v_console").unwrap();
    assert!(
        set.contains("HttpOnly") && set.contains("SameSite=Strict") && set.contains("Max-Age=900")
    );
    let op_cookie = value(&set);
    let page = browser.get(console, &op_cookie).await;
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(
        html.contains("assistantJournal") && html.contains(&a.ext),
        "{html}"
    );
    assert!(!html.contains("private goal"));
    // Its cookie is no bearer token, and reaches no journal page.
    let as_bearer = app
        .get(
            op_cookie.split_once('=').unwrap().1,
            "/api/v1/journal/sessions",
        )
        .await;
    assert_eq!(as_bearer.status(), 401);
    let journal = browser.get("/journal", &op_cookie).await;
    assert_eq!(journal.status(), 303);
    // The operator's key cannot sign in to the journal pages.
    let refused = browser
        .sign_in("/journal/sign-in", "/journal/sign-in", &operator.token, &[])
        .await;
    assert_eq!(refused.status(), 403);
    assert!(set_cookie(&refused, "n8v_journal").is_none());

    // A change without the console's CSRF token is refused; with it, it lands in the log.
    let form = [
        ("action", "set"),
        ("flag", "assistantJournal"),
        ("value", "on"),
    ];
    assert_eq!(browser.post(console, &op_cookie, &form).await.status(), 403);
    let token = csrf(&html);
    let good = [
        ("csrf", token.as_str()),
        ("action", "set"),
        ("flag", "assistantJournal"),
        ("account", a.ext.as_str()),
        ("value", "off"),
    ];
    assert_eq!(browser.post(console, &op_cookie, &good).await.status(), 303);
    let logged: (String, String, serde_json::Value) = sqlx::query_as(
        "SELECT actor, action, detail FROM operator_log ORDER BY created_at DESC LIMIT 1",
    )
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert!(logged.0.starts_with("Olive"), "{logged:?}");
    assert_eq!(logged.1, "set-flag");
    assert_eq!(logged.2["before"], true);
    assert_eq!(logged.2["after"], false);
    app.call(reqwest::Method::GET, "/api/v1/journal/sessions")
        .token(&a.token)
        .problem(404, "journal-off")
        .await;
    // The console shows the change, and finds the account by name.
    let found = browser
        .get(&format!("{console}?account=ad"), &op_cookie)
        .await
        .text()
        .await
        .unwrap();
    assert!(
        found.contains("Turn on for Ada") && found.contains("set-flag"),
        "{found}"
    );
}

#[tokio::test]
async fn the_sign_in_pages_show_no_navigation_or_sign_out_before_anyone_signs_in() {
    let app = common::spawn_app().await;
    let browser = Browser::new(&app);
    for path in ["/journal/sign-in", "/internal/admin/feature-flags"] {
        let page = browser.get(path, "").await;
        assert_eq!(page.status(), 200, "{path}");
        let html = page.text().await.unwrap();
        assert!(html.contains("Sign in"), "{path}: {html}");
        assert!(!html.contains("Sign out"), "{path}: {html}");
        assert!(!html.contains("/journal/settings"), "{path}: {html}");
    }
}

#[tokio::test]
async fn every_page_refuses_framing_and_json_for_a_cookie_is_never_stored() {
    let app = common::spawn_app().await;
    let a = app.account("Ada", "chats:read").await;
    app.journal_on(a.id).await;
    app.start_session(&a.token, None, json!({"goal": "a puffin goal"}))
        .await;
    let browser = Browser::new(&app);
    let signed = browser
        .sign_in("/journal/sign-in", "/journal/sign-in", &a.token, &[])
        .await;
    let cookie = value(&set_cookie(&signed, "n8v_journal").unwrap());
    for (path, cookie) in [
        ("/journal", cookie.as_str()),
        ("/journal/settings", cookie.as_str()),
        ("/journal/search?q=puffin", cookie.as_str()),
        ("/journal/sign-in", ""),
        ("/internal/admin/feature-flags", ""),
        ("/journal/sessions/ses_nothing", cookie.as_str()),
    ] {
        let page = browser.get(path, cookie).await;
        let headers = page.headers();
        assert!(
            headers[CONTENT_TYPE]
                .to_str()
                .unwrap()
                .starts_with("text/html"),
            "{path}"
        );
        let policy = headers["content-security-policy"].to_str().unwrap();
        assert!(
            policy.contains("frame-ancestors 'none'") && policy.contains("default-src 'self'"),
            "{path}: {policy}"
        );
        assert_eq!(headers["x-frame-options"], "DENY", "{path}");
        assert_eq!(headers["x-content-type-options"], "nosniff", "{path}");
    }
    // The page's own search answer, as its script asks for it: account data, never stored.
    let answer = browser
        .http
        .get(format!("{}/journal/search?q=puffin", app.base))
        .header(ACCEPT, "application/json")
        .header(COOKIE, &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 200);
    assert_eq!(answer.headers()["cache-control"], "no-store");
    assert_eq!(answer.headers()["x-content-type-options"], "nosniff");
    assert!(answer.text().await.unwrap().contains("puffin"));
}

#[tokio::test]
async fn signing_out_ends_the_cookie_on_the_server_for_pages_and_console() {
    let app = common::spawn_app().await;
    let a = app.account("Ada", "chats:read").await;
    app.journal_on(a.id).await;
    let browser = Browser::new(&app);
    let signed = browser
        .sign_in("/journal/sign-in", "/journal/sign-in", &a.token, &[])
        .await;
    let cookie = value(&set_cookie(&signed, "n8v_journal").unwrap());
    let page = browser.get("/journal", &cookie).await;
    assert_eq!(page.status(), 200);
    let token = csrf(&page.text().await.unwrap());
    let out = browser
        .post("/journal/sign-out", &cookie, &[("csrf", token.as_str())])
        .await;
    assert_eq!(out.status(), 200);
    // A copy of the old cookie is refused, by the pages and as a bearer token.
    let after = browser.get("/journal", &cookie).await;
    assert_eq!(after.status(), 303);
    assert_eq!(after.headers()[LOCATION], "/journal/sign-in");
    let bearer = app
        .get(
            cookie.split_once('=').unwrap().1,
            "/api/v1/journal/sessions",
        )
        .await;
    assert_eq!(bearer.status(), 401);
    // Signing in again makes a new cookie that works.
    let again = browser
        .sign_in("/journal/sign-in", "/journal/sign-in", &a.token, &[])
        .await;
    let fresh = value(&set_cookie(&again, "n8v_journal").unwrap());
    assert_eq!(browser.get("/journal", &fresh).await.status(), 200);

    // The console's cookie too.
    let operator = n8v_journal::admin::create_operator_key(&app.owner, "Olive")
        .await
        .unwrap();
    let console = "/internal/admin/feature-flags";
    let op = browser
        .sign_in(console, console, &operator.token, &[("action", "sign-in")])
        .await;
    let op_cookie = value(&set_cookie(&op, "n8v_console").unwrap());
    let html = browser.get(console, &op_cookie).await.text().await.unwrap();
    assert!(html.contains(&a.ext), "signed in: {html}");
    let token = csrf(&html);
    let out = browser
        .post(
            console,
            &op_cookie,
            &[("csrf", token.as_str()), ("action", "sign-out")],
        )
        .await;
    assert_eq!(out.status(), 303);
    let html = browser.get(console, &op_cookie).await.text().await.unwrap();
    assert!(!html.contains(&a.ext), "still signed in: {html}");
    let set = browser
        .post(
            console,
            &op_cookie,
            &[
                ("csrf", token.as_str()),
                ("action", "set"),
                ("flag", "assistantJournal"),
                ("value", "off"),
            ],
        )
        .await;
    assert_eq!(set.status(), 401);
}

/// Issue 45, finding 4: looking at the journal does not write to it. The pages' own calls
/// (signing in, Settings, a session's page) are recorded, as the journal's own traffic: the
/// session holding them is in no list, no timeline and no brief.
#[tokio::test]
async fn the_pages_own_calls_are_recorded_but_form_no_session_anyone_is_shown() {
    let app = common::spawn_app().await;
    let a = app.account("A", common::JOURNAL_SCOPES).await;
    app.journal_on(a.id).await;
    let record = app.record_of(a.id).await;
    let worked = app
        .append(&a.token, &record, None, Some("Note the fix"), "fixed")
        .await;
    let cookie = format!(
        "n8v_journal={}",
        common::page::sign_in(&app, &a.token).await
    );
    let browser = Browser::new(&app);
    for path in [
        "/journal/settings",
        &format!("/journal/sessions/{worked}"),
        "/journal",
    ] {
        let page = browser.get(path, &cookie).await;
        assert!(
            page.status().is_success() || page.status().is_redirection(),
            "{path}: {}",
            page.status()
        );
    }
    let recorded: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM journal_calls c JOIN journal_sessions s USING (account_id, session_id) \
          WHERE c.account_id = $1 AND s.assistant = 'n8v journal pages'",
    )
    .bind(a.id)
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert!(recorded >= 1, "the pages' calls are recorded ({recorded})");

    let list = app
        .call(reqwest::Method::GET, "/api/v1/journal/sessions")
        .token(&a.token)
        .ok(200)
        .await;
    let assistants: Vec<&str> = list["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["assistant"].as_str().unwrap_or_default())
        .collect();
    assert!(!assistants.contains(&"n8v journal pages"), "{list}");
    assert!(list["sessions"].to_string().contains(&worked), "{list}");
    let brief = app
        .call(reqwest::Method::GET, "/api/v1/journal/catch-up")
        .token(&a.token)
        .ok(200)
        .await;
    assert!(!brief.to_string().contains("n8v journal pages"), "{brief}");
    let timeline = browser.get("/journal", &cookie).await;
    let timeline = timeline.text().await.unwrap();
    assert!(
        !timeline.contains("n8v journal pages"),
        "the timeline shows the pages' session"
    );
}

/// A key the journal would refuse on its first page is refused at sign-in instead, saying what
/// to do: the account's journal off names the flag and the command that turns it on; a key
/// without `chats:read` names the scope. Once signed in, a page refused for the same reasons
/// (the flag turned off meanwhile) leads to signing in with another key, not back to itself.
#[tokio::test]
async fn a_key_the_journal_would_refuse_is_refused_at_sign_in_saying_why() {
    let app = common::spawn_app().await;
    let browser = Browser::new(&app);
    let sign_in = |key: String| {
        let browser = &browser;
        async move {
            browser
                .sign_in("/journal/sign-in", "/journal/sign-in", &key, &[])
                .await
        }
    };

    let off = app.account("Off", "chats:read").await;
    let refused = sign_in(off.token.clone()).await;
    assert_eq!(refused.status(), 403);
    assert!(set_cookie(&refused, "n8v_journal").is_none());
    let text = refused.text().await.unwrap();
    assert!(
        text.contains("journal is off")
            && text.contains("admin flag set assistantJournal on")
            && text.contains(&off.ext),
        "{text}"
    );

    let narrow = app.account("Narrow", "records:read").await;
    app.journal_on(narrow.id).await;
    let refused = sign_in(narrow.token.clone()).await;
    assert_eq!(refused.status(), 403);
    assert!(set_cookie(&refused, "n8v_journal").is_none());
    let text = refused.text().await.unwrap();
    assert!(
        text.contains("lacks the chats:read scope") && text.contains("admin create-key"),
        "{text}"
    );

    let ok = app.account("Ok", "chats:read").await;
    app.journal_on(ok.id).await;
    let signed = sign_in(ok.token.clone()).await;
    assert_eq!(signed.status(), 303);
    let cookie = value(&set_cookie(&signed, "n8v_journal").unwrap());
    n8v_journal::admin::set_flag(
        &app.owner,
        n8v_journal::flags::Flag::AssistantJournal,
        false,
        Some(ok.id),
    )
    .await
    .unwrap();
    let page = browser.get("/journal", &cookie).await;
    assert_eq!(page.status(), 404);
    let page = page.text().await.unwrap();
    assert!(
        page.contains("href=\"/journal/sign-in\">Sign in with another key"),
        "{page}"
    );
    assert!(!page.contains("Back to the journal"), "{page}");
}

/// Day one: one entry of one call reads in the singular, on the journal and in Settings, and
/// the page says why there is no timeline yet instead of drawing an empty line.
#[tokio::test]
async fn day_one_reads_in_the_singular_and_says_why_there_is_no_timeline_yet() {
    let app = common::spawn_app().await;
    let a = app.account("Ada", crate::common::JOURNAL_SCOPES).await;
    app.journal_on(a.id).await;
    let record = app.record_of(a.id).await;
    app.call(
        reqwest::Method::POST,
        &format!("/api/v1/records/{record}/entries"),
    )
    .token(&a.token)
    .purpose("Note the plan")
    .json(serde_json::json!({"line": "The plan"}))
    .ok(201)
    .await;
    let browser = Browser::new(&app);
    let cookie = common::page::sign_in(&app, &a.token).await;
    let journal = browser.get("/journal", &cookie).await.text().await.unwrap();
    assert!(journal.contains(" · 1 call</div>"), "{journal}");
    assert!(
        !journal.contains("1 calls") && !journal.contains("1 writes"),
        "{journal}"
    );
    assert!(journal.contains("journal-body single"), "{journal}");
    assert!(
        journal.contains(
            "the timeline appears beside the entries once the journal holds a second day"
        ),
        "{journal}"
    );
    let settings = browser
        .get("/journal/settings", &cookie)
        .await
        .text()
        .await
        .unwrap();
    assert!(settings.contains("1 call, 1 write"), "{settings}");
    assert!(
        !settings.contains("1 calls") && !settings.contains("1 writes"),
        "{settings}"
    );
}

#[tokio::test]
async fn codes_summary_that_says_the_outcome_is_not_followed_by_it_again() {
    let app = common::spawn_app().await;
    let a = app.account("Ada", crate::common::JOURNAL_SCOPES).await;
    app.journal_on(a.id).await;
    let outcome = "Fixed the login redirect and shipped it";
    let id = app
        .start_session(&a.token, None, json!({"goal": "Fix the login redirect"}))
        .await
        .id
        .to_string();
    app.end_session(&a.token, &id, json!({"outcome": outcome}))
        .ok(200)
        .await;
    // No model is configured: code writes the summary, which says the outcome.
    let state = app.workers(|_| {});
    for job in app.queued_summaries().await {
        n8v_journal::jobs::summary::summarize_session(&state, &job)
            .await
            .unwrap();
    }
    let cookie = common::page::sign_in(&app, &a.token).await;
    let journal = Browser::new(&app)
        .get("/journal", &cookie)
        .await
        .text()
        .await
        .unwrap();
    assert!(journal.contains("Summary by"), "{journal}");
    assert_eq!(journal.matches(outcome).count(), 1, "{journal}");
    assert!(!journal.contains("<strong>Outcome:</strong>"), "{journal}");
}
