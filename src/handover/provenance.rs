//! Who wrote what a hand-off carries, and how far to trust it (issue 53, parts 1 and 2).
//!
//! Every item and line names its author (the assistant, and the label of the key it used,
//! copied onto its session when the session was written: migration 0038) and when, and carries
//! a [`Tier`] by where it came from. "you" is the person's alone: a key's label never reads as
//! it (refused when a key is made, and copied as `“you” (a key's label)` if one already does),
//! and an assistant's self-declared name that reads as it is shown quoted.

use crate::db::TenantTx;
use crate::error::Result;
use crate::ids::{AccountId, ItemId, SessionId};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use uuid::Uuid;

/// How far an item is to be trusted, by where it came from; highest first. A client can ask
/// for items at or above a tier (`min_tier`); by default every tier is handed over, each item
/// marked with its own.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Tier {
    /// Text a model or code derived from other text (a summary's reading, a marked line), not
    /// stated by an assistant.
    Derived,
    /// Written in a session of an organization member (read by the organization's owner).
    Organization,
    /// Written in a session of another key or connected assistant of the reader's account.
    OtherCredential,
    /// Written in a session of the reader's own key (or connected assistant).
    ThisCredential,
    /// Written or released by the person, in the journal pages.
    Person,
}

/// A tier's name, as input schemas state it (a unit test holds it to [`Tier::ALL`]).
pub const TIER_PATTERN: &str = "^(person|this_credential|other_credential|organization|derived)$";

impl Tier {
    pub const ALL: [Tier; 5] = [
        Tier::Person,
        Tier::ThisCredential,
        Tier::OtherCredential,
        Tier::Organization,
        Tier::Derived,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            Tier::Person => "person",
            Tier::ThisCredential => "this_credential",
            Tier::OtherCredential => "other_credential",
            Tier::Organization => "organization",
            Tier::Derived => "derived",
        }
    }

    /// The compact mark `/journal.md` and the window put on a line.
    pub const fn mark(self) -> &'static str {
        match self {
            Tier::Person => "[you]",
            Tier::ThisCredential => "[this key]",
            Tier::OtherCredential => "[other key]",
            Tier::Organization => "[org member]",
            Tier::Derived => "[derived]",
        }
    }

    /// The tier of what an assistant stated in a session of `account`, with the reader's own
    /// credential or not, read by `reader`.
    pub fn stated(account: AccountId, this_credential: bool, reader: AccountId) -> Tier {
        if account != reader {
            Tier::Organization
        } else if this_credential {
            Tier::ThisCredential
        } else {
            Tier::OtherCredential
        }
    }

    /// A tier's name as a query or tool argument gives it; `None` for an unknown one.
    pub fn parse(text: &str) -> Option<Tier> {
        Tier::ALL.into_iter().find(|t| t.as_str() == text.trim())
    }

    /// The 400 for an unknown tier, naming the known ones.
    pub fn unknown(text: &str) -> crate::error::Error {
        let known: Vec<&str> = Tier::ALL.iter().map(|t| t.as_str()).collect();
        crate::error::Error::BadRequest(format!(
            "min_tier {text:?} is not a tier; give one of {} (highest first)",
            known.join(", ")
        ))
    }
}

/// Who wrote an item: the assistant, and the label of the key it used.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Author {
    /// The assistant (`X-Assistant`, the OAuth client's name, else the `User-Agent`).
    pub assistant: String,
    /// The label of the key (or connected assistant) it used, copied when it wrote; absent for
    /// what was written before labels were copied, or by a key without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
}

impl Author {
    /// The author in a few words: `codex, key “laptop”`.
    pub fn line(&self) -> String {
        let assistant = if reads_as_you(&self.assistant) {
            format!("“{}” (a self-declared name)", self.assistant.trim())
        } else if self.assistant.trim().is_empty() {
            "an assistant".to_owned()
        } else {
            self.assistant.clone()
        };
        match &self.key {
            Some(key) => format!("{assistant}, key “{key}”"),
            None => assistant,
        }
    }
}

/// Whether a name reads as "you", which the journal keeps for the person.
pub fn reads_as_you(name: &str) -> bool {
    crate::auth::credentials::reserved_label(name)
}

/// What a session tells of what was written in it.
#[derive(Debug, Clone)]
struct Written {
    account: AccountId,
    this_credential: bool,
    author: Author,
    at: DateTime<Utc>,
}

/// The authors of a hand-off's sessions and the person's releases of its items, read once.
#[derive(Debug, Default)]
pub struct Provenance {
    sessions: HashMap<SessionId, Written>,
    /// Each item's latest release: the text released and when.
    releases: HashMap<ItemId, (String, DateTime<Utc>)>,
}

