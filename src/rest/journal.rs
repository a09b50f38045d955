//! The journal over REST: exactly the seed's table, plus one call and its audit entry.

use crate::error::Problem;
use crate::http::call::{ApiCall, Reply};
use crate::http::openapi::{
    AccessProblems, BadHeaders, JournalHeaders, JournalOffOrNoSession, NeedsChatsDelete,
    NeedsChatsRead, SessionEnded,
};
use crate::http::{ApiJson, ApiQuery};
use crate::ids::{CallId, SessionId};
use crate::journal::{Call, Session};
use crate::ops::Services;
use crate::ops::journal::{
    DeleteDay, DeleteSession, Deleted, EndSession, EndedSession, GetEntry, GetSession,
    ListSessions, SessionDetail, SessionList, StartSession,
};
use axum::extract::{Path, State};

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
    request_body(content = StartSession, content_type = "application/json",
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
    State(state): State<Services>,
    call: ApiCall,
    ApiJson(input): ApiJson<StartSession>,
) -> Reply<Session> {
    Reply(call.body(&input).run(&state, input).await)
}

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
        ("id" = SessionId, Path, description = "The session to close (`ses_…`); one this \
            credential opened", example = "ses_01M72AZ1M0ETFB59TDWH9EDD1R"),
        JournalHeaders,
    ),
    request_body(content = EndSession, content_type = "application/json",
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
    State(state): State<Services>,
    call: ApiCall,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<EndSession>,
) -> Reply<EndedSession> {
    let input = EndSession {
        session: id,
        ..body
    };
    Reply(call.body(&input).run(&state, input.clone()).await)
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
    params(ListSessions, JournalHeaders),
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
    State(state): State<Services>,
    call: ApiCall,
    ApiQuery(input): ApiQuery<ListSessions>,
) -> Reply<SessionList> {
    Reply(call.run(&state, input).await)
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
        ("id" = SessionId, Path, description = "The session to read (`ses_…`)",
            example = "ses_01M6ZRJAM0EEP8Y8EXPSPATJH6"),
        GetSession,
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
    State(state): State<Services>,
    call: ApiCall,
    Path(id): Path<String>,
    ApiQuery(query): ApiQuery<GetSession>,
) -> Reply<SessionDetail> {
    let input = GetSession {
        session: id,
        ..query
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
        ("id" = CallId, Path, description = "The journal entry (`call_…`)",
            example = "call_01M72B2VP8EMRSV7E9Z0C1HT0H"),
        JournalHeaders,
    ),
    responses(
        (status = 200, description = "The call", body = Call),
        BadHeaders,
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
    State(state): State<Services>,
    call: ApiCall,
    Path(id): Path<String>,
) -> Reply<Call> {
    let input = GetEntry { call: id };
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
        ("id" = SessionId, Path, description = "The session to delete (`ses_…`)",
            example = "ses_01M6ZRJAM0EEP8Y8EXPSPATJH6"),
        JournalHeaders,
    ),
    responses(
        (status = 200, description = "The session is gone", body = Deleted),
        BadHeaders,
        NeedsChatsDelete,
        (status = 404, description = "The assistant journal is off for this account \
            (`journal-off`), or no session with this id that this credential may delete \
            (`not-found`)", body = Problem, content_type = "application/problem+json"),
        SessionEnded,
        AccessProblems,
    ),
    security(("bearer" = []))
)]
pub async fn delete_session(
    State(state): State<Services>,
    call: ApiCall,
    Path(id): Path<String>,
) -> Reply<Deleted> {
    let input = DeleteSession { session: id };
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
            pattern = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
            example = "2026-11-10"),
        JournalHeaders,
    ),
    responses(
        (status = 200, description = "The day's sessions are gone", body = Deleted),
        (status = 400, description = "Not a date, or a bad `X-Purpose` or `X-Session-Id` \
            (`bad-request`)", body = Problem, content_type = "application/problem+json"),
        NeedsChatsDelete,
        JournalOffOrNoSession,
        SessionEnded,
        AccessProblems,
    ),
    security(("bearer" = []))
)]
pub async fn delete_day(
    State(state): State<Services>,
    call: ApiCall,
    Path(date): Path<String>,
) -> Reply<Deleted> {
    Reply(call.run(&state, DeleteDay { date }).await)
}
