//! Open loops' operations: list the items sessions handed on, close one, dismiss a member's.
//! (`session_end` closes items too, with its `resolved` list: see [`item_ids`].) Over MCP they
//! are `journal_loops`, `journal_loop_close` and `journal_loop_dismiss`, which the catch-up's
//! view calls through its host. All need `chats:read` and the
//! `assistantJournal` flag; see `loops` for what an item is.

use super::kinds::{bookkeeping, read};
use super::{Op, Operation, Services, Target, limit, named, target_of};
use crate::error::{Error, Result};
use crate::ids::{ItemId, TypedId};
use crate::loops::{self, Closing, Loop, LoopCursor, MAX_LOOPS_PAGE, MAX_RESOLVED, StateFilter};
use crate::operation::{Refusal, Spec};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// Lists the items the caller can read: its own first, then organization members', each newest
/// first.
#[derive(Debug, Default, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListLoops {
    /// `open` (the default: items not closed, `stale` ones included), `closed` (`done`,
    /// `answered`, `dropped`) or `all`.
    #[serde(default)]
    #[schemars(length(max = 6), regex(pattern = "^(open|closed|all)$"), example = &"open")]
    pub state: Option<String>,
    /// How many items to return, from 1 to 100 (default 20).
    #[serde(default)]
    #[schemars(range(min = 1, max = MAX_LOOPS_PAGE))]
    pub limit: Option<i64>,
    /// The `next_cursor` of the previous page.
    #[serde(default)]
    #[schemars(length(max = crate::cursor::MAX_CHARS))]
    pub cursor: Option<String>,
}
crate::openapi_params!(ListLoops);

/// A page of open loops, newest first.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct LoopList {
    /// The items: the reader's own first, then those organization members wrote (`own: false`),
    /// each newest first (items opened together in the order they were stated).
    pub loops: Vec<Loop>,
    /// Pass it as `cursor` for the next page; absent on the last page.
    pub next_cursor: Option<String>,
}

impl Op for ListLoops {
    const SPEC: Spec = Spec {
        errors: &[
            Refusal::bad_request("a `state` other than open, closed or all"),
            Refusal::bad_request("a bad `limit` or `cursor`"),
        ],
        ..read("listLoops", "journal_loops", "List open loops")
    };
    type Output = LoopList;

    async fn run(self, op: &mut Operation, _: &Services) -> Result<LoopList> {
        let filter = StateFilter::parse(self.state.as_deref()).map_err(Error::BadRequest)?;
        let limit = limit(self.limit, 20, MAX_LOOPS_PAGE)?;
        let cursor = super::cursor_given(&self.cursor)
            .map(LoopCursor::decode)
            .transpose()
            .map_err(Error::BadRequest)?;
        let now = op.now();
        let mut page = loops::list(op.tx(), filter, limit, cursor, now).await?;
        let ids: Vec<ItemId> = page.items.iter().map(|l| l.id).collect();
        let mut given = crate::journal::receipts::given(op.tx(), &ids).await?;
        for item in &mut page.items {
            item.given_to = given.remove(&item.id).unwrap_or_default();
        }
        op.results(
            page.items.iter().map(|l| l.id.to_string()),
            Some(page.items.len()),
        );
        Ok(LoopList {
            loops: page.items,
            next_cursor: page.next_cursor,
        })
    }
}

/// Closes one item as `done`, `answered` or `dropped`, in the session the call is recorded in.
#[derive(Debug, Default, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(example = json!({"state": "answered"}))]
pub struct CloseLoop {
    /// The item to close (REST's path; MCP's `item` argument).
    #[serde(skip)]
    pub item: String,
    /// `done` (a next step that was done), `answered` (a question that was answered) or
    /// `dropped` (no longer worth doing or asking).
    #[schemars(length(max = 8), regex(pattern = "^(done|answered|dropped)$"))]
    pub state: String,
}
crate::openapi_schema!(CloseLoop => "CloseRequest");

impl Op for CloseLoop {
    // An item closes once; closing it again is a 409 that changes nothing.

    const SPEC: Spec = Spec {
        errors: &[
            Refusal::bad_request("a `state` other than done, answered or dropped"),
            Refusal::not_found("no item with this id that this credential may close"),
            Refusal::conflict("the item is closed already"),
        ],
        ..bookkeeping("closeLoop", "journal_loop_close", "Close an open loop")
    };
    type Output = Loop;

    fn targets(&self) -> Vec<Target> {
        vec![target_of::<ItemId>(&self.item)]
    }

    async fn run(self, op: &mut Operation, _: &Services) -> Result<Loop> {
        let id = named(&self.item)?;
        let closing = Closing::parse(&self.state).map_err(Error::BadRequest)?;
        // The session first, then the item: the order a deletion of sessions locks them in.
        let session = op.held_session().await?;
        let now = op.now();
        let closed = loops::close(op.tx(), id, closing, session, now).await?;
        op.results([closed.id.to_string()], None);
        op.wrote();
        Ok(closed)
    }
}

/// Dismisses an organization member's item from the caller's own view (the member's item is
/// untouched; see `loops::dismissal`).
#[derive(Debug, Default, Clone)]
pub struct DismissLoop {
    pub item: String,
}

impl Op for DismissLoop {
    // It changes the reader's view of the journal, as closing an item does; dismissing again
    // changes nothing.

    const SPEC: Spec = Spec {
        errors: &[
            Refusal::not_found("no item with this id is visible to this credential"),
            Refusal::conflict("the item is your own account's (close it instead)"),
        ],
        ..bookkeeping(
            "dismissLoop",
            "journal_loop_dismiss",
            "Dismiss a member's open loop",
        )
    };
    type Output = Loop;

    fn targets(&self) -> Vec<Target> {
        vec![target_of::<ItemId>(&self.item)]
    }

    async fn run(self, op: &mut Operation, _: &Services) -> Result<Loop> {
        let id = named(&self.item)?;
        let now = op.now();
        let dismissed = loops::dismissal::dismiss(op.tx(), id, now).await?;
        op.results([dismissed.id.to_string()], None);
        op.wrote();
        Ok(dismissed)
    }
}

/// A list of item ids named `name` (`session_end`'s `resolved` and `replaces`): at most
/// [`MAX_RESOLVED`]; anything else is a 400 naming the entry.
pub(crate) fn item_ids(name: &str, ids: Option<&[String]>) -> Result<Vec<ItemId>> {
    let ids = ids.unwrap_or_default();
    if ids.len() > MAX_RESOLVED {
        return Err(Error::BadRequest(format!(
            "{name} holds {} ids; give at most {MAX_RESOLVED}",
            ids.len()
        )));
    }
    ids.iter()
        .enumerate()
        .map(|(i, text)| {
            ItemId::parse(text).ok_or_else(|| {
                Error::BadRequest(format!(
                    "{name}[{i}] {:?} is not an item id (itm_…)",
                    crate::ids::shown(text)
                ))
            })
        })
        .collect()
}
