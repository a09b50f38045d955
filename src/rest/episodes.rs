//! `POST /api/v1/journal/episodes`: a conversation in (again as it grows), its entries out;
//! `GET` the same path: the conversations whose last post was not settled.

use crate::http::call::handler;
use crate::http::openapi::JournalHeaders;
use crate::http::{ApiJson, ApiQuery};
use crate::ops::Op;
use crate::ops::episodes::{EpisodePosted, ListOpenEpisodes, OpenEpisodes, PostEpisode};

handler! {
    /// Post a conversation.
    ///
    /// A harness posts a conversation held outside the API, again as it grows (a per-turn hook, a
    /// resumed conversation); each ~30,000-character part becomes one journal entry (a session of
    /// kind `episode`, labelled with the harness and project). The split is stable: turns added at
    /// the end change only the last part and add new ones. A part whose turns are the same as last
    /// time changes nothing and calls no model; a changed part is rewritten. The summary model
    /// drafts a part once the conversation settled: `ended` is true, its `ended_at` is
    /// `N8V_EPISODE_SETTLE_MINUTES` (default 30) old, or the setting is 0. Until then its entry is
    /// written by code and reads as an open session. Code's entry (also without a model or
    /// budget) quotes the part's first request and last reply, cut short, and its hand-off holds
    /// the `Decided:`, `Open question:`, `TODO:` … lines of the turns, scrubbed. The prose is never
    /// stored: tool calls and output, reasoning and private turns are dropped unread, credentials
    /// are scrubbed before a model sees the rest, and only the entries are kept. Idempotent by
    /// episode id, part and turns for the posting key (and the tokens minted from it); another key
    /// of the account posting the same id makes its own entries. A conversation without an
    /// assistant reply makes no entry and costs nothing. Needs `chats:read`.
    #[utoipa::path(
        post,
        path = "/api/v1/journal/episodes",
        operation_id = PostEpisode::SPEC.id,
        tag = "journal",
        params(JournalHeaders),
        request_body(content = PostEpisode, content_type = "application/json",
            description = "The conversation so far"),
        responses(
            (status = "2XX", description = "The episode's entries (`created: false` for parts an \
                earlier post made, `updated` for those this post rewrote, `open` for those waiting \
                for the conversation to settle)", body = EpisodePosted),
        ),
        security(("bearer" = []))
    )]
    pub fn post(input: ApiJson<PostEpisode>) -> EpisodePosted
        = reply_body(input)
}

handler! {
    /// List the conversations waiting to be drafted.
    ///
    /// The episodes this key (and the tokens minted from it) posted whose last post found the
    /// conversation unsettled: their entries are still written by code and read as open
    /// sessions. A harness that can no longer tell the service the conversation ended (Codex has
    /// no end hook; an end hook can be killed) posts just these again with `ended: true`, and
    /// sends no other conversation's prose (`n8v-journal hook flush`). The most recent last turn
    /// first, at most 200. Needs `chats:read`.
    #[utoipa::path(
        get,
        path = "/api/v1/journal/episodes",
        operation_id = ListOpenEpisodes::SPEC.id,
        tag = "journal",
        params(ListOpenEpisodes, JournalHeaders),
        responses(
            (status = "2XX", description = "The open episodes, the most recent first",
                body = OpenEpisodes),
        ),
        security(("bearer" = []))
    )]
    pub fn open(input: ApiQuery<ListOpenEpisodes>) -> OpenEpisodes
        = reply(input)
}
