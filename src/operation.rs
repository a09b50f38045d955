//! One public operation, journalled: the transaction it runs in, and what the journal keeps of
//! it. REST handlers and MCP tools both go through this, so the rules are written once:
//!
//! * the operation runs in the caller's tenant transaction, after a savepoint;
//! * on success its call is recorded in the same transaction, so both commit or neither does;
//! * on failure the operation's effects are rolled back to the savepoint and the failed call is
//!   recorded, so a call exists exactly when its operation happened or failed;
//! * an audit entry is written for every operation; the call links to it;
//! * credentials scrubbed from what the call keeps are recorded as exposures with it
//!   (`journal::exposures`), in the same transaction, and only when there are any;
//! * with the `assistantJournal` flag off, nothing is journalled;
//! * no network call is made while the transaction is open: work that needs one (a model's
//!   draft) is left for after the commit ([`Operation::after_commit`]).

use crate::auth::Scope;
use crate::db::{Checks, Db, Tenant, TenantTx};
use crate::error::{Error, Result};
use crate::flags::{self, Flag};
use crate::ids::{self, AuditId, OrganizationId, SessionId};
use crate::journal::SessionRules;
use crate::journal::exposures::{self, Exposed, Field, ServerSecret};
use crate::scrub::{Cleaned, Found};
use crate::sessions::{self, Opening};
use crate::sessions::{CallRecord, calls};
use crate::sqlstate::{FLAG_CHANGED, REVOKED};
use chrono::{DateTime, Utc};
use std::time::Instant;

mod context;
pub mod fused;
mod refusal;

/// How many times an operation is run when it keeps losing races with concurrent transactions
/// (`ops::run`): the first try and three more.
pub const ATTEMPTS: u32 = 4;
pub use context::{CallContext, ContextError, RawContext, Via};
pub use refusal::Refusal;

/// How an operation relates to the journal itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JournalUse {
    /// Ordinary work (Records and the rest).
    None,
    /// Reads the journal (recorded; sessions holding only these stay out of the list, and are
    /// never sent to a paid summary model).
    Read,
    /// Opens or closes a session: a hand-off, so it keeps the session in the list.
    Bookkeeping,
    /// Posts work done elsewhere (an episode): the entries it makes are sessions of their own,
    /// so the call's session, like one holding only journal reads, stays out of the list and
    /// is never sent to a paid summary model.
    Capture,
}

/// One public operation's rules, written once (in `ops/`) for every adapter: its names, how it
/// uses the journal, what it needs, and what success means.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// The OpenAPI operation id, recorded for REST calls.
    pub id: &'static str,
    /// The MCP tool name, recorded for MCP calls; `None` when the operation has no tool.
    pub tool: Option<&'static str>,
    pub journal: JournalUse,
    /// The scopes the credential must hold.
    pub scopes: &'static [Scope],
    /// The operation exists only while the `assistantJournal` flag is on (404 otherwise).
    pub needs_journal: bool,
    /// Success creates something (REST answers 201).
    pub creates: bool,
    /// What a person calls it, in a few words (MCP's tool `title`).
    pub title: &'static str,
    /// What success does to the caller's data (MCP's tool annotations are derived from it).
    pub effect: Effect,
    /// How it refuses besides what every operation shares (the credential, its scopes, the
    /// journal flag, `X-Session-Id`, a malformed request): its documented problems.
    pub errors: &'static [Refusal],
}

/// What an operation does to the caller's data. Every call is journalled whatever its effect;
/// that record is the journal's own bookkeeping, not a change the caller asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Changes nothing.
    Reads,
    /// Adds or changes, never removes. `idempotent` when a repeat with the same arguments has
    /// no further effect (each operation that claims it says why).
    Writes { idempotent: bool },
    /// Removes for good. A repeat has no further effect: what is gone stays gone.
    Deletes,
}

impl Spec {
    /// The status recorded for a success (the HTTP equivalent, for REST and MCP alike).
    pub const fn success_status(&self) -> u16 {
        if self.creates { 201 } else { 200 }
    }

    /// The name the call is recorded under: what the caller called.
    pub fn name(&self, via: Via) -> &'static str {
        match via {
            Via::Rest => self.id,
            Via::Mcp => self.tool.unwrap_or(self.id),
        }
    }
}

