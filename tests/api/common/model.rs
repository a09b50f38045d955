//! A local model server speaking Gemini's generateContent, for tests that need to see what it
//! was sent and to decide when it answers. It keeps every request body for the test to check
//! (an assertion inside a handler would only panic the server's task, not the test), and while
//! its gate is shut it holds every answer until the test opens it.

use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Semaphore;

/// How a stand-in answers, beyond its summary: as slowly, as unreliably or as briefly as a
/// real provider may.
#[derive(Clone, Copy, Debug, Default)]
pub struct Script {
    /// Every answer waits this long first (a slow model).
    pub delay: Duration,
    /// The first `stalls` requests are never answered (the client times out).
    pub stalls: usize,
    /// Only the first `edits` edit requests (the cut-only step after a draft) are answered;
    /// later ones are held until the client gives up (a worker killed while it waits).
    pub edits: Option<usize>,
}

#[derive(Clone)]
pub struct Model {
    bodies: Arc<Mutex<Vec<Value>>>,
    gate: Arc<Semaphore>,
    summary: Arc<Mutex<Value>>,
    /// The prompt and candidate tokens each answer says it used.
    tokens: (u32, u32),
    /// Every answer is a `500` instead.
    fail: bool,
    script: Script,
}

impl Model {
    /// The request bodies received so far, in order.
    pub fn requests(&self) -> Vec<Value> {
        self.bodies.lock().unwrap().clone()
    }

    /// How many requests it has received (answered or held).
    pub fn count(&self) -> usize {
        self.bodies.lock().unwrap().len()
    }

    /// Lets every held and future answer through.
    /// Answers `summary` from now on (a test that learns an id only once the app runs).
    pub fn answer(&self, summary: Value) {
        *self.summary.lock().unwrap() = summary;
    }

    pub fn open(&self) {
        // A closed semaphore fails every `acquire` at once; no permit is ever added.
        self.gate.close();
    }
}

/// The server's URL and its handle. Every answer is `summary`, with 500 prompt and 100
/// candidate tokens; `open` says whether answers go out at once or wait for `Model::open`.
pub async fn gemini(summary: Value, open: bool) -> (String, Model) {
    gemini_as(summary, open, (500, 100), false).await
}

/// [`gemini`], open, answering as `script` says (500 prompt and 100 candidate tokens).
pub async fn gemini_scripted(summary: Value, script: Script) -> (String, Model) {
    serve(summary, true, (500, 100), false, script).await
}

/// [`gemini`], its answers saying they used `tokens` (prompt, candidates); with `fail`, every
/// request (still kept) is answered `500`.
pub async fn gemini_as(
    summary: Value,
    open: bool,
    tokens: (u32, u32),
    fail: bool,
) -> (String, Model) {
    serve(summary, open, tokens, fail, Script::default()).await
}

async fn serve(
    summary: Value,
    open: bool,
    tokens: (u32, u32),
    fail: bool,
    script: Script,
) -> (String, Model) {
    async fn generate(
        axum::extract::State(model): axum::extract::State<Model>,
        axum::Json(body): axum::Json<Value>,
    ) -> axum::response::Response {
        use axum::response::IntoResponse;
        let edit = body["systemInstruction"]
            .to_string()
            .contains("You edit a work-log entry");
        let (number, edits) = {
            let mut bodies = model.bodies.lock().unwrap();
            bodies.push(body);
            let edits = bodies
                .iter()
                .filter(|b| {
                    b["systemInstruction"]
                        .to_string()
                        .contains("You edit a work-log entry")
                })
                .count();
            (bodies.len(), edits)
        };
        let script = model.script;
        let held = edit && script.edits.is_some_and(|e| edits > e);
        if number <= script.stalls || held {
            tokio::time::sleep(Duration::from_secs(3600)).await;
        }
        tokio::time::sleep(script.delay).await;
        if model.fail {
            return (axum::http::StatusCode::INTERNAL_SERVER_ERROR, "down").into_response();
        }
        let _ = model.gate.acquire().await;
        let (prompt, candidates) = model.tokens;
        axum::Json(json!({
            "candidates": [{"content": {"role": "model", "parts": [{"text": model.summary.lock().unwrap().to_string()}]}, "finishReason": "STOP"}],
            "usageMetadata": {"promptTokenCount": prompt, "candidatesTokenCount": candidates,
                              "totalTokenCount": prompt + candidates}
        }))
        .into_response()
    }
    let model = Model {
        bodies: Arc::default(),
        gate: Arc::new(Semaphore::new(0)),
        summary: Arc::new(Mutex::new(summary)),
        tokens,
        fail,
        script,
    };
    if open {
        model.open();
    }
    let app = axum::Router::new()
        .route("/v1beta/models/{call}", axum::routing::post(generate))
        .with_state(model.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url, model)
}
