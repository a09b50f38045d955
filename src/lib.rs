//! n8v-journal: records what AI assistants did through the API on an account's behalf, and
//! why, and gives the next conversation a catch-up brief.

pub mod accounts;
pub mod admin;
pub mod app;
pub mod auth;
pub mod clock;
pub mod config;
pub mod crypto;
pub mod cursor;
pub mod db;
pub mod error;
pub mod flags;
pub mod hook;
pub mod http;
pub mod ids;
pub mod import;
pub mod jobs;
pub mod journal;
pub mod liveness;
pub mod oauth;
pub mod operation;
pub mod ops;
pub mod outbound;
pub mod queue;
pub mod records;
pub mod schema;
pub mod scopes;
pub mod scrub;
pub mod sqlstate;
pub mod summarize;
pub mod telemetry;
pub mod webhooks;
