//! `POST /api/v1/hooks/claude-code`: a Claude Code hook posted by Claude Code itself (an
//! `http` hook, set up by `n8v-journal hook install --harness claude-code --http`).

use crate::http::ApiJson;
use crate::http::call::handler;
use crate::http::openapi::JournalHeaders;
use crate::ops::Op;
use crate::ops::hooks::{ClaudeCodeHook, HookAnswer};

handler! {
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
        operation_id = ClaudeCodeHook::SPEC.id,
        tag = "journal",
        params(JournalHeaders),
        request_body(content = ClaudeCodeHook, content_type = "application/json",
            description = "The hook's input, as Claude Code sends it"),
        responses(
            (status = "2XX", description = "What Claude Code adds to the conversation: the recent \
                journal as `hookSpecificOutput.additionalContext`, or nothing (`{}`); an event \
                other than `UserPromptSubmit` and `SessionStart` is answered with `{}`",
                body = HookAnswer),
        ),
        security(("bearer" = []))
    )]
    pub fn claude_code(input: ApiJson<ClaudeCodeHook>) -> HookAnswer
        = reply_body(input)
}
