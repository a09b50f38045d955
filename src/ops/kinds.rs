//! The journal operations' specs by kind, for the operations that differ only in their names:
//! a read (a tool's, or no tool's) and a change to the journal's own bookkeeping.

use crate::auth::Scope;
use crate::operation::{Effect, JournalUse, Spec};

/// A journal read, over REST and as the tool `tool`: the spec every one shares but its names.
pub(crate) const fn read(id: &'static str, tool: &'static str, title: &'static str) -> Spec {
    Spec {
        tool: Some(tool),
        ..toolless_read(id, title)
    }
}

/// A journal read that is no tool (REST, a resource or a hook reads it).
pub(crate) const fn toolless_read(id: &'static str, title: &'static str) -> Spec {
    Spec {
        id,
        tool: None,
        journal: JournalUse::Read,
        scopes: &[Scope::ChatsRead],
        needs_journal: true,
        creates: false,
        title,
        effect: Effect::Reads,
        errors: &[],
    }
}

/// A change to the journal's own bookkeeping rather than a read of it (a session ends, an item
/// closes or is dismissed). Idempotent: each happens once, and a repeat changes nothing (a 409
/// where it is refused).
pub(crate) const fn bookkeeping(id: &'static str, tool: &'static str, title: &'static str) -> Spec {
    Spec {
        id,
        tool: Some(tool),
        journal: JournalUse::Bookkeeping,
        scopes: &[Scope::ChatsRead],
        needs_journal: true,
        creates: false,
        title,
        effect: Effect::Writes { idempotent: true },
        errors: &[],
    }
}
