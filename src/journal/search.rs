//! Full-text search over the journal's prose (PostgreSQL, english): sessions' goals, outcomes,
//! hand-offs and summaries, calls' purposes, week and month digests. Ranked with `ts_rank_cd`, newest
//! first among equals. Visibility is the policies' business, as for every read; sessions that
//! only read the journal are left out, exactly as the session list leaves them out.

use super::sql::{conditions, escape_like};
use crate::db::TenantTx;
use crate::error::Result;
use crate::ids::{CallId, DigestId, OrganizationId, SessionId};
use chrono::{DateTime, Utc};
use serde::Serialize;
use uuid::Uuid;

/// The most sessions and the most calls (each) a search ranks: the newest matches (ids are
/// UUIDv7, in time order). A word found in tens of thousands of calls then costs what a
/// thousand cost; a more specific query reaches older matches.
pub const MAX_CANDIDATES: i64 = 1_000;

/// What narrows a search besides the words.
#[derive(Debug, Clone, Default)]
pub struct SearchFilter {
    pub repository: Option<String>,
    pub organization: Option<OrganizationId>,
    /// Case-insensitive substring of the assistant name.
    pub assistant: Option<String>,
    pub from: DateTime<Utc>,
    pub to: Option<DateTime<Utc>>,
}

/// One match, best first.
#[derive(Debug, Clone, Serialize, serde::Deserialize, utoipa::ToSchema)]
#[schema(example = json!({
    "kind": "session",
    "id": "ses_01M72AZ1M0ETFB59TDWH9EDD1R",
    "session_id": "ses_01M72AZ1M0ETFB59TDWH9EDD1R",
    "at": "2026-11-10T09:00:00Z",
    "snippet": "Get the [login] fix ready for review",
    "rank": 0.1
}))]
pub struct SearchHit {
    /// What matched: `session` (goal, outcome, hand-off or summary), `call` (its purpose) or `digest`.
    pub kind: String,
    /// The id of what matched (`ses_…`, `call_…` or `dig_…`).
    pub id: String,
    /// The session the match belongs to (absent for digests).
    pub session_id: Option<SessionId>,
    /// When: the session's start, the call's time, or the digest period's first day.
    pub at: DateTime<Utc>,
    /// The matching text, the matched words in `[brackets]`.
    pub snippet: String,
    /// The relevance (higher is better; comparable within one answer).
    pub rank: f32,
}

#[derive(sqlx::FromRow)]
struct HitRow {
    kind: String,
    id: Uuid,
    session_id: Option<Uuid>,
    at: DateTime<Utc>,
    snippet: String,
    rank: f32,
}

/// The best `limit` matches of `query` (web search syntax: words, "phrases", `or`, `-not`).
#[tracing::instrument(skip_all, err)]
pub async fn search(
    tx: &mut TenantTx,
    query: &str,
    filter: &SearchFilter,
    limit: i64,
) -> Result<Vec<SearchHit>> {
    // Digests belong to no repository, organization or assistant: a narrowed search skips them.
    let narrowed =
        filter.repository.is_some() || filter.organization.is_some() || filter.assistant.is_some();
    let rows: Vec<HitRow> = sqlx::query_as(sqlx::AssertSqlSafe(search_sql(filter)))
        .bind(query)
        .bind(&filter.repository)
        .bind(filter.organization)
        .bind(filter.assistant.as_deref().map(escape_like))
        .bind(filter.from)
        .bind(filter.to)
        .bind(narrowed)
        .bind(limit)
        .fetch_all(tx.conn())
        .await?;
    Ok(rows.into_iter().map(SearchHit::from).collect())
}

