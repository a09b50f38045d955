//! Decisions' operation: replace one by a later one, outside a session's end (which replaces
//! with its `replaces` list, and marked text with `Replaces itm_…:`). Needs `chats:read` and
//! the `assistantJournal` flag; see `loops::replacing` for who may replace what.

use super::{Op, Operation, Services, Target, named, target_of};
use crate::auth::Scope;
use crate::error::{Error, Result};
use crate::ids::{ItemId, TypedId};
use crate::loops::{self, Loop};
use crate::operation::{Effect, JournalUse, Refusal, Spec};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// Replaces one decision by a later, current one, in the session the call is recorded in.
#[derive(Debug, Default, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(example = json!({"by": "itm_01M72B6Q00EDV8XKQ3RN1Z3H6A"}))]
pub struct ReplaceDecision {
    /// The decision replaced (the path's).
    #[serde(skip)]
    pub item: String,
    /// The decision that replaces it (`itm_…`): a current decision this credential can read.
    #[schemars(length(max = 64), with = "ItemId")]
    pub by: String,
}
crate::openapi_schema!(ReplaceDecision => "ReplaceRequest");

impl Op for ReplaceDecision {
    const SPEC: Spec = Spec {
        id: "replaceDecision",
        tool: None,
        // It changes the journal rather than reading it, as closing an item does.
        journal: JournalUse::Bookkeeping,
        scopes: &[Scope::ChatsRead],
        needs_journal: true,
        creates: false,
        title: "Replace a decision by a later one",
        // Idempotent: a decision is replaced once; replacing it again is a 409 that changes
        // nothing.
        effect: Effect::Writes { idempotent: true },
        errors: &[
            Refusal::bad_request("a `by` that is no item id"),
            Refusal::not_found(
                "no decision with this id (or `by`'s) that this credential may replace",
            ),
            Refusal::conflict("the decision is replaced already"),
            Refusal::conflict("`by` was replaced itself or names this decision"),
        ],
    };
    type Output = Loop;

    fn targets(&self) -> Vec<Target> {
        vec![
            target_of::<ItemId>(&self.item),
            target_of::<ItemId>(&self.by),
        ]
    }

    async fn run(self, op: &mut Operation, _: &Services) -> Result<Loop> {
        let id = named(&self.item)?;
        let by = ItemId::parse(self.by.trim()).ok_or_else(|| {
            Error::BadRequest(format!(
                "by {:?} is not an item id (itm_…): name the decision that replaces this one",
                crate::ids::shown(&self.by)
            ))
        })?;
        // The session first, then the items: the order a deletion of sessions locks them in.
        let session = op.held_session().await?;
        let now = op.now();
        let replaced = loops::replacing::replace_one(op.tx(), id, by, session, now).await?;
        op.results([replaced.id.to_string(), by.to_string()], None);
        op.wrote();
        Ok(replaced)
    }
}
