//! Decisions over REST: `POST /api/v1/journal/decisions/{id}/replace`.

use crate::http::ApiJson;
use crate::http::call::handler;
use crate::http::openapi::JournalHeaders;
use crate::ids::ItemId;
use crate::loops::Loop;
use crate::ops::Op;
use crate::ops::decisions::ReplaceDecision;
use axum::extract::Path;

handler! {
    /// Replace a decision.
    ///
    /// Says that a later decision (`by`) replaces this one, in the session the call is recorded
    /// in (`X-Session-Id`, or the session it joins): the catch-up brief, `/journal.md` and the
    /// resources stop presenting it as current and show it once, under the decision that replaced
    /// it. Both are decisions as the brief lists them (`id` on each). Needs `chats:read`; only a
    /// decision of your own account that this credential can read is replaced (an organization's
    /// owner reads its members' decisions but does not replace them). `session_end` replaces too,
    /// with its `replaces` list, and so does a line marked `Replaces itm_…:`.
    #[utoipa::path(
        post,
        path = "/api/v1/journal/decisions/{id}/replace",
        operation_id = ReplaceDecision::SPEC.id,
        tag = "journal",
        params(
            ("id" = ItemId, Path, description = "The decision replaced (`itm_…`)",
                example = "itm_01M72B6Q00EDV8XKQ3RN1Z3H6A"),
            JournalHeaders,
        ),
        request_body(content = ReplaceDecision, content_type = "application/json",
            description = "The decision that replaces it"),
        responses(
            (status = "2XX", description = "The decision, replaced (`state: replaced`, \
                `replaced_by`)", body = Loop),
        ),
        security(("bearer" = []))
    )]
    pub fn replace(id: Path<String>, body: ApiJson<ReplaceDecision>) -> Loop
        = reply_body(ReplaceDecision { item: id, ..body })
}
