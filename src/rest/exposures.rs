//! Scrubbed-secret warnings over REST: list the exposures, acknowledge one.

use crate::http::ApiQuery;
use crate::http::call::handler;
use crate::http::openapi::JournalHeaders;
use crate::ids::{ExposureId, TypedId};
use crate::journal::exposures::Exposure;
use crate::ops::Op;
use crate::ops::exposures::{AcknowledgeExposure, ExposureList, ListExposures};
use axum::extract::Path;

handler! {
    /// List scrubbed credentials.
    ///
    /// Every credential the scrubber removed from a purpose, goal, outcome, hand-off item or target
    /// id, as an exposure: the rule that found it (`github-pat`, …), in how many texts of each kind,
    /// first and last seen, the sessions, and a warning in words. Never the credential or any part
    /// of it. Counted over the sessions this credential can read; an organization's owner does not
    /// see its members' exposures. Most recently scrubbed first, at most 100. Needs `chats:read`.
    #[utoipa::path(
        get,
        path = "/api/v1/journal/exposures",
        operation_id = ListExposures::SPEC.id,
        tag = "journal",
        params(ListExposures, JournalHeaders),
        responses(
            (status = "2XX", description = "The exposures, most recently scrubbed first",
                body = ExposureList),
        ),
        security(("bearer" = []))
    )]
    pub fn list(input: ApiQuery<ListExposures>) -> ExposureList
        = reply(input)
}

handler! {
    /// Acknowledge a scrubbed credential.
    ///
    /// Say the credential is rotated: the catch-up brief, `/journal.md` and the journal page stop
    /// warning of it, until it is scrubbed again. For the sightings this credential reads: a key
    /// restricted to a repository acknowledges what it saw in its own sessions, and the account's
    /// other keys are still warned of what they saw elsewhere. Needs `chats:read`.
    #[utoipa::path(
        post,
        path = "/api/v1/journal/exposures/{id}/acknowledge",
        operation_id = AcknowledgeExposure::SPEC.id,
        tag = "journal",
        params(
            ("id" = ExposureId, Path, description = "The exposure (`exp_…`)",
                example = "exp_01M72AZ1M0ETFB59TDWH9EDD1R"),
            JournalHeaders,
        ),
        responses(
            (status = "2XX", description = "The exposure, acknowledged", body = Exposure),
        ),
        security(("bearer" = []))
    )]
    pub fn acknowledge(id: Path<String>) -> Exposure
        = reply(AcknowledgeExposure { exposure: ExposureId::arg(&id) })
}
