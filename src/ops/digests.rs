//! The digests' operations: list week and month digests, and delete one on purpose.

use super::journal::{bad, deletion, read};
use super::{Op, Operation, Services, Target, target};
use crate::error::Result;
use crate::ids::IdArg;
use crate::operation::Spec;
use serde::Serialize;

/// Lists week and month digests, newest first.
#[derive(Debug, Default, Clone)]
pub struct ListDigests {
    pub period: Option<String>,
    pub from: Option<chrono::NaiveDate>,
    pub to: Option<chrono::NaiveDate>,
}

/// Week and month digests, newest first.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct DigestList {
    /// The digests, newest period first.
    pub digests: Vec<crate::journal::digests::Digest>,
}

/// The most digests one read answers with (about ten years of months).
pub const MAX_DIGESTS: i64 = 120;

impl Op for ListDigests {
    const SPEC: Spec = read(
        "listDigests",
        Some("journal_digests"),
        "Read week and month digests",
    );
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
        let digests = crate::journal::digests::list(
            op.tx(),
            period.as_deref(),
            self.from,
            self.to,
            MAX_DIGESTS,
        )
        .await?;
        op.results(
            digests.iter().map(|d| d.id.to_string()),
            Some(digests.len()),
        );
        Ok(DigestList { digests })
    }
}

/// Deletes one week or month digest on purpose.
#[derive(Debug, Clone)]
pub struct DeleteDigest {
    pub digest: IdArg<crate::ids::DigestId>,
}

/// What a digest deletion removed.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct DeletedDigest {
    /// The digest deleted; no one can read it any more.
    pub deleted_digest: crate::ids::DigestId,
}

impl Op for DeleteDigest {
    const SPEC: Spec = deletion("deleteDigest", "journal_delete_digest", "Delete a digest");
    type Output = DeletedDigest;

    fn targets(&self) -> Vec<Target> {
        vec![target(&self.digest)]
    }

    async fn run(self, op: &mut Operation, _: &Services) -> Result<DeletedDigest> {
        let gone = crate::journal::digests::delete(op.tx(), self.digest?).await?;
        op.results([gone.to_string()], Some(1));
        op.wrote();
        Ok(DeletedDigest {
            deleted_digest: gone,
        })
    }
}
