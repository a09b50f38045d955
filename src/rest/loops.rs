//! Open loops over REST: `GET /api/v1/journal/loops` and `POST /api/v1/journal/loops/{id}/close`.

use crate::http::call::handler;
use crate::http::openapi::JournalHeaders;
use crate::http::{ApiJson, ApiQuery};
use crate::ids::ItemId;
use crate::loops::Loop;
use crate::ops::Op;
use crate::ops::loops::{CloseLoop, DismissLoop, ListLoops, LoopList};
use axum::extract::Path;

handler! {
    /// List open loops.
    ///
    /// The open questions and next steps sessions handed on, as items (`itm_…`) with their state:
    /// your own first, then those members of organizations you own wrote (`own: false`, with
    /// `written_by`), each newest first.
    /// `open`, `stale` once open for 90 days, or closed as `done`, `answered` or `dropped` (with
    /// the closing session and time). Items opened together keep the order they were stated in;
    /// a member's item you dismissed is not listed. An item is opened when its session closes, from what its assistant stated at
    /// `session_end` and what its text marks; a later statement of an open item's text does not
    /// open a second one. Needs `chats:read`; an item is visible exactly when the session that
    /// opened it is (as in the session list).
    #[utoipa::path(
        get,
        path = "/api/v1/journal/loops",
        operation_id = ListLoops::SPEC.id,
        tag = "journal",
        params(ListLoops, JournalHeaders),
        responses(
            (status = "2XX", description = "A page of items, newest first", body = LoopList),
        ),
        security(("bearer" = []))
    )]
    pub fn list(input: ApiQuery<ListLoops>) -> LoopList
        = reply(input)
}

handler! {
    /// Close an open loop.
    ///
    /// Closes one item as `done`, `answered` or `dropped`, in the session this call is recorded in
    /// (`X-Session-Id`, or the session it joins): the brief and `/journal.md` stop carrying it.
    /// A `stale` item can be closed too. Needs `chats:read`; only items of your own account that
    /// this credential can read (an organization's owner reads its members' items but does not
    /// close them). `session_end` closes items too, with its `resolved` list.
    #[utoipa::path(
        post,
        path = "/api/v1/journal/loops/{id}/close",
        operation_id = CloseLoop::SPEC.id,
        tag = "journal",
        params(
            ("id" = ItemId, Path, description = "The item to close (`itm_…`)",
                example = "itm_01M72B6Q00EDV8XKQ3RN1Z3H6A"),
            JournalHeaders,
        ),
        request_body(content = CloseLoop, content_type = "application/json",
            description = "How it ends"),
        responses(
            (status = "2XX", description = "The item, closed", body = Loop),
        ),
        security(("bearer" = []))
    )]
    pub fn close(id: Path<String>, body: ApiJson<CloseLoop>) -> Loop
        = reply_body(CloseLoop { item: id, ..body })
}

handler! {
    /// Dismiss an organization member's item.
    ///
    /// Takes an item an organization member wrote (`own: false`) out of your own view: the list,
    /// the catch-up brief, `/journal.md`, the journal page and the export stop showing it to your
    /// account. The member's item itself is untouched (it stays open for the member, who closes
    /// it). Dismissing it again changes nothing. Your own items are closed, not dismissed. Needs
    /// `chats:read`.
    #[utoipa::path(
        post,
        path = "/api/v1/journal/loops/{id}/dismiss",
        operation_id = DismissLoop::SPEC.id,
        tag = "journal",
        params(
            ("id" = ItemId, Path, description = "The member's item to dismiss (`itm_…`)",
                example = "itm_01M72B6Q00EDV8XKQ3RN1Z3H6A"),
            JournalHeaders,
        ),
        responses(
            (status = "2XX", description = "The item, as it stands for its author; no longer shown \
                to your account", body = Loop),
        ),
        security(("bearer" = []))
    )]
    pub fn dismiss(id: Path<String>) -> Loop
        = reply(DismissLoop { item: id })
}