/// What [`Provenance::of`] says of one item or line.
#[derive(Debug, Clone)]
pub struct Stamp {
    pub author: Author,
    pub at: DateTime<Utc>,
    pub tier: Tier,
    pub released_at: Option<DateTime<Utc>>,
}

impl Stamp {
    /// Whether a line of this stamp is handed over to a reader asking for `min` and above.
    pub fn at_least(stamp: Option<&Stamp>, min: Option<Tier>) -> bool {
        match (stamp, min) {
            (_, None) => true,
            (Some(s), Some(min)) => s.tier >= min,
            (None, Some(_)) => false,
        }
    }
}

impl Provenance {
    /// The authors of `sessions` and the releases of `items`, as the reader may read them: one
    /// statement, a row per session (`session`) and per item's latest release (not `session`).
    #[tracing::instrument(skip_all, err)]
    pub async fn read(tx: &mut TenantTx, sessions: &[SessionId], items: &[ItemId]) -> Result<Self> {
        let session_ids: Vec<Uuid> = sessions.iter().map(|s| s.0).collect();
        let item_ids: Vec<Uuid> = items.iter().map(|i| i.0).collect();
        let rows = sqlx::query!(
            r#"SELECT true AS "session!", session_id AS "id!", account_id AS "account?",
                      credential_id = n8v_credential() AS "this?", assistant AS "assistant?",
                      key_label, COALESCE(ended_at, last_activity_at) AS "at!",
                      NULL::text AS "text?"
                 FROM journal_sessions WHERE session_id = ANY ($1)
               UNION ALL
               SELECT * FROM (
                 SELECT DISTINCT ON (loop_id) false, loop_id, NULL::uuid, NULL::boolean,
                        NULL::text, NULL::text, released_at, text
                   FROM journal_releases
                  WHERE account_id = n8v_account() AND loop_id = ANY ($2)
                  ORDER BY loop_id, released_at DESC) latest"#,
            &session_ids,
            &item_ids
        )
        .fetch_all(tx.conn())
        .await?;
        let mut provenance = Provenance::default();
        for r in rows {
            if !r.session {
                if let Some(text) = r.text {
                    provenance.releases.insert(ItemId(r.id), (text, r.at));
                }
                continue;
            }
            let (Some(account), Some(assistant)) = (r.account, r.assistant) else {
                continue;
            };
            let written = Written {
                account: AccountId(account),
                this_credential: r.this == Some(true),
                author: Author {
                    assistant,
                    key: r.key_label,
                },
                at: r.at,
            };
            provenance.sessions.insert(SessionId(r.id), written);
        }
        Ok(provenance)
    }

    /// The stamp of a text `stated` (or derived) in `session`, the item `id` if it is one,
    /// read by `reader`; `None` for a session the reader cannot read.
    pub fn of(
        &self,
        session: SessionId,
        id: Option<ItemId>,
        text: &str,
        stated: bool,
        reader: AccountId,
    ) -> Option<Stamp> {
        let written = self.sessions.get(&session)?;
        let released_at = id
            .and_then(|id| self.releases.get(&id))
            .filter(|(released, _)| released == text)
            .map(|(_, at)| *at);
        let tier = if released_at.is_some() {
            Tier::Person
        } else if !stated {
            Tier::Derived
        } else {
            Tier::stated(written.account, written.this_credential, reader)
        };
        Some(Stamp {
            author: written.author.clone(),
            at: written.at,
            tier,
            released_at,
        })
    }

    /// The stamp of a session's own words (its heading in the window): its author, its time
    /// and the tier of what its assistant stated.
    pub fn of_session(&self, session: SessionId, reader: AccountId) -> Option<Stamp> {
        self.of(session, None, "", true, reader)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiers_order_highest_first_and_parse_their_names() {
        assert!(Tier::Person > Tier::ThisCredential);
        assert!(Tier::ThisCredential > Tier::OtherCredential);
        assert!(Tier::OtherCredential > Tier::Organization);
        assert!(Tier::Organization > Tier::Derived);
        for tier in Tier::ALL {
            assert_eq!(Tier::parse(tier.as_str()), Some(tier));
        }
        assert_eq!(Tier::parse("admin"), None);
        let names: Vec<&str> = Tier::ALL.iter().map(|t| t.as_str()).collect();
        assert_eq!(TIER_PATTERN, format!("^({})$", names.join("|")));
    }

    #[test]
    fn no_author_reads_as_the_person() {
        let forged = Author {
            assistant: "You".into(),
            key: None,
        };
        assert_eq!(forged.line(), "“You” (a self-declared name)");
        let keyed = Author {
            assistant: "codex".into(),
            key: Some("laptop".into()),
        };
        assert_eq!(keyed.line(), "codex, key “laptop”");
        assert!(reads_as_you(" \"you\". "));
        assert!(!reads_as_you("young"));
    }
}
