//! `GET /api/v1/audit/{id}`: the audit entry a journal call links to.

use crate::error::Problem;
use crate::http::call::{ApiCall, Reply};
use crate::http::openapi::{
    AccessProblems, BadHeaders, JournalHeaders, NeedsChatsRead, SessionEnded,
};
use crate::ids::{AuditId, TypedId};
use crate::journal::AuditEntry;
use crate::ops::Services;
use crate::ops::audit::GetAuditEntry;
use axum::extract::{Path, State};

/// Read an audit entry.
///
/// The entry of the account's audit log that a journal call links to (`audit_url`). Needs
/// `chats:read`; works whether or not the assistant journal is on.
#[utoipa::path(
    get,
    path = "/api/v1/audit/{id}",
    operation_id = "getAuditEntry",
    tag = "audit",
    params(
        ("id" = AuditId, Path, description = "The audit entry (`aud_…`)",
            example = "aud_01M72B2VP8E7KTHRJXJG7DJ13N"),
        JournalHeaders,
    ),
    responses(
        (status = 200, description = "The audit entry", body = AuditEntry),
        BadHeaders,
        NeedsChatsRead,
        (status = 404, description = "No audit entry with this id is visible to this \
            credential, or `X-Session-Id` names no session of this credential (`not-found`)",
            body = Problem, content_type = "application/problem+json"),
        SessionEnded,
        AccessProblems,
    ),
    security(("bearer" = []))
)]
pub async fn audit(
    State(state): State<Services>,
    call: ApiCall,
    Path(id): Path<String>,
) -> Reply<AuditEntry> {
    let input = GetAuditEntry {
        audit: AuditId::arg(&id),
    };
    Reply(call.run(&state, input).await)
}
