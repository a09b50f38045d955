//! `GET /api/v1/audit/{id}`: the audit entry a journal call links to.

use crate::http::call::handler;
use crate::http::openapi::JournalHeaders;
use crate::ids::{AuditId, TypedId};
use crate::journal::AuditEntry;
use crate::ops::Op;
use crate::ops::audit::GetAuditEntry;
use axum::extract::Path;

handler! {
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
    pub fn audit(id: Path<String>) -> AuditEntry
        = reply(GetAuditEntry { audit: AuditId::arg(&id) })
}
