//! The journal over REST: exactly the seed's table, plus one call and its audit entry.

use crate::auth::Scope;
use crate::error::{Error, Result};
use crate::http::call::{ApiCall, respond};
use crate::http::{ApiJson, ApiQuery, AppState};
use crate::ids::{self, Kind};
use crate::journal::catchup::{self, CatchUp};
use crate::journal::meta::{parse_text, shape};
use crate::journal::reads::{self, MAX_ACTIONS_PAGE, MAX_SESSIONS_PAGE, SessionFilter};
use crate::journal::{AuditEntry, Call, Cursor, Session, sessions};
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
const CATCH_UP: Spec = Spec {
    id: "getCatchUp",
    journal: JournalUse::Read,
};
const AUDIT: Spec = Spec {
    id: "getAuditEntry",
    journal: JournalUse::None,
};

fn journal_read(op: &Operation) -> Result<()> {
    op.require_journal()?;
    op.require(Scope::ChatsRead)
}

fn bad(e: String) -> Error {
    Error::BadRequest(e)
}

#[derive(Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields)]
pub struct StartRequest {
    /// One sentence describing the goal of the conversation.
    pub goal: Option<String>,
    /// The organization the work is for (`org_…`), if any; must be one the account belongs to.
    pub organization: Option<String>,
    /// The repository the assistant works in, if any (a repository-restricted key's own wins).
    pub repository: Option<String>,
}

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

#[derive(Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields)]
pub struct EndRequest {
    /// What happened: the handoff for the next conversation.
    pub outcome: Option<String>,
}

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

#[derive(Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    pub assistant: Option<String>,
    pub key: Option<String>,
    pub organization: Option<String>,
    pub repo: Option<String>,
    pub from: Option<DateTime<Utc>>,
    pub to: Option<DateTime<Utc>>,
    pub limit: Option<i64>,
    pub cursor: Option<String>,
}

#[derive(Serialize)]
pub struct SessionList {
    pub sessions: Vec<Session>,
    pub next_cursor: Option<String>,
}

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

#[derive(Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ActionsQuery {
    /// At most 300.
    pub limit: Option<i64>,
    pub cursor: Option<String>,
    /// Only the calls that wrote.
    pub writes: Option<bool>,
}

#[derive(Serialize)]
pub struct SessionDetail {
    pub session: Session,
    /// The session's calls, oldest first.
    pub actions: Vec<Call>,
    pub next_cursor: Option<String>,
}

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

#[derive(Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields)]
pub struct CatchUpQuery {
    /// An RFC 3339 time, or a previous session id (then: since that session started).
    pub since: Option<String>,
}

pub async fn catch_up(
    State(state): State<AppState>,
    call: ApiCall,
    ApiQuery(query): ApiQuery<CatchUpQuery>,
) -> Result<Response> {
    let mut op = call.begin(&state, CATCH_UP).await?;
    let result = catch_up_in(&mut op, query.since.as_deref()).await;
    Ok(respond(op, result).await)
}

pub(crate) async fn catch_up_in(
    op: &mut Operation,
    since: Option<&str>,
) -> Result<ApiJson<CatchUp>> {
    journal_read(op)?;
    let now = op.now();
    let since = catchup::resolve_since(op.tx(), since, now).await?;
    let with_records = op.require(Scope::RecordsRead).is_ok();
    let brief = catchup::catch_up(op.tx(), since, with_records).await?;
    op.results(
        brief.sessions.iter().map(|s| s.id.clone()),
        Some(brief.sessions.len()),
    );
    Ok(ApiJson(brief))
}

pub async fn audit(
    State(state): State<AppState>,
    call: ApiCall,
    Path(id): Path<String>,
) -> Result<Response> {
    let mut op = call.begin(&state, AUDIT).await?;
    let result = async {
        op.require(Scope::ChatsRead)?;
        let entry: AuditEntry = reads::audit(op.tx(), &id).await?;
        op.results([entry.id.clone()], None);
        Ok(ApiJson(entry))
    }
    .await;
    Ok(respond(op, result).await)
}
