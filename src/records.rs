//! Records: append-only logs, one per account and one per organization. Which Records a
//! caller can open is decided by row-level security (its own account's, and those of
//! organizations where it is a member with the read permission).

use crate::db::TenantTx;
use crate::error::{Error, Result};
use crate::ids::{self, AccountId, EntryId, Kind, OrganizationId, RecordId, TypedId};
use crate::scrub::clean_text;
use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::PgConnection;
use uuid::Uuid;

pub const MAX_LINE_CHARS: usize = 4000;
pub const MAX_PAGE: i64 = 200;
/// What [`parse_line`] accepts, as input schemas state it: one line with something besides
/// spaces, no control character, no bidirectional control (nor a Unicode tag character, which
/// the pattern cannot name: see `journal::meta::LINE_PATTERN`).
pub const LINE_PATTERN: &str = "^[\\t\\n\\u000B\\u000C\\r\\u0085 ]*[^\\s\\u0000-\\u001F\\u007F-\\u009F\\u202A-\\u202E\\u2066-\\u2069][^\\u0000-\\u001F\\u007F-\\u009F\\u202A-\\u202E\\u2066-\\u2069]*[\\t\\n\\u000B\\u000C\\r\\u0085 ]*$";

/// A Record: an append-only log of lines put on record, one per account and one per
/// organization.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(example = json!({
    "id": "rec_01KYP3WV40ER08K6AGV0VFCXEC",
    "name": "Ada",
    "kind": "account",
    "organization_id": null,
    "created_at": "2026-08-16T12:00:00Z"
}))]
pub struct Record {
    /// The Record id (`rec_…`).
    pub id: RecordId,
    /// The name of the account or organization it belongs to.
    pub name: String,
    /// `account` for an account's own Record, `organization` for an organization's.
    pub kind: &'static str,
    /// The organization (`org_…`) for an organization's Record.
    pub organization_id: Option<OrganizationId>,
    /// When the Record was created.
    pub created_at: DateTime<Utc>,
}

/// One line put on record.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(example = json!({
    "id": "ent_01M72ECX80E7HAP3AMKDQG6STT",
    "record_id": "rec_01KYP3WV40ER08K6AGV0VFCXEC",
    "line": "Fix ready for review; tests passed",
    "author_account_id": "acc_01KYP3WV40FHEAD8X4A1JH69RE",
    "created_at": "2026-11-10T10:00:00Z"
}))]
pub struct Entry {
    /// The entry id (`ent_…`).
    pub id: EntryId,
    /// The Record it belongs to (`rec_…`).
    pub record_id: RecordId,
    /// The line: one line of text, credentials scrubbed.
    pub line: String,
    /// The account that put it on record (`acc_…`).
    pub author_account_id: AccountId,
    /// When it was put on record.
    pub created_at: DateTime<Utc>,
}

struct RecordRow {
    record_id: Uuid,
    name: String,
    organization_id: Option<Uuid>,
    created_at: DateTime<Utc>,
}

struct EntryRow {
    entry_id: Uuid,
    record_id: Uuid,
    line: String,
    author_account_id: Uuid,
    created_at: DateTime<Utc>,
}

impl From<RecordRow> for Record {
    fn from(r: RecordRow) -> Self {
        Record {
            id: RecordId(r.record_id),
            name: r.name,
            kind: r.organization_id.map_or("account", |_| "organization"),
            organization_id: r.organization_id.map(OrganizationId),
            created_at: r.created_at,
        }
    }
}

impl From<EntryRow> for Entry {
    fn from(e: EntryRow) -> Self {
        Entry {
            id: EntryId(e.entry_id),
            record_id: RecordId(e.record_id),
            line: e.line,
            author_account_id: AccountId(e.author_account_id),
            created_at: e.created_at,
        }
    }
}

/// A line as it will be stored: one line of printable text, credentials scrubbed.
pub fn parse_line(line: &str) -> Result<String> {
    let sent = line.chars().count();
    let line = line.trim();
    if line.is_empty() || sent > MAX_LINE_CHARS {
        return Err(Error::BadRequest(format!(
            "line must be 1 to {MAX_LINE_CHARS} characters"
        )));
    }
    if line.chars().any(char::is_control) {
        return Err(Error::BadRequest(
            "line must be a single line without control characters".into(),
        ));
    }
    if let Some((at, c)) = crate::ids::hidden_at(line) {
        return Err(Error::BadRequest(format!(
            "line holds U+{:04X}, {}, at character {at}: such characters hide or reorder text \
             for the person who reads it; remove it",
            c as u32,
            crate::ids::hidden_kind(c)
        )));
    }
    Ok(clean_text(line))
}

