//! The digests' operations: list week and month digests, and delete one on purpose.

use super::journal::{bad, deletion};
use super::kinds::read;
use super::{Op, Operation, Services, Target, named, parse_date, target_of};
use crate::error::Result;
use crate::ids::DigestId;
use crate::journal::handoff::DecisionState;
use crate::operation::{Refusal, Spec};
use crate::summaries::digests::{self, Digest};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Lists week and month digests, newest first.
#[derive(Debug, Default, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListDigests {
    /// `week` or `month`; both when absent.
    #[serde(default)]
    #[schemars(length(max = 5), regex(pattern = "^(week|month)?$"), example = &"week")]
    pub period: Option<String>,
    /// Only periods starting on or after this day (`YYYY-MM-DD`).
    #[serde(default)]
    #[schemars(with = "Option<chrono::NaiveDate>", length(max = 10), example = &"2026-01-01")]
    pub from: Option<String>,
    /// Only periods starting before this day (`YYYY-MM-DD`).
    #[serde(default)]
    #[schemars(with = "Option<chrono::NaiveDate>", length(max = 10), example = &"2026-12-01")]
    pub to: Option<String>,
}
crate::openapi_params!(ListDigests);

/// Week and month digests, newest first.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct DigestList {
    /// The digests, newest period first.
    pub digests: Vec<ListedDigest>,
}

/// A digest as it is listed: as stored, and how its decisions stand now.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ListedDigest {
    #[serde(flatten)]
    pub digest: Digest,
    /// The decisions of `summary.decisions` that are items the digest holds, each as it stands
    /// now (`current`, or `replaced` and by what, named when this credential can read it): a
    /// digest's text is kept as it was written, so a decision replaced since is said here.
    /// Absent when none is an item (a model's own words, decisions gone with their sessions).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub decisions: Vec<DecisionState>,
}

impl std::ops::Deref for ListedDigest {
    type Target = Digest;

    fn deref(&self) -> &Digest {
        &self.digest
    }
}

/// The most digests one read answers with (about ten years of months).
pub const MAX_DIGESTS: i64 = 120;

impl Op for ListDigests {
    const SPEC: Spec = Spec {
        errors: &[Refusal::bad_request("a bad `period`, `from` or `to`")],
        ..read(
            "listDigests",
            "journal_digests",
            "Read week and month digests",
        )
    };
    type Output = DigestList;

    async fn run(self, op: &mut Operation, _: &Services) -> Result<DigestList> {
        let period = match self.period.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(p @ ("week" | "month")) => Some(p.to_owned()),
            Some(other) => {
                return Err(bad(format!(
                    "period {:?} is neither week nor month",
                    crate::ids::shown(other)
                )));
            }
        };
        let from = parse_date("from", self.from.as_deref())?;
        let to = parse_date("to", self.to.as_deref())?;
        let digests = digests::list(op.tx(), period.as_deref(), from, to, MAX_DIGESTS).await?;
        let now = op.now();
        let mut decided_now = digests::decisions_now(op.tx(), &digests, now).await?;
        op.results(
            digests.iter().map(|d| d.id.to_string()),
            Some(digests.len()),
        );
        let digests = digests
            .into_iter()
            .map(|digest| ListedDigest {
                decisions: decided_now.remove(&digest.id).unwrap_or_default(),
                digest,
            })
            .collect();
        Ok(DigestList { digests })
    }
}

/// Deletes one week or month digest on purpose.
#[derive(Debug, Default, Clone)]
pub struct DeleteDigest {
    /// The digest (`dig_…`): the path's over REST, `digest_id` over MCP.
    pub digest: String,
}

/// What a digest deletion removed.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct DeletedDigest {
    /// The digest deleted; no one can read it any more.
    pub deleted_digest: DigestId,
}

impl Op for DeleteDigest {
    const SPEC: Spec = Spec {
        errors: &[Refusal::not_found(
            "no digest with this id that this credential may delete",
        )],
        ..deletion("deleteDigest", "journal_delete_digest", "Delete a digest")
    };
    type Output = DeletedDigest;

    fn targets(&self) -> Vec<Target> {
        vec![target_of::<DigestId>(&self.digest)]
    }

    async fn run(self, op: &mut Operation, _: &Services) -> Result<DeletedDigest> {
        let gone = crate::summaries::digests::delete(op.tx(), named(&self.digest)?).await?;
        op.results([gone.to_string()], Some(1));
        op.wrote();
        Ok(DeletedDigest {
            deleted_digest: gone,
        })
    }
}
