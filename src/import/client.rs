//! The service as the importer and the hooks call it: `POST /api/v1/journal/episodes` and
//! `GET /journal.md`, with the caller's own assistant name and a purpose saying what it did,
//! and every way a call can fail told in one line that never repeats the token.

use super::Harness;
use super::transcript::Episode;
use serde_json::{Value, json};
use std::time::Duration;

/// The assistant `n8v-journal import` records its calls under.
pub const IMPORT_ASSISTANT: &str = "n8v-journal-import";
/// The assistant the hooks record their calls under.
pub const HOOK_ASSISTANT: &str = "n8v-journal-hook";

/// Why a call did nothing, as one line a person can act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// No connection (refused, no route, bad address, TLS), or no answer in time.
    Unreachable { url: String, why: String },
    /// `401`: the token is not one the service knows (revoked, expired, mistyped).
    TokenRefused,
    /// `403`: the token authenticates but may not do this (a missing scope).
    Forbidden(String),
    /// `404` `journal-off`: the account's journal is off.
    JournalOff,
    /// The service does not know this call: it is older than this binary.
    ServiceTooOld(String),
    /// Any other refusal, with the service's own words.
    Refused(u16, String),
}

impl Failure {
    pub fn line(&self) -> String {
        match self {
            Failure::Unreachable { url, why } => {
                format!("cannot reach the service at {url}: {why}")
            }
            Failure::TokenRefused => {
                "the service refused N8V_TOKEN (401): it is revoked, expired or not a key of \
                 this service; make one with chats:read"
                    .into()
            }
            Failure::Forbidden(detail) => format!("N8V_TOKEN may not do this (403): {detail}"),
            Failure::JournalOff => {
                "the assistant journal is off for this account (the assistantJournal flag)".into()
            }
            Failure::ServiceTooOld(what) => {
                format!("the service is older than this n8v-journal ({what}); upgrade the service")
            }
            Failure::Refused(status, detail) => format!("the service answered {status}: {detail}"),
        }
    }
}

/// A client of one service with one token.
pub struct Service {
    http: reqwest::Client,
    base: String,
    token: String,
    assistant: &'static str,
}

/// What a post made: how many entries, and whether any was new.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Posted {
    pub entries: usize,
    pub created: usize,
}

