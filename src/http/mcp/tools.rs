//! The tools. Each one validates its conversation arguments, begins a journalled operation,
//! calls the same functions as the REST handlers, and finishes the operation.

use super::args::*;
use crate::auth::Principal;
use crate::error::Error;
use crate::http::AppState;
use crate::http::rest::{
    catch_up as rest_catch_up, journal as rest_journal, records as rest_records,
};
use crate::ids::{self, Kind};
use crate::journal::meta::{self, Purpose};
use crate::operation::{CallContext, JournalUse, Operation, Spec};
use axum::http::request::Parts;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResult, ContentBlock, Implementation, MetaObject, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler, tool, tool_handler, tool_router};
use serde::Serialize;
use serde_json::{Value, json};

const INSTRUCTIONS: &str = "The n8v journal records what assistants did through n8v and why. \
Start a conversation with journal_catch_up to read decisions, work started, work finished and \
questions waiting. Then open a session with session_start and one sentence describing the goal; \
pass the returned session id as `session` on every later call and give each call a `purpose`. \
Close the session with session_end and what happened. Records are append-only logs: \
record_list, record_read, record_append.";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Output {
    /// Ordinary results carry `session` (the conversation's session id).
    Ordinary,
    /// The journal's own tools keep their results as they are (with full session objects).
    Journal,
}

const fn spec(id: &'static str, journal: JournalUse) -> Spec {
    Spec { id, journal }
}

#[derive(Clone)]
pub struct JournalMcp {
    state: AppState,
    tool_router: ToolRouter<JournalMcp>,
}

#[tool_router]
impl JournalMcp {
    pub fn new(state: AppState) -> Self {
        Self {
            state,
            tool_router: Self::tool_router(),
        }
    }

    /// Read the catch-up brief: decisions, work started, work finished and questions waiting,
    /// the sessions in the window, and what was put on record meanwhile in the Records you can
    /// open. Call it first in a new conversation. Needs chats:read.
    #[tool]
    async fn journal_catch_up(
        &self,
        Parameters(a): Parameters<CatchUpArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let mut op = match self
            .begin(
                &ctx,
                spec("journal_catch_up", JournalUse::Read),
                &a.conversation,
                &a,
                vec![],
            )
            .await
        {
            Ok(op) => op,
            Err(r) => return r,
        };
        let result = rest_catch_up::catch_up_in(&mut op, a.since.as_deref())
            .await
            .map(|b| to_value(b.0));
        self.finish(op, result, Output::Journal).await
    }

    /// Open a session for this conversation with one sentence describing the goal. Returns the
    /// session; pass its id as `session` on every later call.
    #[tool]
    async fn session_start(
        &self,
        Parameters(a): Parameters<SessionStartArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let mut op = match self
            .begin(
                &ctx,
                spec("session_start", JournalUse::Bookkeeping),
                &a.conversation,
                &a,
                vec![],
            )
            .await
        {
            Ok(op) => op,
            Err(r) => return r,
        };
        let body = rest_journal::StartRequest {
            goal: Some(a.goal.clone()),
            organization: a.organization.clone(),
            repository: a.repository.clone(),
        };
        let result = rest_journal::start_in(&mut op, body)
            .await
            .map(|(_, s)| to_value(s.0));
        self.finish(op, result, Output::Journal).await
    }

    /// Close this conversation's session (`session`) with what happened: the handoff for the
    /// next conversation.
    #[tool]
    async fn session_end(
        &self,
        Parameters(a): Parameters<SessionEndArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let Some(session) = a.conversation.session.clone() else {
            return tool_error(
                "Missing session",
                "session_end closes the session named in `session`; pass the id session_start returned",
                None,
            );
        };
        let mut op = match self
            .begin(
                &ctx,
                spec("session_end", JournalUse::Bookkeeping),
                &a.conversation,
                &a,
                vec![session.clone()],
            )
            .await
        {
            Ok(op) => op,
            Err(r) => return r,
        };
        let body = rest_journal::EndRequest {
            outcome: Some(a.outcome.clone()),
        };
        let result = rest_journal::end_in(&mut op, &session, body)
            .await
            .map(|s| to_value(s.0));
        self.finish(op, result, Output::Journal).await
    }

