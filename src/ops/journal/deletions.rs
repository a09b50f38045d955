//! Deleting on purpose: one session's entry, or a whole day. Both need `chats:read` and
//! `chats:delete`; the call is journalled in another session when it deletes its own.

use super::bad;
use crate::auth::Scope;
use crate::error::Result;
use crate::ids::SessionId;
use crate::operation::{Effect, JournalUse, Refusal, Spec};
use crate::ops::{Op, Operation, Services, Target, named, target_of};
use crate::sessions;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What a deletion removed.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Deleted {
    /// The sessions deleted, with their calls and summaries; no one can read them any more.
    pub deleted_sessions: Vec<SessionId>,
}

pub(in crate::ops) const fn deletion(
    id: &'static str,
    tool: &'static str,
    title: &'static str,
) -> Spec {
    Spec {
        id,
        tool: Some(tool),
        journal: JournalUse::Bookkeeping,
        scopes: &[Scope::ChatsRead, Scope::ChatsDelete],
        needs_journal: true,
        creates: false,
        title,
        effect: Effect::Deletes,
        errors: &[],
    }
}

/// Deletes one session's entry on purpose: the session, its calls and its summary (the path's
/// id over REST, `session_id` over MCP).
#[derive(Debug, Default, Clone)]
pub struct DeleteSession {
    pub session: String,
}

impl Op for DeleteSession {
    const SPEC: Spec = Spec {
        errors: &[Refusal::not_found(
            "no session with this id that this credential may delete",
        )],
        ..deletion(
            "deleteSession",
            "journal_delete_session",
            "Delete a session",
        )
    };
    type Output = Deleted;

    fn targets(&self) -> Vec<Target> {
        vec![target_of::<SessionId>(&self.session)]
    }

    async fn run(self, op: &mut Operation, _: &Services) -> Result<Deleted> {
        let gone = sessions::delete(op.tx(), named(&self.session)?).await?;
        op.deleted_sessions(&[gone]);
        op.results([gone.to_string()], Some(1));
        op.wrote();
        Ok(Deleted {
            deleted_sessions: vec![gone],
        })
    }
}

/// Deletes a whole day on purpose: every session of the account that started on that day
/// (UTC) and that the caller may delete.
#[derive(Debug, Default, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeleteDay {
    /// The day whose sessions to delete for good, `YYYY-MM-DD` (UTC).
    #[schemars(length(max = 10), example = &"2026-11-10")]
    pub date: String,
}

impl DeleteDay {
    fn day(&self) -> std::result::Result<chrono::NaiveDate, String> {
        crate::journal::meta::parse_day("date", &self.date)
    }
}

impl Op for DeleteDay {
    const SPEC: Spec = Spec {
        errors: &[Refusal::bad_request(
            "a day that is not a date (`YYYY-MM-DD`)",
        )],
        ..deletion("deleteJournalDay", "journal_delete_day", "Delete a day")
    };
    type Output = Deleted;

    fn targets(&self) -> Vec<Target> {
        match self.day() {
            Ok(date) => vec![date.to_string().into()],
            Err(_) => Vec::new(),
        }
    }

    async fn run(self, op: &mut Operation, _: &Services) -> Result<Deleted> {
        let date = self.day().map_err(bad)?;
        let from = date.and_time(chrono::NaiveTime::MIN).and_utc();
        let gone =
            sessions::delete_started_between(op.tx(), from, from + chrono::Duration::days(1))
                .await?;
        op.deleted_sessions(&gone);
        op.results(gone.iter().map(SessionId::to_string), Some(gone.len()));
        op.wrote();
        Ok(Deleted {
            deleted_sessions: gone,
        })
    }
}
