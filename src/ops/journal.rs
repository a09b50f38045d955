//! The journal's operations: open and close sessions, list and read them, read one call, the
//! catch-up brief and the markdown window. All need `chats:read` and the `assistantJournal` flag.

use super::kinds::{bookkeeping, read};
use super::{Op, Operation, Services, Target, limit, named, target_of};
use crate::auth::Scope;
use crate::cursor::Cursor;
use crate::error::{Error, Result};
use crate::ids::{CallId, ItemId, KeyId, OrganizationId, SessionId};
use crate::journal::exposures::Field;
use crate::journal::handoff::Handoff;
use crate::journal::handoff::{MAX_ITEM_CHARS, MAX_ITEMS};
use crate::journal::meta::{
    LINE_PATTERN, MAX_REPOSITORY_CHARS, MAX_TEXT_CHARS, REPOSITORY_PATTERN, TEXT_PATTERN,
    parse_repository, parse_text,
};
use crate::journal::reads::{self, MAX_ACTIONS_PAGE, MAX_SESSIONS_PAGE, SessionFilter};
use crate::journal::{Call, Session};
use crate::loops;
use crate::loops::MAX_RESOLVED;
use crate::operation::{Effect, JournalUse, Refusal, Spec};
use crate::sessions;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

mod brief;
mod deletions;
mod filters;

pub use brief::{ReadCatchUp, ReadMarkdown};
pub(super) use deletions::deletion;
pub use deletions::{DeleteDay, DeleteSession, Deleted};
pub use filters::SessionFilters;
use filters::filter_id;

pub(super) fn bad(message: String) -> Error {
    Error::BadRequest(message)
}

fn cursor(text: Option<&str>) -> Result<Option<Cursor>> {
    text.map(Cursor::decode).transpose().map_err(bad)
}

/// A conversation to open; every field is optional.
#[derive(Debug, Default, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(example = json!({"goal": "Get the login fix ready for review", "repository": "acme/web"}))]
pub struct StartSession {
    /// One sentence describing the goal of the conversation (up to 2,000 characters;
    /// credentials in it are scrubbed). Optional, but give it: the next conversation's brief and
    /// the journal show sessions by their goal.
    #[serde(default)]
    #[schemars(length(max = MAX_TEXT_CHARS), regex(pattern = TEXT_PATTERN))]
    pub goal: Option<String>,
    /// The organization the work is for (`org_…`), if any; must be one the account belongs to.
    #[serde(default)]
    #[schemars(with = "Option<OrganizationId>")]
    pub organization: Option<String>,
    /// The repository the assistant works in, if any (a repository-restricted key's own wins):
    /// letters, digits and `. _ - / : @ +`, up to 200 characters (empty: none).
    #[serde(default)]
    #[schemars(length(max = MAX_REPOSITORY_CHARS), regex(pattern = REPOSITORY_PATTERN))]
    pub repository: Option<String>,
}
crate::openapi_schema!(StartSession => "StartRequest", EndSession => "EndRequest");

impl Op for StartSession {
    const SPEC: Spec = Spec {
        id: "startSession",
        tool: Some("session_start"),
        journal: JournalUse::Bookkeeping,
        scopes: &[Scope::ChatsRead],
        needs_journal: true,
        creates: true,
        title: "Start a session",
        // Each call opens another session.
        effect: Effect::Writes { idempotent: false },
        errors: &[
            Refusal::bad_request("a goal or repository that is too long or has control characters"),
            Refusal::not_found("the organization is not one of the account's"),
        ],
    };
    type Output = Session;

    async fn run(self, op: &mut Operation, _: &Services) -> Result<Session> {
        let mut opening = op.opening();
        let goal = parse_text(self.goal.as_deref(), "goal").map_err(bad)?;
        opening.goal = op.keep(Field::Goal, goal);
        opening.organization = self.organization.as_deref().map(named).transpose()?;
        if opening.repository.is_none() {
            opening.repository = parse_repository(self.repository.as_deref()).map_err(bad)?;
        }
        let now = op.now();
        let session = sessions::start(op.tx(), &opening, now).await?;
        op.use_session(session.id);
        op.results([session.id.to_string()], None);
        Ok(session)
    }
}