/// The session a call is recorded in, told once. The caller may name one (`X-Session-Id`, the
/// MCP `session` argument): parsed with the call's context, checked at [`Operation::begin`]
/// (an open session of this credential), never again. The operation may settle one of its own
/// after the savepoint (the session it starts or ends, or the one it joins now to keep which
/// session did its work): a failure's rollback takes that away again. Sessions the operation
/// deleted are never recorded in. Without either, the call joins the caller's fresh session,
/// or is issued one, when it is recorded ([`Operation::finish`]).
#[derive(Debug, Default)]
struct CallSession {
    named: Option<SessionId>,
    settled: Option<SessionId>,
    deleted: Vec<SessionId>,
}

impl CallSession {
    /// The session known now: the operation's, else the named one, unless deleted.
    fn known(&self) -> Option<SessionId> {
        self.settled
            .or(self.named)
            .filter(|s| !self.deleted.contains(s))
    }

    /// A failure's rollback to the savepoint: what the operation settled is gone.
    fn rolled_back(&mut self) {
        self.settled = None;
        self.deleted.clear();
    }
}

/// Work an operation leaves for after its commit, with nothing held (see
/// [`Operation::after_commit`]).
pub type AfterCommit = std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>>;

pub struct Operation {
    tx: TenantTx,
    after: Vec<AfterCommit>,
    journal_on: bool,
    spec: Spec,
    context: CallContext,
    session: CallSession,
    organization: Option<OrganizationId>,
    result_ids: Vec<String>,
    result_count: Option<i32>,
    result_chars: Option<i32>,
    wrote: bool,
    /// Credentials scrubbed from what the operation itself stores (its goal, outcome,
    /// hand-off), recorded with the call unless the operation fails.
    exposed: Vec<Exposed>,
    started: Instant,
    now: DateTime<Utc>,
    rules: SessionRules,
}

impl Operation {
    /// Begins the transaction, reads the flag and checks an explicit session.
    pub async fn begin(
        db: &Db,
        tenant: &Tenant,
        spec: Spec,
        context: CallContext,
        now: DateTime<Utc>,
        rules: SessionRules,
    ) -> Result<Self> {
        crate::telemetry::record_operation(spec.id, tenant.account_id);
        let (mut tx, journal_on) = begin_journalled(db, tenant).await?;
        let named = match (context.session, journal_on) {
            (Some(id), true) => Some(sessions::check_explicit(&mut tx, id).await?),
            _ => None,
        };
        Ok(Self {
            tx,
            after: Vec::new(),
            journal_on,
            spec,
            context,
            session: CallSession {
                named,
                ..CallSession::default()
            },
            organization: None,
            result_ids: Vec::new(),
            result_count: None,
            result_chars: None,
            wrote: false,
            exposed: Vec::new(),
            started: Instant::now(),
            now,
            rules,
        })
    }

    pub fn tx(&mut self) -> &mut TenantTx {
        &mut self.tx
    }

    pub fn tenant(&self) -> &Tenant {
        self.tx.tenant()
    }

    pub fn now(&self) -> DateTime<Utc> {
        self.now
    }

    /// The checks every operation's spec asks for: the flag (journal operations exist only
    /// while it is on), then the scope.
    pub fn check(&self) -> Result<()> {
        checks(self.spec, self.journal_on, self.tenant())
    }

    pub fn opening(&self) -> Opening {
        Opening {
            assistant: self.context.assistant.clone(),
            goal: None,
            organization: None,
            repository: self.tenant().repository.clone(),
        }
    }

    pub fn results(&mut self, ids: impl IntoIterator<Item = String>, count: Option<usize>) {
        self.result_ids.extend(ids);
        self.result_count = count.map(|c| c as i32);
    }

    pub fn wrote(&mut self) {
        self.wrote = true;
    }

    /// A read that hands the journal to the conversation: `ids` (the sessions and items it
    /// handed over) and `chars` (what it answered) are kept with the call as its receipt.
    pub fn handed_over(&mut self, ids: impl IntoIterator<Item = String>, chars: usize) {
        self.result_ids.extend(ids);
        self.result_chars = Some(chars.min(i32::MAX as usize) as i32);
    }

    /// Why the call is made, as the journal keeps it.
    pub fn purpose(&self) -> Option<&str> {
        self.context.purpose.as_ref().map(|p| p.as_str())
    }

