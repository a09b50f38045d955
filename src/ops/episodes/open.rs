//! The episodes a harness left waiting: those this credential posted whose last post found
//! the conversation unsettled, so their entries are still code's. The hooks' catch-up
//! (`n8v-journal hook flush`, run by `hook session-start`) reads it to post just those
//! conversations again, marked ended, and sends no other conversation's prose.

use super::{MAX_HARNESS_CHARS, bad};
use crate::error::Result;
use crate::journal::episodes::{self, OpenEpisode};
use crate::operation::{Refusal, Spec};
use crate::ops::kinds::toolless_read;
use crate::ops::{Op, Operation, Services};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Lists this credential's episodes whose last post was not settled.
#[derive(Debug, Default, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListOpenEpisodes {
    /// Only episodes posted by this harness (`claude-code`, `codex`, …).
    #[serde(default)]
    #[schemars(length(max = MAX_HARNESS_CHARS), regex(pattern = "^[A-Za-z0-9._-]*$"), example = &"codex")]
    pub harness: Option<String>,
}
crate::openapi_params!(ListOpenEpisodes);

/// The episodes waiting for a post that drafts them, the most recent first.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct OpenEpisodes {
    /// At most 200, the most recent last turn first.
    pub episodes: Vec<OpenEpisode>,
}

/// The most open episodes one read lists.
pub const MAX_OPEN_EPISODES: i64 = 200;

impl Op for ListOpenEpisodes {
    const SPEC: Spec = Spec {
        errors: &[Refusal::bad_request("a bad `harness`")],
        ..toolless_read(
            "listOpenEpisodes",
            "List the conversations waiting to be drafted",
        )
    };
    type Output = OpenEpisodes;

    async fn run(self, op: &mut Operation, _: &Services) -> Result<OpenEpisodes> {
        let harness = match self.harness.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(h)
                if h.len() <= MAX_HARNESS_CHARS
                    && h.chars()
                        .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c)) =>
            {
                Some(h.to_owned())
            }
            Some(_) => {
                return Err(bad(
                    "harness must be 1 to 50 letters, digits and . _ - (e.g. claude-code, codex)",
                ));
            }
        };
        let episodes = episodes::open(op.tx(), harness.as_deref(), MAX_OPEN_EPISODES).await?;
        op.results(
            episodes.iter().map(|e| e.episode_id.clone()),
            Some(episodes.len()),
        );
        Ok(OpenEpisodes { episodes })
    }
}
