//! One error type for the whole service. Each variant maps to an `application/problem+json`
//! answer with a stable `type`; server faults are logged (inside the request's span, which
//! carries the request id) and never described to the client.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

mod remedy;
pub use remedy::Remedy;

pub type Result<T, E = Error> = std::result::Result<T, E>;

pub const PROBLEM_BASE: &str = "https://n8v-journal.dev/problems/";

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    Unauthorized(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("this credential lacks the `{0}` scope")]
    MissingScope(&'static str),
    #[error("{0}")]
    NotFound(String),
    #[error("the assistant journal is off for this account")]
    JournalOff,
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    Unprocessable(String),
    #[error("{0}")]
    Unavailable(String),
    #[error("this endpoint does not accept that method")]
    MethodNotAllowed,
    #[error("{0}")]
    PayloadTooLarge(String),
    #[error("{0}")]
    UnsupportedMediaType(String),
    #[error("{0}")]
    HeadersTooLarge(String),
    #[error("{0}")]
    UriTooLong(String),
    #[error("too many requests; retry in {retry_after_secs} s")]
    RateLimited { retry_after_secs: u64 },
    /// As much of one kind of work as may run at once already runs: the account's own share
    /// (`429`, `own`) or the whole process's (`503`); either may be retried after
    /// `retry_after_secs` (`Retry-After`).
    #[error("{detail}")]
    Busy {
        detail: String,
        own: bool,
        retry_after_secs: u64,
    },
    /// The database could not be reached, or the connection was lost, before the request's
    /// transaction committed: nothing of it was stored, and it is safe to retry (`503` with
    /// `Retry-After`). `during_commit`: the connection was lost while committing, so the
    /// outcome is not known (a write may have been stored).
    #[error("database unavailable: {source}")]
    DatabaseUnavailable {
        source: sqlx::Error,
        during_commit: bool,
    },
    /// The transaction lost a race with a concurrent one: a deadlock or a serialization
    /// failure (`40P01`, `40001`), or a row it named deleted meanwhile. It was rolled back, so
    /// nothing of it was stored: `ops::run` runs the operation again from `BEGIN` a few times,
    /// and only then answers `503` with `Retry-After`.
    #[error("lost a race with a concurrent transaction: {0}")]
    Contended(String),
    /// A race lost to a deletion: this session, which the operation checked (or joined) and
    /// was recording in, was deleted meanwhile by another transaction. Retried as
    /// [`Error::Contended`]; `Operation::finish` answers it as a session that is gone (404)
    /// when the caller named it.
    #[error("session {0} was deleted while the call was being recorded in it")]
    SessionDeleted(crate::ids::SessionId),
    #[error("database error: {0}")]
    Database(sqlx::Error),
    #[error("internal error: {0:#}")]
    Internal(#[from] anyhow::Error),
    /// A refusal with the remedy that fixes it, which each door words in its own terms (see
    /// [`Remedy`]): status and type are the refusal's own.
    #[error("{error}; {}", remedy.rest())]
    WithRemedy { error: Box<Error>, remedy: Remedy },
}

/// The body of every error answer (RFC 9457), sent as `application/problem+json`.
#[derive(Debug, Serialize, serde::Deserialize, utoipa::ToSchema)]
#[schema(example = json!({
    "type": "https://n8v-journal.dev/problems/journal-off",
    "title": "Journal is off",
    "status": 404,
    "detail": "The assistant journal is off for this account. An administrator can enable the \
        assistantJournal flag for it in /internal/admin/feature-flags."
}))]
pub struct Problem {
    /// A stable URI naming the kind of problem (`https://n8v-journal.dev/problems/<slug>`);
    /// clients branch on it.
    #[serde(rename = "type")]
    pub kind: String,
    /// A short, human-readable summary of the kind of problem; the same for every occurrence.
    pub title: String,
    /// The HTTP status code of this answer.
    pub status: u16,
    /// What went wrong with this request and, where possible, how to fix it. For server faults
    /// it only says to quote the `x-request-id` response header.
    pub detail: String,
}

impl Error {
    pub fn not_found(kind: crate::ids::Kind, id: &str) -> Self {
        Error::NotFound(format!(
            "no {} with id {id:?} is visible to this credential",
            kind.noun()
        ))
    }