/// How a conversation ended: what happened, and the decisions, open questions and next steps
/// handed to the next conversation; the open items (`itm_…`) it settled.
#[derive(Debug, Default, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(example = json!({
    "outcome": "Fix ready for review; tests passed",
    "decisions": ["Keep the session cookie SameSite=Lax"],
    "open_questions": ["Should the retry policy be configurable?"],
    "next_steps": ["Remove the old login route once the fix ships"],
    "resolved": ["itm_01M72B6Q00EDV8XKQ3RN1Z3H6A"]
}))]
pub struct EndSession {
    /// The session to close (the path's over REST, `session` over MCP).
    #[serde(skip)]
    pub session: String,
    /// What happened: the handoff for the next conversation (up to 2,000 characters;
    /// credentials in it are scrubbed). Optional, but give it: a session with a goal and an
    /// outcome is a hand-off the next conversation always sees.
    #[serde(default)]
    #[schemars(length(max = MAX_TEXT_CHARS), regex(pattern = TEXT_PATTERN))]
    pub outcome: Option<String>,
    /// Decisions made in this session, one line each in your own words (at most 20 items of
    /// 300 characters; credentials scrubbed). The next conversation's catch-up brief lists them
    /// ahead of anything a summary derives.
    #[serde(default)]
    #[schemars(
        length(max = MAX_ITEMS),
        inner(length(max = MAX_ITEM_CHARS), regex(pattern = LINE_PATTERN))
    )]
    pub decisions: Option<Vec<String>>,
    /// Questions left open for the person or the next conversation (same limits).
    #[serde(default)]
    #[schemars(
        length(max = MAX_ITEMS),
        inner(length(max = MAX_ITEM_CHARS), regex(pattern = LINE_PATTERN))
    )]
    pub open_questions: Option<Vec<String>>,
    /// What the next conversation should do first (same limits).
    #[serde(default)]
    #[schemars(
        length(max = MAX_ITEMS),
        inner(length(max = MAX_ITEM_CHARS), regex(pattern = LINE_PATTERN))
    )]
    pub next_steps: Option<Vec<String>>,
    /// Open loops this session settled (`itm_…`, at most 100), as the brief and the open loops
    /// list them: each is closed in this session, a question as `answered`, a next step as
    /// `done`. Items closed already stay as they were; an id that names no item this credential
    /// may close is skipped and listed in the answer's `not_resolved`.
    #[serde(default)]
    #[schemars(length(max = MAX_RESOLVED), with = "Option<Vec<ItemId>>")]
    pub resolved: Option<Vec<String>>,
    /// Earlier decisions (`itm_…`, at most 100, as the brief lists them with their ids) that
    /// this session's first decision replaces: they stop being current and show under it
    /// ("replaces: …"). Give that decision in `decisions`. Only decisions this credential can
    /// read are replaced; an id that replaces nothing (no decision given, none it may replace,
    /// one replaced already) is skipped and listed in the answer's `not_replaced`. To pair
    /// several, mark a decision line `Replaces itm_…: …` instead.
    #[serde(default)]
    #[schemars(length(max = MAX_RESOLVED), with = "Option<Vec<ItemId>>")]
    pub replaces: Option<Vec<String>>,
}

/// A session just closed, and the ids of `resolved` that closed nothing.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct EndedSession {
    #[serde(flatten)]
    pub session: Session,
    /// The ids in `resolved` that name no item this credential may close (one deleted with its
    /// sessions, another account's, an organization member's), in the order given: they were
    /// skipped, and the session closed all the same. Empty when every id named an item it may
    /// close (items closed already stay as they were).
    pub not_resolved: Vec<ItemId>,
    /// The ids in `replaces` that replaced nothing (no decision stated to replace them with,
    /// no current decision this credential may replace, or one replaced already), in the order
    /// given: the session closed all the same.
    pub not_replaced: Vec<ItemId>,
}

impl Op for EndSession {
    // A session closes exactly once; ending it again is a 409 that changes nothing (its
    // hand-off and loops stay those of the first end).

