//! The journal: sessions (one assistant conversation each), the calls made in them, and the
//! reads over both. Who sees what is decided by row-level security; this module only sets
//! the tenant (through `TenantTx`) and asks.

pub mod episodes;
pub mod exposures;
pub mod handoff;
pub mod meta;
pub mod reads;
pub mod receipts;
pub mod search;
pub mod session_reads;
pub(crate) mod sql;
pub(crate) mod views;

pub use meta::Purpose;
pub use session_reads::MARKED as MARKED_PURPOSES;
pub use views::{AuditEntry, Call, Session};

/// The implicit-session rules are settings (`N8V_*`), kept with the others.
pub use crate::config::SessionRules;