/// The search's SQL for these filters: `$1` the query, `$2` repository, `$3` organization, `$4`
/// assistant, `$5`/`$6` from/to, `$7` whether digests are left out, `$8` the limit. Public for
/// the plan tests (`tests/api/plans.rs`).
pub fn search_sql(filter: &SearchFilter) -> String {
    // Only the filters given become conditions (as in `reads::list_sessions_sql`).
    let narrow = conditions(
        &["NOT journal_only"],
        &[
            (filter.repository.is_some(), "repository = $2"),
            (filter.organization.is_some(), "organization_id = $3"),
            (
                filter.assistant.is_some(),
                "assistant ILIKE '%' || $4 || '%'",
            ),
        ],
    );
    let until = if filter.to.is_some() {
        "started_at < $6"
    } else {
        "true"
    };
    let in_window = if filter.to.is_some() {
        "c.created_at >= $5 AND c.created_at < $6"
    } else {
        "c.created_at >= $5"
    };
    // The text indexes find the candidates (`n8v_session_matches`, `n8v_call_matches`: under
    // row-level security `@@` is never an index condition, see migration 0011); the rows are
    // then read as the caller, so the policies decide what is found, as for every read. Each
    // candidate's row is looked up by its key (`OFFSET 0` keeps the planner from hashing the
    // account's sessions instead).
    // Ranks first, headlines for the page only: `ts_headline` re-reads the text, so it runs on
    // the `limit` best matches rather than on every match.
    format!(
        "WITH q AS (SELECT websearch_to_tsquery('english', $1) AS q), \
         sessions AS ( \
           SELECT 'session' AS kind, s.session_id AS id, s.session_id, s.started_at AS at, \
                  concat_ws(' — ', s.goal, s.outcome, s.summary->>'summary', \
                    (SELECT string_agg(i, '; ') FROM jsonb_array_elements_text( \
                        coalesce(s.handoff->'decisions', '[]') || coalesce(s.handoff->'open_questions', '[]') \
                        || coalesce(s.handoff->'next_steps', '[]')) i)) AS text, \
                  ts_rank_cd(n8v_session_document(s.goal, s.outcome, s.summary, s.handoff), q.q) AS rank \
             FROM q, LATERAL (SELECT * FROM n8v_session_matches(q.q, $5) \
                       ORDER BY session_id DESC LIMIT {MAX_CANDIDATES}) m, LATERAL ( \
                 SELECT * FROM journal_sessions \
                  WHERE account_id = m.account_id AND session_id = m.session_id OFFSET 0) s \
            WHERE {narrow} AND {until} \
         ), \
         calls AS ( \
           SELECT 'call' AS kind, c.call_id AS id, c.session_id, c.created_at AS at, \
                  c.purpose AS text, ts_rank_cd(n8v_text_document(c.purpose), q.q) AS rank \
             FROM q, LATERAL (SELECT * FROM n8v_call_matches(q.q, $5) \
                       ORDER BY call_id DESC LIMIT {MAX_CANDIDATES}) m \
             JOIN journal_calls c ON c.account_id = m.account_id AND c.call_id = m.call_id \
            WHERE {in_window} \
              AND EXISTS (SELECT 1 FROM journal_sessions \
                           WHERE journal_sessions.account_id = c.account_id \
                             AND journal_sessions.session_id = c.session_id AND {narrow} \
                          OFFSET 0) \
         ), \
         digests AS ( \
           SELECT 'digest' AS kind, d.digest_id AS id, NULL::uuid AS session_id, \
                  d.period_start::timestamptz AS at, coalesce(d.summary->>'summary', '') AS text, \
                  ts_rank_cd(n8v_json_document(d.summary), q.q) AS rank \
             FROM journal_digests d, q \
            WHERE NOT $7 AND d.account_id = n8v_account() AND n8v_json_document(d.summary) @@ q.q \
              AND d.period_end::timestamptz > $5 \
              AND ($6::timestamptz IS NULL OR d.period_start::timestamptz < $6) \
         ), \
         best AS ( \
           SELECT * FROM sessions UNION ALL SELECT * FROM calls UNION ALL SELECT * FROM digests \
            ORDER BY rank DESC, at DESC, id DESC LIMIT $8 \
         ) \
         SELECT kind, id, session_id, at, rank::real AS rank, \
                ts_headline('english', text, q.q, 'StartSel=[, StopSel=], MaxWords=30, MinWords=8' \
                  || CASE WHEN kind = 'session' THEN ', MaxFragments=2' ELSE '' END) AS snippet \
           FROM best, q ORDER BY rank DESC, at DESC, id DESC"
    )
}

/// Readies the transaction for a search of `query`: `false` when the query has no word the
/// text indexes can find (only negated words, or only stop words: `querytree` is then `T` or
/// empty), since such a query would match, and read, the account's whole history. Otherwise
/// the statements after it run under `timeout` until [`end_search`], which needs the
/// previous value returned here.
#[tracing::instrument(skip_all, err)]
pub async fn begin_search(
    tx: &mut TenantTx,
    query: &str,
    timeout: std::time::Duration,
) -> Result<Option<String>> {
    let row = sqlx::query!(
        r#"SELECT querytree(websearch_to_tsquery('english', $1)) NOT IN ('', 'T') AS "indexable!",
                  current_setting('statement_timeout') AS "previous!""#,
        query
    )
    .fetch_one(tx.conn())
    .await?;
    if !row.indexable {
        return Ok(None);
    }
    sqlx::query_scalar!(
        "SELECT set_config('statement_timeout', $1, true)",
        format!("{}ms", timeout.as_millis().max(1))
    )
    .fetch_one(tx.conn())
    .await?;
    Ok(Some(row.previous))
}

/// Puts back the statement timeout [`begin_search`] replaced.
#[tracing::instrument(skip_all, err)]
pub async fn end_search(tx: &mut TenantTx, previous: &str) -> Result<()> {
    sqlx::query_scalar!("SELECT set_config('statement_timeout', $1, true)", previous)
        .fetch_one(tx.conn())
        .await?;
    Ok(())
}

impl From<HitRow> for SearchHit {
    fn from(row: HitRow) -> Self {
        let (kind, id) = match row.kind.as_str() {
            "session" => ("session", SessionId(row.id).to_string()),
            "call" => ("call", CallId(row.id).to_string()),
            _ => ("digest", DigestId(row.id).to_string()),
        };
        Self {
            kind: kind.into(),
            id,
            session_id: row.session_id.map(SessionId),
            at: row.at,
            snippet: row.snippet,
            rank: row.rank,
        }
    }
}
