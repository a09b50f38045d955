//! Playing an MCP client and its person through the OAuth flow, over HTTP only: register (or
//! serve a client ID metadata document), open the authorization URL, sign in at the journal's
//! sign-in form (which brings the person back to the consent page), allow on the consent page,
//! and exchange the code at the token endpoint.

use super::TestApp;
use super::page::{client, set_cookie, value};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use reqwest::header::{ACCEPT, CONTENT_TYPE, COOKIE, LOCATION};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

pub const REDIRECT: &str = "http://127.0.0.1:9/callback";

/// A PKCE pair (RFC 7636): a verifier and its S256 challenge.
pub struct Pkce {
    pub verifier: String,
    pub challenge: String,
}

pub fn pkce() -> Pkce {
    let verifier = format!(
        "{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    );
    let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
    Pkce {
        verifier,
        challenge,
    }
}

/// A client ID metadata document named `name` listing `redirect_uris`, served on a loopback
/// port (the app needs `allow_private_client_urls` to fetch it); its URL, the client id.
pub async fn serve_document(name: &str, redirect_uris: &[&str]) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/client.json", listener.local_addr().unwrap());
    let document = json!({
        "client_id": url,
        "client_name": name,
        "redirect_uris": redirect_uris,
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
    });
    let app = axum::Router::new().route(
        "/client.json",
        axum::routing::get(move || {
            let document = document.clone();
            async move { axum::Json(document) }
        }),
    );
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    url
}

