//! A local webhook receiver: records every request it gets (headers and raw body) and answers
//! as told (`200`, `500`, or holding the answer until released), and can go down (its port
//! refuses connections) and come back on the same port. What it received is verified with the
//! Standard Webhooks reference library (PyPI `standardwebhooks`, tests/e2e/webhook_verify.py),
//! as it is.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use tokio::sync::{Notify, watch};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Ok,
    Fail,
    /// Receive, then wait for [`Receiver::release`] before answering `200`.
    Hold,
}

/// One request received.
#[derive(Clone, Debug)]
pub struct Received {
    pub headers: Value,
    pub body: String,
    /// Whether it was answered with a 2xx (false for held requests never released).
    pub acked: bool,
}

struct Inner {
    received: Mutex<Vec<Received>>,
    answer: Mutex<Answer>,
    arrived: Notify,
    /// True once the held requests may be answered.
    released: watch::Sender<bool>,
}

pub struct Receiver {
    inner: Arc<Inner>,
    pub addr: SocketAddr,
    server: Option<tokio::task::JoinHandle<()>>,
}

async fn receive(State(inner): State<Arc<Inner>>, headers: HeaderMap, body: String) -> StatusCode {
    let answer = *inner.answer.lock().unwrap();
    let mut released = inner.released.subscribe();
    let kept: serde_json::Map<String, Value> = headers
        .iter()
        .filter(|(name, _)| name.as_str().starts_with("webhook-") || *name == "content-type")
        .map(|(name, value)| (name.to_string(), json!(value.to_str().unwrap())))
        .collect();
    let index = {
        let mut received = inner.received.lock().unwrap();
        received.push(Received {
            headers: Value::Object(kept),
            body,
            acked: false,
        });
        received.len() - 1
    };
    inner.arrived.notify_one();
    match answer {
        Answer::Fail => return StatusCode::INTERNAL_SERVER_ERROR,
        Answer::Hold => {
            let _ = released.wait_for(|r| *r).await;
        }
        Answer::Ok => {}
    }
    inner.received.lock().unwrap()[index].acked = true;
    StatusCode::OK
}

impl Receiver {
    pub async fn start() -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let inner = Arc::new(Inner {
            received: Mutex::default(),
            answer: Mutex::new(Answer::Ok),
            arrived: Notify::new(),
            released: watch::Sender::new(false),
        });
        let addr = listener.local_addr().unwrap();
        let mut receiver = Self {
            inner,
            addr,
            server: None,
        };
        receiver.serve(listener);
        receiver
    }

    fn serve(&mut self, listener: tokio::net::TcpListener) {
        let app = axum::Router::new()
            .fallback(axum::routing::post(receive))
            .with_state(self.inner.clone());
        self.server = Some(tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        }));
    }

    /// The URL endpoints are made with.
    pub fn url(&self) -> String {
        format!("http://{}/hooks", self.addr)
    }

    /// How the next requests are answered (`Hold` holds them until [`Receiver::release`]).
    pub fn answer(&self, answer: Answer) {
        if answer == Answer::Hold {
            self.inner.released.send_replace(false);
        }
        *self.inner.answer.lock().unwrap() = answer;
    }

    /// Goes down: connections to its port are refused.
    pub async fn stop(&mut self) {
        if let Some(server) = self.server.take() {
            server.abort();
            let _ = server.await;
        }
    }

    /// Comes back on the same port.
    pub async fn restart(&mut self) {
        let listener = tokio::net::TcpListener::bind(self.addr).await.unwrap();
        self.serve(listener);
    }

    /// Resolves when a request has arrived (one notification per request).
    pub async fn arrived(&self) {
        self.inner.arrived.notified().await;
    }

    /// Answers the held requests.
    pub fn release(&self) {
        self.inner.released.send_replace(true);
    }

    pub fn received(&self) -> Vec<Received> {
        self.inner.received.lock().unwrap().clone()
    }
}

/// Verifies each of `received` with the `standardwebhooks` library under `secret`: the
/// payloads it accepted, or the library's refusals.
pub fn verify(secret: &str, received: &[Received]) -> Vec<Result<Value, String>> {
    // The tests' Python (`.ci/run` sets N8V_MCP_PYTHON to the CI environment, which installs
    // tests/e2e/requirements.txt), else that environment's default place.
    let python = std::env::var("N8V_MCP_PYTHON")
        .unwrap_or_else(|_| "/var/tmp/n8v-journal-venv/bin/python".to_owned());
    let imported = std::process::Command::new(&python)
        .args(["-c", "import standardwebhooks"])
        .output()
        .unwrap();
    assert!(
        imported.status.success(),
        "{python} cannot import standardwebhooks: pip install -r tests/e2e/requirements.txt"
    );
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/e2e/webhook_verify.py");
    let job = json!({
        "secret": secret,
        "deliveries": received.iter().map(|r| json!({"headers": r.headers, "body": r.body}))
            .collect::<Vec<_>>(),
    });
    let mut child = std::process::Command::new(&python)
        .arg(script)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(job.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "webhook_verify.py failed");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|line| {
            let v: Value = serde_json::from_str(line).unwrap();
            match v["ok"].as_bool() {
                Some(true) => Ok(v["payload"].clone()),
                _ => Err(v["error"].as_str().unwrap_or_default().to_owned()),
            }
        })
        .collect()
}

/// Every one of `received` verified under `secret`; their payloads.
pub fn verified(secret: &str, received: &[Received]) -> Vec<Value> {
    verify(secret, received)
        .into_iter()
        .enumerate()
        .map(|(i, r)| r.unwrap_or_else(|e| panic!("delivery {i} not verified: {e}")))
        .collect()
}
