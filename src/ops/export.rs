//! Exporting the journal: the operation checks and records the call; the export itself is read
//! afterwards, streamed from its own snapshot (see `render::export`), so the answer can be as
//! long as the journal without holding it in memory or the operation's transaction open.

mod slots;

pub use slots::{ExportSlot, ExportSlots};

use super::{Op, Operation, Services};
use crate::auth::Scope;
use crate::db::Tenant;
use crate::error::{Error, Result};
use crate::operation::{Effect, JournalUse, Refusal, Spec};
use crate::render::export::Format;

/// Exports the caller's whole visible journal.
#[derive(Debug, Default, Clone, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExportJournal {
    /// `ndjson` (the default: one JSON object a line) or `markdown` (one readable document).
    #[serde(default)]
    #[schemars(length(max = 8), regex(pattern = "^(ndjson|markdown)?$"), example = &"ndjson")]
    pub format: Option<String>,
}
crate::openapi_params!(ExportJournal);

/// What to stream, once the call is recorded: for whom, and how.
#[derive(Debug)]
pub struct ExportPlan {
    pub tenant: Tenant,
    pub format: Format,
    /// The operation's time: what open items' stale state and age are read at.
    pub now: chrono::DateTime<chrono::Utc>,
    /// The export's place among those streaming at once, held until its stream ends.
    pub slot: ExportSlot,
}

impl Op for ExportJournal {
    // No MCP tool: a whole journal does not fit in a tool result (see the README).
    const SPEC: Spec = Spec {
        id: "exportJournal",
        tool: None,
        journal: JournalUse::Read,
        scopes: &[Scope::ChatsRead],
        needs_journal: true,
        creates: false,
        title: "Export the journal",
        effect: Effect::Reads,
        errors: &[
            Refusal::bad_request("a `format` other than `ndjson` or `markdown`"),
            Refusal::unavailable(
                "busy",
                "the server streams as many exports as it runs at once",
            ),
            Refusal::unavailable(
                "database-unavailable",
                "the database is briefly unavailable",
            ),
        ],
    };
    type Output = ExportPlan;

    async fn run(self, op: &mut Operation, services: &Services) -> Result<ExportPlan> {
        let format = Format::parse(self.format.as_deref()).map_err(Error::BadRequest)?;
        // Before the call is recorded as done: a refused export is recorded as refused.
        let slot = services.exports.take(op.tenant().account_id)?;
        Ok(ExportPlan {
            tenant: op.tenant().clone(),
            format,
            now: op.now(),
            slot,
        })
    }
}
