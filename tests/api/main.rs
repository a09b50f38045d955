//! The integration tests, one binary: each module is one area of the product, run against a
//! real PostgreSQL (see `common`). `tests/episodes.rs` has its own process, because it
//! installs a global log subscriber at trace level to prove no prose reaches the logs.

mod common;

mod auth;
mod bad_input;
mod browser;
mod cli;
mod digests;
mod doors;
mod edge;
mod episodes_growing;
mod export;
mod export_bounds;
mod exposure_visibility;
mod exposures;
mod handoffs;
mod hooks;
mod hooks_setup;
mod import;
mod item_authors;
mod journal;
mod lifecycle;
mod loops;
mod mcp;
mod mcp_oauth;
mod mcp_python;
mod mcp_surface;
mod oauth;
mod oauth_edges;
mod oauth_flow;
mod openapi;
mod otlp;
mod pages;
mod pgbouncer;
mod plans;
mod privacy;
mod races;
mod roles;
mod schema_keys;
mod scrub;
mod scrub_paths;
mod search;
mod security;
mod semantics;
mod summaries;
mod summarize;
mod summary_costs;
mod tenancy;
mod unavailable;
mod visibility;
mod walkthrough;
mod webhook_faults;
mod webhook_reach;
mod webhooks;
mod write_path;
