//! What the journal answers with: sessions, calls and audit entries, with external IDs (the
//! rows the statements read are theirs: `reads`, `session_reads`).

use super::handoff::{self, Carried};
use crate::ids::{AccountId, AuditId, CallId, KeyId, OrganizationId, SessionId};
use crate::summarize::marked::Marked;
use chrono::{DateTime, Utc};
use serde::Serialize;

/// One assistant conversation: its goal, the calls made in it, and what happened.
#[derive(Debug, Clone, Serialize, serde::Deserialize, utoipa::ToSchema)]
#[schema(example = json!({
    "id": "ses_01M72AZ1M0ETFB59TDWH9EDD1R",
    "kind": "explicit",
    "status": "closed",
    "assistant": "Claude",
    "account_id": "acc_01KYP3WV40FHEAD8X4A1JH69RE",
    "key_id": "key_01KZKXJDM0F4QS4FR84G98PBSK",
    "organization_id": null,
    "repository": "acme/web",
    "scopes": ["chats:read", "records:read", "records:write"],
    "goal": "Get the login fix ready for review",
    "outcome": "Fix ready for review; tests passed",
    "handoff": {
        "decisions": ["Keep the session cookie SameSite=Lax"],
        "open_questions": ["Should the old login route be removed?"],
        "next_steps": []
    },
    "started_at": "2026-11-10T09:00:00Z",
    "last_activity_at": "2026-11-10T10:42:10Z",
    "ended_at": "2026-11-10T10:42:10Z",
    "end_reason": "ended",
    "call_count": 14,
    "write_count": 3,
    "summary": {
        "summary": "Fixed the login redirect loop and got the fix ready for review.",
        "decisions": ["Keep the session cookie SameSite=Lax"],
        "work_started": [],
        "work_finished": ["Fix ready for review; tests passed"],
        "open_questions": ["Should the old login route be removed?"]
    },
    "summary_model": "gemini-3.1-flash-lite",
    "summary_cost_usd": "0.00055",
    "summary_input_tokens": 1000,
    "summary_output_tokens": 200,
    "summary_note": null,
    "provisional": null
}))]
pub struct Session {
    /// The session id (`ses_…`); send it as `X-Session-Id` to record calls in this session.
    pub id: SessionId,
    /// `explicit` (opened with a goal) or `implicit` (issued for calls made without a session).
    pub kind: String,
    /// `open` or `closed`.
    pub status: String,
    /// The assistant making the calls: `X-Assistant`, else the `User-Agent`, else `unknown`.
    pub assistant: String,
    /// The account the session belongs to (`acc_…`).
    pub account_id: AccountId,
    /// The API key that made the calls (`key_…`), also for tokens minted from it.
    pub key_id: KeyId,
    /// The organization the work is for (`org_…`), if any.
    pub organization_id: Option<OrganizationId>,
    /// The repository the assistant worked in, if any.
    pub repository: Option<String>,
    /// The scopes the credential held; only credentials holding all of them can read this session.
    pub scopes: Vec<String>,
    /// One sentence describing the goal of the conversation, given when it was opened.
    pub goal: Option<String>,
    /// What happened: the handoff for the next conversation, given when it was closed.
    pub outcome: Option<String>,
    /// The decisions, open questions and next steps the assistant stated when it ended the
    /// session, in its own words; absent when it gave none.
    pub handoff: Option<handoff::Handoff>,
    /// When the session was opened.
    pub started_at: DateTime<Utc>,
    /// When the last call was recorded in it.
    pub last_activity_at: DateTime<Utc>,
    /// When the session was closed; absent while it is open (an episode's part is open while
    /// its conversation has not settled).
    pub ended_at: Option<DateTime<Utc>>,
    /// `ended` (closed by its assistant), `quiet` (closed by the sweep) or `retired`.
    pub end_reason: Option<String>,
    /// How many calls were recorded in the session. Exact, and cheap to read however long the
    /// session: calls are folded into a count on the session a minute at a time (by the calls
    /// themselves and by its close), and a read counts only those made since. A call still
    /// being committed more than 30 s after it started (past the default request timeout)
    /// could be left out.
    pub call_count: i32,
    /// How many of those calls wrote (kept the same way as `call_count`).
    pub write_count: i32,
    /// The stored summary, once the session has closed and its summary job has run.
    pub summary: Option<crate::summarize::Summary>,
    /// The model that wrote the summary: `gemini-…`, the proxy model, or `code` (a summary
    /// written by code, at zero model cost).
    pub summary_model: Option<String>,
    /// The estimated cost of the summary in US dollars: an exact decimal (as a string), summed
    /// over every model call the summary made; `0` for the proxy and for code.
    pub summary_cost_usd: Option<String>,
    /// Input tokens the summary's model calls used.
    pub summary_input_tokens: Option<i64>,
    /// Output tokens the summary's model calls used.
    pub summary_output_tokens: Option<i64>,
    /// Why a code summary was written instead (e.g. the monthly budget is spent).
    pub summary_note: Option<String>,
    /// For sessions without a stored summary: a compact account of their calls, computed now.
    pub provisional: Option<Provisional>,
    /// The decisions this session opened or repeated that are items, each as it stands now
    /// (`current`, or `replaced` and by what): its hand-off's and its summary's decision lines
    /// say these in the session's words (compared as items are compared); a line not among them
    /// is no item. In the catch-up brief, the session list and a session's read; absent when
    /// none (and in the export, whose items carry their state themselves).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub decisions: Vec<handoff::DecisionState>,
}