    /// List earlier sessions, newest first, filtered by assistant, key, organization,
    /// repository or period. Sessions that only read the journal are left out. Needs chats:read.
    #[tool]
    async fn journal_sessions(
        &self,
        Parameters(a): Parameters<SessionsArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let mut op = match self
            .begin(
                &ctx,
                spec("journal_sessions", JournalUse::Read),
                &a.conversation,
                &a,
                vec![],
            )
            .await
        {
            Ok(op) => op,
            Err(r) => return r,
        };
        let result = async {
            let query = rest_journal::ListQuery {
                assistant: a.assistant.clone(),
                key: a.key.clone(),
                organization: a.organization.clone(),
                repo: a.repo.clone(),
                from: parse_time("from", a.from.as_deref())?,
                to: parse_time("to", a.to.as_deref())?,
                limit: a.limit,
                cursor: a.cursor.clone(),
            };
            rest_journal::list_in(&mut op, query)
                .await
                .map(|l| to_value(l.0))
        }
        .await;
        self.finish(op, result, Output::Journal).await
    }

    /// Read one session and its actions (the calls made in it, oldest first): `session_id`
    /// selects the session to read. Up to 300 actions per page; `writes` keeps only writes.
    #[tool]
    async fn journal_session(
        &self,
        Parameters(a): Parameters<SessionArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let mut op = match self
            .begin(
                &ctx,
                spec("journal_session", JournalUse::Read),
                &a.conversation,
                &a,
                vec![a.session_id.clone()],
            )
            .await
        {
            Ok(op) => op,
            Err(r) => return r,
        };
        let query = rest_journal::ActionsQuery {
            limit: a.limit,
            cursor: a.cursor.clone(),
            writes: a.writes,
        };
        let result = rest_journal::get_in(&mut op, &a.session_id, query)
            .await
            .map(|d| to_value(d.0));
        self.finish(op, result, Output::Journal).await
    }

    /// Read one call (`entry_id`): its purpose, targets, outcome, input shape and results, with
    /// a link to its audit entry.
    #[tool]
    async fn journal_entry(
        &self,
        Parameters(a): Parameters<EntryArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let mut op = match self
            .begin(
                &ctx,
                spec("journal_entry", JournalUse::Read),
                &a.conversation,
                &a,
                vec![a.entry_id.clone()],
            )
            .await
        {
            Ok(op) => op,
            Err(r) => return r,
        };
        let result = rest_journal::entry_in(&mut op, &a.entry_id)
            .await
            .map(|c| to_value(c.0));
        self.finish(op, result, Output::Journal).await
    }

    /// List the Records you can open: your account's own, and those of organizations where you
    /// hold the read permission. Needs records:read.
    #[tool]
    async fn record_list(
        &self,
        Parameters(a): Parameters<RecordListArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let mut op = match self
            .begin(
                &ctx,
                spec("record_list", JournalUse::None),
                &a.conversation,
                &a,
                vec![],
            )
            .await
        {
            Ok(op) => op,
            Err(r) => return r,
        };
        let result = rest_records::list_in(&mut op).await.map(|l| to_value(l.0));
        self.finish(op, result, Output::Ordinary).await
    }

    /// Read a Record's lines, newest first. Needs records:read.
    #[tool]
    async fn record_read(
        &self,
        Parameters(a): Parameters<RecordReadArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let mut op = match self
            .begin(
                &ctx,
                spec("record_read", JournalUse::None),
                &a.conversation,
                &a,
                vec![a.record_id.clone()],
            )
            .await
        {
            Ok(op) => op,
            Err(r) => return r,
        };
        let query = rest_records::EntriesQuery {
            limit: a.limit,
            cursor: a.cursor.clone(),
        };
        let result = rest_records::entries_in(&mut op, &a.record_id, query)
            .await
            .map(|l| to_value(l.0));
        self.finish(op, result, Output::Ordinary).await
    }

