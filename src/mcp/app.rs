//! The catch-up as an MCP App (the extension `io.modelcontextprotocol/ui`, SEP-1865): one
//! `ui://` resource, a self-contained HTML view (`app/catch_up.html`) that renders the
//! structured content of `journal_catch_up` and `journal_loops` and closes or dismisses loops
//! through the host's `tools/call`. Both tools name it in `_meta.ui.resourceUri`; a host
//! without Apps ignores that and shows the tools' text, which stays as it is.
//!
//! The view needs no outside origin: its script and style are inline, it loads nothing and
//! connects nowhere (it talks to the host by `postMessage` only), so its declared CSP lists no
//! domain and hosts apply their restrictive default. It writes every item with `textContent`:
//! the brief holds other assistants' words, never markup.

use rmcp::model::{MetaObject, ReadResourceResult, Resource, ResourceContents};
use serde_json::{Value, json};

/// The view's address.
pub const CATCH_UP: &str = "ui://n8v-journal/catch-up";
/// What MCP Apps hosts render.
pub const MIME_TYPE: &str = "text/html;profile=mcp-app";
const HTML: &str = include_str!("app/catch_up.html");

/// A tool's `_meta` naming the view: `{"ui": {"resourceUri": …}}`.
pub fn tool_meta(uri: &str) -> MetaObject {
    let mut meta = MetaObject::new();
    meta.insert("ui".into(), json!({ "resourceUri": uri }));
    meta
}

/// The resource's `_meta.ui`: no outside domain for anything, and a border from the host.
fn ui_meta() -> MetaObject {
    let mut meta = MetaObject::new();
    meta.insert(
        "ui".into(),
        json!({
            "csp": {
                "connectDomains": Value::Array(Vec::new()),
                "resourceDomains": Value::Array(Vec::new()),
                "frameDomains": Value::Array(Vec::new()),
                "baseUriDomains": Value::Array(Vec::new()),
            },
            "prefersBorder": true,
        }),
    );
    meta
}

/// The view as `resources/list` shows it.
pub fn listed() -> Resource {
    Resource::new(CATCH_UP, "catch-up-view")
        .with_title("The catch-up, as a view")
        .with_description(
            "An MCP App (text/html;profile=mcp-app) rendering journal_catch_up and \
             journal_loops: current decisions and what they replaced, open loops with their \
             age and Close / Dismiss buttons, the sessions by assistant. Self-contained; \
             loads and connects to nothing.",
        )
        .with_mime_type(MIME_TYPE)
        .with_meta(ui_meta())
}

/// The view itself, for `resources/read`: static, the same for every caller.
pub fn read() -> ReadResourceResult {
    ReadResourceResult::new(vec![ResourceContents::TextResourceContents {
        uri: CATCH_UP.to_owned(),
        mime_type: Some(MIME_TYPE.to_owned()),
        text: HTML.to_owned(),
        meta: Some(ui_meta()),
    }])
}
