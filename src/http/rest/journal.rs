//! The journal over REST: exactly the seed's table, plus one call and its audit entry.

use crate::error::Problem;
use crate::http::call::{ApiCall, Reply};
use crate::http::openapi::{
    AccessProblems, JournalHeaders, JournalOffOrNoSession, NeedsChatsRead, SessionEnded,
};
use crate::http::{ApiJson, ApiQuery, AppState};
use crate::ids::{CallId, OrganizationId, SessionId, TypedId};
use crate::journal::{Call, Session};
use crate::ops::journal::{
    DeleteDay, DeleteSession, Deleted, EndSession, EndedSession, GetEntry, GetSession,
    ListSessions, SessionDetail, SessionList, StartSession,
};
use axum::extract::{Path, State};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// A conversation to open; every field is optional.
#[derive(Deserialize, Serialize, Default, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"goal": "Get the login fix ready for review", "repository": "acme/web"}))]
pub struct StartRequest {
    /// One sentence describing the goal of the conversation (up to 2,000 characters; credentials
    /// in it are scrubbed). Optional, here and in MCP's `session_start`, but give it: the brief
    /// and the journal show sessions by their goal.
    #[schema(max_length = 2000)]
    pub goal: Option<String>,
    /// The organization the work is for (`org_…`), if any; must be one the account belongs to.
    pub organization: Option<String>,
    /// The repository the assistant works in, if any (a repository-restricted key's own wins):
    /// letters, digits and `. _ - / : @ +`, up to 200 characters (empty: none).
    #[schema(max_length = 200, pattern = "^[A-Za-z0-9._/:@+-]*$")]
    pub repository: Option<String>,
}

/// Open a session.
///
/// Open a session with one sentence describing the goal, then send its id as `X-Session-Id`
/// on each call of the conversation and close it with what happened. The assistant is taken
/// from `X-Assistant` (else the `User-Agent`). Needs `chats:read`.
#[utoipa::path(
    post,
    path = "/api/v1/journal/sessions",
    operation_id = "startSession",
    tag = "journal",
    params(JournalHeaders),
    request_body(content = StartRequest, content_type = "application/json",
        description = "The goal of the conversation, and where the work happens"),
    responses(
        (status = 201, description = "The session, open", body = Session),
        (status = 400, description = "Malformed JSON, a goal or repository that is too long or \
            has control characters, or a bad `X-Purpose` or `X-Session-Id` (`bad-request`)",
            body = Problem, content_type = "application/problem+json"),
        NeedsChatsRead,
        (status = 404, description = "The assistant journal is off for this account \
            (`journal-off`), the organization is not one of the account's, or `X-Session-Id` \
            names no session of this credential (`not-found`)",
            body = Problem, content_type = "application/problem+json"),
        SessionEnded,
        (status = 413, description = "The body is larger than the server accepts \
            (`payload-too-large`)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not sent with `Content-Type: application/json` \
            (`unsupported-media-type`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "JSON of the wrong shape, unknown fields included \
            (`invalid-body`)", body = Problem, content_type = "application/problem+json"),
        AccessProblems,
    ),
    security(("bearer" = []))
)]
pub async fn start(
    State(state): State<AppState>,
    call: ApiCall,
    ApiJson(body): ApiJson<StartRequest>,
) -> Reply<Session> {
    let input = StartSession {
        goal: body.goal.clone(),
        organization: body.organization.as_deref().map(OrganizationId::arg),
        repository: body.repository.clone(),
    };
    Reply(call.body(&body).run(&state, input).await)
}

