//! The journal over REST: exactly the seed's table, plus one call and its audit entry.

use crate::http::call::handler;
use crate::http::openapi::JournalHeaders;
use crate::http::{ApiJson, ApiQuery};
use crate::ids::{CallId, SessionId};
use crate::journal::{Call, Session};
use crate::ops::Op;
use crate::ops::journal::{
    DeleteDay, DeleteSession, Deleted, EndSession, EndedSession, GetEntry, GetSession,
    ListSessions, SessionDetail, SessionList, StartSession,
};
use axum::extract::Path;

handler! {
    /// Open a session.
    ///
    /// Open a session with one sentence describing the goal, then send its id as `X-Session-Id`
    /// on each call of the conversation and close it with what happened. The assistant is taken
    /// from `X-Assistant` (else the `User-Agent`). Needs `chats:read`.
    #[utoipa::path(
        post,
        path = "/api/v1/journal/sessions",
        operation_id = StartSession::SPEC.id,
        tag = "journal",
        params(JournalHeaders),
        request_body(content = StartSession, content_type = "application/json",
            description = "The goal of the conversation, and where the work happens"),
        responses(
            (status = "2XX", description = "The session, open", body = Session),
        ),
        security(("bearer" = []))
    )]
    pub fn start(input: ApiJson<StartSession>) -> Session
        = reply_body(input)
}

handler! {
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
        operation_id = EndSession::SPEC.id,
        tag = "journal",
        params(
            ("id" = SessionId, Path, description = "The session to close (`ses_…`); one this \
                credential opened", example = "ses_01M72AZ1M0ETFB59TDWH9EDD1R"),
            JournalHeaders,
        ),
        request_body(content = EndSession, content_type = "application/json",
            description = "What happened"),
        responses(
            (status = "2XX", description = "The session, closed; `not_resolved` lists the ids of \
                `resolved` that name no item this credential may close, which were skipped",
                body = EndedSession),
        ),
        security(("bearer" = []))
    )]
    pub fn end(id: Path<String>, body: ApiJson<EndSession>) -> EndedSession
        = reply_body(EndSession { session: id, ..body })
}

handler! {
    /// List sessions.
    ///
    /// The sessions this credential can read, newest first, filtered by assistant, key,
    /// organization, repository or period. Sessions that only read the journal stay out of the
    /// list. Needs `chats:read`; a credential sees only sessions whose recorded scopes it also
    /// holds, and a repository-restricted key only its own.
    #[utoipa::path(
        get,
        path = "/api/v1/journal/sessions",
        operation_id = ListSessions::SPEC.id,
        tag = "journal",
        params(ListSessions, JournalHeaders),
        responses(
            (status = "2XX", description = "A page of sessions, newest first", body = SessionList),
        ),
        security(("bearer" = []))
    )]
    pub fn list(input: ApiQuery<ListSessions>) -> SessionList
        = reply(input)
}

handler! {
    /// Read a session's actions.
    ///
    /// The session and the calls made in it, oldest first: what, why, on what and how it went.
    /// Needs `chats:read` and every scope the session recorded.
    #[utoipa::path(
        get,
        path = "/api/v1/journal/sessions/{id}",
        operation_id = GetSession::SPEC.id,
        tag = "journal",
        params(
            ("id" = SessionId, Path, description = "The session to read (`ses_…`)",
                example = "ses_01M6ZRJAM0EEP8Y8EXPSPATJH6"),
            GetSession,
            JournalHeaders,
        ),
        responses(
            (status = "2XX", description = "The session and a page of its actions",
                body = SessionDetail),
        ),
        security(("bearer" = []))
    )]
    pub fn get(id: Path<String>, query: ApiQuery<GetSession>) -> SessionDetail
        = reply(GetSession { session: id, ..query })
}

handler! {
    /// Read one call.
    ///
    /// One journal entry: what was called, why, on what, how it went and the shape of its input,
    /// with a link to the audit entry of the same request. Needs `chats:read`.
    #[utoipa::path(
        get,
        path = "/api/v1/journal/entries/{id}",
        operation_id = GetEntry::SPEC.id,
        tag = "journal",
        params(
            ("id" = CallId, Path, description = "The journal entry (`call_…`)",
                example = "call_01M72B2VP8EMRSV7E9Z0C1HT0H"),
            JournalHeaders,
        ),
        responses(
            (status = "2XX", description = "The call", body = Call),
        ),
        security(("bearer" = []))
    )]
    pub fn entry(id: Path<String>) -> Call
        = reply(GetEntry { call: id })
}

handler! {
    /// Delete a session.
    ///
    /// Deletes one session's entry on purpose — the session, its calls and its summary — for good;
    /// no one can read it afterwards. Needs `chats:read` and `chats:delete`; only sessions of your
    /// own account that this credential can read. Journalled like every call (in another session
    /// when it deletes its own).
    #[utoipa::path(
        delete,
        path = "/api/v1/journal/sessions/{id}",
        operation_id = DeleteSession::SPEC.id,
        tag = "journal",
        params(
            ("id" = SessionId, Path, description = "The session to delete (`ses_…`)",
                example = "ses_01M6ZRJAM0EEP8Y8EXPSPATJH6"),
            JournalHeaders,
        ),
        responses(
            (status = "2XX", description = "The session is gone", body = Deleted),
        ),
        security(("bearer" = []))
    )]
    pub fn delete_session(id: Path<String>) -> Deleted
        = reply(DeleteSession { session: id })
}

handler! {
    /// Delete a day.
    ///
    /// Deletes, for good, every session of your account that started on this day (UTC) and that
    /// this credential can read, with their calls and summaries. Needs `chats:read` and
    /// `chats:delete`.
    #[utoipa::path(
        delete,
        path = "/api/v1/journal/days/{date}",
        operation_id = DeleteDay::SPEC.id,
        tag = "journal",
        params(
            ("date" = String, Path, description = "The day (`YYYY-MM-DD`, UTC)",
                pattern = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
                example = "2026-11-10"),
            JournalHeaders,
        ),
        responses(
            (status = "2XX", description = "The day's sessions are gone", body = Deleted),
        ),
        security(("bearer" = []))
    )]
    pub fn delete_day(date: Path<String>) -> Deleted
        = reply(DeleteDay { date })
}
