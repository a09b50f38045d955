//! The journal: sessions (one assistant conversation each), the calls made in them, and the
//! reads over both. Who sees what is decided by row-level security; this module only sets
//! the tenant (through `TenantTx`) and asks.

pub mod calls;
pub mod catchup;
pub mod digests;
pub mod episodes;
pub mod export;
pub mod exposures;
pub mod handoff;
pub mod loops;
pub mod markdown;
pub mod meta;
pub mod reads;
pub mod receipts;
pub mod retention;
pub mod search;
pub mod session_reads;
pub mod sessions;
mod sql;
pub mod summaries;
mod views;
pub mod window;

pub use calls::{AuditRecord, CallRecord, record};
pub use meta::Purpose;
pub use session_reads::MARKED as MARKED_PURPOSES;
pub use views::{AuditEntry, Call, Session};

/// The implicit-session rules are settings (`N8V_*`), kept with the others.
pub use crate::config::SessionRules;
