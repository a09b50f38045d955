//! Issue 45, finding 3: the consent page a person meets, in words. Who asks (a metadata-document
//! client by the host of its document, its `client_name` only as its own claim; a registered
//! client's name marked self-declared), the account signed in as, what each scope lets the
//! assistant do (the sentences of `Scope::meaning`, also on Settings), where the client sends
//! the person back (a custom scheme with its scheme, a loopback redirect as an app on this
//! computer, an https one by its origin), everything user-provided escaped; the error page
//! naming the client, what went wrong and what to do; the sign-in page saying where a key
//! comes from.

use crate::common::oauth::{self, REDIRECT, authorize_path, pkce, serve_document, sign_in_through};
use crate::common::page::client;
use crate::common::{self, TestApp, spawn_app_configured};
use n8v_journal::scopes::Scope;
use reqwest::header::{ACCEPT, COOKIE};

/// `text` as the templates escape it (minijinja's HTML escaping).
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#x27;")
        .replace('/', "&#x2f;")
}

/// The host of a document client's URL, as the page names it.
fn host_of(client_id: &str) -> String {
    let url = url::Url::parse(client_id).unwrap();
    format!("{}:{}", url.host_str().unwrap(), url.port().unwrap())
}

async fn get(app: &TestApp, path: &str, cookie: Option<&str>) -> (u16, String) {
    let mut request = client().get(app.url(path)).header(ACCEPT, "text/html");
    if let Some(cookie) = cookie {
        request = request.header(COOKIE, cookie);
    }
    let response = request.send().await.unwrap();
    assert!(response.headers().get("location").is_none(), "{path}");
    (response.status().as_u16(), response.text().await.unwrap())
}

