//! Scrubbed-secret warnings: when the scrubber removes a credential from a purpose, a goal, an
//! outcome, a hand-off item or a target id, the journal keeps an **exposure** — the rule that
//! found it, a fingerprint, and its **sightings**: per session and kind of text, how many texts
//! it was scrubbed from, first and last when — so the account can be told to rotate it. Never
//! the credential nor any part of it.
//!
//! * **Fingerprint.** HMAC-SHA256, under the account's own key, of the SHA-256 the scrubber
//!   took of the credential ([`crate::scrub::Found`]): equal credentials in one account are one
//!   exposure, equal credentials in two accounts have unrelated fingerprints. The account key is
//!   SHA-256(server secret ‖ account id). The server secret is `N8V_FINGERPRINT_SECRET` when set
//!   (then the database never holds it); otherwise a random one migration 0019 made, which the
//!   application role cannot read: `n8v_exposure_key()` hands it the acting account's key only.
//!   Either way it is the same for every replica and restart, and the HMAC is computed here, so
//!   the credential's text never reaches the database, a job row or a log. (Setting or changing
//!   `N8V_FINGERPRINT_SECRET` later starts new fingerprints: a credential seen before and after
//!   makes two exposures.)
//! * **Recorded with the write.** By [`crate::operation::Operation::finish`], in the
//!   operation's transaction, once the call is recorded and its session known (so never while
//!   the journal is off); only when something was scrubbed, so the call path of clean text runs
//!   nothing more. A failed
//!   operation keeps what its recorded call holds (purpose, targets) and drops what it did not
//!   store (its goal, outcome or hand-off).
//! * **Who sees what.** The account's own: a credential is shown an exposure through the
//!   sightings in sessions it can read (a repository-restricted key: its own sessions; a token
//!   with fewer scopes: the sessions it could open), so counts and dates are of those. An
//!   organization's owner never sees a member's exposures.
//! * **Deletion.** A sighting goes with its session (deleted on purpose, with its day or its
//!   account, or by retention), and an exposure with its last sighting (migration 0019's
//!   trigger), so a deleted session leaves no trace here either.
//! * **Acknowledging** takes an exposure out of the brief, `/journal.md` and the page's banner
//!   until the credential is scrubbed again. It is kept per sighting (migration 0021): a
//!   credential acknowledges the sightings it reads, and is shown as acknowledged what it reads,
//!   so a repository-restricted key trying a candidate credential in its own purpose neither
//!   learns of the account's earlier sightings (their acknowledgement, their time: exposure ids
//!   are random, not time-ordered) nor silences the warning the account's other keys are given.

use crate::db::TenantTx;
use crate::error::{Error, Result};
use crate::ids::{ExposureId, Kind, SessionId};
use crate::scrub::Found;
use crate::webhooks::events::{self, Event};
use crate::webhooks::payloads::ExposureSeen;
use chrono::{DateTime, Utc};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::sync::Arc;
use uuid::Uuid;

mod warning;
pub use warning::{markdown_warning, warning};

/// Most exposures one list answers with, newest first.
pub const MAX_EXPOSURES: i64 = 100;
/// Most unacknowledged exposures the brief carries.
pub const MAX_IN_BRIEF: i64 = 20;
/// Most sessions an exposure lists, newest first.
pub const MAX_SESSIONS: i64 = 20;

/// The kind of text a credential was scrubbed from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Purpose,
    Goal,
    Outcome,
    Handoff,
    Target,
}

impl Field {
    fn as_str(self) -> &'static str {
        match self {
            Field::Purpose => "purpose",
            Field::Goal => "goal",
            Field::Outcome => "outcome",
            Field::Handoff => "handoff",
            Field::Target => "target",
        }
    }
}

/// A credential scrubbed from one text of a call, waiting to be recorded with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exposed {
    pub field: Field,
    pub found: Found,
}

impl Exposed {
    /// The credentials scrubbed from one `field` text.
    pub fn each(field: Field, found: &[Found]) -> impl Iterator<Item = Exposed> + '_ {
        found.iter().map(move |&found| Exposed { field, found })
    }
}

/// Where the accounts' fingerprint keys come from: `N8V_FINGERPRINT_SECRET`, or (unset) the
/// database's own secret. `Debug` never shows it.
#[derive(Clone, Default)]
pub struct ServerSecret(Option<Arc<[u8]>>);

impl ServerSecret {
    pub fn new(setting: Option<&str>) -> Self {
        Self(setting.map(|s| Arc::from(s.as_bytes())))
    }

    /// The account's key, when the secret is the setting (else the database derives it).
    fn account_key(&self, account: Uuid) -> Option<Vec<u8>> {
        let secret = self.0.as_ref()?;
        let key = Sha256::new()
            .chain_update(secret)
            .chain_update(account.as_bytes())
            .finalize();
        Some(key.to_vec())
    }
}

