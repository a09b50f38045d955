//! The Record operations: ordinary public work, journalled like every other. A call on an
//! organization's Record is that organization's activity.

use super::{CallContext, Finished, Op, Operation, Services, Target, limit, named, target_of};
use crate::auth::Scope;
use crate::db::Tenant;
use crate::error::Result;
use crate::ids::{EntryId, RecordId};
use crate::operation::fused;
use crate::operation::{Effect, JournalUse, Refusal, Spec};
use crate::records::{self, Entry, MAX_LINE_CHARS, Record};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

const fn record_op(
    id: &'static str,
    tool: &'static str,
    title: &'static str,
    scopes: &'static [Scope],
    creates: bool,
) -> Spec {
    Spec {
        id,
        tool: Some(tool),
        journal: JournalUse::None,
        scopes,
        needs_journal: false,
        creates,
        title,
        // The only Record operation that creates is an append, and each append adds a line.
        effect: if creates {
            Effect::Writes { idempotent: false }
        } else {
            Effect::Reads
        },
        errors: &[],
    }
}

/// Opens the Record and marks the call as its organization's activity when it is one's.
async fn open(op: &mut Operation, id: &str) -> Result<records::Opened> {
    let record = records::open(op.tx(), named(id)?).await?;
    if let Some(organization) = record.organization {
        op.organization_activity(organization);
    }
    Ok(record)
}

/// Lists the Records the caller can open.
#[derive(Debug, Default, Clone)]
pub struct ListRecords;

/// The Records this credential can open.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct RecordList {
    /// The account's own Record first, then those of organizations, oldest first.
    pub records: Vec<Record>,
}

impl Op for ListRecords {
    const SPEC: Spec = record_op(
        "listRecords",
        "record_list",
        "List Records",
        &[Scope::RecordsRead],
        false,
    );
    type Output = RecordList;

    async fn run(self, op: &mut Operation, _: &Services) -> Result<RecordList> {
        let records = records::list(op.tx()).await?;
        op.results(
            records.iter().map(|r| r.id.to_string()),
            Some(records.len()),
        );
        Ok(RecordList { records })
    }
}

/// Reads a Record's lines, newest first.
#[derive(Debug, Default, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListEntries {
    /// The Record (the path's over REST, `record_id` over MCP).
    #[serde(skip)]
    pub record: String,
    /// How many entries to return, from 1 to 200 (default 50), newest first.
    #[serde(default)]
    #[schemars(range(min = 1, max = records::MAX_PAGE))]
    pub limit: Option<i64>,
    /// The `next_cursor` of the previous page.
    #[serde(default)]
    #[schemars(
        length(max = 31),
        regex(pattern = "^(ent_[0-7][0-9A-HJKMNP-TV-Z]{25})?$")
    )]
    pub cursor: Option<String>,
}
crate::openapi_params!(ListEntries);

/// A page of a Record's entries, newest first.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct EntryList {
    /// The entries, newest first.
    pub entries: Vec<Entry>,
    /// Pass it as `cursor` for the next page; absent on the last page.
    pub next_cursor: Option<EntryId>,
}

impl Op for ListEntries {
    const SPEC: Spec = Spec {
        errors: &[
            Refusal::bad_request("a bad `limit` or `cursor`"),
            Refusal::not_found("no Record with this id is visible to this credential"),
        ],
        ..record_op(
            "listRecordEntries",
            "record_read",
            "Read a Record",
            &[Scope::RecordsRead],
            false,
        )
    };
    type Output = EntryList;

    fn targets(&self) -> Vec<Target> {
        vec![target_of::<RecordId>(&self.record)]
    }

    async fn run(self, op: &mut Operation, _: &Services) -> Result<EntryList> {
        let limit = limit(self.limit, 50, records::MAX_PAGE)?;
        let record = open(op, &self.record).await?;
        let page =
            records::entries(op.tx(), &record, limit, super::cursor_given(&self.cursor)).await?;
        op.results(
            page.entries.iter().map(|e| e.id.to_string()),
            Some(page.entries.len()),
        );
        Ok(EntryList {
            entries: page.entries,
            next_cursor: page.next_cursor,
        })
    }
}

/// Puts a line on record (append-only).
#[derive(Debug, Default, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(example = json!({"line": "Fix ready for review; tests passed"}))]
pub struct AppendEntry {
    /// The Record (the path's over REST, `record_id` over MCP).
    #[serde(skip)]
    pub record: String,
    /// The line to put on record: one line of text, 1 to 4,000 characters, no control
    /// characters; credentials in it are scrubbed.
    #[schemars(length(min = 1, max = MAX_LINE_CHARS), regex(pattern = records::LINE_PATTERN))]
    pub line: String,
}
crate::openapi_schema!(AppendEntry => "AppendRequest");

impl Op for AppendEntry {
    const SPEC: Spec = Spec {
        errors: &[
            Refusal::bad_request("a line that is empty, too long or has control characters"),
            Refusal::not_found("no Record with this id is visible to this credential"),
            Refusal::invalid_body("`line` missing or not a string"),
        ],
        ..record_op(
            "appendRecordEntry",
            "record_append",
            "Put a line on record",
            &[Scope::RecordsWrite],
            true,
        )
    };
    type Output = Entry;

    fn targets(&self) -> Vec<Target> {
        vec![target_of::<RecordId>(&self.record)]
    }

    /// The common case in one statement (`operation::fused`): a visible Record, the caller's
    /// fresh (or named, open) session.
    async fn fused(
        &self,
        services: &Services,
        tenant: &Tenant,
        context: &CallContext,
    ) -> Option<Finished<Entry>> {
        let line = records::parse_line(&self.line).ok()?;
        let record = named(&self.record).ok()?;
        let (db, rules) = (&services.db, services.config.session_rules);
        let now = services.clock.now();
        let appended =
            fused::append(db, now, rules, tenant, Self::SPEC, context, record, &line).await?;
        Some(match appended {
            Ok(appended) => Finished {
                spec: Self::SPEC,
                result: Ok(appended.entry),
                session: appended.session,
            },
            Err(e) => Finished::refused(Self::SPEC, e),
        })
    }

    async fn run(self, op: &mut Operation, _: &Services) -> Result<Entry> {
        let line = records::parse_line(&self.line)?;
        let now = op.now();
        let (record, entry) =
            records::open_and_append(op.tx(), named(&self.record)?, &line, now).await?;
        if let Some(organization) = record.organization {
            op.organization_activity(organization);
        }
        op.results([entry.id.to_string()], None);
        op.wrote();
        Ok(entry)
    }
}
