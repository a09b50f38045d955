//! How long things live: implicit sessions, retention and caps, digests, and exports.

use super::env::{Env, SECOND};
use chrono::Duration as Span;
use std::time::Duration;

/// When an implicit session stops being reused: after `quiet` without calls, or once it is
/// `max_age` old (the seed's 30 minutes and 12 hours by default).
#[derive(Clone, Copy, Debug)]
pub struct SessionRules {
    pub quiet: Span,
    pub max_age: Span,
}

impl SessionRules {
    pub(super) fn read(env: &Env) -> anyhow::Result<Self> {
        Ok(Self {
            quiet: env.span("N8V_IMPLICIT_SESSION_QUIET_MINUTES", Span::try_minutes, 30)?,
            max_age: env.span("N8V_IMPLICIT_SESSION_MAX_HOURS", Span::try_hours, 12)?,
        })
    }
}

impl Default for SessionRules {
    fn default() -> Self {
        Self::read(&Env::of(&[])).expect("the defaults are valid")
    }
}

/// How long the journal keeps things, and how much of them.
#[derive(Clone, Copy, Debug)]
pub struct RetentionRules {
    pub calls: Span,
    pub sessions: Span,
    pub cap_calls: i64,
    pub cap_sessions: i64,
    /// Rows per deleting transaction.
    pub batch: i64,
}

impl RetentionRules {
    fn read(env: &Env) -> anyhow::Result<Self> {
        Ok(Self {
            calls: env.span("N8V_CALL_RETENTION_DAYS", Span::try_days, 90)?,
            sessions: env.span("N8V_SESSION_RETENTION_DAYS", Span::try_days, 400)?,
            cap_calls: env.parse("N8V_CAP_CALLS", 100_000)?,
            cap_sessions: env.parse("N8V_CAP_SESSIONS", 20_000)?,
            batch: env.parse("N8V_RETENTION_BATCH", 1_000)?,
        })
    }
}

impl Default for RetentionRules {
    fn default() -> Self {
        Self::read(&Env::of(&[])).expect("the defaults are valid")
    }
}

/// Retention, caps and their schedules: the product text's numbers by default.
#[derive(Clone, Debug)]
pub struct Lifecycle {
    pub retention: RetentionRules,
    /// How long audit entries are kept, independently of the journal.
    pub audit_retention: Span,
    /// When the retention pass runs (cron, seconds first).
    pub retention_schedule: String,
    /// When the audit retention pass runs.
    pub audit_retention_schedule: String,
    /// Sessions are rolled into week digests once their week ended this long ago.
    pub digest_week_after: Span,
    /// Week digests are rolled into month digests once their month ended this long ago.
    pub digest_month_after: Span,
    /// When the nightly digest pass runs (after 02:30 server time by default).
    pub digest_schedule: String,
}

impl Lifecycle {
    pub(super) fn read(env: &Env) -> anyhow::Result<Self> {
        Ok(Self {
            retention: RetentionRules::read(env)?,
            audit_retention: env.span("N8V_AUDIT_RETENTION_DAYS", Span::try_days, 400)?,
            retention_schedule: env.text("N8V_RETENTION_SCHEDULE", "0 30 3 * * *"),
            audit_retention_schedule: env.text("N8V_AUDIT_RETENTION_SCHEDULE", "0 45 3 * * *"),
            digest_week_after: env.span("N8V_DIGEST_WEEK_AFTER_DAYS", Span::try_days, 14)?,
            digest_month_after: env.span("N8V_DIGEST_MONTH_AFTER_DAYS", Span::try_days, 90)?,
            digest_schedule: env.text("N8V_DIGEST_SCHEDULE", "0 30 2 * * *"),
        })
    }
}

impl Default for Lifecycle {
    fn default() -> Self {
        Self::read(&Env::of(&[])).expect("the defaults are valid")
    }
}

/// Exports hold a connection and a snapshot while they stream, so they are bounded: at most
/// `per_process` at once in this process (default a quarter of `N8V_DB_MAX_CONNECTIONS`, at
/// least 1), at most `per_account` of one account's (2); a reader that takes no data for
/// `stall` (30 s) loses its export, and no export streams longer than `longest` (10 min).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExportLimits {
    pub per_process: u32,
    pub per_account: u32,
    pub stall: Duration,
    pub longest: Duration,
}

impl ExportLimits {
    /// The defaults for a pool of `max_connections` tenant connections.
    pub fn for_pool(max_connections: u32) -> Self {
        Self {
            per_process: (max_connections / 4).max(1),
            per_account: 2,
            stall: Duration::from_secs(30),
            longest: Duration::from_secs(600),
        }
    }

    pub(super) fn read(
        env: &Env,
        max_connections: u32,
        idle_in_transaction: Duration,
    ) -> anyhow::Result<Self> {
        let defaults = Self::for_pool(max_connections);
        let limits = Self {
            per_process: env
                .parse("N8V_EXPORTS_PER_PROCESS", defaults.per_process)?
                .max(1),
            per_account: env
                .parse("N8V_EXPORTS_PER_ACCOUNT", defaults.per_account)?
                .max(1),
            stall: env.duration(
                "N8V_EXPORT_STALL_SECONDS",
                SECOND,
                defaults.stall.as_secs(),
                1,
            )?,
            longest: env.duration(
                "N8V_EXPORT_LONGEST_SECONDS",
                SECOND,
                defaults.longest.as_secs(),
                1,
            )?,
        };
        if limits.stall >= idle_in_transaction {
            anyhow::bail!(
                "N8V_EXPORT_STALL_SECONDS ({}) must be shorter than \
                 N8V_DB_IDLE_IN_TRANSACTION_SECONDS ({}): an export waiting on its reader is \
                 idle in its transaction, and PostgreSQL would end it first",
                limits.stall.as_secs(),
                idle_in_transaction.as_secs()
            );
        }
        Ok(limits)
    }
}