impl std::fmt::Debug for ServerSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self.0 {
            Some(_) => "ServerSecret(N8V_FINGERPRINT_SECRET)",
            None => "ServerSecret(database)",
        })
    }
}

/// Records what was scrubbed from the texts of one call, in the call's session: each text
/// counts on its credential's exposure (made on its first sighting) in the session's row for
/// that kind of text (made on the first), so a key repeated on every call adds to a count, not
/// a row. One statement, plus one for the account's key when the secret is the database's.
/// Exposures are written in fingerprint order, so two calls holding the same credentials lock
/// their rows in one order; the upsert locks an existing exposure until commit, so a deletion
/// of its other sessions meanwhile (migration 0019's trigger) waits and sees this sighting.
/// A credential seen in a kind of text it had not been seen in in this session is told of
/// (`exposure.seen`), from what the statement returned.
#[tracing::instrument(skip_all, err)]
pub async fn record(
    tx: &mut TenantTx,
    session: SessionId,
    seen: &[Exposed],
    at: DateTime<Utc>,
    secret: &ServerSecret,
) -> Result<()> {
    if seen.is_empty() {
        return Ok(());
    }
    let key = match secret.account_key(tx.tenant().account_id) {
        Some(key) => key,
        None => {
            sqlx::query_scalar!(r#"SELECT n8v_exposure_key() AS "key!""#)
                .fetch_one(tx.conn())
                .await?
        }
    };
    let rules: Vec<&str> = seen.iter().map(|e| e.found.rule).collect();
    let fingerprints: Vec<Vec<u8>> = seen
        .iter()
        .map(|e| e.found.fingerprint(&key).to_vec())
        .collect();
    let fields: Vec<&str> = seen.iter().map(|e| e.field.as_str()).collect();
    // Random, not time-ordered (UUIDv7) as other ids: an exposure's id is shown to every
    // credential that reads one of its sightings, and must not date the first of them.
    let new_ids: Vec<Uuid> = seen.iter().map(|_| Uuid::new_v4()).collect();
    let sightings = sqlx::query!(
        "WITH seen AS ( \
           SELECT * FROM unnest($1::text[], $2::bytea[], $3::text[], $4::uuid[]) \
             WITH ORDINALITY AS s(rule, fingerprint, field, exposure_id, n)), \
         exposure AS ( \
           INSERT INTO journal_exposures (account_id, exposure_id, rule, fingerprint, created_at) \
           SELECT DISTINCT ON (fingerprint) n8v_account(), exposure_id, rule, fingerprint, $6 \
             FROM seen ORDER BY fingerprint, n \
           ON CONFLICT (account_id, fingerprint) DO UPDATE SET rule = journal_exposures.rule \
           RETURNING exposure_id, fingerprint, rule) \
         INSERT INTO journal_exposure_sightings AS x (account_id, exposure_id, session_id, \
             field, count, first_seen, last_seen) \
         SELECT n8v_account(), e.exposure_id, $5, s.field, count(*), $6, $6 \
           FROM seen s JOIN exposure e USING (fingerprint) \
          GROUP BY e.exposure_id, s.field \
          ORDER BY e.exposure_id, s.field \
         ON CONFLICT (account_id, exposure_id, session_id, field) DO UPDATE \
            SET count = x.count + excluded.count, \
                first_seen = least(x.first_seen, excluded.first_seen), \
                last_seen = greatest(x.last_seen, excluded.last_seen) \
         RETURNING exposure_id, field, (xmax = 0) AS \"first!\", \
             (SELECT e.rule FROM exposure e WHERE e.exposure_id = x.exposure_id) AS \"rule!\"",
        &rules as &[&str],
        &fingerprints,
        &fields as &[&str],
        &new_ids,
        session.0,
        at
    )
    .fetch_all(tx.conn())
    .await?;
    // Told once per exposure, of the kinds of text it was first seen in here (the rule and its
    // label, never the credential nor any part of it).
    let mut first: BTreeMap<Uuid, (String, Vec<String>)> = BTreeMap::new();
    for r in sightings.into_iter().filter(|r| r.first) {
        let (_, fields) = first.entry(r.exposure_id).or_insert((r.rule, Vec::new()));
        fields.push(r.field);
    }
    for (exposure, (rule, fields)) in first {
        let seen = ExposureSeen {
            exposure: ExposureId(exposure),
            label: crate::scrub::label(&rule),
            rule,
            fields,
            session,
            seen_at: at,
        };
        events::emit(tx, Event::ExposureSeen(seen), at).await?;
    }
    Ok(())
}

/// How many of an exposure's sightings each kind of text holds.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize, utoipa::ToSchema,
)]
pub struct ScrubbedFrom {
    /// Purposes (`X-Purpose`, the tools' `purpose`).
    pub purposes: i64,
    /// Goals sessions were opened with.
    pub goals: i64,
    /// Outcomes sessions were closed with.
    pub outcomes: i64,
    /// Decisions, open questions and next steps of hand-offs.
    pub handoff_items: i64,
    /// Ids the caller sent that were not ids (path parameters, tool arguments).
    pub targets: i64,
}

