//! `GET /api/v1/journal/catch-up`: the brief a new conversation starts with.

use crate::brief::{Answer, CatchUp};
use crate::http::ApiQuery;
use crate::http::call::handler;
use crate::http::openapi::JournalHeaders;
use crate::ops::Op;
use crate::ops::journal::ReadCatchUp;

handler! {
    /// Read the catch-up brief.
    ///
    /// Call it first in a new conversation: decisions, work started, work finished and questions
    /// waiting for you since a time or a previous session, the sessions they come from (`more`
    /// says when older ones were left out), and, with `records:read`, what was put on record
    /// meanwhile in each Record you can open, and, with `orgs:read`, what members did on the
    /// Records of organizations you own. Needs `chats:read`.
    #[utoipa::path(
        get,
        path = "/api/v1/journal/catch-up",
        operation_id = ReadCatchUp::SPEC.id,
        tag = "journal",
        params(ReadCatchUp, JournalHeaders),
        responses(
            (status = "2XX", description = "The catch-up brief", body = CatchUp),
        ),
        security(("bearer" = []))
    )]
    pub fn catch_up(input: ApiQuery<ReadCatchUp>) -> Answer
        = reply(input)
}
