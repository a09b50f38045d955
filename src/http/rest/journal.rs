//! The journal over REST: exactly the seed's table, plus one call and its audit entry.

use crate::auth::Scope;
use crate::error::{Error, Problem, Result};
use crate::http::call::{ApiCall, respond};
use crate::http::openapi::{AccessProblems, JournalHeaders};
use crate::http::{ApiJson, ApiQuery, AppState};
use crate::ids::{self, Kind};
use crate::journal::meta::{parse_text, shape};
use crate::journal::reads::{self, MAX_ACTIONS_PAGE, MAX_SESSIONS_PAGE, SessionFilter};
use crate::journal::{Call, Cursor, Session, sessions};
use crate::operation::{JournalUse, Operation, Spec};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

const START: Spec = Spec {
    id: "startSession",
    journal: JournalUse::Bookkeeping,
};
const END: Spec = Spec {
    id: "endSession",
    journal: JournalUse::Bookkeeping,
};
const LIST: Spec = Spec {
    id: "listSessions",
    journal: JournalUse::Read,
};
const GET: Spec = Spec {
    id: "getSession",
    journal: JournalUse::Read,
};
const ENTRY: Spec = Spec {
    id: "getJournalEntry",
    journal: JournalUse::Read,
};

pub(super) fn journal_read(op: &Operation) -> Result<()> {
    op.require_journal()?;
    op.require(Scope::ChatsRead)
}

fn bad(e: String) -> Error {
    Error::BadRequest(e)
}

/// A conversation to open; every field is optional.
#[derive(Deserialize, Serialize, Default, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"goal": "Get the login fix ready for review", "repository": "acme/web"}))]
pub struct StartRequest {
    /// One sentence describing the goal of the conversation (up to 2,000 characters; credentials
    /// in it are scrubbed).
    #[schema(max_length = 2000)]
    pub goal: Option<String>,
    /// The organization the work is for (`org_…`), if any; must be one the account belongs to.
    pub organization: Option<String>,
    /// The repository the assistant works in, if any (a repository-restricted key's own wins).
    pub repository: Option<String>,
}