impl ScrubbedFrom {
    /// "3 purposes", "1 goal and 2 hand-off items", in a fixed order.
    fn words(&self) -> String {
        let counts = [
            (self.purposes, "purpose", "purposes"),
            (self.goals, "goal", "goals"),
            (self.outcomes, "outcome", "outcomes"),
            (self.handoff_items, "hand-off item", "hand-off items"),
            (self.targets, "target id", "target ids"),
        ];
        let parts: Vec<String> = counts
            .into_iter()
            .filter(|(n, _, _)| *n > 0)
            .map(|(n, one, many)| format!("{n} {}", if n == 1 { one } else { many }))
            .collect();
        match parts.split_last() {
            None => "nothing".into(),
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        }
    }
}

/// A credential scrubbed from the journal's text: which rule found it, how often, where and
/// since when, as far as the caller can read the sessions it was seen in. Never the credential.
#[derive(Debug, Serialize, serde::Deserialize, utoipa::ToSchema)]
#[schema(example = json!({
    "id": "exp_01M72AZ1M0ETFB59TDWH9EDD1R",
    "rule": "github-pat",
    "label": "a GitHub token",
    "count": 3,
    "scrubbed_from": {"purposes": 3, "goals": 0, "outcomes": 0, "handoff_items": 0, "targets": 0},
    "first_seen": "2026-12-01T09:30:00Z",
    "last_seen": "2026-12-03T16:02:00Z",
    "sessions": ["ses_01M72AZ1M0ETFB59TDWH9EDD1R"],
    "acknowledged_at": null,
    "acknowledged": false,
    "warning": "A GitHub token was scrubbed from 3 purposes since 1 December: rotate it."
}))]
pub struct Exposure {
    /// The exposure (`exp_…`); acknowledge it with
    /// `POST /api/v1/journal/exposures/{id}/acknowledge`.
    pub id: ExposureId,
    /// The scrubbing rule that found the credential (`github-pat`, `aws-access-key`, …).
    pub rule: String,
    /// What the rule finds, in words (`a GitHub token`).
    pub label: String,
    /// How many texts it was scrubbed from (a text holding it twice counts once).
    pub count: i64,
    /// Those texts by kind.
    pub scrubbed_from: ScrubbedFrom,
    /// When it was first scrubbed.
    pub first_seen: DateTime<Utc>,
    /// When it was last scrubbed.
    pub last_seen: DateTime<Utc>,
    /// The sessions it was scrubbed in, most recent first (at most 20).
    pub sessions: Vec<SessionId>,
    /// When the caller last acknowledged it (of the sightings it reads), if ever.
    pub acknowledged_at: Option<DateTime<Utc>>,
    /// True when every sighting the caller reads was acknowledged after it was last scrubbed
    /// there; the brief, `/journal.md` and the journal page warn only of the others.
    pub acknowledged: bool,
    /// The warning, in words: what, from what, since when, and what to do ("rotate it"; once
    /// `acknowledged`, when it was acknowledged as rotated instead).
    pub warning: String,
}

/// Which exposures a read wants.
#[derive(Clone, Copy, Debug)]
pub struct Listing {
    /// Only those not acknowledged since they were last scrubbed.
    pub unacknowledged_only: bool,
    /// Only this one.
    pub id: Option<ExposureId>,
    pub limit: i64,
}

/// What the brief and `/journal.md` warn of.
pub const UNACKNOWLEDGED: Listing = Listing {
    unacknowledged_only: true,
    id: None,
    limit: MAX_IN_BRIEF,
};

struct ExposureRow {
    exposure_id: Uuid,
    rule: String,
    acknowledged_at: Option<DateTime<Utc>>,
    acknowledged: bool,
    count: i64,
    purposes: i64,
    goals: i64,
    outcomes: i64,
    handoff_items: i64,
    targets: i64,
    first_seen: DateTime<Utc>,
    last_seen: DateTime<Utc>,
    sessions: Vec<Uuid>,
}

