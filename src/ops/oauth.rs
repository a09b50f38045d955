//! The account's connected assistants (OAuth grants, see `crate::oauth`): listed on the
//! settings page and revoked from it. Pages only: an assistant does not manage its own grant.

use super::{Op, Operation, Services};
use crate::error::{Error, Result};
use crate::ids::{IdArg, KeyId};
use crate::oauth::connected::{self, GrantView};
use crate::operation::{Effect, JournalUse, Refusal, Spec};

/// Lists the account's live grants.
#[derive(Debug, Default, Clone)]
pub struct ListGrants;

impl Op for ListGrants {
    const SPEC: Spec = Spec {
        id: "listOAuthGrants",
        tool: None,
        journal: JournalUse::None,
        scopes: &[],
        needs_journal: false,
        creates: false,
        title: "List connected assistants",
        effect: Effect::Reads,
        errors: &[],
    };
    type Output = Vec<GrantView>;

    async fn run(self, op: &mut Operation, _: &Services) -> Result<Vec<GrantView>> {
        let list = connected::list(op.tx()).await?;
        op.results(list.iter().map(|g| g.id.clone()), Some(list.len()));
        Ok(list)
    }
}

/// Revokes one grant: its tokens are refused from the next request on.
#[derive(Debug, Clone)]
pub struct RevokeGrant {
    pub grant: IdArg<KeyId>,
}

impl Op for RevokeGrant {
    const SPEC: Spec = Spec {
        id: "revokeOAuthGrant",
        tool: None,
        journal: JournalUse::None,
        scopes: &[],
        needs_journal: false,
        creates: false,
        title: "Revoke a connected assistant",
        effect: Effect::Deletes,
        errors: &[Refusal::not_found("no connected assistant with this id")],
    };
    type Output = ();

    fn targets(&self) -> Vec<super::Target> {
        vec![super::target(&self.grant)]
    }

    async fn run(self, op: &mut Operation, services: &Services) -> Result<()> {
        let id = self.grant?;
        if !connected::revoke(op.tx(), id.0).await? {
            return Err(Error::NotFound(
                "no connected assistant with that id".into(),
            ));
        }
        // Before the commit, so a concurrent request re-reads it (and `n8v_begin` refuses it
        // anyway once committed).
        services.db.cache().forget_credential(id.0);
        op.wrote();
        Ok(())
    }
}
