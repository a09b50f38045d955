//! What tools answer with, and the small parsers their arguments need: tool errors an
//! assistant can act on, the session in `_meta`, and an episode's argument shape (built without
//! its prose).

use crate::error::Error;
use crate::ops::episodes::PostEpisode;
use rmcp::model::{CallToolResult, ContentBlock, MetaObject};
use serde::Serialize;
use serde_json::{Value, json};

pub(super) fn session_meta(session: Option<&str>) -> Option<MetaObject> {
    session.map(|s| {
        let mut meta = MetaObject::new();
        meta.insert("n8v/session".into(), Value::String(s.to_owned()));
        meta
    })
}

/// A tool error (`isError: true`) an assistant can act on: the problem's title and detail,
/// with its `type` and HTTP-equivalent `status`, and `retry_after` (seconds) when retrying
/// later is the remedy (a database briefly unavailable, a rate limit), as REST's
/// `Retry-After` says.
pub(super) fn problem_result(error: &Error, session: Option<&str>) -> CallToolResult {
    let problem = error.tool_problem();
    let retry_after = error.retry_after();
    let mut result = tool_error(&problem.title, &problem.detail, session);
    if let Some(Value::Object(fields)) = result.structured_content.as_mut() {
        fields.insert("type".into(), problem.kind.into());
        fields.insert("status".into(), problem.status.into());
        if let Some(secs) = retry_after {
            fields.insert("retry_after".into(), secs.into());
        }
    }
    result
}

pub(super) fn tool_error(title: &str, detail: &str, session: Option<&str>) -> CallToolResult {
    let mut result = CallToolResult::structured_error(json!({ "error": title, "detail": detail }));
    result.content = vec![ContentBlock::text(format!("{title}: {detail}"))];
    result.with_meta(session_meta(session))
}

/// What the journal keeps of an episode's arguments: their shape, built without the prose.
#[derive(Serialize)]
pub(super) struct EpisodeShape {
    episode_id: String,
    harness: String,
    project: Option<String>,
    started_at: String,
    ended_at: String,
    turns: Vec<TurnShape>,
    ended: bool,
}

#[derive(Serialize)]
struct TurnShape {
    role: String,
    text: String,
}

impl EpisodeShape {
    pub(super) fn of(a: &PostEpisode) -> Self {
        Self {
            episode_id: String::new(),
            harness: String::new(),
            project: a.project.as_ref().map(|_| String::new()),
            started_at: String::new(),
            ended_at: String::new(),
            turns: a
                .turns
                .first()
                .map(|_| TurnShape {
                    role: String::new(),
                    text: String::new(),
                })
                .into_iter()
                .collect(),
            ended: a.ended,
        }
    }
}
