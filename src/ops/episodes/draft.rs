//! A settled part's draft, made after the post's transaction committed: the model is called
//! with nothing held, and the draft replaces code's entry in a short transaction of its own,
//! only if the part still holds the turns it was drafted from (a later post that rewrote the
//! part wins). Code's entry, written by the post, stands when the model fails or the process
//! stops first; what a failed call was billed is in the month's ledger.

use crate::config::Config;
use crate::db::{Db, Tenant, TenantTx};
use crate::ids::SessionId;
use crate::journal::episodes;
use crate::summaries::{MonthlyBudget, set_on_session};
use crate::summarize::{self, ConversationPart, ConversationTurn, InForce, Provider};
use chrono::{DateTime, Utc};
use std::sync::Arc;

/// Why a settled part's entry is code's until its draft is stored.
pub const DRAFTING: &str = "the model's draft of this part was not stored";

/// Everything one part's draft needs, owned: it runs after the operation is gone.
pub struct Draft {
    pub db: Db,
    pub config: Arc<Config>,
    pub tenant: Tenant,
    pub model: Arc<dyn Provider>,
    pub now: DateTime<Utc>,
    pub session: SessionId,
    pub digest: Vec<u8>,
    pub about: String,
    pub in_force: Vec<InForce>,
    pub turns: Arc<[ConversationTurn]>,
    pub part: ConversationPart,
    /// The part's index and how many parts the conversation has.
    pub which: (usize, usize),
}

impl Draft {
    /// Drafts the part and stores the draft; a database failure leaves code's entry, said at
    /// warn.
    pub async fn run(self) {
        if let Err(e) = self.draft_and_store().await {
            tracing::warn!(session = %self.session, error = %e, "an episode part's draft was not stored; code's entry stands");
        }
    }

    async fn draft_and_store(&self) -> crate::error::Result<()> {
        let config = &self.config.summaries;
        let account = self.tenant.account_id;
        let budget = MonthlyBudget::of(&self.db, config, account, self.now);
        let limits = budget.limits(config);
        let outcome = summarize::conversation_entry(
            Some(self.model.as_ref()),
            &limits,
            &self.about,
            &self.in_force,
            &self.turns,
            &self.part,
            self.which,
        )
        .await;
        let mut tx = TenantTx::begin(&self.db, &self.tenant).await?;
        if !episodes::holds(&mut tx, self.session, &self.digest).await? {
            return Ok(()); // rewritten since by a later post, which drafts it again
        }
        let note = outcome.fallback.as_deref();
        set_on_session(&mut tx, self.session.0, &outcome, note, None).await?;
        tx.commit().await?;
        Ok(())
    }
}
