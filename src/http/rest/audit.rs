//! `GET /api/v1/audit/{id}`: the audit entry a journal call links to.

use crate::http::call::{ApiCall, Reply};
use crate::http::openapi::JournalHeaders;
use crate::ids::{AuditId, TypedId};
use crate::journal::AuditEntry;
use crate::ops::audit::GetAuditEntry;
use crate::ops::{Op, Services};
use axum::extract::{Path, State};

/// Read an audit entry.
///
/// The entry of the account's audit log that a journal call links to (`audit_url`). Needs
/// `chats:read`; works whether or not the assistant journal is on.
#[utoipa::path(
    get,
    path = "/api/v1/audit/{id}",
    operation_id = GetAuditEntry::SPEC.id,
    tag = "audit",
    params(
        ("id" = AuditId, Path, description = "The audit entry (`aud_…`)",
            example = "aud_01M72B2VP8E7KTHRJXJG7DJ13N"),
        JournalHeaders,
    ),
    responses(
        (status = "2XX", description = "The audit entry", body = AuditEntry),
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
    call.reply(&state, input).await
}