/// Registers a client (RFC 7591) named `name` with one redirect URI; its client id.
pub async fn register(app: &TestApp, name: &str, redirect: &str) -> String {
    let response = app
        .http
        .post(app.url("/oauth/register"))
        .json(&json!({
            "client_name": name,
            "redirect_uris": [redirect],
            "grant_types": ["authorization_code", "refresh_token"],
            "token_endpoint_auth_method": "none",
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 201);
    let body: Value = response.json().await.unwrap();
    body["client_id"].as_str().unwrap().to_owned()
}

/// The authorization URL's path and query for `client_id`.
pub fn authorize_path(
    client_id: &str,
    redirect: &str,
    scope: Option<&str>,
    challenge: &str,
    app: &TestApp,
) -> String {
    let resource = app.url("/mcp");
    let mut params = vec![
        ("response_type", "code"),
        ("client_id", client_id),
        ("redirect_uri", redirect),
        ("state", "st-123"),
        ("code_challenge", challenge),
        ("code_challenge_method", "S256"),
        ("resource", resource.as_str()),
    ];
    if let Some(scope) = scope {
        params.push(("scope", scope));
    }
    format!(
        "/oauth/authorize?{}",
        serde_urlencoded::to_string(&params).unwrap()
    )
}

/// The text of an HTML attribute value as the browser reads it.
pub fn unescape(text: &str) -> String {
    text.replace("&#x2f;", "/")
        .replace("&#x27;", "'")
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// The hidden fields of the consent form.
pub fn hidden_fields(html: &str) -> Vec<(String, String)> {
    let re = regex::Regex::new(r#"<input type="hidden" name="([^"]+)" value="([^"]*)">"#).unwrap();
    let form = &html[html
        .find("action=\"/oauth/authorize\"")
        .expect("the consent form")..];
    re.captures_iter(form)
        .map(|c| (c[1].to_owned(), unescape(&c[2])))
        .collect()
}

/// Signs in the way a person arriving at the authorization URL does: the consent page sends
/// them to the sign-in form with `next`, the form brings them back. The cookie and the
/// consent page's HTML.
pub async fn sign_in_through(app: &TestApp, key: &str, path: &str) -> (String, String) {
    let http = client();
    let first = http
        .get(app.url(path))
        .header(ACCEPT, "text/html")
        .send()
        .await
        .unwrap();
    assert_eq!(first.status(), 303, "not signed in: to the sign-in form");
    let to_sign_in = first.headers()[LOCATION].to_str().unwrap().to_owned();
    assert!(
        to_sign_in.starts_with("/journal/sign-in?next="),
        "{to_sign_in}"
    );
    let form = http
        .get(app.url(&to_sign_in))
        .header(ACCEPT, "text/html")
        .send()
        .await
        .unwrap();
    let pre = value(&set_cookie(&form, "n8v_pre").unwrap());
    let html = form.text().await.unwrap();
    let fields: Vec<(String, String)> = {
        let re =
            regex::Regex::new(r#"<input type="hidden" name="([^"]+)" value="([^"]*)">"#).unwrap();
        re.captures_iter(&html)
            .map(|c| (c[1].to_owned(), unescape(&c[2])))
            .collect()
    };
    let mut body: Vec<(String, String)> = fields;
    body.push(("key".into(), key.into()));
    let signed = http
        .post(app.url("/journal/sign-in"))
        .header(COOKIE, pre)
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(serde_urlencoded::to_string(&body).unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(signed.status(), 303);
    let back = signed.headers()[LOCATION].to_str().unwrap().to_owned();
    assert_eq!(
        back, path,
        "the sign-in returns to the authorization request"
    );
    let cookie = value(&set_cookie(&signed, "n8v_journal").unwrap());
    let consent = http
        .get(app.url(&back))
        .header(ACCEPT, "text/html")
        .header(COOKIE, &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(consent.status(), 200);
    (cookie, consent.text().await.unwrap())
}

/// Posts the consent form with `decision`; the response (a redirect to the client).
pub async fn decide(
    app: &TestApp,
    cookie: &str,
    consent_html: &str,
    decision: &str,
) -> reqwest::Response {
    let mut body = hidden_fields(consent_html);
    body.push(("decision".into(), decision.into()));
    client()
        .post(app.url("/oauth/authorize"))
        .header(COOKIE, cookie)
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(serde_urlencoded::to_string(&body).unwrap())
        .send()
        .await
        .unwrap()
}

/// The query parameters of a redirect's `Location`.
pub fn redirect_params(response: &reqwest::Response) -> std::collections::HashMap<String, String> {
    let location = response.headers()[LOCATION].to_str().unwrap();
    let url = url::Url::parse(location).unwrap();
    url.query_pairs()
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

/// Posts a form to the token endpoint; status and JSON body.
pub async fn token(app: &TestApp, form: &[(&str, &str)]) -> (u16, Value) {
    let response = app
        .http
        .post(app.url("/oauth/token"))
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(serde_urlencoded::to_string(form).unwrap())
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap())
}

/// Exchanges a code.
pub async fn exchange(app: &TestApp, client_id: &str, code: &str, verifier: &str) -> (u16, Value) {
    let resource = app.url("/mcp");
    token(
        app,
        &[
            ("grant_type", "authorization_code"),
            ("code", code),
            ("client_id", client_id),
            ("redirect_uri", REDIRECT),
            ("code_verifier", verifier),
            ("resource", &resource),
        ],
    )
    .await
}

/// Uses a refresh token.
pub async fn refresh(app: &TestApp, client_id: &str, refresh_token: &str) -> (u16, Value) {
    token(
        app,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", refresh_token),
            ("client_id", client_id),
        ],
    )
    .await
}

/// A grant, end to end: the person holding `key` approves `client_id` for `scope`; the code
/// and the PKCE verifier.
pub async fn code_for(
    app: &TestApp,
    key: &str,
    client_id: &str,
    scope: Option<&str>,
) -> (String, String) {
    let pkce = pkce();
    let path = authorize_path(client_id, REDIRECT, scope, &pkce.challenge, app);
    let (cookie, consent) = sign_in_through(app, key, &path).await;
    let approved = decide(app, &cookie, &consent, "approve").await;
    assert_eq!(approved.status(), 303);
    let params = redirect_params(&approved);
    assert_eq!(params["state"], "st-123");
    assert_eq!(params["iss"], app.base);
    (params["code"].clone(), pkce.verifier)
}

/// Registers a client and runs the flow to its tokens (status 200 asserted).
pub async fn tokens_for(
    app: &TestApp,
    key: &str,
    name: &str,
    scope: Option<&str>,
) -> (String, Value) {
    let client_id = register(app, name, REDIRECT).await;
    let (code, verifier) = code_for(app, key, &client_id, scope).await;
    let (status, body) = exchange(app, &client_id, &code, &verifier).await;
    assert_eq!(status, 200, "{body}");
    (client_id, body)
}

/// A raw MCP `initialize` with `token` (authentication comes first, so its status says
/// whether the token was taken).
pub async fn mcp_request(app: &TestApp, token: Option<&str>) -> reqwest::Response {
    let mut request = app
        .http
        .post(app.url("/mcp"))
        .header(ACCEPT, "application/json, text/event-stream")
        .json(&json!({
            "jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                       "clientInfo": {"name": "probe", "version": "1"}}
        }));
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    request.send().await.unwrap()
}

/// The `WWW-Authenticate` header of a response.
pub fn challenge(response: &reqwest::Response) -> String {
    response
        .headers()
        .get("www-authenticate")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default()
}

/// Posts `form` (URL-encoded) to `url` with `request`'s client and headers.
pub fn with_form(
    request: reqwest::RequestBuilder,
    form: &[(&str, &str)],
) -> reqwest::RequestBuilder {
    request
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(serde_urlencoded::to_string(form).unwrap())
}
