//! The journal's two hand-over reads: the catch-up brief and the markdown window. Each keeps
//! its receipt (`Operation::handed_over`): which items it handed over, and how many characters.

use super::bad;
use crate::auth::Scope;
use crate::brief::{self, Answer};
use crate::error::{Error, Result};
use crate::handover::provenance::{TIER_PATTERN, Tier};
use crate::ids::{ItemId, SessionId};
use crate::journal::exposures;
use crate::journal::meta::SINCE_PATTERN;
use crate::operation::Operation;
use crate::operation::{Refusal, Spec};
use crate::ops::kinds::{read, toolless_read};
use crate::ops::{Op, Services};
use crate::render::window;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The window of the catch-up brief.
#[derive(Debug, Default, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadCatchUp {
    /// Start of the window: an RFC 3339 time (`2026-11-10T09:00:00Z`) or a previous session id
    /// (`ses_…`; then: since that session started). Default: the last 7 days.
    #[serde(default)]
    #[schemars(
        length(max = 40),
        regex(pattern = SINCE_PATTERN),
        example = &"2026-11-10T09:00:00Z"
    )]
    pub since: Option<String>,
    /// Only the items at or above this tier, highest first: `person` (released by the person),
    /// `this_credential`, `other_credential`, `organization`, `derived` (a summary's reading).
    /// Default: every tier, each item marked with its own (`tier`).
    #[serde(default)]
    #[schemars(
        length(max = 16),
        regex(pattern = TIER_PATTERN),
        example = &"other_credential"
    )]
    pub min_tier: Option<String>,
}
crate::openapi_params!(ReadCatchUp);

/// A `min_tier` as given: `None` when absent, else the tier or the 400 naming the known ones.
fn min_tier(given: Option<&str>) -> Result<Option<Tier>> {
    given
        .map(|t| Tier::parse(t).ok_or_else(|| Tier::unknown(t)))
        .transpose()
}

impl Op for ReadCatchUp {
    const SPEC: Spec = Spec {
        errors: &[
            Refusal::bad_request("a `since` that is neither an RFC 3339 time nor a session id"),
            Refusal::not_found("the `since` session is not visible to this credential"),
            Refusal::bad_request("a `min_tier` that is no tier"),
        ],
        ..read("getCatchUp", "journal_catch_up", "Catch up on the journal")
    };
    type Output = Answer;

    async fn run(self, op: &mut Operation, _: &Services) -> Result<Answer> {
        let now = op.now();
        let min_tier = min_tier(self.min_tier.as_deref())?;
        let since = brief::resolve_since(op.tx(), self.since.as_deref(), now).await?;
        // Records only with records:read: what was put on record is read as the caller.
        let with_records = op.tenant().scopes.contains(Scope::RecordsRead);
        let mut brief = brief::catch_up(op.tx(), since, with_records, min_tier, now).await?;
        brief.exposures = exposures::list(op.tx(), exposures::UNACKNOWLEDGED, now).await?;
        op.results(
            brief.sessions.iter().map(|s| s.id.to_string()),
            Some(brief.sessions.len()),
        );
        let items = brief.item_ids();
        let answer = Answer::new(brief).map_err(|e| Error::Internal(e.into()))?;
        op.handed_over(
            items.iter().map(ItemId::to_string),
            answer.json().chars().count(),
        );
        Ok(answer)
    }
}

/// The recent journal as markdown, for session-start hooks (`GET /journal.md`'s query, and
/// the MCP resource's defaults).
#[derive(Debug, Default, Clone, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ReadMarkdown {
    /// The most characters to answer with: 1,000 to 400,000 (default `N8V_JOURNAL_MD_MAX_CHARS`,
    /// 9,500).
    #[param(minimum = 1000, maximum = 400000, example = 9500)]
    pub max_chars: Option<usize>,
    /// Only the lines at or above this tier (`person`, `this_credential`, `other_credential`,
    /// `organization`, `derived`, highest first). Default: every tier, each line marked with
    /// its own (`[you]`, `[this key]`, `[other key]`, `[org member]`, `[derived]`).
    #[param(pattern = r"^(person|this_credential|other_credential|organization|derived)$")]
    pub min_tier: Option<String>,
}
// The attribute above takes literals only: they are the window's bounds.
const _: () = assert!(window::MIN_CHARS == 1000 && window::MAX_CHARS == 400_000);

impl Op for ReadMarkdown {
    const SPEC: Spec = Spec {
        errors: &[Refusal::bad_request(
            "`max_chars` out of range, or a `min_tier` that is no tier",
        )],
        ..toolless_read("getJournalMarkdown", "Read the recent journal")
    };
    type Output = String;

    async fn run(self, op: &mut Operation, services: &Services) -> Result<String> {
        let max = self
            .max_chars
            .unwrap_or(services.config.journal_md_max_chars);
        if !(window::MIN_CHARS..=window::MAX_CHARS).contains(&max) {
            return Err(bad(format!(
                "max_chars must be between {} and {}",
                window::MIN_CHARS,
                window::MAX_CHARS
            )));
        }
        let now = op.now();
        let unacknowledged = exposures::list(op.tx(), exposures::UNACKNOWLEDGED, now).await?;
        let warning = exposures::markdown_warning(&unacknowledged).unwrap_or_default();
        let max = max.saturating_sub(warning.chars().count());
        let min_tier = min_tier(self.min_tier.as_deref())?;
        let window = window::render(op.tx(), now, max, min_tier).await?;
        let markdown = warning + &window.markdown;
        op.results(
            window.sessions.iter().map(SessionId::to_string),
            Some(window.sessions.len()),
        );
        op.handed_over(
            window.items.iter().map(ItemId::to_string),
            markdown.chars().count(),
        );
        Ok(markdown)
    }
}