    /// The session the call is recorded in, settled now instead of when it finishes: the one
    /// it names, else the caller's session it joins (or is issued), by the rules `finish`
    /// applies. For operations that keep which session did them (closing an open item).
    pub async fn session_now(&mut self) -> Result<SessionId> {
        if let Some(id) = self.session.known() {
            return Ok(id);
        }
        let opening = self.opening();
        let id = sessions::join_or_issue(&mut self.tx, &opening, self.now, self.rules).await?;
        self.session.settled = Some(id);
        Ok(id)
    }

    /// The session the caller named, as checked at the start: open, and this credential's.
    pub fn named_session(&self) -> Option<SessionId> {
        self.session.named
    }

    /// [`Operation::session_now`], locked against deletion until the commit
    /// ([`sessions::hold`]): for operations that then lock what a deletion of sessions locks
    /// after them (an item, an exposure), so that every transaction takes sessions first.
    pub async fn held_session(&mut self) -> Result<SessionId> {
        let id = self.session_now().await?;
        if sessions::hold(&mut self.tx, id).await? {
            return Ok(id);
        }
        Err(self.named_session_gone(Error::SessionDeleted(id)))
    }

    /// A session the caller named (`X-Session-Id`), deleted by another transaction since the
    /// operation checked it, is answered as at `BEGIN`: it is gone (404). A session the call
    /// joined stays a race lost, which `ops::run` runs again, to join or open another.
    fn named_session_gone(&self, error: Error) -> Error {
        match error {
            Error::SessionDeleted(id) if self.session.named == Some(id) => sessions::not_own(id),
            other => other,
        }
    }

    /// A `field` text the operation stores, as scrubbed: what the scrub removed is recorded
    /// with the call (see [`exposures`]).
    pub fn keep(&mut self, field: Field, text: Option<Cleaned>) -> Option<String> {
        let text = text?;
        self.scrubbed(field, &text.found);
        Some(text.text)
    }

    /// Credentials scrubbed from a `field` text the operation stores.
    pub fn scrubbed(&mut self, field: Field, found: &[Found]) {
        self.exposed.extend(Exposed::each(field, found));
    }

    /// The call belongs to this session (session start and end name their own).
    pub fn use_session(&mut self, session: SessionId) {
        self.session.settled = Some(session);
    }

    /// The operation deleted these sessions: the call cannot be recorded in one of them (it
    /// joins or opens another).
    pub fn deleted_sessions(&mut self, sessions: &[SessionId]) {
        self.session.deleted.extend_from_slice(sessions);
    }

    /// The call acted on this organization's Record: it is that organization's activity, which
    /// its owner may read (with `orgs:read`) whichever session the call was made in.
    pub fn organization_activity(&mut self, organization: OrganizationId) {
        self.organization = Some(organization);
    }

    /// Leaves `work` for after the commit: it runs, with no transaction or connection held,
    /// once the operation has committed and succeeded, before its answer is sent; it opens its
    /// own short transactions. A run that fails or is run again drops it.
    pub fn after_commit(&mut self, work: AfterCommit) {
        self.after.push(work);
    }

    /// What the operation left for after its commit.
    pub fn take_after_commit(&mut self) -> Vec<AfterCommit> {
        std::mem::take(&mut self.after)
    }