/// Creates the Record of an account (`organization` `None`) or of one of its organizations,
/// named after it, in the caller's transaction (the operator's `admin` commands).
#[tracing::instrument(skip_all, err)]
pub async fn create(
    conn: &mut PgConnection,
    account: Uuid,
    organization: Option<Uuid>,
    name: &str,
) -> Result<()> {
    sqlx::query!(
        "INSERT INTO records (account_id, record_id, organization_id, name) VALUES ($1, $2, $3, $4)",
        account,
        ids::new_id(),
        organization,
        name
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, err)]
pub async fn list(tx: &mut TenantTx) -> Result<Vec<Record>> {
    let rows = sqlx::query_as!(
        RecordRow,
        "SELECT record_id, name, organization_id, created_at FROM records
         ORDER BY organization_id NULLS FIRST, created_at, record_id"
    )
    .fetch_all(tx.conn())
    .await?;
    Ok(rows.into_iter().map(Record::from).collect())
}

/// A Record the caller can open: whose it is, and which organization's.
#[derive(Clone, Copy, Debug)]
pub struct Opened {
    pub id: RecordId,
    owner: Uuid,
    pub organization: Option<OrganizationId>,
}

/// Opens a visible Record; 404 when it is not visible (or does not exist).
#[tracing::instrument(skip_all, err(level = "info"))]
pub async fn open(tx: &mut TenantTx, id: RecordId) -> Result<Opened> {
    let row = sqlx::query!(
        "SELECT account_id, organization_id FROM records WHERE record_id = $1",
        id.0
    )
    .fetch_optional(tx.conn())
    .await?;
    let (owner, organization) = row
        .map(|r| (r.account_id, r.organization_id))
        .ok_or_else(|| Error::not_found(Kind::Record, &id.to_string()))?;
    Ok(Opened {
        id,
        owner,
        organization: organization.map(OrganizationId),
    })
}

pub struct EntryPage {
    pub entries: Vec<Entry>,
    pub next_cursor: Option<EntryId>,
}

/// Entries newest first; `cursor` is the last entry id of the previous page.
pub async fn entries(
    tx: &mut TenantTx,
    record: &Opened,
    limit: i64,
    cursor: Option<&str>,
) -> Result<EntryPage> {
    let before = match cursor {
        None => None,
        Some(c) => Some(EntryId::parse(c).ok_or_else(|| {
            Error::BadRequest(format!(
                "cursor {:?} is not a next_cursor this endpoint returned",
                ids::shown(c)
            ))
        })?),
    };
    let rows = entry_rows(tx, record, before, limit + 1).await?;
    let mut entries: Vec<Entry> = rows.into_iter().map(Entry::from).collect();
    let next_cursor = if entries.len() as i64 > limit {
        entries.truncate(limit as usize);
        entries.last().map(|e| e.id)
    } else {
        None
    };
    Ok(EntryPage {
        entries,
        next_cursor,
    })
}

/// At most `limit` entries of the Record before `before` (all when `None`), newest first.
#[tracing::instrument(skip_all, err)]
async fn entry_rows(
    tx: &mut TenantTx,
    record: &Opened,
    before: Option<EntryId>,
    limit: i64,
) -> Result<Vec<EntryRow>> {
    Ok(sqlx::query_as!(
        EntryRow,
        "SELECT entry_id, record_id, line, author_account_id, created_at FROM record_entries
         WHERE account_id = $1 AND record_id = $2 AND ($3::uuid IS NULL OR entry_id < $3)
         ORDER BY entry_id DESC LIMIT $4",
        record.owner,
        record.id.0,
        before.map(|e| e.0),
        limit
    )
    .fetch_all(tx.conn())
    .await?)
}

struct AppendedRow {
    owner: Uuid,
    organization: Option<Uuid>,
    entry_id: Uuid,
    line: String,
    author: Uuid,
    created_at: DateTime<Utc>,
}

/// Opens a visible Record and appends a line to it (already checked with [`parse_line`]) in
/// one statement: one round trip where [`open`] and [`append`] take two. 404 when the Record
/// is not visible (or does not exist).
#[tracing::instrument(skip_all, err(level = "info"))]
pub async fn open_and_append(
    tx: &mut TenantTx,
    id: RecordId,
    line: &str,
    now: DateTime<Utc>,
) -> Result<(Opened, Entry)> {
    let tenant = tx.tenant().clone();
    // `n8v_append_entry` (migration 0039): the one-statement append runs it too.
    let row = sqlx::query_as!(
        AppendedRow,
        r#"SELECT owner AS "owner!", organization AS "organization?", entry_id AS "entry_id!",
                  line AS "line!", author AS "author!", created_at AS "created_at!"
             FROM n8v_append_entry($1, $2, $3, $4, $5, $6)"#,
        id.0,
        ids::new_id(),
        line,
        tenant.account_id,
        tenant.credential_id,
        now
    )
    .fetch_optional(tx.conn())
    .await?;
    let AppendedRow {
        owner,
        organization,
        entry_id,
        line,
        author,
        created_at,
    } = row.ok_or_else(|| Error::not_found(Kind::Record, &id.to_string()))?;
    let opened = Opened {
        id,
        owner,
        organization: organization.map(OrganizationId),
    };
    let entry = Entry {
        id: EntryId(entry_id),
        record_id: id,
        line,
        author_account_id: AccountId(author),
        created_at,
    };
    Ok((opened, entry))
}