    const SPEC: Spec = Spec {
        errors: &[
            Refusal::bad_request("an outcome that is too long or has control characters"),
            Refusal::bad_request(
                "a hand-off list with more than 20 items or an item longer than 300 characters or on more than one line",
            ),
            Refusal::bad_request(
                "`resolved` with more than 100 ids or an entry that is not an item id",
            ),
            Refusal::not_found(
                "the session is not one of this credential's (sessions cannot be shared across credentials)",
            ),
            Refusal::conflict("the session has already ended"),
        ],
        ..bookkeeping(
            "endSession",
            "session_end",
            "End the session with a hand-off",
        )
    };
    type Output = EndedSession;

    fn targets(&self) -> Vec<Target> {
        vec![target_of::<SessionId>(&self.session)]
    }

    async fn run(self, op: &mut Operation, _: &Services) -> Result<EndedSession> {
        let id = named(&self.session)?;
        let outcome = parse_text(self.outcome.as_deref(), "outcome").map_err(bad)?;
        let outcome = op.keep(Field::Outcome, outcome);
        let (handoff, found) = Handoff::parse(
            self.decisions.as_deref(),
            self.open_questions.as_deref(),
            self.next_steps.as_deref(),
        )
        .map_err(bad)?;
        let resolved = super::loops::item_ids("resolved", self.resolved.as_deref())?;
        let replaces = super::loops::item_ids("replaces", self.replaces.as_deref())?;
        let mut handoff = handoff;
        // Without a decision to replace them with, what `replaces` names replaces nothing: it
        // is listed in `not_replaced`, as `resolved` lists what it could not close.
        if let Some(h) = handoff.as_mut().filter(|h| !h.decisions.is_empty()) {
            h.replaces = crate::journal::handoff::Replacing::by(&h.decisions[0], &replaces);
        }
        op.scrubbed(Field::Handoff, &found);
        let now = op.now();
        let purpose = op.purpose().map(str::to_owned);
        let (outcome, handoff) = (outcome.as_deref(), handoff.as_ref());
        let session = sessions::end(op.tx(), id, outcome, handoff, purpose.as_deref(), now).await?;
        // After the session's own items are opened: an item it both states and resolves ends
        // closed.
        let not_resolved = loops::resolve(op.tx(), &resolved, id, now).await?;
        let not_replaced = loops::replacing::not_replaced(op.tx(), &replaces, id).await?;
        op.use_session(session.id);
        Ok(EndedSession {
            session,
            not_resolved,
            not_replaced,
        })
    }
}

/// Which sessions to list, newest first: the seed's filters and a page.
#[derive(Debug, Default, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListSessions {
    #[serde(flatten)]
    pub filters: SessionFilters,
    /// Only sessions of this API key (`key_…`).
    #[serde(default)]
    #[schemars(with = "Option<KeyId>")]
    pub key: Option<String>,
    /// How many sessions to return, from 1 to 100 (default 20).
    #[serde(default)]
    #[schemars(range(min = 1, max = MAX_SESSIONS_PAGE))]
    pub limit: Option<i64>,
    /// The `next_cursor` of the previous page.
    #[serde(default)]
    #[schemars(length(max = crate::cursor::MAX_CHARS))]
    pub cursor: Option<String>,
}
crate::openapi_params!(ListSessions, GetSession);

/// A page of sessions, newest first.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct SessionList {
    /// The sessions, newest first.
    pub sessions: Vec<Session>,
    /// Pass it as `cursor` for the next page; absent on the last page.
    pub next_cursor: Option<String>,
}

impl Op for ListSessions {
    const SPEC: Spec = Spec {
        errors: &[Refusal::bad_request("a bad filter, `limit` or `cursor`")],
        ..read("listSessions", "journal_sessions", "List sessions")
    };
    type Output = SessionList;

