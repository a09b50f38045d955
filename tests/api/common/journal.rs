//! Journal work over REST, built on `call`: the steps several test files take the same way,
//! each answer read as the crate's own output type (`ops::*`, `journal::*`) where it has one.
//! The wire's field names are checked where the contract is: the OpenAPI drift test
//! (`openapi.rs`), the SDK smoke tests and the MCP clients.

use super::{Call, TestApp, expect_ok, session_of};
use n8v_journal::brief::{CatchUp, Item};
use n8v_journal::journal::Session;
use n8v_journal::journal::exposures::Exposure;
use n8v_journal::journal::search::SearchHit;
use n8v_journal::loops::Loop;
use n8v_journal::ops::exposures::ExposureList;
use n8v_journal::ops::journal::{SessionDetail, SessionList};
use n8v_journal::ops::loops::LoopList;
use n8v_journal::ops::search::SearchResults;
use serde::de::DeserializeOwned;

/// `body` read as `T`; a body that is not one fails the test, showing it.
pub fn decode<T: DeserializeOwned>(body: serde_json::Value) -> T {
    match T::deserialize(&body) {
        Ok(typed) => typed,
        Err(e) => panic!("not a {}: {e}: {body}", std::any::type_name::<T>()),
    }
}

impl Call<'_> {
    /// Asserts the status and reads the JSON body as `T`, one of the crate's output types.
    pub async fn typed<T: DeserializeOwned>(self, status: u16) -> T {
        decode(self.ok(status).await)
    }
}

impl TestApp {
    /// The id of the first Record the credential lists (the account's own, for an account in
    /// no organization). Unlike `record_of`, this is a call like any other: journalled when
    /// the journal is on.
    pub async fn first_record(&self, token: &str) -> String {
        let body = self
            .call(reqwest::Method::GET, "/api/v1/records")
            .token(token)
            .ok(200)
            .await;
        body["records"][0]["id"]
            .as_str()
            .unwrap_or_else(|| panic!("{body}"))
            .to_owned()
    }

    /// Appends `line` to a Record, naming a session and a purpose when given; asserts 201 and
    /// returns the session the call landed in (the named one, when one is named).
    pub async fn append(
        &self,
        token: &str,
        record: &str,
        session: Option<&str>,
        purpose: Option<&str>,
        line: &str,
    ) -> String {
        let response = self
            .call(
                reqwest::Method::POST,
                &format!("/api/v1/records/{record}/entries"),
            )
            .token(token)
            .purpose_opt(purpose)
            .session(session)
            .json(serde_json::json!({ "line": line }))
            .send()
            .await;
        let landed = session_of(&response);
        expect_ok(response, 201).await;
        let landed = landed.expect("a journalled call answers with x-session-id");
        if let Some(session) = session {
            assert_eq!(landed, session);
        }
        landed
    }

    /// Starts an explicit session; asserts 201 and that `X-Session-Id` names it; returns it.
    pub async fn start_session(
        &self,
        token: &str,
        purpose: Option<&str>,
        body: serde_json::Value,
    ) -> Session {
        let response = self
            .call(reqwest::Method::POST, "/api/v1/journal/sessions")
            .token(token)
            .purpose_opt(purpose)
            .json(body)
            .send()
            .await;
        let header = session_of(&response);
        let session: Session = decode(expect_ok(response, 201).await);
        assert_eq!(header, Some(session.id.to_string()), "{session:?}");
        session
    }