#[tokio::test]
async fn the_consent_page_says_who_asks_who_is_signed_in_and_what_each_scope_allows() {
    let app = spawn_app_configured(|c| c.oauth.allow_private_client_urls = true).await;
    let account = app
        .account("Ada Lovelace", "chats:read,chats:delete,records:read")
        .await;
    app.journal_on(account.id).await;

    // A registered client whose name is markup: escaped, and marked as self-declared.
    let markup = "<script>alert('x')</script><b>Claude</b>";
    let registered = oauth::register(&app, markup, REDIRECT).await;
    let path = authorize_path(
        &registered,
        REDIRECT,
        Some("chats:read chats:delete records:write"),
        &pkce().challenge,
        &app,
    );
    let (cookie, html) = sign_in_through(&app, &account.token, &path).await;
    assert!(html.contains(&escaped(markup)), "escaped: {html}");
    assert!(!html.contains("<script>alert"), "{html}");
    assert!(!html.contains("<b>Claude"), "{html}");
    assert!(html.contains("self-declared"), "{html}");
    assert!(
        html.contains("<strong>Ada Lovelace</strong>"),
        "the account signed in as: {html}"
    );
    assert!(html.contains(&account.ext), "{html}");
    assert!(
        html.contains("an app on this computer, at <code>http:&#x2f;&#x2f;127.0.0.1:9</code>"),
        "a loopback redirect: {html}"
    );
    let granted =
        &html[html.find("scopes granted").unwrap()..html.find("scopes withheld").unwrap()];
    for scope in [Scope::ChatsRead, Scope::ChatsDelete] {
        assert!(
            granted.contains(&format!(
                "{} <code>{}</code>",
                escaped(scope.meaning()),
                scope.as_str()
            )),
            "{scope} in words: {granted}"
        );
    }
    let withheld = &html[html.find("scopes withheld").unwrap()..];
    assert!(
        withheld.contains(&escaped(Scope::RecordsWrite.meaning())),
        "asked for, not held: {withheld}"
    );
    // Allow is the primary action, and comes first.
    let allow = html
        .find(r#"value="approve" class="primary">Allow"#)
        .unwrap();
    let deny = html.find(r#"value="deny" class="secondary">Deny"#).unwrap();
    assert!(allow < deny);
    let denied = oauth::decide(&app, &cookie, &html, "deny").await;
    assert_eq!(oauth::redirect_params(&denied)["error"], "access_denied");

    // A metadata-document client is its document's host; its name is only what it calls
    // itself. A custom-scheme redirect keeps its scheme.
    let claimed = "Claude \"Code\" <i>official</i>";
    let document = serve_document(claimed, &["myapp://claude.ai/cb"]).await;
    let host = host_of(&document);
    let path = authorize_path(
        &document,
        "myapp://claude.ai/cb",
        None,
        &pkce().challenge,
        &app,
    );
    let (status, html) = get(&app, &path, Some(&cookie)).await;
    assert_eq!(status, 200, "{html}");
    assert!(
        html.contains(&format!("<h1>Connect {host} to your journal?</h1>")),
        "named by its host: {html}"
    );
    assert!(
        html.contains(&format!("<strong class=\"relying-party\">{host}</strong>")),
        "{html}"
    );
    assert!(
        html.contains(&format!(
            "calls itself <span class=\"claimed-name\">“{}”</span>",
            escaped(claimed)
        )),
        "its own claim, escaped: {html}"
    );
    assert!(
        html.contains(
            "opens <code>myapp:</code> links, at <code>myapp:&#x2f;&#x2f;claude.ai</code>"
        ),
        "the scheme is shown: {html}"
    );
    assert!(!html.contains("<code>claude.ai</code>"), "{html}");
    let approved = oauth::decide(&app, &cookie, &html, "approve").await;
    assert_eq!(approved.status(), 303);
    assert!(
        approved.headers()["location"]
            .to_str()
            .unwrap()
            .starts_with("myapp://claude.ai/cb?code=")
    );

    // An https redirect shows its origin.
    let web = serve_document("Web", &["https://claude.ai/api/mcp/auth_callback"]).await;
    let path = authorize_path(
        &web,
        "https://claude.ai/api/mcp/auth_callback",
        None,
        &pkce().challenge,
        &app,
    );
    let (_, html) = get(&app, &path, Some(&cookie)).await;
    assert!(
        html.contains("<dd class=\"destination\"><code>https:&#x2f;&#x2f;claude.ai</code></dd>"),
        "{html}"
    );

    // Settings lists the connected document client by its host, with its scopes in words.
    let (_, settings) = get(&app, "/journal/settings", Some(&cookie)).await;
    let assistants = &settings[settings.find("id=\"assistants\"").unwrap()..];
    assert!(
        assistants.contains(&format!("<span class=\"title\">{host}</span>")),
        "{assistants}"
    );
    assert!(
        assistants.contains(&format!("calls itself “{}”", escaped(claimed))),
        "{assistants}"
    );
    assert!(
        assistants.contains(&escaped(Scope::ChatsRead.meaning())),
        "{assistants}"
    );
}

#[tokio::test]
async fn the_error_page_names_the_client_what_went_wrong_and_what_to_do() {
    let app = spawn_app_configured(|c| c.oauth.allow_private_client_urls = true).await;
    let challenge = pkce().challenge;

    // A registered client sending a redirect URI it did not register (with markup in it).
    let registered = oauth::register(&app, "Tool <i>x</i>", REDIRECT).await;
    let sent = "http://127.0.0.1:9/<b>other</b>";
    let (status, html) = get(
        &app,
        &authorize_path(&registered, sent, None, &challenge, &app),
        None,
    )
    .await;
    assert_eq!(status, 400);
    assert!(
        html.contains(&format!(
            "<h1>“{}” cannot connect</h1>",
            escaped("Tool <i>x</i>")
        )),
        "{html}"
    );
    assert!(html.contains("self-declared"), "{html}");
    assert!(html.contains(&registered), "the client id: {html}");
    assert!(html.contains("is not one the client registered"), "{html}");
    assert!(
        html.contains(&format!(
            "<code class=\"sent-redirect\">{}</code>",
            escaped(sent)
        )),
        "which one was sent: {html}"
    );
    assert!(!html.contains("<b>other"), "{html}");
    assert!(html.contains("What the client registered"), "{html}");
    assert!(
        html.contains(&format!("<li><code>{}</code></li>", escaped(REDIRECT))),
        "{html}"
    );
    assert!(
        html.contains("The fix is in the client&#x27;s configuration"),
        "{html}"
    );

    // No redirect URI named, and two registered: both are listed.
    let second = "http://127.0.0.1:9/second";
    let two: serde_json::Value = app
        .http
        .post(app.url("/oauth/register"))
        .json(&serde_json::json!({"client_name": "Two", "redirect_uris": [REDIRECT, second]}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let path = format!(
        "/oauth/authorize?response_type=code&client_id={}&code_challenge={challenge}\
         &code_challenge_method=S256",
        two["client_id"].as_str().unwrap()
    );
    let (status, html) = get(&app, &path, None).await;
    assert_eq!(status, 400);
    assert!(html.contains("names no redirect_uri"), "{html}");
    assert!(html.contains("registered 2 redirect URIs"), "{html}");
    for uri in [REDIRECT, second] {
        assert!(
            html.contains(&format!("<li><code>{}</code></li>", escaped(uri))),
            "{html}"
        );
    }
    assert!(!html.contains("sent-redirect"), "{html}");

    // A document client: named by its host, and its document is where the fix is.
    let document = serve_document("Doc <tool>", &[REDIRECT]).await;
    let (status, html) = get(
        &app,
        &authorize_path(
            &document,
            "http://127.0.0.1:9/elsewhere",
            None,
            &challenge,
            &app,
        ),
        None,
    )
    .await;
    assert_eq!(status, 400);
    let host = host_of(&document);
    assert!(
        html.contains(&format!("<h1>{host} cannot connect</h1>")),
        "{html}"
    );
    assert!(
        html.contains(&format!("(calls itself “{}”)", escaped("Doc <tool>"))),
        "{html}"
    );
    assert!(html.contains("What its metadata document lists"), "{html}");
    assert!(html.contains("its metadata document must list"), "{html}");

    // An unknown client: its id, what happened, and to start again.
    let (status, html) = get(
        &app,
        &authorize_path("n8v_cl_gone", REDIRECT, None, &challenge, &app),
        None,
    )
    .await;
    assert_eq!(status, 400);
    assert!(
        html.contains("<code class=\"client-id\">n8v_cl_gone</code>"),
        "{html}"
    );
    assert!(html.contains("not registered here"), "{html}");
    assert!(
        html.contains("Start connecting again from the assistant"),
        "{html}"
    );

    // A document that cannot be fetched: named by its host all the same.
    let (status, html) = get(
        &app,
        &authorize_path(
            "http://127.0.0.1:1/none.json",
            REDIRECT,
            None,
            &challenge,
            &app,
        ),
        None,
    )
    .await;
    assert_eq!(status, 400);
    assert!(
        html.contains("<h1>127.0.0.1:1 cannot connect</h1>"),
        "{html}"
    );
    // Not the document's fault: this server could not reach it (issue 52, item 4).
    assert!(html.contains("this server could not fetch"), "{html}");
    assert!(html.contains("can let it reach 127.0.0.1"), "{html}");
    assert!(!html.contains("publisher must correct"), "{html}");

    // No client at all.
    let (status, html) = get(&app, "/oauth/authorize?response_type=code", None).await;
    assert_eq!(status, 400);
    assert!(
        html.contains("<h1>An assistant cannot connect</h1>"),
        "{html}"
    );
    assert!(html.contains("names no client_id"), "{html}");
}

#[tokio::test]
async fn the_sign_in_page_says_where_a_key_comes_from() {
    let app = common::spawn_app().await;
    let (status, html) = get(&app, "/journal/sign-in", None).await;
    assert_eq!(status, 200);
    for part in [
        "n8v-journal admin create-key \\\n  --account acc_… \\\n  --scopes chats:read,",
        "n8v-journal admin create-account",
    ] {
        assert!(html.contains(part), "{part}: {html}");
    }
    assert!(html.contains("operator"), "{html}");
    // The command the page names is the binary's.
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_n8v-journal"))
        .args(["admin", "create-key", "--help"])
        .output()
        .unwrap();
    assert!(help.status.success(), "{help:?}");
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains("--account") && help.contains("--scopes"),
        "{help}"
    );
}
