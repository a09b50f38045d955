//! The filters the session list and the search share (flattened into both inputs, so REST's
//! query, the tools' arguments and the pages name them alike), read once for both.

use crate::error::{Error, Result};
use crate::ids::{OrganizationId, TypedId};
use crate::journal::meta::{
    LINE_PATTERN, MAX_ASSISTANT_CHARS, MAX_REPOSITORY_CHARS, TIME_PATTERN, filter_text,
};
use crate::ops::parse_time;
use chrono::{DateTime, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Which sessions, and which period: every filter is optional.
#[derive(Debug, Default, Clone, Deserialize, Serialize, JsonSchema)]
pub struct SessionFilters {
    /// Narrows to sessions whose assistant name contains this text (case-insensitive).
    #[serde(default)]
    #[schemars(
        length(max = MAX_ASSISTANT_CHARS),
        regex(pattern = LINE_PATTERN),
        example = &"Claude"
    )]
    pub assistant: Option<String>,
    /// Narrows to sessions for this organization (`org_…`).
    #[serde(default)]
    #[schemars(with = "Option<OrganizationId>")]
    pub organization: Option<String>,
    /// Narrows to sessions in this repository.
    #[serde(default)]
    #[schemars(
        length(max = MAX_REPOSITORY_CHARS),
        regex(pattern = LINE_PATTERN),
        example = &"acme/web"
    )]
    pub repo: Option<String>,
    /// Narrows to what is dated at or after this time (RFC 3339): a session by its start, a
    /// match of the search by its time (the search's default: a year ago).
    #[serde(default)]
    #[schemars(
        with = "Option<chrono::DateTime<chrono::Utc>>",
        length(max = 40),
        regex(pattern = TIME_PATTERN),
        example = &"2026-11-10T09:00:00Z"
    )]
    pub from: Option<String>,
    /// Narrows to what is dated before this time (RFC 3339): a session by its start, a match
    /// of the search by its time.
    #[serde(default)]
    #[schemars(
        with = "Option<chrono::DateTime<chrono::Utc>>",
        length(max = 40),
        regex(pattern = TIME_PATTERN),
        example = &"2026-11-11T09:00:00Z"
    )]
    pub to: Option<String>,
}

/// [`SessionFilters`] read: ids and times parsed, texts trimmed (an empty one is no filter).
pub(crate) struct Narrowing {
    pub assistant: Option<String>,
    pub organization: Option<OrganizationId>,
    pub repository: Option<String>,
    pub from: Option<DateTime<Utc>>,
    pub to: Option<DateTime<Utc>>,
}

impl SessionFilters {
    /// The filters read, or a 400 naming the first one that is not what it should be.
    pub(crate) fn read(self) -> Result<Narrowing> {
        let organization =
            filter_id::<OrganizationId>("organization", self.organization.as_deref())?;
        let from = parse_time("from", self.from.as_deref())?;
        let to = parse_time("to", self.to.as_deref())?;
        Ok(Narrowing {
            repository: filter_text("repo", self.repo, MAX_REPOSITORY_CHARS)
                .map_err(Error::BadRequest)?,
            assistant: filter_text("assistant", self.assistant, MAX_ASSISTANT_CHARS)
                .map_err(Error::BadRequest)?,
            organization,
            from,
            to,
        })
    }
}

/// A filter naming an id: 400 when it is not one (a filter is not a target).
pub(crate) fn filter_id<T: TypedId>(name: &str, text: Option<&str>) -> Result<Option<T>> {
    // An empty value is no id either: the schema's pattern refuses it, and so does the server
    // (a form's empty field is left out by its page, `http::pages::journal::given`).
    text.map(|t| {
        T::parse(t).ok_or_else(|| {
            Error::BadRequest(format!(
                "{name} {:?} is not {} id ({}_…)",
                crate::ids::shown(t),
                T::KIND.a_noun(),
                T::KIND.prefix()
            ))
        })
    })
    .transpose()
}