/// Open a session.
///
/// Open a session with one sentence describing the goal, then send its id as `X-Session-Id`
/// on each call of the conversation and close it with what happened. The assistant is taken
/// from `X-Assistant` (else the `User-Agent`).
#[utoipa::path(
    post,
    path = "/api/v1/journal/sessions",
    operation_id = "startSession",
    tag = "journal",
    params(JournalHeaders),
    request_body(content = StartRequest, content_type = "application/json",
        description = "The goal of the conversation, and where the work happens"),
    responses(
        (status = 201, description = "The session, open", body = Session,
            headers(("X-Session-Id" = String, description = "The session this call was recorded \
                in (`ses_…`); sent when the assistant journal is on"))),
        (status = 400, description = "Malformed JSON, a goal or repository that is too long or \
            has control characters, or a bad `X-Purpose` or `X-Session-Id` (`bad-request`)",
            body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "An operator credential (`forbidden`)",
            body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "The assistant journal is off for this account \
            (`journal-off`), the organization is not one of the account's, or `X-Session-Id` \
            names no session of this credential (`not-found`)",
            body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`X-Session-Id` names a session that has ended \
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
pub async fn start(
    State(state): State<AppState>,
    call: ApiCall,
    ApiJson(body): ApiJson<StartRequest>,
) -> Result<Response> {
    let mut op = call.begin(&state, START).await?;
    op.set_input_shape(shape(&serde_json::to_value(&body).unwrap_or_default()));
    let result = start_in(&mut op, body).await;
    Ok(respond(op, result).await)
}

pub(crate) async fn start_in(
    op: &mut Operation,
    body: StartRequest,
) -> Result<(StatusCode, ApiJson<Session>)> {
    op.require_journal()?;
    let mut opening = op.opening();
    opening.goal = parse_text(body.goal.as_deref(), "goal").map_err(bad)?;
    opening.organization = body
        .organization
        .as_deref()
        .map(|o| {
            ids::parse(Kind::Organization, o).ok_or_else(|| Error::not_found(Kind::Organization, o))
        })
        .transpose()?;
    if opening.repository.is_none() {
        opening.repository = parse_text(body.repository.as_deref(), "repository").map_err(bad)?;
    }
    let now = op.now();
    let session = sessions::start(op.tx(), &opening, now).await?;
    let id = ids::parse(Kind::Session, &session.id).expect("formatted by us");
    op.use_session(id);
    op.results([session.id.clone()], None);
    Ok((StatusCode::CREATED, ApiJson(session)))
}

/// How a conversation ended.
#[derive(Deserialize, Serialize, Default, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"outcome": "Fix ready for review; tests passed"}))]
pub struct EndRequest {
    /// What happened: the handoff for the next conversation (up to 2,000 characters;
    /// credentials in it are scrubbed).
    #[schema(max_length = 2000)]
    pub outcome: Option<String>,
}

/// Close a session.
///
/// Close one of this credential's open sessions with what happened: the handoff the next
/// conversation reads.
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
        (status = 200, description = "The session, closed", body = Session,
            headers(("X-Session-Id" = String, description = "The session this call was recorded \
                in (`ses_…`); sent when the assistant journal is on"))),
        (status = 400, description = "Malformed JSON, an outcome that is too long or has \
            control characters, or a bad `X-Purpose` or `X-Session-Id` (`bad-request`)",
            body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "An operator credential (`forbidden`)",
            body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "The assistant journal is off for this account \
            (`journal-off`), or the session (or `X-Session-Id`) is not one of this credential's \
            (`not-found`); sessions cannot be shared across credentials",
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
) -> Result<Response> {
    let mut op = call.begin(&state, END).await?;
    op.set_input_shape(shape(&serde_json::to_value(&body).unwrap_or_default()));
    let result = end_in(&mut op, &id, body).await;
    Ok(respond(op, result).await)
}

pub(crate) async fn end_in(
    op: &mut Operation,
    id: &str,
    body: EndRequest,
) -> Result<ApiJson<Session>> {
    op.require_journal()?;
    let outcome = parse_text(body.outcome.as_deref(), "outcome").map_err(bad)?;
    let now = op.now();
    let session = sessions::end(op.tx(), id, outcome.as_deref(), now).await?;
    op.use_session(ids::parse(Kind::Session, &session.id).expect("formatted by us"));
    Ok(ApiJson(session))
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

/// A page of sessions, newest first.
#[derive(Serialize, utoipa::ToSchema)]
pub struct SessionList {
    /// The sessions, newest first.
    pub sessions: Vec<Session>,
    /// Pass it as `cursor` for the next page; absent on the last page.
    pub next_cursor: Option<String>,
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
        (status = 200, description = "A page of sessions, newest first", body = SessionList,
            headers(("X-Session-Id" = String, description = "The session this call was recorded \
                in (`ses_…`); sent when the assistant journal is on"))),
        (status = 400, description = "A bad filter, `limit` or `cursor`, an unknown query \
            parameter, or a bad `X-Purpose` or `X-Session-Id` (`bad-request`)",
            body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The credential lacks `chats:read` (`missing-scope`) or is \
            an operator credential (`forbidden`)",
            body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "The assistant journal is off for this account \
            (`journal-off`), or `X-Session-Id` names no session of this credential \
            (`not-found`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`X-Session-Id` names a session that has ended \
            (`conflict`)", body = Problem, content_type = "application/problem+json"),
        AccessProblems,
    ),
    security(("bearer" = []))
)]
pub async fn list(
    State(state): State<AppState>,
    call: ApiCall,
    ApiQuery(query): ApiQuery<ListQuery>,
) -> Result<Response> {
    let mut op = call.begin(&state, LIST).await?;
    let result = list_in(&mut op, query).await;
    Ok(respond(op, result).await)
}

fn id_param(kind: Kind, name: &str, text: Option<&str>) -> Result<Option<uuid::Uuid>> {
    text.map(|t| {
        ids::parse(kind, t).ok_or_else(|| {
            Error::BadRequest(format!(
                "{name} {t:?} is not a {} id ({}_…)",
                kind.noun(),
                kind.prefix()
            ))
        })
    })
    .transpose()
}

fn limit_param(limit: Option<i64>, default: i64, max: i64) -> Result<i64> {
    let limit = limit.unwrap_or(default);
    if (1..=max).contains(&limit) {
        Ok(limit)
    } else {
        Err(Error::BadRequest(format!(
            "limit must be between 1 and {max}"
        )))
    }
}

pub(crate) async fn list_in(op: &mut Operation, q: ListQuery) -> Result<ApiJson<SessionList>> {
    journal_read(op)?;
    let filter = SessionFilter {
        assistant: q.assistant.filter(|a| !a.is_empty()),
        key: id_param(Kind::Key, "key", q.key.as_deref())?,
        organization: id_param(
            Kind::Organization,
            "organization",
            q.organization.as_deref(),
        )?,
        repository: q.repo.filter(|r| !r.is_empty()),
        from: q.from,
        to: q.to,
    };
    let limit = limit_param(q.limit, 20, MAX_SESSIONS_PAGE)?;
    let cursor = q
        .cursor
        .as_deref()
        .map(Cursor::decode)
        .transpose()
        .map_err(bad)?;
    let page = reads::list_sessions(op.tx(), &filter, limit, cursor).await?;
    op.results(
        page.items.iter().map(|s| s.id.clone()),
        Some(page.items.len()),
    );
    Ok(ApiJson(SessionList {
        sessions: page.items,
        next_cursor: page.next_cursor,
    }))
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

/// A session and a page of its actions.
#[derive(Serialize, utoipa::ToSchema)]
pub struct SessionDetail {
    /// The session.
    pub session: Session,
    /// The session's calls, oldest first.
    pub actions: Vec<Call>,
    /// Pass it as `cursor` for the next page of actions; absent on the last page.
    pub next_cursor: Option<String>,
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
        (status = 200, description = "The session and a page of its actions", body = SessionDetail,
            headers(("X-Session-Id" = String, description = "The session this call was recorded \
                in (`ses_…`); sent when the assistant journal is on"))),
        (status = 400, description = "A bad `limit` or `cursor`, an unknown query parameter, or \
            a bad `X-Purpose` or `X-Session-Id` (`bad-request`)",
            body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The credential lacks `chats:read` (`missing-scope`) or is \
            an operator credential (`forbidden`)",
            body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "The assistant journal is off for this account \
            (`journal-off`), or no session with this id is visible to this credential, or \
            `X-Session-Id` names no session of this credential (`not-found`)",
            body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`X-Session-Id` names a session that has ended \
            (`conflict`)", body = Problem, content_type = "application/problem+json"),
        AccessProblems,
    ),
    security(("bearer" = []))
)]
pub async fn get(
    State(state): State<AppState>,
    call: ApiCall,
    Path(id): Path<String>,
    ApiQuery(query): ApiQuery<ActionsQuery>,
) -> Result<Response> {
    let mut op = call.begin(&state, GET).await?;
    let result = get_in(&mut op, &id, query).await;
    Ok(respond(op, result).await)
}

pub(crate) async fn get_in(
    op: &mut Operation,
    id: &str,
    q: ActionsQuery,
) -> Result<ApiJson<SessionDetail>> {
    journal_read(op)?;
    let limit = limit_param(q.limit, 100, MAX_ACTIONS_PAGE)?;
    let cursor = q
        .cursor
        .as_deref()
        .map(Cursor::decode)
        .transpose()
        .map_err(bad)?;
    let session = reads::session(op.tx(), id).await?;
    let page = reads::actions(op.tx(), &session, limit, cursor, q.writes.unwrap_or(false)).await?;
    op.results(
        page.items.iter().map(|c| c.id.clone()),
        Some(page.items.len()),
    );
    Ok(ApiJson(SessionDetail {
        session,
        actions: page.items,
        next_cursor: page.next_cursor,
    }))
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
        (status = 200, description = "The call", body = Call,
            headers(("X-Session-Id" = String, description = "The session this call was recorded \
                in (`ses_…`); sent when the assistant journal is on"))),
        (status = 400, description = "A bad `X-Purpose` or `X-Session-Id` (`bad-request`)",
            body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The credential lacks `chats:read` (`missing-scope`) or is \
            an operator credential (`forbidden`)",
            body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "The assistant journal is off for this account \
            (`journal-off`), or no journal entry with this id is visible to this credential, or \
            `X-Session-Id` names no session of this credential (`not-found`)",
            body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`X-Session-Id` names a session that has ended \
            (`conflict`)", body = Problem, content_type = "application/problem+json"),
        AccessProblems,
    ),
    security(("bearer" = []))
)]
pub async fn entry(
    State(state): State<AppState>,
    call: ApiCall,
    Path(id): Path<String>,
) -> Result<Response> {
    let mut op = call.begin(&state, ENTRY).await?;
    let result = entry_in(&mut op, &id).await;
    Ok(respond(op, result).await)
}

pub(crate) async fn entry_in(op: &mut Operation, id: &str) -> Result<ApiJson<Call>> {
    journal_read(op)?;
    let call = reads::call(op.tx(), id).await?;
    op.results([call.id.clone()], None);
    Ok(ApiJson(call))
}
