//! The person's say over withheld items (issue 53): list them, release one, delete one. Only
//! the journal pages run these, in the signed-in session's forms (with their CSRF token): no
//! REST route and no MCP tool reaches them, and releasing or deleting needs `chats:release`,
//! which OAuth grants never carry. See `loops::withheld`.

use super::kinds::toolless_read;
use super::{Op, Operation, Services, Target, named, target_of};
use crate::auth::Scope;
use crate::error::Result;
use crate::ids::ItemId;
use crate::loops::{Loop, withheld};
use crate::operation::{Effect, JournalUse, Refusal, Spec};

/// The account's own open items the rules withhold from every hand-off, newest first.
#[derive(Debug, Default, Clone)]
pub struct ListWithheld;

impl Op for ListWithheld {
    const SPEC: Spec = toolless_read("listWithheldItems", "List withheld items");
    type Output = Vec<Loop>;

    async fn run(self, op: &mut Operation, _: &Services) -> Result<Vec<Loop>> {
        let now = op.now();
        let items = withheld::list(op.tx(), now).await?;
        op.results(items.iter().map(|i| i.id.to_string()), Some(items.len()));
        Ok(items)
    }
}

/// The person's spec: `chats:release` beside `chats:read`, no tool.
const fn persons(id: &'static str, title: &'static str, effect: Effect) -> Spec {
    Spec {
        id,
        tool: None,
        journal: JournalUse::Bookkeeping,
        scopes: &[Scope::ChatsRead, Scope::ChatsRelease],
        needs_journal: true,
        creates: false,
        title,
        effect,
        errors: PERSONS_REFUSALS,
    }
}

const PERSONS_REFUSALS: &[Refusal] = &[
    Refusal::not_found("no item of this account with this id"),
    Refusal::conflict("the rules do not withhold the item"),
];

/// Releases a withheld item: it is handed over again, as written, marked released by the
/// person. Releasing it again records nothing more.
#[derive(Debug, Default, Clone)]
pub struct ReleaseItem {
    pub item: String,
}

impl Op for ReleaseItem {
    const SPEC: Spec = persons(
        "releaseItem",
        "Release a withheld item",
        Effect::Writes { idempotent: true },
    );
    type Output = Loop;

    fn targets(&self) -> Vec<Target> {
        vec![target_of::<ItemId>(&self.item)]
    }

    async fn run(self, op: &mut Operation, _: &Services) -> Result<Loop> {
        let now = op.now();
        let item = withheld::release(op.tx(), named(&self.item)?, now).await?;
        op.results([item.id.to_string()], None);
        op.wrote();
        Ok(item)
    }
}

/// Deletes a withheld item for good.
#[derive(Debug, Default, Clone)]
pub struct DeleteItem {
    pub item: String,
}

impl Op for DeleteItem {
    const SPEC: Spec = persons("deleteItem", "Delete a withheld item", Effect::Deletes);
    type Output = Loop;

    fn targets(&self) -> Vec<Target> {
        vec![target_of::<ItemId>(&self.item)]
    }

    async fn run(self, op: &mut Operation, _: &Services) -> Result<Loop> {
        let now = op.now();
        let item = withheld::delete(op.tx(), named(&self.item)?, now).await?;
        op.results([item.id.to_string()], None);
        op.wrote();
        Ok(item)
    }
}