/// What an open (or not yet summarised) session has done so far, computed at read time.
#[derive(Debug, Clone, Serialize, serde::Deserialize, utoipa::ToSchema)]
pub struct Provisional {
    /// How many calls were recorded in the session.
    pub calls: i32,
    /// How many of those calls wrote.
    pub writes: i32,
    /// The most recent distinct purposes (up to 5), newest first.
    pub recent_purposes: Vec<String>,
}

/// One call made in a session: what, why, on what, how it went, and the shape of its input.
/// Never the payloads: no message bodies, transcripts or returned data.
#[derive(Debug, Clone, Serialize, serde::Deserialize, utoipa::ToSchema)]
#[schema(example = json!({
    "id": "call_01M72B2VP8EMRSV7E9Z0C1HT0H",
    "session_id": "ses_01M72AZ1M0ETFB59TDWH9EDD1R",
    "organization_id": null,
    "operation": "listRecordEntries",
    "purpose": "Pick up where we stopped",
    "target_ids": ["rec_01KYP3WV40ER08K6AGV0VFCXEC"],
    "status": 200,
    "outcome": "ok",
    "input_shape": {"query": {"limit": "string"}},
    "result_ids": ["ent_01M72ECX80E7HAP3AMKDQG6STT"],
    "result_count": 1,
    "wrote": false,
    "journal_read": false,
    "duration_ms": 12,
    "at": "2026-11-10T09:02:05Z",
    "audit_id": "aud_01M72B2VP8E7KTHRJXJG7DJ13N",
    "audit_url": "/api/v1/audit/aud_01M72B2VP8E7KTHRJXJG7DJ13N"
}))]
pub struct Call {
    /// The journal entry id (`call_…`).
    pub id: CallId,
    /// The session the call was recorded in (`ses_…`).
    pub session_id: SessionId,
    /// The organization whose Record the call acted on (`org_…`): that organization's activity,
    /// which its owner reads with `orgs:read`.
    pub organization_id: Option<OrganizationId>,
    /// The operation called (its OpenAPI operation id, e.g. `appendRecordEntry`).
    pub operation: String,
    /// Why the call was made (`X-Purpose`), credentials scrubbed.
    pub purpose: Option<String>,
    /// The IDs the call acted on (path parameters), credentials scrubbed.
    pub target_ids: Vec<String>,
    /// The HTTP status of the answer.
    pub status: i32,
    /// `ok` or `error`.
    pub outcome: String,
    /// The shape of the input: query and body keys with the types of their values, never the
    /// values.
    pub input_shape: Option<serde_json::Value>,
    /// The IDs the call returned or created.
    pub result_ids: Vec<String>,
    /// How many items a listing returned.
    pub result_count: Option<i32>,
    /// Whether the call changed anything.
    pub wrote: bool,
    /// Whether the call was the journal's own traffic: it read the journal, or posted work done
    /// elsewhere (an episode, whose entries are sessions of their own). A session holding only
    /// such calls stays out of the session list.
    pub journal_read: bool,
    /// How long the operation took, in milliseconds.
    pub duration_ms: i32,
    /// When the call was made.
    pub at: DateTime<Utc>,
    /// The audit entry written for the same request (`aud_…`).
    pub audit_id: Option<AuditId>,
    /// Where the audit entry written for the same request can be read.
    pub audit_url: Option<String>,
}

/// An entry of the account's audit log: one per public API request, kept under the audit
/// log's own rules.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[schema(example = json!({
    "id": "aud_01M72B2VP8E7KTHRJXJG7DJ13N",
    "method": "GET",
    "path": "/api/v1/records/rec_01KYP3WV40ER08K6AGV0VFCXEC/entries",
    "status": 200,
    "key_id": "key_01KZKXJDM0F4QS4FR84G98PBSK",
    "request_id": "6f1c0a4e-2b7d-4c55-9d1e-0c8f2a7b3e91",
    "at": "2026-11-10T09:02:05Z"
}))]
pub struct AuditEntry {
    /// The audit entry id (`aud_…`).
    pub id: AuditId,
    /// The HTTP method of the request.
    pub method: String,
    /// The request path, credentials scrubbed.
    pub path: String,
    /// The HTTP status of the answer.
    pub status: i32,
    /// The API key that made the request (`key_…`).
    pub key_id: Option<KeyId>,
    /// The request's `x-request-id`.
    pub request_id: String,
    /// When the request was made.
    pub at: DateTime<Utc>,
}

impl Session {
    /// How the decision said as `text` stands now, when it is one of [`Session::decisions`].
    pub fn decision_state(&self, text: &str) -> Option<&handoff::DecisionState> {
        handoff::DecisionState::said_as(&self.decisions, text)
    }

    /// The decisions, open questions and next steps this session hands on (see `handoff`).
    /// With a stored summary its lists are the derived part; without one, what the goal, the
    /// outcome and `purposes` (the session's recent purposes) mark, by the rules of
    /// [`crate::summarize::marked`].
    pub fn carried(&self, purposes: &[String]) -> Carried {
        let stated = self.handoff.clone().unwrap_or_default();
        let derived = match &self.summary {
            Some(summary) => Marked {
                decisions: summary.decisions.clone(),
                open_questions: summary.open_questions.clone(),
                // A summary is written after the close that applied the session's own marks.
                replacing: Vec::new(),
            },
            None => Marked::lift(
                self.goal.iter().chain(&self.outcome).map(String::as_str),
                purposes.iter().map(String::as_str),
            ),
        };
        Carried {
            decisions: handoff::merge(&stated.decisions, &derived.decisions),
            open_questions: handoff::merge(&stated.open_questions, &derived.open_questions),
            next_steps: handoff::merge(&stated.next_steps, &[]),
            replacing: handoff::Replacing::all(&stated.replaces, &derived.replacing),
        }
    }
}