    fn parts(&self) -> (StatusCode, &'static str, &'static str) {
        use StatusCode as S;
        match self {
            Error::WithRemedy { error, .. } => error.parts(),
            Error::BadRequest(_) => (S::BAD_REQUEST, "bad-request", "Bad request"),
            Error::Unauthorized(_) => (S::UNAUTHORIZED, "unauthorized", "Unauthorized"),
            Error::Forbidden(_) => (S::FORBIDDEN, "forbidden", "Forbidden"),
            Error::MissingScope(_) => (S::FORBIDDEN, "missing-scope", "Missing scope"),
            Error::NotFound(_) => (S::NOT_FOUND, "not-found", "Not found"),
            Error::JournalOff => (S::NOT_FOUND, "journal-off", "Journal is off"),
            Error::Conflict(_) => (S::CONFLICT, "conflict", "Conflict"),
            Error::Unprocessable(_) => (S::UNPROCESSABLE_ENTITY, "invalid-body", "Invalid body"),
            Error::Unavailable(_) => (S::SERVICE_UNAVAILABLE, "unavailable", "Service unavailable"),
            Error::DatabaseUnavailable { .. } => (
                S::SERVICE_UNAVAILABLE,
                "database-unavailable",
                "Database unavailable",
            ),
            Error::Contended(_) | Error::SessionDeleted(_) => {
                (S::SERVICE_UNAVAILABLE, "contention", "Contention")
            }
            Error::MethodNotAllowed => (
                S::METHOD_NOT_ALLOWED,
                "method-not-allowed",
                "Method not allowed",
            ),
            Error::PayloadTooLarge(_) => (
                S::PAYLOAD_TOO_LARGE,
                "payload-too-large",
                "Payload too large",
            ),
            Error::UnsupportedMediaType(_) => (
                S::UNSUPPORTED_MEDIA_TYPE,
                "unsupported-media-type",
                "Unsupported media type",
            ),
            Error::UriTooLong(_) => (S::URI_TOO_LONG, "uri-too-long", "URI too long"),
            Error::HeadersTooLarge(_) => (
                S::REQUEST_HEADER_FIELDS_TOO_LARGE,
                "headers-too-large",
                "Request headers too large",
            ),
            Error::RateLimited { .. } => {
                (S::TOO_MANY_REQUESTS, "rate-limited", "Too many requests")
            }
            Error::Busy { own: true, .. } => {
                (S::TOO_MANY_REQUESTS, "too-many-at-once", "Too many at once")
            }
            Error::Busy { own: false, .. } => (S::SERVICE_UNAVAILABLE, "busy", "Busy"),
            Error::Database(_) | Error::Internal(_) => (
                S::INTERNAL_SERVER_ERROR,
                "internal",
                "Internal server error",
            ),
        }
    }

    pub fn status(&self) -> StatusCode {
        self.parts().0
    }

    /// What the client is told: the message itself, except for server faults.
    pub fn client_detail(&self) -> String {
        match self {
            Error::Database(_) | Error::Internal(_) => "The server failed to answer this request. \
                It has been logged; quote the x-request-id header of this response when reporting it."
                .into(),
            Error::DatabaseUnavailable {
                during_commit: false,
                ..
            } => format!(
                "The database is briefly unavailable; this request was not carried out and \
                 nothing of it was stored. It is safe to retry after {RETRY_AFTER_SECS} s \
                 (Retry-After)."
            ),
            Error::DatabaseUnavailable {
                during_commit: true,
                ..
            } => format!(
                "The connection to the database was lost while this request was being committed, \
                 so whether it was stored is not known. Reads are safe to retry after \
                 {RETRY_AFTER_SECS} s (Retry-After); check before retrying a write."
            ),
            Error::Contended(_) | Error::SessionDeleted(_) => format!(
                "This request kept colliding with concurrent changes to the same data, so it \
                 was not carried out: it changed nothing. It is safe to retry after \
                 {CONTENTION_RETRY_AFTER_SECS} s (Retry-After)."
            ),
            Error::JournalOff => "The assistant journal is off for this account. An administrator \
                can enable the assistantJournal flag for it in /internal/admin/feature-flags."
                .into(),
            Error::WithRemedy { error, remedy } => {
                format!("{}; {}", error.client_detail(), remedy.rest())
            }
            other => other.to_string(),
        }
    }