    /// A request for one session as the credential: `session` is its id, with a `?query` when
    /// wanted. Finish it with `.ok(200)`, `.problem(…)` or `.send()`.
    pub fn get_session(&self, token: &str, session: &str) -> Call<'_> {
        self.call(
            reqwest::Method::GET,
            &format!("/api/v1/journal/sessions/{session}"),
        )
        .token(token)
    }

    /// The ids under `key` on every page of the cursor-paged list at `path` (`limit` a page),
    /// in order; each page asserts 200.
    pub async fn paged_ids(&self, token: &str, path: &str, limit: u32, key: &str) -> Vec<String> {
        let mut ids = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let query = match &cursor {
                Some(c) => format!("?limit={limit}&cursor={c}"),
                None => format!("?limit={limit}"),
            };
            let page = self
                .call(reqwest::Method::GET, &format!("{path}{query}"))
                .token(token)
                .ok(200)
                .await;
            ids.extend(
                page[key]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|item| item["id"].as_str().unwrap().to_owned()),
            );
            match page["next_cursor"].as_str() {
                Some(next) => cursor = Some(next.to_owned()),
                None => return ids,
            }
        }
    }

    /// One session's detail (`session` as for `get_session`); asserts 200.
    pub async fn session_detail(&self, token: &str, session: &str) -> SessionDetail {
        self.get_session(token, session).typed(200).await
    }

    /// A request ending a session with the given body. Finish it with `.ok(200)`,
    /// `.problem(…)` or `.send()`.
    pub fn end_session(&self, token: &str, session: &str, body: serde_json::Value) -> Call<'_> {
        self.call(
            reqwest::Method::POST,
            &format!("/api/v1/journal/sessions/{session}/end"),
        )
        .token(token)
        .json(body)
    }

    /// One page of `GET /api/v1/journal/sessions{query}` (so `query` is empty or starts with
    /// `?`); asserts 200.
    pub async fn sessions(&self, token: &str, purpose: Option<&str>, query: &str) -> SessionList {
        self.call(
            reqwest::Method::GET,
            &format!("/api/v1/journal/sessions{query}"),
        )
        .token(token)
        .purpose_opt(purpose)
        .typed(200)
        .await
    }

    /// The ids of the sessions on one page of `GET /api/v1/journal/sessions{query}`.
    pub async fn session_ids(
        &self,
        token: &str,
        purpose: Option<&str>,
        query: &str,
    ) -> Vec<String> {
        let page = self.sessions(token, purpose, query).await;
        page.sessions.iter().map(|s| s.id.to_string()).collect()
    }

    /// The text `GET path` answers the credential (`/journal.md`, the export), whatever its
    /// status.
    pub async fn text(&self, token: &str, path: &str) -> String {
        let answer = self
            .call(reqwest::Method::GET, path)
            .token(token)
            .send()
            .await;
        answer.text().await.unwrap()
    }

    /// `GET path` as the credential; asserts 200 and reads the answer as `T`.
    pub async fn get_typed<T: DeserializeOwned>(&self, token: &str, path: &str) -> T {
        self.call(reqwest::Method::GET, path)
            .token(token)
            .typed(200)
            .await
    }

    /// The catch-up brief, read in `session` when given; asserts 200.
    pub async fn brief(&self, token: &str, session: Option<&str>) -> CatchUp {
        self.call(reqwest::Method::GET, "/api/v1/journal/catch-up")
            .token(token)
            .session(session)
            .typed(200)
            .await
    }

    /// The items the credential lists in `state` (one page of 100); asserts 200.
    pub async fn loops(&self, token: &str, state: &str) -> Vec<Loop> {
        let path = format!("/api/v1/journal/loops?state={state}&limit=100");
        self.get_typed::<LoopList>(token, &path).await.loops
    }

    /// The matches `GET /api/v1/journal/search?{query}` answers, best first; asserts 200.
    pub async fn search(&self, token: &str, query: &str) -> Vec<SearchHit> {
        let path = format!("/api/v1/journal/search?{query}");
        self.get_typed::<SearchResults>(token, &path).await.hits
    }

    /// The exposures `GET /api/v1/journal/exposures{query}` lists; asserts 200.
    pub async fn exposures(&self, token: &str, query: &str) -> Vec<Exposure> {
        let path = format!("/api/v1/journal/exposures{query}");
        self.get_typed::<ExposureList>(token, &path).await.exposures
    }
}

/// An answer as JSON text, as it went over the wire: for "nowhere in it" checks (its `Debug`
/// shows ids as UUIDs, not as `ses_…`).
pub fn json_text<T: serde::Serialize>(answer: &T) -> String {
    serde_json::to_string(answer).unwrap()
}

/// Ids as their text (`itm_…`, `ses_…`), in order.
pub fn ids<T: ToString>(ids: &[T]) -> Vec<String> {
    ids.iter().map(ToString::to_string).collect()
}

/// The texts of a brief's list (`&brief.decisions`, …), in order.
pub fn texts(items: &[Item]) -> Vec<&str> {
    items.iter().map(|i| i.text.as_str()).collect()
}