/// How a conversation ended.
#[derive(Deserialize, Serialize, Default, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "outcome": "Fix ready for review; tests passed",
    "decisions": ["Keep the session cookie SameSite=Lax"],
    "open_questions": ["Should the retry policy be configurable?"],
    "next_steps": ["Remove the old login route once the fix ships"],
    "resolved": ["itm_01M72B6Q00EDV8XKQ3RN1Z3H6A"]
}))]
pub struct EndRequest {
    /// What happened: the handoff for the next conversation (up to 2,000 characters;
    /// credentials in it are scrubbed). Optional, here and in MCP's `session_end`, but give it:
    /// a session with a goal and an outcome is a hand-off the next conversation always sees.
    #[schema(max_length = 2000)]
    pub outcome: Option<String>,
    /// Decisions made in this session, one line each in your own words (at most 20 items of
    /// 300 characters; credentials scrubbed). The next conversation's catch-up brief lists them
    /// ahead of anything a summary derives.
    #[schema(max_items = 20, value_type = Option<Vec<HandoffItem>>)]
    pub decisions: Option<Vec<String>>,
    /// Questions left open for the person or the next conversation (same limits).
    #[schema(max_items = 20, value_type = Option<Vec<HandoffItem>>)]
    pub open_questions: Option<Vec<String>>,
    /// What the next conversation should do first (same limits).
    #[schema(max_items = 20, value_type = Option<Vec<HandoffItem>>)]
    pub next_steps: Option<Vec<String>>,
    /// Open loops this session settled (`itm_…`, at most 100), as the brief and
    /// `GET /api/v1/journal/loops` list them: each is closed in this session, a question as
    /// `answered`, a next step as `done`. Items closed already stay as they were; an id that
    /// names no item this credential may close is skipped and listed in the answer's
    /// `not_resolved`.
    #[schema(max_items = 100, value_type = Option<Vec<ItemIdText>>)]
    pub resolved: Option<Vec<String>>,
}

/// An item id (`itm_…`).
#[derive(utoipa::ToSchema)]
#[schema(
    pattern = "^itm_[0-9A-HJKMNP-TV-Z]{26}$",
    example = "itm_01M72B6Q00EDV8XKQ3RN1Z3H6A"
)]
#[allow(dead_code)]
pub struct ItemIdText(String);

/// One hand-off item: one line, at most 300 characters.
#[derive(utoipa::ToSchema)]
#[schema(max_length = 300)]
#[allow(dead_code)]
pub struct HandoffItem(String);

/// Close a session.
///
/// Close one of this credential's open sessions with what happened: the handoff the next
/// conversation reads. Its open questions and next steps (stated, or marked in its text)
/// become open loops (`GET /api/v1/journal/loops`); `resolved` closes earlier ones. A session
/// closes exactly once: of two concurrent ends, the second is told it has ended (`409`).
/// Needs `chats:read`.
#[utoipa::path(
    post,
    path = "/api/v1/journal/sessions/{id}/end",
    operation_id = "endSession",
    tag = "journal",
    params(
        ("id" = String, Path, description = "The session to close (`ses_…`); one this \
            credential opened", example = "ses_01M72AZ1M0ETFB59TDWH9EDD1R"),
        JournalHeaders,
    ),
    request_body(content = EndRequest, content_type = "application/json",
        description = "What happened"),
    responses(
        (status = 200, description = "The session, closed; `not_resolved` lists the ids of \
            `resolved` that name no item this credential may close, which were skipped",
            body = EndedSession),
        (status = 400, description = "Malformed JSON, an outcome that is too long or has \
            control characters, a hand-off list with more than 20 items or an item longer than \
            300 characters or on more than one line, `resolved` with more than 100 ids or an \
            entry that is not an item id, or a bad `X-Purpose` or `X-Session-Id` (`bad-request`)",
            body = Problem, content_type = "application/problem+json"),
        NeedsChatsRead,
        (status = 404, description = "The assistant journal is off for this account \
            (`journal-off`), or the session (or `X-Session-Id`) is not one of this \
            credential's (`not-found`); sessions cannot be shared across credentials",
            body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The session (or `X-Session-Id`) has already ended \
            (`conflict`)", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is larger than the server accepts \
            (`payload-too-large`)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not sent with `Content-Type: application/json` \
            (`unsupported-media-type`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "JSON of the wrong shape, unknown fields included \
            (`invalid-body`)", body = Problem, content_type = "application/problem+json"),
        AccessProblems,
    ),
    security(("bearer" = []))
)]
pub async fn end(
    State(state): State<AppState>,
    call: ApiCall,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<EndRequest>,
) -> Reply<EndedSession> {
    let input = EndSession {
        session: SessionId::arg(&id),
        outcome: body.outcome.clone(),
        decisions: body.decisions.clone(),
        open_questions: body.open_questions.clone(),
        next_steps: body.next_steps.clone(),
        resolved: body.resolved.clone(),
    };
    Reply(call.body(&body).run(&state, input).await)
}

