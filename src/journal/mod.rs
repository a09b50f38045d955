//! The journal: sessions (one assistant conversation each), the calls made in them, and the
//! reads over both. Who sees what is decided by row-level security; this module only sets
//! the tenant (through `TenantTx`) and asks.

/// The exact last activity of the `journal_sessions` row in scope, as SQL text: one definition
/// for the session columns and the session rules (see `sessions::LAST_ACTIVITY`).
macro_rules! last_activity {
    () => {
        "n8v_last_activity(journal_sessions.account_id, journal_sessions.session_id, \
         journal_sessions.last_activity_at)"
    };
}

/// How many calls of the `journal_sessions` row in scope match `$and` (`""` for all), as SQL:
/// those folded into its `$counted` column (migration 0015) plus those made since it was folded,
/// so a read counts the last minute or so of calls, not the session's history. (Compared with
/// the column itself, never NULL: wrapped in an expression, the bound was not an index condition
/// under row-level security and the read counted every call again.)
macro_rules! call_count {
    ($counted:literal, $and:literal) => {
        concat!(
            "(journal_sessions.",
            $counted,
            " + (SELECT count(*) FROM journal_calls c \
             WHERE c.account_id = journal_sessions.account_id \
             AND c.session_id = journal_sessions.session_id \
             AND c.created_at > journal_sessions.counted_through",
            $and,
            "))::int"
        )
    };
}

pub mod calls;
pub mod catchup;
mod cursor;
pub mod digests;
pub mod episodes;
pub mod export;
pub mod exposures;
pub mod handoff;
pub mod loops;
pub mod markdown;
pub mod meta;
pub mod reads;
pub mod retention;
pub mod search;
pub mod sessions;
pub mod summaries;
mod views;
pub mod window;

pub use calls::{AuditRecord, CallRecord, record};
pub use cursor::Cursor;
pub use meta::Purpose;
pub use views::{AuditEntry, Call, MARKED as MARKED_PURPOSES, Session};

/// The implicit-session rules are settings (`N8V_*`), kept with the others.
pub use crate::config::SessionRules;