    /// `self` with the remedy that fixes it (see [`Remedy`]).
    pub fn with_remedy(self, remedy: Remedy) -> Self {
        Error::WithRemedy {
            error: Box::new(self),
            remedy,
        }
    }

    /// [`Self::problem`] in the MCP tools' words: a remedy is worded for tools.
    pub fn tool_problem(&self) -> Problem {
        let mut problem = self.problem();
        if let Error::WithRemedy { error, remedy } = self {
            problem.detail = format!("{}; {}", error.client_detail(), remedy.tools());
        }
        problem
    }

    pub fn problem(&self) -> Problem {
        let (status, slug, title) = self.parts();
        Problem {
            kind: format!("{PROBLEM_BASE}{slug}"),
            title: title.into(),
            status: status.as_u16(),
            detail: self.client_detail(),
        }
    }
}

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        if self.status().is_server_error() {
            tracing::error!(error = %self, "request failed");
        }
        let problem = self.problem();
        let mut response = problem_response(&problem);
        let headers = response.headers_mut();
        if let Error::Unauthorized(_) = &self {
            headers.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        if let Some(secs) = self.retry_after() {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        response
    }
}

/// How long a client should wait before retrying a request the database could not serve: a
/// restart or a failover takes a few seconds (the pool waits up to its acquire timeout first).
pub const RETRY_AFTER_SECS: u64 = 2;

/// How long a client should wait before retrying a request that kept colliding with concurrent
/// changes ([`Error::Contended`]): the transactions it met are short.
pub const CONTENTION_RETRY_AFTER_SECS: u64 = 1;

impl Error {
    /// Whether running the operation again from `BEGIN` may succeed: it lost a race
    /// ([`Error::Contended`]), and nothing of it was stored.
    pub fn is_contended(&self) -> bool {
        matches!(self, Error::Contended(_) | Error::SessionDeleted(_))
    }

    /// The seconds a client should wait before retrying, when retrying later is the remedy.
    pub fn retry_after(&self) -> Option<u64> {
        match self {
            Error::DatabaseUnavailable { .. } => Some(RETRY_AFTER_SECS),
            Error::Contended(_) | Error::SessionDeleted(_) => Some(CONTENTION_RETRY_AFTER_SECS),
            Error::RateLimited { retry_after_secs }
            | Error::Busy {
                retry_after_secs, ..
            } => Some(*retry_after_secs),
            _ => None,
        }
    }
}

/// The foreign keys from what tenant work writes to its account: one fails when the account
/// was deleted (and committed) while the transaction ran.
const ACCOUNT_REFERENCES: &[&str] = &[
    "audit_log_account_id_fkey",
    "journal_sessions_account_id_fkey",
    "journal_loops_account_id_fkey",
    "journal_exposures_account_id_fkey",
    "journal_digests_account_id_fkey",
    "summary_budget_account_id_fkey",
];

/// Whether a database error says the acting account was deleted under the transaction.
fn account_deleted(e: &sqlx::Error) -> bool {
    e.as_database_error().is_some_and(|d| {
        d.code().as_deref() == Some(crate::sqlstate::FOREIGN_KEY_VIOLATION)
            && d.constraint()
                .is_some_and(|c| ACCOUNT_REFERENCES.contains(&c))
    })
}

/// Whether a database error says the transaction lost a race and was rolled back: a deadlock
/// or a serialization failure.
pub fn is_contention(e: &sqlx::Error) -> bool {
    e.as_database_error()
        .and_then(|d| d.code())
        .is_some_and(|code| {
            matches!(
                &*code,
                crate::sqlstate::DEADLOCK | crate::sqlstate::SERIALIZATION_FAILURE
            )
        })
}

impl Error {
    /// `e` as this request's answer when the operation's own commit failed: a lost connection
    /// there leaves the outcome unknown (see [`Error::DatabaseUnavailable`]).
    pub fn at_commit(e: sqlx::Error) -> Self {
        match Error::from(e) {
            Error::DatabaseUnavailable { source, .. } => Error::DatabaseUnavailable {
                source,
                during_commit: true,
            },
            other => other,
        }
    }
}

