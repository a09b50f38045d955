//! A local model server speaking Gemini's generateContent, for tests that need to see what it
//! was sent and to decide when it answers. It keeps every request body for the test to check
//! (an assertion inside a handler would only panic the server's task, not the test), and while
//! its gate is shut it holds every answer until the test opens it.

use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use tokio::sync::Semaphore;

#[derive(Clone)]
pub struct Model {
    bodies: Arc<Mutex<Vec<Value>>>,
    gate: Arc<Semaphore>,
    summary: Value,
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
    pub fn open(&self) {
        // A closed semaphore fails every `acquire` at once; no permit is ever added.
        self.gate.close();
    }
}

/// The server's URL and its handle. Every answer is `summary`, with 500 prompt and 100
/// candidate tokens; `open` says whether answers go out at once or wait for `Model::open`.
pub async fn gemini(summary: Value, open: bool) -> (String, Model) {
    async fn generate(
        axum::extract::State(model): axum::extract::State<Model>,
        axum::Json(body): axum::Json<Value>,
    ) -> axum::Json<Value> {
        model.bodies.lock().unwrap().push(body);
        let _ = model.gate.acquire().await;
        axum::Json(json!({
            "candidates": [{"content": {"role": "model", "parts": [{"text": model.summary.to_string()}]}, "finishReason": "STOP"}],
            "usageMetadata": {"promptTokenCount": 500, "candidatesTokenCount": 100, "totalTokenCount": 600}
        }))
    }
    let model = Model {
        bodies: Arc::default(),
        gate: Arc::new(Semaphore::new(0)),
        summary,
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