    async fn run(self, op: &mut Operation, _: &Services) -> Result<SessionList> {
        let filters = self.filters.read()?;
        let filter = SessionFilter {
            assistant: filters.assistant,
            key: filter_id::<KeyId>("key", self.key.as_deref())?,
            organization: filters.organization,
            repository: filters.repository,
            from: filters.from,
            to: filters.to,
        };
        let limit = limit(self.limit, 20, MAX_SESSIONS_PAGE)?;
        let cursor = cursor(super::cursor_given(&self.cursor))?;
        let mut page = reads::list_sessions(op.tx(), &filter, limit, cursor).await?;
        let now = op.now();
        loops::decided::with_states(op.tx(), &mut page.items, now).await?;
        op.results(
            page.items.iter().map(|s| s.id.to_string()),
            Some(page.items.len()),
        );
        Ok(SessionList {
            sessions: page.items,
            next_cursor: page.next_cursor,
        })
    }
}

/// Which session to read, and which page of its actions.
#[derive(Debug, Default, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetSession {
    /// The session to read (the path's over REST, `session_id` over MCP).
    #[serde(skip)]
    pub session: String,
    /// How many actions to return, from 1 to 300 (default 100).
    #[serde(default)]
    #[schemars(range(min = 1, max = MAX_ACTIONS_PAGE))]
    pub limit: Option<i64>,
    /// The `next_cursor` of the previous page.
    #[serde(default)]
    #[schemars(length(max = crate::cursor::MAX_CHARS))]
    pub cursor: Option<String>,
    /// `true`: only the calls that wrote.
    #[serde(default)]
    pub writes: Option<bool>,
}

/// A session and a page of its actions.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct SessionDetail {
    /// The session.
    pub session: Session,
    /// The session's calls, oldest first.
    pub actions: Vec<Call>,
    /// Pass it as `cursor` for the next page of actions; absent on the last page.
    pub next_cursor: Option<String>,
    /// What this conversation was told: each catch-up brief and `/journal.md` read in it
    /// (REST, MCP, the resources), oldest first (at most 20), with the sessions and items it
    /// handed over and how many characters.
    pub told: Vec<crate::journal::receipts::Told>,
}

impl Op for GetSession {
    const SPEC: Spec = Spec {
        errors: &[
            Refusal::bad_request("a bad `limit` or `cursor`"),
            Refusal::not_found("no session with this id is visible to this credential"),
        ],
        ..read("getSession", "journal_session", "Read a session")
    };
    type Output = SessionDetail;

    fn targets(&self) -> Vec<Target> {
        vec![target_of::<SessionId>(&self.session)]
    }

    async fn run(self, op: &mut Operation, _: &Services) -> Result<SessionDetail> {
        let id = named(&self.session)?;
        let limit = limit(self.limit, 100, MAX_ACTIONS_PAGE)?;
        let cursor = cursor(super::cursor_given(&self.cursor))?;
        let mut session = reads::session(op.tx(), id).await?;
        let now = op.now();
        loops::decided::with_states(op.tx(), std::slice::from_mut(&mut session), now).await?;
        let page =
            reads::actions(op.tx(), &session, limit, cursor, self.writes == Some(true)).await?;
        op.results(
            page.items.iter().map(|c| c.id.to_string()),
            Some(page.items.len()),
        );
        let told = crate::journal::receipts::of_session(op.tx(), session.account_id, id).await?;
        Ok(SessionDetail {
            session,
            actions: page.items,
            next_cursor: page.next_cursor,
            told,
        })
    }
}

/// Reads one call (the path's id over REST, `entry_id` over MCP).
#[derive(Debug, Default, Clone)]
pub struct GetEntry {
    pub call: String,
}

impl Op for GetEntry {
    const SPEC: Spec = Spec {
        errors: &[Refusal::not_found(
            "no journal entry with this id is visible to this credential",
        )],
        ..read("getJournalEntry", "journal_entry", "Read a journal entry")
    };
    type Output = Call;

    fn targets(&self) -> Vec<Target> {
        vec![target_of::<CallId>(&self.call)]
    }

    async fn run(self, op: &mut Operation, _: &Services) -> Result<Call> {
        let call = reads::call(op.tx(), named(&self.call)?).await?;
        op.results([call.id.to_string()], None);
        Ok(call)
    }
}
