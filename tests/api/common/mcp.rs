//! An MCP client for the tests: rmcp's own, over streamable HTTP, with the bearer credential.

use super::TestApp;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{RoleClient, ServiceExt};
use serde_json::Value;

pub type Client = RunningService<RoleClient, ()>;

pub async fn connect(app: &TestApp, token: &str) -> Client {
    let config = StreamableHttpClientTransportConfig::with_uri(app.url("/mcp")).auth_header(token);
    ().serve(StreamableHttpClientTransport::from_config(config))
        .await
        .expect("initialize")
}

pub async fn call(client: &Client, tool: &str, args: Value) -> CallToolResult {
    let params = CallToolRequestParams::new(tool.to_owned())
        .with_arguments(args.as_object().unwrap().clone());
    client.call_tool(params).await.expect("tools/call")
}

/// The structured content of a successful tool result.
pub fn structured(result: &CallToolResult) -> Value {
    assert_ne!(result.is_error, Some(true), "tool error: {result:?}");
    result
        .structured_content
        .clone()
        .expect("structured content")
}

/// `_meta["n8v/session"]`, when the call was recorded in a session.
pub fn meta_session(result: &CallToolResult) -> Option<String> {
    result
        .meta
        .as_ref()?
        .get("n8v/session")?
        .as_str()
        .map(str::to_owned)
}

/// The text of a tool error.
pub fn error_text(result: &CallToolResult) -> String {
    assert_eq!(
        result.is_error,
        Some(true),
        "expected a tool error: {result:?}"
    );
    serde_json::to_string(&result.content).unwrap()
}