    /// Finishes the operation with its HTTP-equivalent status: records what the journal keeps
    /// (with the exposures, under keys from `secret`) and commits. Returns the session the call
    /// was recorded in, when journalled.
    pub async fn finish(mut self, status: u16, secret: &ServerSecret) -> Result<Option<SessionId>> {
        if status >= 400 {
            self.tx.rollback_to_savepoint().await?;
            // What the operation settled or deleted after the savepoint is undone with it.
            self.session.rolled_back();
            // What the operation stored is gone; what the call keeps stays.
            self.exposed.clear();
        }
        let reads_journal = journal_read(self.spec, &self.context);
        let audit = calls::AuditRecord {
            id: AuditId(ids::new_id()),
            request_id: &self.context.request_id,
            method: &self.context.method,
            path: &self.context.path,
            status,
            at: self.now,
        };
        let mut call = self.journal_on.then(|| CallRecord {
            session_id: self.session.known(),
            assistant: self.context.assistant.clone(),
            operation: self.spec.name(self.context.via),
            organization: self.organization,
            purpose: self.context.purpose.as_ref().map(|p| p.as_str().to_owned()),
            target_ids: std::mem::take(&mut self.context.targets),
            status,
            input_shape: self.context.input_shape.take(),
            result_ids: std::mem::take(&mut self.result_ids),
            result_count: self.result_count,
            result_chars: self.result_chars.filter(|_| status < 400),
            wrote: self.wrote && status < 400,
            journal_read: reads_journal,
            duration_ms: millis_since(self.started),
            at: self.now,
        });
        // One statement: the audit entry and the call in the named or the fresh session.
        let mut session = calls::record(
            &mut self.tx,
            Some(&audit),
            audit.id,
            call.as_ref(),
            self.rules,
        )
        .await
        .map_err(|e| self.named_session_gone(e))?;
        if let Some(call) = call.as_mut().filter(|_| session.is_none()) {
            // No fresh session to join: issue one (rare: the first call, or after 30 quiet
            // minutes), then record the call in it.
            let opening = self.opening();
            let id = sessions::join_or_issue(&mut self.tx, &opening, self.now, self.rules).await?;
            call.session_id = Some(id);
            session = calls::record(&mut self.tx, None, audit.id, Some(call), self.rules).await?;
            if session.is_none() {
                return Err(Error::Internal(anyhow::anyhow!(
                    "the call could not be recorded in session {id}"
                )));
            }
        }
        self.exposed.append(&mut self.context.exposed);
        if let Some(session) = session.filter(|_| !self.exposed.is_empty()) {
            exposures::record(&mut self.tx, session, &self.exposed, self.now, secret).await?;
        }
        self.tx.commit().await.map_err(Error::at_commit)?;
        Ok(session)
    }
}

/// The SQLSTATE `e` carries, once the cache has forgotten what the opening found it had
/// wrong: every flag when one changed (`N8VFL`), the credential when it was revoked (`N8VRV`).
fn forget_refused(db: &Db, tenant: &Tenant, e: &sqlx::Error) -> Option<String> {
    let code = e.as_database_error()?.code()?.into_owned();
    match code.as_str() {
        FLAG_CHANGED => db.cache().forget_flags(),
        REVOKED => {
            if let Some(credential) = tenant.credential_id {
                db.cache().forget_credential(credential);
            }
        }
        _ => {}
    }
    Some(code)
}

/// Whether a call of `spec` in `context` is kept as a read of the journal itself.
fn journal_read(spec: Spec, context: &CallContext) -> bool {
    context.own || matches!(spec.journal, JournalUse::Read | JournalUse::Capture)
}

/// Whole milliseconds since `started`, as a call's duration keeps them.
fn millis_since(started: Instant) -> i32 {
    started.elapsed().as_millis().min(i32::MAX as u128) as i32
}

/// The checks of [`Operation::check`], for `spec` run by `tenant` with the journal flag
/// `journal_on`.
fn checks(spec: Spec, journal_on: bool, tenant: &Tenant) -> Result<()> {
    if spec.needs_journal && !journal_on {
        return Err(Error::JournalOff);
    }
    spec.scopes
        .iter()
        .try_for_each(|scope| tenant.scopes.require(*scope))
}

/// The operation's transaction, begun with its savepoint in one round trip, and the journal
/// flag: the cached value, which the begin itself confirms (a changed flag refuses the begin,
/// and it is read again), or, when not cached, read inside the transaction and cached.
async fn begin_journalled(db: &Db, tenant: &Tenant) -> Result<(TenantTx, bool)> {
    let flag = Flag::AssistantJournal;
    let refused = |e: sqlx::Error| {
        forget_refused(db, tenant, &e);
        Error::from(e)
    };
    if let Some(on) = db.cache().flag(tenant.account_id, flag.name()) {
        let checks = Checks {
            flag: Some((flag.name(), on)),
            savepoint: true,
            account_lock: true,
        };
        match TenantTx::begin_with(db, tenant, checks).await {
            Ok(tx) => return Ok((tx, on)),
            // The flag changed: forgotten, and read again below.
            Err(e) if forget_refused(db, tenant, &e).as_deref() == Some(FLAG_CHANGED) => {}
            Err(e) => return Err(Error::from(e)),
        }
    }
    let checks = Checks {
        flag: None,
        savepoint: true,
        account_lock: true,
    };
    let mut tx = TenantTx::begin_with(db, tenant, checks)
        .await
        .map_err(refused)?;
    let on = flags::enabled(&mut tx, flag).await?;
    db.cache().keep_flag(tenant.account_id, flag.name(), on);
    Ok((tx, on))
}