#[derive(Deserialize, Serialize, Default, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Only sessions whose assistant name contains this text (case-insensitive).
    #[param(example = "Claude")]
    pub assistant: Option<String>,
    /// Only sessions of this API key (`key_…`).
    #[param(example = "key_01KZKXJDM0F4QS4FR84G98PBSK")]
    pub key: Option<String>,
    /// Only sessions for this organization (`org_…`).
    #[param(example = "org_01KZ50QMC0FM8SEE7QV4YSR5S4")]
    pub organization: Option<String>,
    /// Only sessions in this repository.
    #[param(example = "acme/web")]
    pub repo: Option<String>,
    /// Only sessions started at or after this time (RFC 3339).
    #[param(example = "2026-11-10T09:00:00Z")]
    pub from: Option<DateTime<Utc>>,
    /// Only sessions started before this time (RFC 3339).
    #[param(example = "2026-11-11T09:00:00Z")]
    pub to: Option<DateTime<Utc>>,
    /// How many sessions to return, from 1 to 100 (default 20).
    #[param(minimum = 1, maximum = 100, example = 20)]
    pub limit: Option<i64>,
    /// The `next_cursor` of the previous page.
    pub cursor: Option<String>,
}

/// List sessions.
///
/// The sessions this credential can read, newest first, filtered by assistant, key,
/// organization, repository or period. Sessions that only read the journal stay out of the
/// list. Needs `chats:read`; a credential sees only sessions whose recorded scopes it also
/// holds, and a repository-restricted key only its own.
#[utoipa::path(
    get,
    path = "/api/v1/journal/sessions",
    operation_id = "listSessions",
    tag = "journal",
    params(ListQuery, JournalHeaders),
    responses(
        (status = 200, description = "A page of sessions, newest first", body = SessionList),
        (status = 400, description = "A bad filter, `limit` or `cursor`, an unknown query \
            parameter, or a bad `X-Purpose` or `X-Session-Id` (`bad-request`)",
            body = Problem, content_type = "application/problem+json"),
        NeedsChatsRead,
        JournalOffOrNoSession,
        SessionEnded,
        AccessProblems,
    ),
    security(("bearer" = []))
)]
pub async fn list(
    State(state): State<AppState>,
    call: ApiCall,
    ApiQuery(q): ApiQuery<ListQuery>,
) -> Reply<SessionList> {
    let input = ListSessions {
        assistant: q.assistant,
        key: q.key,
        organization: q.organization,
        repo: q.repo,
        from: q.from,
        to: q.to,
        limit: q.limit,
        cursor: q.cursor,
    };
    Reply(call.run(&state, input).await)
}

#[derive(Deserialize, Serialize, Default, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ActionsQuery {
    /// How many actions to return, from 1 to 300 (default 100).
    #[param(minimum = 1, maximum = 300, example = 100)]
    pub limit: Option<i64>,
    /// The `next_cursor` of the previous page.
    pub cursor: Option<String>,
    /// `true`: only the calls that wrote.
    #[param(example = true)]
    pub writes: Option<bool>,
}

/// Read a session's actions.
///
/// The session and the calls made in it, oldest first: what, why, on what and how it went.
/// Needs `chats:read` and every scope the session recorded.
#[utoipa::path(
    get,
    path = "/api/v1/journal/sessions/{id}",
    operation_id = "getSession",
    tag = "journal",
    params(
        ("id" = String, Path, description = "The session to read (`ses_…`)",
            example = "ses_01M6ZRJAM0EEP8Y8EXPSPATJH6"),
        ActionsQuery,
        JournalHeaders,
    ),
    responses(
        (status = 200, description = "The session and a page of its actions", body = SessionDetail),
        (status = 400, description = "A bad `limit` or `cursor`, an unknown query parameter, or \
            a bad `X-Purpose` or `X-Session-Id` (`bad-request`)",
            body = Problem, content_type = "application/problem+json"),
        NeedsChatsRead,
        (status = 404, description = "The assistant journal is off for this account \
            (`journal-off`), or no session with this id is visible to this credential, or \
            `X-Session-Id` names no session of this credential (`not-found`)",
            body = Problem, content_type = "application/problem+json"),
        SessionEnded,
        AccessProblems,
    ),
    security(("bearer" = []))
)]
pub async fn get(
    State(state): State<AppState>,
    call: ApiCall,
    Path(id): Path<String>,
    ApiQuery(q): ApiQuery<ActionsQuery>,
) -> Reply<SessionDetail> {
    let input = GetSession {
        session: SessionId::arg(&id),
        limit: q.limit,
        cursor: q.cursor,
        writes_only: q.writes.unwrap_or(false),
    };
    Reply(call.run(&state, input).await)
}