/// Whether `e` says the database is out of reach (not that the statement was wrong): no
/// connection could be had in time or at all, the connection broke, or the server is shutting
/// down, starting up, or out of connection slots. Such a request did nothing and may be retried.
pub fn is_unavailable(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::Io(_)
        | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(d) => {
            d.code().is_some_and(|code| {
                // 08: connection exception; 57P01-57P03: admin or crash shutdown, cannot
                // connect now (starting up or shutting down); 53300: too many connections;
                // 28000/28P01: the login refused (only ever at connecting).
                code.starts_with("08")
                    || matches!(
                        &*code,
                        "57P01" | "57P02" | "57P03" | "53300" | "28000" | "28P01"
                    )
            }) || ends_the_session(d.as_ref())
        }
        _ => false,
    }
}

/// Whether the server ended the session with this error (severity `FATAL` or `PANIC`): every
/// failure to get a connection is one (a database not accepting connections, `55000`, among
/// them), and a statement's own errors never are. By severity, not by code: `55000` is also
/// what a statement gets for, say, `currval` before `nextval`, a fault to answer `500`.
fn ends_the_session(d: &dyn sqlx::error::DatabaseError) -> bool {
    use sqlx::postgres::{PgDatabaseError, PgSeverity};
    d.try_downcast_ref::<PgDatabaseError>()
        .is_some_and(|e| matches!(e.severity(), PgSeverity::Fatal | PgSeverity::Panic))
}

/// Whether `e` is the server refusing a new connection (its login, or the database), rather
/// than an existing connection found dead: trying another pooled connection cannot help.
pub fn is_refused_connection(e: &sqlx::Error) -> bool {
    let code = e.as_database_error().and_then(|d| d.code());
    code.is_some_and(|code| code.starts_with("28") || matches!(&*code, "55000" | "3D000"))
}

/// A tenant transaction refused at `BEGIN` because its credential was revoked (or removed) since
/// the service cached it is the caller's 401; a database out of reach is a `503` the client may
/// retry; every other database error is a server fault.
impl From<crate::ids::BadId> for Error {
    fn from(bad: crate::ids::BadId) -> Self {
        let kind = bad.kind();
        if bad.malformed() {
            return Error::BadRequest(format!(
                "the {} id {:?} holds a control character (a NUL, a newline…); {} ids look \
                 like {}_ followed by 26 letters and digits",
                kind.noun(),
                bad.shown(),
                kind.noun(),
                kind.prefix()
            ));
        }
        Error::NotFound(format!(
            "no {} with id {:?} is visible to this credential ({} ids look like {}_…)",
            kind.noun(),
            bad.shown(),
            kind.noun(),
            kind.prefix()
        ))
    }
}

impl From<sqlx::Error> for Error {
    fn from(e: sqlx::Error) -> Self {
        if e.as_database_error().and_then(|d| d.code()).as_deref() == Some(crate::sqlstate::REVOKED)
        {
            return Error::Unauthorized(
                "this API key has been revoked (or the key this token was minted from)".into(),
            );
        }
        if is_contention(&e) {
            return Error::Contended(e.to_string());
        }
        if account_deleted(&e) {
            // Run again, the operation's begin refuses the credential, gone with its account.
            return Error::Contended(format!("the account was deleted meanwhile: {e}"));
        }
        if is_unavailable(&e) {
            return Error::DatabaseUnavailable {
                source: e,
                during_commit: false,
            };
        }
        Error::Database(e)
    }
}

/// Maps the database errors a client can cause, by the name of the constraint they broke (the
/// realworld-axum-sqlx `on_constraint` pattern); every other database error stays a server
/// fault, logged and never described to the client.
pub trait OnConstraint<T> {
    fn on_constraint(self, name: &str, client_error: impl FnOnce() -> Error) -> Result<T>;
}

impl<T> OnConstraint<T> for std::result::Result<T, sqlx::Error> {
    fn on_constraint(self, name: &str, client_error: impl FnOnce() -> Error) -> Result<T> {
        self.map_err(
            |e| match e.as_database_error().and_then(|d| d.constraint()) {
                Some(broken) if broken == name => client_error(),
                _ => Error::from(e),
            },
        )
    }
}

pub fn problem_response(problem: &Problem) -> Response {
    let status = StatusCode::from_u16(problem.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let body = serde_json::to_vec(problem).unwrap_or_default();
    (
        status,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/problem+json"),
        )],
        body,
    )
        .into_response()
}