    /// Put a line on record (append-only). Needs records:write.
    #[tool]
    async fn record_append(
        &self,
        Parameters(a): Parameters<RecordAppendArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let mut op = match self
            .begin(
                &ctx,
                spec("record_append", JournalUse::None),
                &a.conversation,
                &a,
                vec![a.record_id.clone()],
            )
            .await
        {
            Ok(op) => op,
            Err(r) => return r,
        };
        let result = rest_records::append_in(&mut op, &a.record_id, &a.line)
            .await
            .map(|(_, e)| to_value(e.0));
        self.finish(op, result, Output::Ordinary).await
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for JournalMcp {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                "n8v-journal",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(INSTRUCTIONS)
    }
}

impl JournalMcp {
    /// Validates the conversation arguments and begins the journalled operation.
    async fn begin<A: Serialize>(
        &self,
        ctx: &RequestContext<RoleServer>,
        spec: Spec,
        conversation: &Conversation,
        args: &A,
        targets: Vec<String>,
    ) -> Result<Operation, CallToolResult> {
        let Some(parts) = ctx.extensions.get::<Parts>() else {
            return Err(tool_error(
                "Internal error",
                "the request carried no HTTP parts",
                None,
            ));
        };
        let Some(principal) = parts.extensions.get::<Principal>() else {
            return Err(tool_error(
                "Unauthorized",
                "send `Authorization: Bearer <API key>`",
                None,
            ));
        };
        let purpose = Purpose::parse(conversation.purpose.as_deref())
            .map_err(|e| tool_error("Bad purpose", &e, None))?;
        let session = meta::session_arg(conversation.session.as_deref())
            .map_err(|e| tool_error("Bad session", &format!("session {e}"), None))?;
        let header = |name: &str| parts.headers.get(name).and_then(|v| v.to_str().ok());
        let mut shape = meta::shape(&serde_json::to_value(args).unwrap_or_default());
        if let Value::Object(map) = &mut shape {
            map.remove("purpose");
            map.remove("session");
        }
        let context = CallContext {
            purpose: purpose.map(|p| p.as_str().to_owned()),
            session: session.map(str::to_owned),
            assistant: meta::assistant(header("x-assistant"), header("user-agent")),
            targets: targets
                .iter()
                .map(|t| crate::scrub::scrub(t).into_owned())
                .collect(),
            input_shape: Some(json!({ "arguments": shape })),
            request_id: header("x-request-id").unwrap_or("-").to_owned(),
            method: "MCP".into(),
            path: format!("/mcp tools/call {}", spec.id),
        };
        Operation::begin(
            &self.state.db,
            &principal.tenant,
            spec,
            context,
            self.state.clock.now(),
            self.state.config.session_rules,
        )
        .await
        .map_err(|e| problem_result(&e, None))
    }

    /// Finishes the operation and renders the tool result (structured content, a text
    /// rendering, and the session in `_meta["n8v/session"]`).
    async fn finish(
        &self,
        op: Operation,
        result: Result<Value, Error>,
        output: Output,
    ) -> CallToolResult {
        let status = match &result {
            Ok(_) => 200,
            Err(e) => e.status().as_u16(),
        };
        let session = match op.finish(status).await {
            Ok(session) => session.map(|s| ids::format(Kind::Session, s)),
            Err(e) => return problem_result(&e, None),
        };
        match result {
            Err(e) => problem_result(&e, session.as_deref()),
            Ok(mut value) => {
                if let (Output::Ordinary, Value::Object(map), Some(s)) =
                    (output, &mut value, &session)
                {
                    map.insert("session".into(), Value::String(s.clone()));
                }
                let text = serde_json::to_string_pretty(&value).unwrap_or_default();
                let mut tool = CallToolResult::structured(value);
                tool.content = vec![ContentBlock::text(text)];
                tool.with_meta(session_meta(session.as_deref()))
            }
        }
    }
}

fn to_value<T: Serialize>(value: T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

fn parse_time(
    name: &str,
    text: Option<&str>,
) -> Result<Option<chrono::DateTime<chrono::Utc>>, Error> {
    text.map(|t| {
        chrono::DateTime::parse_from_rfc3339(t)
            .map(|d| d.with_timezone(&chrono::Utc))
            .map_err(|_| {
                Error::BadRequest(format!(
                    "{name} {t:?} is not an RFC 3339 time (2026-11-10T09:00:00Z)"
                ))
            })
    })
    .transpose()
}

fn session_meta(session: Option<&str>) -> Option<MetaObject> {
    session.map(|s| {
        let mut meta = MetaObject::new();
        meta.insert("n8v/session".into(), Value::String(s.to_owned()));
        meta
    })
}

/// A tool error (`isError: true`) an assistant can act on: the problem's title and detail.
fn problem_result(error: &Error, session: Option<&str>) -> CallToolResult {
    let problem = error.problem();
    tool_error(&problem.title, &problem.detail, session)
}

fn tool_error(title: &str, detail: &str, session: Option<&str>) -> CallToolResult {
    let mut result = CallToolResult::structured_error(json!({ "error": title, "detail": detail }));
    result.content = vec![ContentBlock::text(format!("{title}: {detail}"))];
    result.with_meta(session_meta(session))
}
