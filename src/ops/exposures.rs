//! Scrubbed-secret warnings: list the credentials the scrubber removed from the journal's text,
//! and acknowledge one once it is rotated (see `journal::exposures`). Not MCP tools: the brief
//! (`journal_catch_up`) carries the unacknowledged ones for the assistant to pass on, and
//! acknowledging says a person rotated the credential, which an assistant cannot know.

use super::{Op, Operation, Services, Target, target};
use crate::auth::Scope;
use crate::error::Result;
use crate::ids::{ExposureId, IdArg};
use crate::journal::exposures::{self, Exposure, Listing, MAX_EXPOSURES};
use crate::operation::{Effect, JournalUse, Refusal, Spec};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Lists the caller's exposures, most recently scrubbed first.
#[derive(Debug, Default, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListExposures {
    /// `true`: only those not acknowledged since they were last scrubbed (what the catch-up
    /// brief carries).
    #[serde(default)]
    #[schemars(example = true)]
    pub unacknowledged: Option<bool>,
}
crate::openapi_params!(ListExposures);

/// The credentials scrubbed from the journal's text, most recently scrubbed first.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ExposureList {
    /// At most 100, most recently scrubbed first.
    pub exposures: Vec<Exposure>,
}

impl Op for ListExposures {
    const SPEC: Spec = Spec {
        id: "listExposures",
        tool: None,
        journal: JournalUse::Read,
        scopes: &[Scope::ChatsRead],
        needs_journal: true,
        creates: false,
        title: "List scrubbed credentials",
        effect: Effect::Reads,
        errors: &[Refusal::bad_request("a bad `unacknowledged`")],
    };
    type Output = ExposureList;

    async fn run(self, op: &mut Operation, _: &Services) -> Result<ExposureList> {
        let listing = Listing {
            unacknowledged_only: self.unacknowledged == Some(true),
            id: None,
            limit: MAX_EXPOSURES,
        };
        let now = op.now();
        let exposures = exposures::list(op.tx(), listing, now).await?;
        op.results(
            exposures.iter().map(|e| e.id.to_string()),
            Some(exposures.len()),
        );
        Ok(ExposureList { exposures })
    }
}

/// Acknowledges one exposure: the credential is rotated, so the brief, `/journal.md` and the
/// journal page stop warning of it until it is scrubbed again.
#[derive(Debug, Clone)]
pub struct AcknowledgeExposure {
    pub exposure: IdArg<ExposureId>,
}

impl Op for AcknowledgeExposure {
    const SPEC: Spec = Spec {
        id: "acknowledgeExposure",
        tool: None,
        journal: JournalUse::Bookkeeping,
        scopes: &[Scope::ChatsRead],
        needs_journal: true,
        creates: false,
        title: "Acknowledge a rotated credential",
        // Idempotent: acknowledging again leaves the exposure acknowledged as it was.
        effect: Effect::Writes { idempotent: true },
        errors: &[Refusal::not_found(
            "no exposure with this id is visible to this credential",
        )],
    };
    type Output = Exposure;

    fn targets(&self) -> Vec<Target> {
        vec![target(&self.exposure)]
    }

    async fn run(self, op: &mut Operation, _: &Services) -> Result<Exposure> {
        let id = self.exposure?;
        // The call's session first, then the exposure: the order a deletion of sessions locks
        // them in (the call's own row would otherwise lock its session after the exposure).
        op.held_session().await?;
        let now = op.now();
        exposures::acknowledge(op.tx(), id, now).await?;
        let listing = Listing {
            unacknowledged_only: false,
            id: Some(id),
            limit: 1,
        };
        let exposure = exposures::list(op.tx(), listing, now).await?.pop();
        // Acknowledged above, so visible: one row.
        let exposure = exposure.ok_or_else(|| {
            crate::error::Error::Internal(anyhow::anyhow!("exposure {id} vanished"))
        })?;
        op.results([exposure.id.to_string()], None);
        op.wrote();
        Ok(exposure)
    }
}
