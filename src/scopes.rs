//! Scopes: what a credential may do. Parsed once at the edge; unknown names are an error.
//! One type serves every check: the principal's, the operation's, and the tenant the policies
//! read (a leaf, so `db` can carry it without knowing `auth`).

use crate::error::{Error, Result};

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    ChatsRead,
    RecordsRead,
    RecordsWrite,
    OrgsRead,
    /// Deletes journal entries on purpose (with `chats:read`): a session, a day.
    ChatsDelete,
    /// Deletes the whole account (`DELETE /api/v1/account`); never implied by another scope.
    AccountDelete,
    /// Manages the account's webhook endpoints (`/api/v1/webhooks`).
    WebhooksWrite,
    /// The person's own: releases an item the withholding rules keep out of every hand-off, or
    /// deletes it, in the journal pages' signed-in forms only (no API route does either).
    /// OAuth grants never carry it; a key holds it only when made with it.
    ChatsRelease,
}

impl Scope {
    pub const ALL: [Scope; 8] = [
        Scope::ChatsRead,
        Scope::ChatsDelete,
        Scope::RecordsRead,
        Scope::RecordsWrite,
        Scope::OrgsRead,
        Scope::AccountDelete,
        Scope::WebhooksWrite,
        Scope::ChatsRelease,
    ];

    /// The scopes an OAuth grant may carry: all but the person's own (`chats:release`), so an
    /// assistant that signed in can never release what the rules withheld from it.
    pub const GRANTABLE: [Scope; 7] = [
        Scope::ChatsRead,
        Scope::ChatsDelete,
        Scope::RecordsRead,
        Scope::RecordsWrite,
        Scope::OrgsRead,
        Scope::AccountDelete,
        Scope::WebhooksWrite,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            Scope::ChatsRead => "chats:read",
            Scope::ChatsDelete => "chats:delete",
            Scope::RecordsRead => "records:read",
            Scope::RecordsWrite => "records:write",
            Scope::OrgsRead => "orgs:read",
            Scope::AccountDelete => "account:delete",
            Scope::WebhooksWrite => "webhooks:write",
            Scope::ChatsRelease => "chats:release",
        }
    }

    /// What the scope lets its holder do, in one sentence for a person deciding whether to
    /// grant it: the one table of these words, for the consent page and every page that lists
    /// a credential's scopes (a unit test holds every scope to a sentence).
    pub const fn meaning(self) -> &'static str {
        match self {
            Scope::ChatsRead => {
                "Read your journal (sessions, their calls and summaries, the catch-up brief, \
                 search and open loops) and open and close its own sessions in it."
            }
            Scope::ChatsDelete => {
                "Delete journal entries for good: a session, a whole day or a digest."
            }
            Scope::RecordsRead => {
                "List the Records you can open and read their entries, your organizations' \
                 shared Records included."
            }
            Scope::RecordsWrite => "Put new entries on your Records (entries are never edited).",
            Scope::OrgsRead => {
                "Read what members did for the organizations you own: the sessions they tagged \
                 with one and their calls on its Record."
            }
            Scope::AccountDelete => {
                "Delete your whole account and everything in it; this cannot be undone."
            }
            Scope::WebhooksWrite => {
                "Add, change and remove the webhook endpoints your events are sent to."
            }
            Scope::ChatsRelease => {
                "Release, in the journal pages, an item withheld from assistants because it \
                 reads as an instruction to them, or delete it; never granted to an assistant."
            }
        }
    }

    /// A scope's name, as input schemas state it: one of [`Scope::ALL`]'s (a unit test holds
    /// the two together).
    pub const PATTERN: &str = "^(chats:read|chats:delete|records:read|records:write|orgs:read|account:delete|webhooks:write|chats:release)$";

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str() == text.trim())
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A sorted, duplicate-free set of scopes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scopes(Vec<Scope>);

impl Scopes {
    /// Parses names separated by commas or spaces.
    pub fn parse(text: &str) -> Result<Self, String> {
        Self::from_names(text.split([',', ' ']).filter(|s| !s.trim().is_empty()))
    }

    pub fn from_names<'a>(names: impl IntoIterator<Item = &'a str>) -> Result<Self, String> {
        let mut scopes = Vec::new();
        for name in names {
            let scope = Scope::parse(name).ok_or_else(|| {
                let known: Vec<_> = Scope::ALL.iter().map(|s| s.as_str()).collect();
                format!("unknown scope {name:?}; known scopes: {}", known.join(", "))
            })?;
            scopes.push(scope);
        }
        scopes.sort();
        scopes.dedup();
        Ok(Self(scopes))
    }

    pub fn contains(&self, scope: Scope) -> bool {
        self.0.contains(&scope)
    }

    /// `Ok` when the scope is held; otherwise the `missing-scope` problem naming it.
    pub fn require(&self, scope: Scope) -> Result<()> {
        if self.contains(scope) {
            Ok(())
        } else {
            Err(Error::MissingScope(scope.as_str()))
        }
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The names joined with commas, as the tenant settings carry them.
    pub fn joined(&self) -> String {
        self.names().join(",")
    }

    pub fn is_subset_of(&self, other: &Scopes) -> bool {
        self.0.iter().all(|s| other.contains(*s))
    }

    /// The scopes held by both.
    pub fn intersection(&self, other: &Scopes) -> Scopes {
        Scopes(
            self.0
                .iter()
                .copied()
                .filter(|s| other.contains(*s))
                .collect(),
        )
    }

    pub fn names(&self) -> Vec<String> {
        self.0.iter().map(|s| s.as_str().to_owned()).collect()
    }

    pub fn iter(&self) -> impl Iterator<Item = Scope> + '_ {
        self.0.iter().copied()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_pattern_names_every_scope() {
        let names: Vec<&str> = super::Scope::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(super::Scope::PATTERN, format!("^({})$", names.join("|")));
    }

    use super::*;

    #[test]
    fn grants_carry_every_scope_but_the_persons_own() {
        let all: Vec<Scope> = Scope::ALL
            .into_iter()
            .filter(|s| *s != Scope::ChatsRelease)
            .collect();
        assert_eq!(all, Scope::GRANTABLE);
    }

    #[test]
    fn every_scope_has_its_sentence() {
        let mut seen = std::collections::HashSet::new();
        for scope in Scope::ALL {
            let meaning = scope.meaning();
            assert!(
                meaning.ends_with('.') && meaning.len() > 20,
                "{scope}: {meaning}"
            );
            assert!(seen.insert(meaning), "{scope} shares its sentence");
        }
    }

    #[test]
    fn parses_sorts_and_rejects_unknown() {
        let s = Scopes::parse("records:write, chats:read,chats:read").unwrap();
        assert_eq!(s.names(), ["chats:read", "records:write"]);
        assert!(
            Scopes::parse("chats:read,admin")
                .unwrap_err()
                .contains("admin")
        );
        assert!(Scopes::parse("chats:read").unwrap().is_subset_of(&s));
        assert!(!Scopes::parse("orgs:read").unwrap().is_subset_of(&s));
    }
}
