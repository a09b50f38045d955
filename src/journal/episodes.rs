//! The parts of episodes (conversations a harness posts, see `ops::episodes`), each an entry of
//! kind `episode` of the posting credential: claimed, compared with what an earlier post of the
//! same part stored (by the digest of its turns, never the prose), and updated.

use super::handoff::Handoff;
use crate::error::Result;
use crate::ids::{self, SessionId};
use chrono::{DateTime, Utc};

/// One part of an episode, stored as a session of the caller's credential.
pub struct EpisodePart<'a> {
    pub episode_id: &'a str,
    pub part: i32,
    /// The harness, recorded as the session's assistant.
    pub assistant: &'a str,
    pub repository: Option<&'a str>,
    pub started_at: DateTime<Utc>,
    pub ended_at: DateTime<Utc>,
}

/// What the credential had stored of a part before this post.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Before {
    /// Nothing: this post claimed it.
    New,
    /// The same turns; `open` while its entry waits for the conversation to settle.
    Same { open: bool },
    /// Other turns (the conversation grew, or was rewritten).
    Changed,
}

/// Claims an episode part for the caller's credential by inserting its session, or locks the
/// one an earlier post made (`FOR UPDATE`, held until the post commits, so concurrent posts of
/// one part take turns and the second finds the first one's turns). The claim is unique per
/// account, credential, episode and part: a concurrent claim waits for the first to commit or
/// roll back. `None`: the credential posted the part with scopes the caller does not hold.
#[tracing::instrument(name = "db.episodes.claim", skip_all, err)]
pub async fn claim(
    tx: &mut crate::db::TenantTx,
    part: &EpisodePart<'_>,
    digest: &[u8],
) -> Result<Option<(SessionId, Before)>> {
    let inserted = sqlx::query_scalar!(
        r#"INSERT INTO journal_sessions (account_id, session_id, credential_id, kind,
               assistant, repository, scopes, started_at, last_activity_at, ended_at,
               end_reason, journal_only, episode_id, episode_part)
           VALUES (n8v_account(), $1, n8v_credential(), 'episode', $2, $3,
               n8v_scopes(), $4, $5, $5,
               'ended', false, $6, $7)
           ON CONFLICT (account_id, credential_id, episode_id, episode_part)
               WHERE episode_id IS NOT NULL
           DO NOTHING RETURNING session_id AS "session_id: SessionId""#,
        ids::new_id(),
        part.assistant,
        part.repository,
        part.started_at,
        part.ended_at,
        part.episode_id,
        part.part
    )
    .fetch_optional(tx.conn())
    .await?;
    if let Some(session) = inserted {
        return Ok(Some((session, Before::New)));
    }
    let stored = sqlx::query!(
        r#"SELECT session_id AS "session_id: SessionId", episode_digest, episode_open
             FROM journal_sessions
            WHERE account_id = n8v_account() AND credential_id = n8v_credential()
              AND episode_id = $1 AND episode_part = $2
            FOR UPDATE"#,
        part.episode_id,
        part.part
    )
    .fetch_optional(tx.conn())
    .await?;
    Ok(stored.map(|row| {
        let before = match row.episode_digest.as_deref() == Some(digest) {
            true => Before::Same {
                open: row.episode_open,
            },
            false => Before::Changed,
        };
        (row.session_id, before)
    }))
}

/// What a post stores on a part it wrote (its entry goes on with `summaries::set_on_session`).
pub struct Written<'a> {
    pub digest: &'a [u8],
    /// Still waiting for the conversation to settle.
    pub open: bool,
    pub ended_at: DateTime<Utc>,
    /// The lines its turns mark (see `summarize::marked`), scrubbed.
    pub handoff: Option<&'a Handoff>,
}

/// Stores a part's digest, state, end and hand-off.
#[tracing::instrument(name = "db.episodes.write", skip_all, err)]
pub async fn write(
    tx: &mut crate::db::TenantTx,
    session: SessionId,
    written: &Written<'_>,
) -> Result<()> {
    sqlx::query!(
        "UPDATE journal_sessions SET episode_digest = $2, episode_open = $3,
             ended_at = GREATEST(ended_at, $4), last_activity_at = GREATEST(last_activity_at, $4),
             handoff = $5
         WHERE account_id = n8v_account() AND session_id = $1",
        session.0,
        written.digest,
        written.open,
        written.ended_at,
        written.handoff.map(sqlx::types::Json) as _
    )
    .execute(tx.conn())
    .await?;
    Ok(())
}

/// Whether the part still holds the turns of `digest`, locked until the commit: a draft made
/// from them may replace its entry.
#[tracing::instrument(name = "db.episodes.holds", skip_all, err)]
pub async fn holds(
    tx: &mut crate::db::TenantTx,
    session: SessionId,
    digest: &[u8],
) -> Result<bool> {
    let stored = sqlx::query_scalar!(
        "SELECT episode_digest FROM journal_sessions
         WHERE account_id = n8v_account() AND session_id = $1 FOR UPDATE",
        session.0
    )
    .fetch_optional(tx.conn())
    .await?;
    Ok(stored.flatten().as_deref() == Some(digest))
}

/// An episode of the caller's credential whose last post found it unsettled: at least one of
/// its parts is still code's entry, waiting for a post that drafts it.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct OpenEpisode {
    /// The harness's id for the conversation, as it was posted.
    pub episode_id: String,
    /// The harness that posted it (`claude-code`, `codex`, …).
    pub harness: String,
    /// How many of its parts wait.
    pub open_parts: i64,
    /// The last turn its posts told of.
    pub last_turn_at: DateTime<Utc>,
}

/// The caller's credential's open episodes (of `harness`, when given), the most recent
/// `limit` first. Only the posting credential's: another key's claims are its own.
#[tracing::instrument(name = "db.episodes.open", skip_all, err)]
pub async fn open(
    tx: &mut crate::db::TenantTx,
    harness: Option<&str>,
    limit: i64,
) -> Result<Vec<OpenEpisode>> {
    let rows = sqlx::query_as!(
        OpenEpisode,
        r#"SELECT episode_id AS "episode_id!", assistant AS harness,
                  count(*) AS "open_parts!", max(ended_at) AS "last_turn_at!"
             FROM journal_sessions
            WHERE account_id = n8v_account() AND credential_id = n8v_credential()
              AND kind = 'episode' AND episode_id IS NOT NULL AND episode_open
              AND ($1::text IS NULL OR assistant = $1)
            GROUP BY episode_id, assistant
            ORDER BY max(ended_at) DESC, episode_id
            LIMIT $2"#,
        harness,
        limit
    )
    .fetch_all(tx.conn())
    .await?;
    Ok(rows)
}
