//! One request, built step by step ([`Call`]), and what a test expects of its answer.

use super::TestApp;

/// One request, built step by step: every test file drives the API through this.
///
/// `app.call(Method::POST, path).token(t).purpose("…").session(s).json(body)`, then `.send()`
/// for the raw response, `.ok(201)` for the JSON body of an expected success, or
/// `.problem(404, "not-found")` for an expected problem.
pub struct Call<'a> {
    app: &'a TestApp,
    request: reqwest::RequestBuilder,
}

impl TestApp {
    pub fn call(&self, method: reqwest::Method, path: &str) -> Call<'_> {
        Call {
            app: self,
            request: self.http.request(method, self.url(path)),
        }
    }
}

impl Call<'_> {
    pub fn token(mut self, token: &str) -> Self {
        self.request = self.request.bearer_auth(token);
        self
    }

    pub fn purpose(mut self, purpose: &str) -> Self {
        self.request = self.request.header("x-purpose", purpose);
        self
    }

    /// `X-Session-Id`, when given.
    pub fn session(mut self, session: Option<&str>) -> Self {
        if let Some(s) = session {
            self.request = self.request.header("x-session-id", s);
        }
        self
    }

    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.request = self.request.header(name, value);
        self
    }

    pub fn json(mut self, body: serde_json::Value) -> Self {
        self.request = self.request.json(&body);
        self
    }

    /// `X-Purpose`, when given.
    pub fn purpose_opt(self, purpose: Option<&str>) -> Self {
        match purpose {
            Some(p) => self.purpose(p),
            None => self,
        }
    }

    /// A JSON body, when given (none at all otherwise).
    pub fn json_opt(self, body: Option<serde_json::Value>) -> Self {
        match body {
            Some(b) => self.json(b),
            None => self,
        }
    }

    /// A raw body, sent as it is (set `content-type` with `.header`).
    pub fn body(mut self, body: impl Into<reqwest::Body>) -> Self {
        self.request = self.request.body(body);
        self
    }

    pub async fn send(self) -> reqwest::Response {
        let _ = self.app;
        self.request.send().await.unwrap()
    }

    /// Asserts the status and returns the JSON body.
    pub async fn ok(self, status: u16) -> serde_json::Value {
        expect_ok(self.send().await, status).await
    }

    /// Asserts a problem+json answer; returns its body.
    pub async fn problem(self, status: u16, slug: &str) -> serde_json::Value {
        expect_problem(self.send().await, status, slug).await
    }
}

/// Asserts the status of a response and returns its JSON body (`null` when it has none).
pub async fn expect_ok(response: reqwest::Response, status: u16) -> serde_json::Value {
    let got = response.status().as_u16();
    let url = response.url().to_string();
    let text = response.text().await.unwrap();
    assert_eq!(got, status, "{url}: {text}");
    serde_json::from_str(&text).unwrap_or(serde_json::Value::Null)
}

/// The session a response was recorded in (`X-Session-Id`).
pub fn session_of(response: &reqwest::Response) -> Option<String> {
    response
        .headers()
        .get("x-session-id")
        .map(|v| v.to_str().unwrap().to_owned())
}

/// Asserts a problem+json answer with the given status and type slug; returns the body.
pub async fn expect_problem(
    response: reqwest::Response,
    status: u16,
    slug: &str,
) -> serde_json::Value {
    assert_eq!(response.status().as_u16(), status, "unexpected status");
    let content_type = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    assert_eq!(content_type, "application/problem+json");
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(
        body["type"],
        format!("https://n8v-journal.dev/problems/{slug}"),
        "{body}"
    );
    assert_eq!(body["status"], status);
    assert!(
        body["title"].is_string() && body["detail"].is_string(),
        "{body}"
    );
    body
}
