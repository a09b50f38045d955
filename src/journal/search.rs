//! Full-text search over the journal's prose (PostgreSQL, english): sessions' goals, outcomes,
//! hand-offs and summaries, calls' purposes, week and month digests. Ranked with `ts_rank_cd`, newest
//! first among equals. Visibility is the policies' business, as for every read; sessions that
//! only read the journal are left out, exactly as the session list leaves them out.

use crate::db::TenantTx;
use crate::error::Result;
use crate::ids::{CallId, DigestId, OrganizationId, SessionId};
use chrono::{DateTime, Utc};
use serde::Serialize;
use uuid::Uuid;

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
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
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
    pub kind: &'static str,
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
pub async fn search(
    tx: &mut TenantTx,
    query: &str,
    filter: &SearchFilter,
    limit: i64,
) -> Result<Vec<SearchHit>> {
    // Digests belong to no repository, organization or assistant: a narrowed search skips them.
    let narrowed =
        filter.repository.is_some() || filter.organization.is_some() || filter.assistant.is_some();
    let rows: Vec<HitRow> = sqlx::query_as(
        "WITH q AS (SELECT websearch_to_tsquery('english', $1) AS q), \
         visible AS NOT MATERIALIZED ( \
           SELECT s.* FROM journal_sessions s \
            WHERE NOT s.journal_only \
              AND ($2::text IS NULL OR s.repository = $2) \
              AND ($3::uuid IS NULL OR s.organization_id = $3) \
              AND ($4::text IS NULL OR s.assistant ILIKE '%' || $4 || '%') \
         ), \
         sessions AS ( \
           SELECT 'session' AS kind, s.session_id AS id, s.session_id, s.started_at AS at, \
                  ts_headline('english', concat_ws(' — ', s.goal, s.outcome, s.summary->>'summary', \
                    (SELECT string_agg(i, '; ') FROM jsonb_array_elements_text( \
                        coalesce(s.handoff->'decisions', '[]') || coalesce(s.handoff->'open_questions', '[]') \
                        || coalesce(s.handoff->'next_steps', '[]')) i)), q.q, \
                    'StartSel=[, StopSel=], MaxWords=30, MinWords=8, MaxFragments=2') AS snippet, \
                  ts_rank_cd(n8v_session_document(s.goal, s.outcome, s.summary, s.handoff), q.q) AS rank \
             FROM visible s, q \
            WHERE n8v_session_document(s.goal, s.outcome, s.summary, s.handoff) @@ q.q \
              AND s.started_at >= $5 AND ($6::timestamptz IS NULL OR s.started_at < $6) \
         ), \
         calls AS ( \
           SELECT 'call' AS kind, c.call_id AS id, c.session_id, c.created_at AS at, \
                  ts_headline('english', c.purpose, q.q, \
                    'StartSel=[, StopSel=], MaxWords=30, MinWords=8') AS snippet, \
                  ts_rank_cd(n8v_text_document(c.purpose), q.q) AS rank \
             FROM journal_calls c JOIN visible s \
               ON s.account_id = c.account_id AND s.session_id = c.session_id, q \
            WHERE c.purpose IS NOT NULL AND n8v_text_document(c.purpose) @@ q.q \
              AND c.created_at >= $5 AND ($6::timestamptz IS NULL OR c.created_at < $6) \
         ), \
         digests AS ( \
           SELECT 'digest' AS kind, d.digest_id AS id, NULL::uuid AS session_id, \
                  d.period_start::timestamptz AS at, \
                  ts_headline('english', coalesce(d.summary->>'summary', ''), q.q, \
                    'StartSel=[, StopSel=], MaxWords=30, MinWords=8') AS snippet, \
                  ts_rank_cd(n8v_json_document(d.summary), q.q) AS rank \
             FROM journal_digests d, q \
            WHERE NOT $7 AND n8v_json_document(d.summary) @@ q.q \
              AND d.period_end::timestamptz > $5 \
              AND ($6::timestamptz IS NULL OR d.period_start::timestamptz < $6) \
         ) \
         SELECT kind, id, session_id, at, snippet, rank::real AS rank FROM ( \
           SELECT * FROM sessions UNION ALL SELECT * FROM calls UNION ALL SELECT * FROM digests \
         ) hits ORDER BY rank DESC, at DESC, id DESC LIMIT $8",
    )
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

fn escape_like(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_")
}

impl From<HitRow> for SearchHit {
    fn from(row: HitRow) -> Self {
        let (kind, id) = match row.kind.as_str() {
            "session" => ("session", SessionId(row.id).to_string()),
            "call" => ("call", CallId(row.id).to_string()),
            _ => ("digest", DigestId(row.id).to_string()),
        };
        Self {
            kind,
            id,
            session_id: row.session_id.map(SessionId),
            at: row.at,
            snippet: row.snippet,
            rank: row.rank,
        }
    }
}