impl Service {
    /// `timeout` bounds each whole request; connecting alone gets at most 3 seconds.
    pub fn new(
        base: &str,
        token: &str,
        assistant: &'static str,
        timeout: Duration,
    ) -> anyhow::Result<Self> {
        let http = reqwest::Client::builder()
            .user_agent(concat!("n8v-journal/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(timeout.min(Duration::from_secs(3)))
            .timeout(timeout)
            .build()?;
        Ok(Self {
            http,
            base: base.trim_end_matches('/').to_owned(),
            token: token.to_owned(),
            assistant,
        })
    }

    fn request(
        &self,
        method: reqwest::Method,
        path: &str,
        purpose: &str,
    ) -> reqwest::RequestBuilder {
        self.http
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .header("x-assistant", self.assistant)
            .header("x-purpose", purpose)
    }

    /// Posts one conversation. `ended` says the harness ended it; a service older than that
    /// field is asked again without it.
    pub async fn post(
        &self,
        harness: Harness,
        episode: &Episode,
        purpose: &str,
        ended: bool,
    ) -> Result<Posted, Failure> {
        let mut body = body(harness, episode);
        if ended {
            body["ended"] = Value::Bool(true);
        }
        let path = "/api/v1/journal/episodes";
        let mut answer = self
            .send(
                self.request(reqwest::Method::POST, path, purpose)
                    .json(&body),
            )
            .await;
        if let Err(Failure::Refused(422, detail)) = &answer
            && detail.contains("`ended`")
        {
            if let Some(fields) = body.as_object_mut() {
                fields.remove("ended");
            }
            answer = self
                .send(
                    self.request(reqwest::Method::POST, path, purpose)
                        .json(&body),
                )
                .await;
        }
        let posted = answer?;
        let entries = posted["entries"].as_array().cloned().unwrap_or_default();
        Ok(Posted {
            entries: entries.len(),
            created: entries.iter().filter(|e| e["created"] != false).count(),
        })
    }

    /// The ids of this key's episodes of `harness` whose last post was not settled
    /// (`GET /api/v1/journal/episodes`).
    pub async fn open_episodes(
        &self,
        harness: Harness,
        purpose: &str,
    ) -> Result<Vec<String>, Failure> {
        let path = format!("/api/v1/journal/episodes?harness={}", harness.name());
        let response = self
            .request(reqwest::Method::GET, &path, purpose)
            .send()
            .await
            .map_err(|e| self.unreachable(&e))?;
        let response = self
            .checked(response, "GET /api/v1/journal/episodes")
            .await?;
        let listed: Value = response.json().await.map_err(|e| self.unreachable(&e))?;
        Ok(listed["episodes"]
            .as_array()
            .map(|list| {
                list.iter()
                    .filter_map(|e| e["episode_id"].as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default())
    }

    /// The recent journal as markdown, at most `max_chars` characters.
    pub async fn window(&self, max_chars: usize, purpose: &str) -> Result<String, Failure> {
        let path = format!("/journal.md?max_chars={max_chars}");
        let response = self
            .request(reqwest::Method::GET, &path, purpose)
            .send()
            .await
            .map_err(|e| self.unreachable(&e))?;
        let response = self.checked(response, "GET /journal.md").await?;
        response.text().await.map_err(|e| self.unreachable(&e))
    }

    async fn send(&self, request: reqwest::RequestBuilder) -> Result<Value, Failure> {
        let response = request.send().await.map_err(|e| self.unreachable(&e))?;
        let response = self
            .checked(response, "POST /api/v1/journal/episodes")
            .await?;
        response.json().await.map_err(|e| self.unreachable(&e))
    }

    fn unreachable(&self, e: &reqwest::Error) -> Failure {
        let why = if e.is_timeout() {
            "no answer in time".to_owned()
        } else if e.is_connect() {
            "no connection (is it running, and is N8V_URL right?)".to_owned()
        } else if e.is_decode() || e.is_body() {
            "its answer could not be read (is N8V_URL this service?)".to_owned()
        } else {
            // The innermost cause: it says what went wrong without the URL (said once).
            let mut cause: &dyn std::error::Error = e;
            while let Some(next) = cause.source() {
                cause = next;
            }
            cause
                .to_string()
                .lines()
                .next()
                .unwrap_or("request failed")
                .to_owned()
        };
        Failure::Unreachable {
            url: self.base.clone(),
            why,
        }
    }

    /// A success as it is; a refusal as the [`Failure`] it means, read from the problem body.
    async fn checked(
        &self,
        response: reqwest::Response,
        what: &str,
    ) -> Result<reqwest::Response, Failure> {
        let status = response.status().as_u16();
        if response.status().is_success() {
            return Ok(response);
        }
        let problem: Value = response.json().await.unwrap_or(Value::Null);
        let kind = problem["type"].as_str().unwrap_or_default();
        let detail = problem["detail"]
            .as_str()
            .or(problem["title"].as_str())
            .unwrap_or("no detail")
            .lines()
            .next()
            .unwrap_or_default()
            .chars()
            .take(300)
            .collect::<String>();
        Err(match status {
            401 => Failure::TokenRefused,
            403 => Failure::Forbidden(detail),
            404 if kind.ends_with("/journal-off") => Failure::JournalOff,
            404 | 405 => Failure::ServiceTooOld(format!("it has no {what}")),
            _ => Failure::Refused(status, detail),
        })
    }
}

/// The episode as the service takes it.
fn body(harness: Harness, episode: &Episode) -> Value {
    let now = chrono::Utc::now().to_rfc3339();
    let started = episode.started.clone().unwrap_or(now);
    let ended = episode.ended.clone().unwrap_or_else(|| started.clone());
    json!({
        "episode_id": episode.clean_id(),
        "harness": harness.name(),
        "project": episode.project,
        "started_at": started,
        "ended_at": ended,
        "turns": episode.turns.iter().map(|(role, text)| json!({"role": role, "text": text}))
            .collect::<Vec<_>>(),
    })
}
