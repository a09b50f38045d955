//! A local model speaking the OpenAI-compatible Chat Completions wire format
//! (`POST /v1/chat/completions`, streamed as server-sent events or not, and `GET /v1/models`),
//! for running the real harnesses (OpenCode, Pi, Hermes) headless. It keeps every request body
//! for the test to check, and answers as a coding model would:
//!
//! - a request that asks for a summary of the conversation (a harness compacting it) gets
//!   [`RECAP`];
//! - the first request of a turn that offers a file-reading tool gets a call of that tool on
//!   [`Chat::file`] (so a session makes a second request, and tool output exists that must not
//!   be captured);
//! - every other request gets a reply naming its number (`REPLY-<n>`).
//!
//! Each answer says it used 1,000 tokens of context; [`Chat::compact_next`] makes the next reply
//! that ends a turn of the conversation say it used nearly all of it, which makes a harness
//! compact once.

use serde_json::{Value, json};
use std::sync::{Arc, Mutex};

/// What the stand-in answers a compaction with: it must never reach the journal.
pub const RECAP: &str = "RECAP-TEXT-51: the earlier turns fixed the login.";

#[derive(Clone)]
pub struct Chat {
    requests: Arc<Mutex<Vec<Value>>>,
    /// The file the read tool is called on.
    file: Arc<Mutex<String>>,
    /// The context the next reply (not a compaction) says it used, once.
    full: Arc<Mutex<Option<u64>>>,
}

impl Chat {
    /// Every request body received, in order.
    pub fn requests(&self) -> Vec<Value> {
        self.requests.lock().unwrap().clone()
    }

    pub fn clear(&self) {
        self.requests.lock().unwrap().clear();
    }

    /// The read tool is called on `path` from now on.
    pub fn read_file(&self, path: &str) {
        *self.file.lock().unwrap() = path.to_owned();
    }

    /// The next reply says it used `tokens` of context (then 1,000 again).
    pub fn compact_next(&self, tokens: u64) {
        *self.full.lock().unwrap() = Some(tokens);
    }
}

/// The system prompt of a request: its `system` (or `developer`) messages' text, joined.
pub fn system_prompt(request: &Value) -> String {
    messages(request)
        .iter()
        .filter(|m| m["role"] == "system" || m["role"] == "developer")
        .map(|m| text(&m["content"]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A message's text: a string, or its text parts joined.
pub fn text(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

fn messages(request: &Value) -> Vec<Value> {
    request["messages"].as_array().cloned().unwrap_or_default()
}

/// Whether a request asks for a summary of the conversation so far (a compaction): OpenCode's
/// "context summarization agent", Pi's "context summarization assistant".
pub fn is_compaction(request: &Value) -> bool {
    system_prompt(request)
        .to_lowercase()
        .contains("context summarization")
}

/// The read tool a request offers, and the name of the argument that takes the path.
fn read_tool(request: &Value) -> Option<(String, String)> {
    let tools = request["tools"].as_array()?;
    tools.iter().find_map(|tool| {
        let function = &tool["function"];
        let name = function["name"].as_str()?;
        if !["read", "read_file"].contains(&name) {
            return None;
        }
        let properties = function["parameters"]["properties"].as_object()?;
        let argument = ["filePath", "path", "file_path"]
            .into_iter()
            .find(|a| properties.contains_key(*a))?;
        Some((name.to_owned(), argument.to_owned()))
    })
}

/// Whether this request continues a turn whose tool already ran.
fn after_a_tool(request: &Value) -> bool {
    let all = messages(request);
    let last_user = all.iter().rposition(|m| m["role"] == "user").unwrap_or(0);
    all[last_user..].iter().any(|m| m["role"] == "tool")
}

enum Answer {
    Text(String),
    Tool { name: String, arguments: String },
}

fn answer(chat: &Chat, request: &Value, number: usize) -> Answer {
    if is_compaction(request) {
        return Answer::Text(RECAP.into());
    }
    let file = chat.file.lock().unwrap().clone();
    if !file.is_empty()
        && !after_a_tool(request)
        && let Some((name, argument)) = read_tool(request)
    {
        let mut arguments = serde_json::Map::new();
        arguments.insert(argument, Value::String(file));
        return Answer::Tool {
            name,
            arguments: Value::Object(arguments).to_string(),
        };
    }
    Answer::Text(format!("REPLY-{number}: the login redirect is fixed."))
}

async fn completions(
    axum::extract::State(chat): axum::extract::State<Chat>,
    axum::Json(request): axum::Json<Value>,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let number = {
        let mut all = chat.requests.lock().unwrap();
        all.push(request.clone());
        all.len()
    };
    let answer = answer(&chat, &request, number);
    // Nearly full: said by the reply that ends a turn of the conversation (it offers tools;
    // a title's or a compaction's request does not), so the harness compacts after it.
    let ends_turn = matches!(answer, Answer::Text(_)) && request["tools"].is_array();
    let prompt_tokens = if ends_turn && !is_compaction(&request) {
        chat.full.lock().unwrap().take().unwrap_or(1_000)
    } else {
        1_000
    };
    let usage = json!({"prompt_tokens": prompt_tokens, "completion_tokens": 20,
                       "total_tokens": prompt_tokens + 20});
    let model = request["model"].as_str().unwrap_or("stand-in").to_owned();
    let id = format!("chatcmpl-{number}");
    let created = chrono::Utc::now().timestamp();
    let (message, delta, finish) = match answer {
        Answer::Text(text) => (
            json!({"role": "assistant", "content": text}),
            json!({"role": "assistant", "content": text}),
            "stop",
        ),
        Answer::Tool { name, arguments } => {
            let call = json!({"id": format!("call_{number}"), "type": "function",
                              "function": {"name": name, "arguments": arguments}});
            let mut streamed = call.clone();
            streamed["index"] = json!(0);
            (
                json!({"role": "assistant", "content": null, "tool_calls": [call]}),
                json!({"role": "assistant", "tool_calls": [streamed]}),
                "tool_calls",
            )
        }
    };
    if request["stream"] != true {
        return axum::Json(json!({
            "id": id, "object": "chat.completion", "created": created, "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": usage,
        }))
        .into_response();
    }
    let chunk = |choices: Value, usage: Value| {
        let mut c = json!({"id": id, "object": "chat.completion.chunk", "created": created,
                           "model": model, "choices": choices});
        if !usage.is_null() {
            c["usage"] = usage;
        }
        format!("data: {c}\n\n")
    };
    let mut body = chunk(
        json!([{"index": 0, "delta": delta, "finish_reason": null}]),
        Value::Null,
    );
    body += &chunk(
        json!([{"index": 0, "delta": {}, "finish_reason": finish}]),
        Value::Null,
    );
    body += &chunk(json!([]), usage);
    body += "data: [DONE]\n\n";
    (
        [(axum::http::header::CONTENT_TYPE, "text/event-stream")],
        body,
    )
        .into_response()
}

async fn models() -> axum::Json<Value> {
    axum::Json(json!({"object": "list", "data": [
        {"id": "stand-in", "object": "model", "created": 0, "owned_by": "n8v"}]}))
}

/// The stand-in's base URL (ending in `/v1`) and its handle.
pub async fn serve() -> (String, Chat) {
    let chat = Chat {
        requests: Arc::default(),
        file: Arc::default(),
        full: Arc::default(),
    };
    let app = axum::Router::new()
        .route("/v1/chat/completions", axum::routing::post(completions))
        .route("/chat/completions", axum::routing::post(completions))
        .route("/v1/models", axum::routing::get(models))
        .route("/models", axum::routing::get(models))
        .with_state(chat.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url, chat)
}