/// Read one call.
///
/// One journal entry: what was called, why, on what, how it went and the shape of its input,
/// with a link to the audit entry of the same request. Needs `chats:read`.
#[utoipa::path(
    get,
    path = "/api/v1/journal/entries/{id}",
    operation_id = "getJournalEntry",
    tag = "journal",
    params(
        ("id" = String, Path, description = "The journal entry (`call_…`)",
            example = "call_01M72B2VP8EMRSV7E9Z0C1HT0H"),
        JournalHeaders,
    ),
    responses(
        (status = 200, description = "The call", body = Call),
        (status = 400, description = "A bad `X-Purpose` or `X-Session-Id` (`bad-request`)",
            body = Problem, content_type = "application/problem+json"),
        NeedsChatsRead,
        (status = 404, description = "The assistant journal is off for this account \
            (`journal-off`), or no journal entry with this id is visible to this credential, or \
            `X-Session-Id` names no session of this credential (`not-found`)",
            body = Problem, content_type = "application/problem+json"),
        SessionEnded,
        AccessProblems,
    ),
    security(("bearer" = []))
)]
pub async fn entry(
    State(state): State<AppState>,
    call: ApiCall,
    Path(id): Path<String>,
) -> Reply<Call> {
    let input = GetEntry {
        call: CallId::arg(&id),
    };
    Reply(call.run(&state, input).await)
}

/// Delete a session.
///
/// Deletes one session's entry on purpose — the session, its calls and its summary — for good;
/// no one can read it afterwards. Needs `chats:read` and `chats:delete`; only sessions of your
/// own account that this credential can read. Journalled like every call (in another session
/// when it deletes its own).
#[utoipa::path(
    delete,
    path = "/api/v1/journal/sessions/{id}",
    operation_id = "deleteSession",
    tag = "journal",
    params(
        ("id" = String, Path, description = "The session to delete (`ses_…`)",
            example = "ses_01M6ZRJAM0EEP8Y8EXPSPATJH6"),
        JournalHeaders,
    ),
    responses(
        (status = 200, description = "The session is gone", body = Deleted),
        (status = 400, description = "A bad `X-Purpose` or `X-Session-Id` (`bad-request`)",
            body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The credential lacks `chats:read` or `chats:delete` \
            (`missing-scope`) or is an operator credential (`forbidden`)",
            body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "The assistant journal is off for this account \
            (`journal-off`), or no session with this id that this credential may delete \
            (`not-found`)", body = Problem, content_type = "application/problem+json"),
        SessionEnded,
        AccessProblems,
    ),
    security(("bearer" = []))
)]
pub async fn delete_session(
    State(state): State<AppState>,
    call: ApiCall,
    Path(id): Path<String>,
) -> Reply<Deleted> {
    let input = DeleteSession {
        session: SessionId::arg(&id),
    };
    Reply(call.run(&state, input).await)
}

/// Delete a day.
///
/// Deletes, for good, every session of your account that started on this day (UTC) and that
/// this credential can read, with their calls and summaries. Needs `chats:read` and
/// `chats:delete`.
#[utoipa::path(
    delete,
    path = "/api/v1/journal/days/{date}",
    operation_id = "deleteJournalDay",
    tag = "journal",
    params(
        ("date" = String, Path, description = "The day (`YYYY-MM-DD`, UTC)",
            example = "2026-11-10"),
        JournalHeaders,
    ),
    responses(
        (status = 200, description = "The day's sessions are gone", body = Deleted),
        (status = 400, description = "Not a date, or a bad `X-Purpose` or `X-Session-Id` \
            (`bad-request`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The credential lacks `chats:read` or `chats:delete` \
            (`missing-scope`) or is an operator credential (`forbidden`)",
            body = Problem, content_type = "application/problem+json"),
        JournalOffOrNoSession,
        SessionEnded,
        AccessProblems,
    ),
    security(("bearer" = []))
)]
pub async fn delete_day(
    State(state): State<AppState>,
    call: ApiCall,
    Path(date): Path<String>,
) -> Reply<Deleted> {
    Reply(call.run(&state, DeleteDay::parse(&date)).await)
}
