//! The journal as MCP resources: the recent window (`/journal.md`'s markdown), the catch-up
//! brief (what `journal_catch_up` answers without `since`), one session by template (what
//! `journal_session` answers), and the catch-up's view (an MCP App, [`super::app`]: static
//! HTML holding no one's data, read without running an operation). Each journal read runs the same operation as the tool or the page, as
//! the caller, journalled with the purpose "Read the journal resource <uri>", so the scopes,
//! the journal flag and tenancy are those of the tool.
//!
//! A refused read is a JSON-RPC error carrying the same title and detail as the tool's error,
//! with the problem's `type` and `status` in `data`: `-32002` for not found, `-32602` for a bad
//! uri or argument, `-32603` for the server's own failures, `-32600` otherwise (a missing scope,
//! the journal off, a rate limit).

use super::app;
use super::call::{Call, Refused};
use super::server::JournalMcp;
use crate::error::Error;
use crate::ids::{SessionId, TypedId};
use crate::ops::journal::{GetSession, ReadCatchUp, ReadMarkdown};
use crate::ops::{Finished, Op};
use rmcp::model::{ReadResourceResult, Resource, ResourceContents, ResourceTemplate};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde::Serialize;
use serde_json::{Value, json};

pub const WINDOW: &str = "journal://window";
pub const BRIEF: &str = "journal://brief";
const SESSION_PREFIX: &str = "journal://sessions/";

pub fn listed() -> Vec<Resource> {
    vec![
        Resource::new(WINDOW, "window")
            .with_title("The recent journal")
            .with_description(
                "The last 14 days of sessions as markdown, still-open items first: what \
                 `GET /journal.md` serves to session-start hooks. Needs chats:read.",
            )
            .with_mime_type("text/markdown"),
        Resource::new(BRIEF, "brief")
            .with_title("The catch-up brief")
            .with_description(
                "Decisions, work started, work finished, questions waiting and open loops of \
                 the last 7 days, as journal_catch_up answers without `since`. Needs \
                 chats:read.",
            )
            .with_mime_type("application/json"),
        app::listed(),
    ]
}

pub fn templates() -> Vec<ResourceTemplate> {
    vec![
        ResourceTemplate::new(format!("{SESSION_PREFIX}{{id}}"), "session")
            .with_title("One session")
            .with_description(
                "One session (`ses_…`) and its first 100 actions, as journal_session answers. \
                 Needs chats:read.",
            )
            .with_mime_type("application/json"),
    ]
}

pub async fn read(
    mcp: &JournalMcp,
    uri: &str,
    ctx: &RequestContext<RoleServer>,
) -> Result<ReadResourceResult, ErrorData> {
    if uri == app::CATCH_UP {
        return Ok(app::read());
    }
    if uri == WINDOW {
        let markdown = run(mcp, ctx, uri, ReadMarkdown::default()).await?;
        return Ok(contents(uri, "text/markdown", markdown));
    }
    if uri == BRIEF {
        let brief = run(mcp, ctx, uri, ReadCatchUp::default()).await?;
        return Ok(contents(uri, "application/json", json_text(&brief)));
    }
    // A session's URI names a session id, or no resource: checked before anything of it is
    // recorded (the call's purpose quotes the URI).
    let session = uri.strip_prefix(SESSION_PREFIX).and_then(SessionId::parse);
    if let Some(session) = session {
        let input = GetSession {
            session: session.to_string(),
            ..Default::default()
        };
        let detail = run(mcp, ctx, uri, input).await?;
        return Ok(contents(uri, "application/json", json_text(&detail)));
    }
    Err(ErrorData::resource_not_found(
        format!(
            "no resource {:?}: read {WINDOW}, {BRIEF}, {SESSION_PREFIX}ses_… or {}",
            crate::ids::shown(uri),
            app::CATCH_UP
        ),
        Some(json!({ "uri": crate::ids::shown(uri) })),
    ))
}

async fn run<I: Op>(
    mcp: &JournalMcp,
    ctx: &RequestContext<RoleServer>,
    uri: &str,
    input: I,
) -> Result<I::Output, ErrorData> {
    let purpose = format!("Read the journal resource {uri}");
    let call = Call {
        purpose: Some(&purpose),
        session: None,
        input_shape: json!({ "uri": "string" }),
        path: format!("/mcp resources/read {}", crate::ids::shown(uri)),
    };
    let finished: Finished<I::Output> = mcp.execute(ctx, call, input).await.map_err(refused)?;
    finished.result.map_err(|e| problem(&e))
}

fn contents(uri: &str, mime_type: &str, text: String) -> ReadResourceResult {
    ReadResourceResult::new(vec![ResourceContents::TextResourceContents {
        uri: uri.to_owned(),
        mime_type: Some(mime_type.to_owned()),
        text,
        meta: None,
    }])
}

fn json_text<T: Serialize>(value: &T) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

fn refused(refused: Refused) -> ErrorData {
    ErrorData::invalid_request(format!("{}: {}", refused.title, refused.detail), None)
}

/// The tool's error as a JSON-RPC error (see the module's comment for the codes).
fn problem(error: &Error) -> ErrorData {
    let problem = error.problem();
    let message = format!("{}: {}", problem.title, problem.detail);
    let mut data = json!({ "type": problem.kind, "status": problem.status });
    if let (Some(secs), Value::Object(map)) = (error.retry_after(), &mut data) {
        map.insert("retry_after".into(), secs.into());
    }
    match problem.status {
        404 => ErrorData::resource_not_found(message, Some(data)),
        400 | 422 => ErrorData::invalid_params(message, Some(data)),
        s if s >= 500 && error.retry_after().is_none() => {
            ErrorData::internal_error(message, Some(data))
        }
        _ => ErrorData::invalid_request(message, Some(data)),
    }
}
