//! `POST /api/v1/hooks/claude-code`: a Claude Code hook posted by Claude Code itself (an
//! `http` hook, set up by `n8v-journal hook install --harness claude-code --http`).

use crate::error::Problem;
use crate::http::ApiJson;
use crate::http::call::{ApiCall, Reply};
use crate::http::openapi::{AccessProblems, JournalHeaders, JournalOffOrNoSession, NeedsChatsRead};
use crate::ops::Services;
use crate::ops::hooks::{ClaudeCodeHook, HookAnswer};
use axum::extract::State;

/// Answer a Claude Code hook.
///
/// Claude Code posts a hook's JSON input here itself (a hook of type `http`, with
/// `Authorization: Bearer $N8V_TOKEN` from `allowedEnvVars`), so no binary runs on the
/// person's machine. The service never sees the transcript the input names: it answers
/// `UserPromptSubmit` (and `SessionStart`, where Claude Code runs `http` hooks) with the recent
/// journal as `additionalContext`, once per conversation (`session_id`) a day, and `{}` to
/// the conversation's later prompts and to `Stop`, `SessionEnd`, `PreCompact` and Claude
/// Code's other events, which change nothing: posting the conversation needs the binary's
/// hooks. The prompt is never read. Needs `chats:read`.
#[utoipa::path(
    post,
    path = "/api/v1/hooks/claude-code",
    operation_id = "answerClaudeCodeHook",
    tag = "journal",
    params(JournalHeaders),
    request_body(content = ClaudeCodeHook, content_type = "application/json",
        description = "The hook's input, as Claude Code sends it"),
    responses(
        (status = 200, description = "What Claude Code adds to the conversation: the recent \
            journal as `hookSpecificOutput.additionalContext`, or nothing (`{}`)",
            body = HookAnswer),
        (status = 400, description = "A bad `session_id`, or a bad `X-Purpose` or \
            `X-Session-Id` (`bad-request`); an event other than `UserPromptSubmit` and \
            `SessionStart` is answered with `{}`", body = Problem,
            content_type = "application/problem+json"),
        NeedsChatsRead,
        JournalOffOrNoSession,
        (status = 409, description = "`X-Session-Id` names a session that has ended \
            (`conflict`)", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is larger than the server accepts \
            (`payload-too-large`)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not sent with `Content-Type: application/json` \
            (`unsupported-media-type`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "JSON of the wrong shape (`invalid-body`)", body = Problem,
            content_type = "application/problem+json"),
        AccessProblems,
    ),
    security(("bearer" = []))
)]
pub async fn claude_code(
    State(state): State<Services>,
    call: ApiCall,
    ApiJson(input): ApiJson<ClaudeCodeHook>,
) -> Reply<HookAnswer> {
    let call = call.body(&input);
    Reply(call.run(&state, input).await)
}
