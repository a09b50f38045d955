//! Reading the audit entry a journal call links to.

use super::{Op, Operation, Services, Target, target};
use crate::auth::Scope;
use crate::error::Result;
use crate::ids::{AuditId, IdArg};
use crate::journal::{AuditEntry, reads};
use crate::operation::{Effect, JournalUse, Refusal, Spec};

/// Reads one entry of the account's audit log. Works whether or not the journal is on.
#[derive(Debug, Clone)]
pub struct GetAuditEntry {
    pub audit: IdArg<AuditId>,
}

impl Op for GetAuditEntry {
    const SPEC: Spec = Spec {
        id: "getAuditEntry",
        tool: None,
        journal: JournalUse::None,
        scopes: &[Scope::ChatsRead],
        needs_journal: false,
        creates: false,
        title: "Read an audit entry",
        effect: Effect::Reads,
        errors: &[Refusal::not_found(
            "no audit entry with this id is visible to this credential",
        )],
    };
    type Output = AuditEntry;

    fn targets(&self) -> Vec<Target> {
        vec![target(&self.audit)]
    }

    async fn run(self, op: &mut Operation, _: &Services) -> Result<AuditEntry> {
        let entry = reads::audit(op.tx(), self.audit?).await?;
        op.results([entry.id.to_string()], None);
        Ok(entry)
    }
}
