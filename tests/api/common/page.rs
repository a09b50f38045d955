//! The journal pages as a browser reaches them: sign in with a key, then send the cookie.

use super::TestApp;
use reqwest::header::{ACCEPT, CONTENT_TYPE, COOKIE, SET_COOKIE};

/// A client that does not follow redirects (a page's redirect is part of its answer).
pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

/// `name=value` of a cookie the response sets, with its attributes.
pub fn set_cookie(response: &reqwest::Response, name: &str) -> Option<String> {
    response
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with(&format!("{name}=")))
        .map(str::to_owned)
}

/// The `name=value` part of a `Set-Cookie` value: what a browser sends back.
pub fn value(set: &str) -> String {
    set.split(';').next().unwrap().to_owned()
}

/// The CSRF token of the first form on a page.
pub fn csrf(html: &str) -> String {
    let at = html
        .find("name=\"csrf\" value=\"")
        .expect("a form with a CSRF token")
        + 19;
    html[at..].split('"').next().unwrap().to_owned()
}

/// Signs in at `/journal/sign-in` with `key`; the `Cookie` header to send afterwards.
pub async fn sign_in(app: &TestApp, key: &str) -> String {
    sign_in_to(app, key, None).await
}

/// Signs in with `key` on the way to `next` (an OAuth authorization request: the sign-in does
/// not hold such a key to what the journal pages need, `chats:read` and the flag).
pub async fn sign_in_to(app: &TestApp, key: &str, next: Option<&str>) -> String {
    let http = client();
    let query = next
        .map(|n| format!("?{}", serde_urlencoded::to_string([("next", n)]).unwrap()))
        .unwrap_or_default();
    let form = http
        .get(app.url(&format!("/journal/sign-in{query}")))
        .header(ACCEPT, "text/html")
        .send()
        .await
        .unwrap();
    let pre = value(&set_cookie(&form, "n8v_pre").expect("a pre-sign-in cookie"));
    let csrf = csrf(&form.text().await.unwrap());
    let signed = http
        .post(app.url("/journal/sign-in"))
        .header(ACCEPT, "text/html")
        .header(COOKIE, pre)
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(
            serde_urlencoded::to_string(
                [("key", key), ("csrf", csrf.as_str())]
                    .into_iter()
                    .chain(next.map(|n| ("next", n)))
                    .collect::<Vec<_>>(),
            )
            .unwrap(),
        )
        .send()
        .await
        .unwrap();
    value(&set_cookie(&signed, "n8v_journal").expect("the sign-in cookie"))
}
