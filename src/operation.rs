//! One public operation, journalled: the transaction it runs in, and what the journal keeps of
//! it. REST handlers and MCP tools both go through this, so the rules are written once:
//!
//! * the operation runs in the caller's tenant transaction, after a savepoint;
//! * on success its call is recorded in the same transaction, so both commit or neither does;
//! * on failure the operation's effects are rolled back to the savepoint and the failed call is
//!   recorded, so a call exists exactly when its operation happened or failed;
//! * an audit entry is written for every operation; the call links to it;
//! * with the `assistantJournal` flag off, nothing is journalled.

use crate::db::{Db, Tenant, TenantTx};
use crate::error::{Error, Result};
use crate::flags::{self, Flag};
use crate::journal::sessions::{self, Opening};
use crate::journal::{CallRecord, SessionRules, calls};
use chrono::{DateTime, Utc};
use std::time::Instant;
use uuid::Uuid;

/// How an operation relates to the journal itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JournalUse {
    /// Ordinary work (Records and the rest).
    None,
    /// Reads the journal (recorded; sessions holding only these stay out of the list).
    Read,
    /// Opens or closes a session: journal bookkeeping, not work of its own.
    Bookkeeping,
}

/// The name of an operation (its OpenAPI operation id / MCP tool) and how it uses the journal.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    pub id: &'static str,
    pub journal: JournalUse,
}

/// What the caller said about the call, from headers or tool arguments, already validated.
#[derive(Debug, Default, Clone)]
pub struct CallContext {
    pub purpose: Option<String>,
    pub session: Option<String>,
    pub assistant: String,
    pub targets: Vec<String>,
    pub input_shape: Option<serde_json::Value>,
    pub request_id: String,
    pub method: String,
    pub path: String,
}

pub struct Operation {
    tx: TenantTx,
    journal_on: bool,
    spec: Spec,
    context: CallContext,
    explicit_session: Option<Uuid>,
    session: Option<Uuid>,
    result_ids: Vec<String>,
    result_count: Option<i32>,
    wrote: bool,
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
        let mut tx = TenantTx::begin(db, tenant).await?;
        let journal_on = flags::enabled(&mut tx, Flag::AssistantJournal).await?;
        let explicit_session = match (&context.session, journal_on) {
            (Some(text), true) => Some(sessions::check_explicit(&mut tx, text).await?),
            _ => None,
        };
        sqlx::query("SAVEPOINT operation")
            .execute(tx.conn())
            .await?;
        Ok(Self {
            tx,
            journal_on,
            spec,
            context,
            explicit_session,
            session: None,
            result_ids: Vec::new(),
            result_count: None,
            wrote: false,
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

    pub fn journal_on(&self) -> bool {
        self.journal_on
    }

    pub fn require(&self, scope: crate::auth::Scope) -> Result<()> {
        if self.tenant().scopes.iter().any(|s| s == scope.as_str()) {
            Ok(())
        } else {
            Err(Error::MissingScope(scope.as_str()))
        }
    }

    /// Journal endpoints exist only while the flag is on.
    pub fn require_journal(&self) -> Result<()> {
        if self.journal_on {
            Ok(())
        } else {
            Err(Error::JournalOff)
        }
    }

    pub fn opening(&self) -> Opening {
        Opening {
            assistant: self.context.assistant.clone(),
            goal: None,
            organization: None,
            repository: self.tenant().repository.clone(),
        }
    }

    pub fn set_input_shape(&mut self, shape: serde_json::Value) {
        self.context.input_shape = Some(match self.context.input_shape.take() {
            Some(serde_json::Value::Object(mut query)) => {
                query.insert("body".into(), shape);
                serde_json::Value::Object(query)
            }
            _ => serde_json::json!({ "body": shape }),
        });
    }

    pub fn add_target(&mut self, id: &str) {
        self.context
            .targets
            .push(crate::scrub::scrub(id).into_owned());
    }

    pub fn results(&mut self, ids: impl IntoIterator<Item = String>, count: Option<usize>) {
        self.result_ids.extend(ids);
        self.result_count = count.map(|c| c as i32);
    }

    pub fn wrote(&mut self) {
        self.wrote = true;
    }

    /// The call belongs to this session (session start and end name their own).
    pub fn use_session(&mut self, session: Uuid) {
        self.session = Some(session);
    }

    /// Finishes the operation with its HTTP-equivalent status: records what the journal keeps
    /// and commits. Returns the session the call was recorded in, when journalled.
    pub async fn finish(mut self, status: u16) -> Result<Option<Uuid>> {
        if status >= 400 {
            sqlx::query("ROLLBACK TO SAVEPOINT operation")
                .execute(self.tx.conn())
                .await?;
        }
        let audit_id = calls::record_audit(
            &mut self.tx,
            &calls::AuditRecord {
                request_id: &self.context.request_id,
                method: &self.context.method,
                path: &self.context.path,
                status,
                at: self.now,
            },
        )
        .await?;
        let mut session = None;
        if self.journal_on {
            let id = match self.session.or(self.explicit_session) {
                Some(id) => id,
                None => {
                    let opening = self.opening();
                    sessions::join_or_issue_implicit(&mut self.tx, &opening, self.now, self.rules)
                        .await?
                }
            };
            let call = CallRecord {
                session_id: id,
                operation: self.spec.id,
                purpose: self.context.purpose.clone(),
                target_ids: std::mem::take(&mut self.context.targets),
                status,
                input_shape: self.context.input_shape.take(),
                result_ids: std::mem::take(&mut self.result_ids),
                result_count: self.result_count,
                wrote: self.wrote && status < 400,
                journal_read: self.spec.journal == JournalUse::Read,
                journal_call: self.spec.journal != JournalUse::None,
                duration_ms: self.started.elapsed().as_millis().min(i32::MAX as u128) as i32,
                at: self.now,
            };
            calls::record_call(&mut self.tx, &call, audit_id).await?;
            session = Some(id);
        }
        self.tx.commit().await?;
        Ok(session)
    }
}