/// The caller's exposures, most recently scrubbed first, counted over the sightings it can
/// read (row-level security decides which); `now` dates the warnings.
#[tracing::instrument(skip_all, err)]
pub async fn list(
    tx: &mut TenantTx,
    listing: Listing,
    now: DateTime<Utc>,
) -> Result<Vec<Exposure>> {
    // Everything but the rule is computed from the sightings this credential reads (the
    // policies decide which), so nothing here tells of a sighting it could not read.
    let rows = sqlx::query_as!(
        ExposureRow,
        r#"SELECT e.exposure_id, e.rule,
                  max(s.acknowledged_at) AS acknowledged_at,
                  bool_and(s.acknowledged_at IS NOT NULL AND s.acknowledged_at >= s.last_seen)
                    AS "acknowledged!",
                  sum(s.count) AS "count!",
                  coalesce(sum(s.count) FILTER (WHERE s.field = 'purpose'), 0) AS "purposes!",
                  coalesce(sum(s.count) FILTER (WHERE s.field = 'goal'), 0) AS "goals!",
                  coalesce(sum(s.count) FILTER (WHERE s.field = 'outcome'), 0) AS "outcomes!",
                  coalesce(sum(s.count) FILTER (WHERE s.field = 'handoff'), 0)
                    AS "handoff_items!",
                  coalesce(sum(s.count) FILTER (WHERE s.field = 'target'), 0) AS "targets!",
                  min(s.first_seen) AS "first_seen!", max(s.last_seen) AS "last_seen!",
                  ARRAY(SELECT x.session_id FROM journal_exposure_sightings x
                         WHERE x.account_id = e.account_id AND x.exposure_id = e.exposure_id
                         GROUP BY x.session_id
                         ORDER BY max(x.last_seen) DESC, x.session_id DESC LIMIT $4)
                    AS "sessions!"
             FROM journal_exposures e
             JOIN journal_exposure_sightings s
               ON s.account_id = e.account_id AND s.exposure_id = e.exposure_id
            WHERE e.account_id = n8v_account() AND ($1::uuid IS NULL OR e.exposure_id = $1)
            GROUP BY e.account_id, e.exposure_id
           HAVING NOT $2
               OR NOT bool_and(s.acknowledged_at IS NOT NULL AND s.acknowledged_at >= s.last_seen)
            ORDER BY max(s.last_seen) DESC, e.exposure_id DESC
            LIMIT $3"#,
        listing.id.map(|id| id.0),
        listing.unacknowledged_only,
        listing.limit,
        MAX_SESSIONS
    )
    .fetch_all(tx.conn())
    .await?;
    Ok(rows.into_iter().map(|row| exposure(row, now)).collect())
}

fn exposure(row: ExposureRow, now: DateTime<Utc>) -> Exposure {
    let scrubbed_from = ScrubbedFrom {
        purposes: row.purposes,
        goals: row.goals,
        outcomes: row.outcomes,
        handoff_items: row.handoff_items,
        targets: row.targets,
    };
    let label = crate::scrub::label(&row.rule);
    Exposure {
        id: ExposureId(row.exposure_id),
        warning: warning(
            &label,
            &scrubbed_from,
            row.first_seen,
            row.acknowledged_at.filter(|_| row.acknowledged),
            now,
        ),
        rule: row.rule,
        label,
        count: row.count,
        scrubbed_from,
        first_seen: row.first_seen,
        last_seen: row.last_seen,
        sessions: row.sessions.into_iter().map(SessionId).collect(),
        acknowledged: row.acknowledged,
        acknowledged_at: row.acknowledged_at,
    }
}

/// Marks the sightings of one of the caller's exposures that it reads acknowledged at `now`
/// (they come back when the credential is scrubbed again); the sightings other credentials of
/// the account read and it does not stay as they were, so it silences only its own view. 404
/// unless the caller can read one of its sightings.
#[tracing::instrument(skip_all, err(level = "info"))]
pub async fn acknowledge(tx: &mut TenantTx, id: ExposureId, now: DateTime<Utc>) -> Result<()> {
    let done = sqlx::query_scalar!(
        "UPDATE journal_exposure_sightings s SET acknowledged_at = $2
          WHERE s.account_id = n8v_account() AND s.exposure_id = $1
          RETURNING s.exposure_id",
        id.0,
        now
    )
    .fetch_all(tx.conn())
    .await?;
    if done.is_empty() {
        return Err(Error::not_found(Kind::Exposure, &id.to_string()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_from_the_setting_is_the_accounts_own_and_never_shown() {
        let secret = ServerSecret::new(Some("a-long-enough-fingerprint-secret-0123456789"));
        let (a, b) = (Uuid::now_v7(), Uuid::now_v7());
        assert_ne!(secret.account_key(a), secret.account_key(b));
        assert_eq!(secret.account_key(a), secret.account_key(a));
        assert_eq!(ServerSecret::default().account_key(a), None);
        assert!(!format!("{secret:?}").contains("a-long-enough"));
    }
}
