//! Feature flags and the operators who set them: what a flag is and whether it is on for an
//! account ([`flag`]); what operators do to flags inside an operator transaction, with the
//! operator log every change is written to ([`operator`]); and those actions as the admin JSON
//! API, the console and the CLI run them ([`actions`]).

pub mod actions;
mod flag;
pub mod operator;

pub use flag::{Flag, enabled, enabled_for};
