//! A Claude Code hook posted by Claude Code itself (an `http` hook: no binary on the person's
//! machine). The service sees only the hook's input, never the transcript file it names (that
//! file is on the person's machine), so such a hook can load the journal into a conversation
//! but not post the conversation: `UserPromptSubmit` (and `SessionStart`, should Claude Code
//! run `http` hooks there; 2.1 does not) answers the recent journal as `additionalContext`, once
//! per conversation; `Stop`, `SessionEnd` and the rest answer nothing and change nothing.

use super::journal::ReadMarkdown;
use super::{Op, Operation, Services, Target};
use crate::auth::Scope;
use crate::error::{Error, Result};
use crate::operation::{Effect, JournalUse, Refusal, Spec};
use crate::sessions::calls;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A Claude Code hook's input, as Claude Code posts it (fields it adds are ignored, and the
/// prompt is never read).
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[schemars(example = serde_json::json!({
    "session_id": "5f1c2a7e-0b1d-4a9e-9c3e-2f7a1b6d8e01",
    "transcript_path": "/home/ada/.claude/projects/-home-ada-acme-web/5f1c2a7e-0b1d-4a9e-9c3e-2f7a1b6d8e01.jsonl",
    "cwd": "/home/ada/acme/web",
    "permission_mode": "default",
    "hook_event_name": "UserPromptSubmit"
}))]
// Claude Code sends more than these two (each event its own fields): all are accepted.
#[schemars(extend("additionalProperties" = true))]
pub struct ClaudeCodeHook {
    /// The event: `UserPromptSubmit` and `SessionStart` load the journal; `Stop`,
    /// `SessionEnd`, `PreCompact` and Claude Code's other events change nothing.
    #[schemars(length(max = 64), regex(pattern = "^[A-Za-z]+$"))]
    pub hook_event_name: String,
    /// Claude Code's id for the conversation: the journal is loaded once per id.
    #[serde(default)]
    #[schemars(length(max = 200), regex(pattern = "^[A-Za-z0-9._:-]*$"))]
    pub session_id: Option<String>,
}
crate::openapi_schema!(ClaudeCodeHook => "ClaudeCodeHookInput");

/// What Claude Code reads from a hook's answer: `{}` (nothing to add), or the context for
/// the conversation.
#[derive(Debug, Default, Serialize, utoipa::ToSchema)]
pub struct HookAnswer {
    /// The recent journal for the model, when this conversation has not had it yet.
    #[serde(rename = "hookSpecificOutput", skip_serializing_if = "Option::is_none")]
    pub hook_specific_output: Option<HookContext>,
}

/// Context a hook adds to the conversation.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HookContext {
    /// The event answered.
    pub hook_event_name: String,
    /// The recent journal as markdown (what `GET /journal.md` answers).
    pub additional_context: String,
}

/// How long a conversation counts as having had the journal: one resumed later gets it again.
const ONCE_PER: chrono::Duration = chrono::Duration::hours(24);

/// Claude Code's own budget for a hook's context (see `hook::Budget`).
const CONTEXT_CHARS: usize = 9_500;

impl ClaudeCodeHook {
    fn conversation(&self) -> Result<Option<&str>> {
        match self.session_id.as_deref().map(str::trim) {
            None | Some("") => Ok(None),
            Some(id)
                if id.len() <= 200
                    && id
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "._:-".contains(c)) =>
            {
                Ok(Some(id))
            }
            Some(_) => Err(Error::BadRequest(
                "session_id must be up to 200 letters, digits and . _ : - (Claude Code's id)"
                    .into(),
            )),
        }
    }
}

impl Op for ClaudeCodeHook {
    const SPEC: Spec = Spec {
        id: "answerClaudeCodeHook",
        tool: None,
        journal: JournalUse::Read,
        scopes: &[Scope::ChatsRead],
        needs_journal: true,
        creates: false,
        title: "Answer a Claude Code hook",
        effect: Effect::Reads,
        errors: &[Refusal::bad_request("a bad `session_id`")],
    };
    type Output = HookAnswer;

    fn targets(&self) -> Vec<Target> {
        // The conversation, so its next prompt finds it was given the journal already.
        match self.conversation() {
            Ok(Some(id)) => vec![id.to_owned().into()],
            _ => Vec::new(),
        }
    }

    async fn run(self, op: &mut Operation, services: &Services) -> Result<HookAnswer> {
        let conversation = self.conversation()?;
        let event = self.hook_event_name.as_str();
        // The schema's shape (letters, at most 64); a name of that shape it does not know is
        // answered with nothing below.
        if event.is_empty() || event.len() > 64 || !event.chars().all(|c| c.is_ascii_alphabetic()) {
            return Err(Error::BadRequest(format!(
                "hook_event_name {:?} is not a hook event name (letters only, as Claude Code sends)",
                crate::ids::shown(event)
            )));
        }
        // Every other event (Stop, SessionEnd, PreCompact, the tool events, and any Claude Code
        // adds later) answers nothing: a hook that sends one is no error (Schemathesis found an
        // unknown name refused with a 400 that the schema allows).
        if !matches!(event, "UserPromptSubmit" | "SessionStart") {
            return Ok(HookAnswer::default());
        }
        if let Some(id) = conversation {
            let since = op.now() - ONCE_PER;
            if calls::named_before(op.tx(), Self::SPEC.id, id, since).await? {
                return Ok(HookAnswer::default());
            }
        }
        let window = ReadMarkdown {
            max_chars: Some(CONTEXT_CHARS),
            min_tier: None,
        };
        let markdown = window.run(op, services).await?;
        Ok(HookAnswer {
            hook_specific_output: Some(HookContext {
                hook_event_name: event.to_owned(),
                additional_context: markdown,
            }),
        })
    }
}
