//! The SQLSTATEs the service's own database functions raise (see the migrations), for the
//! code that begins transactions and the code that turns errors into answers.

/// A begin refused because the flag changed since it was cached (`n8v_begin`).
pub const FLAG_CHANGED: &str = "N8VFL";
/// A begin refused because the credential was revoked or removed (`n8v_begin`): a 401.
pub const REVOKED: &str = "N8VRV";

/// PostgreSQL's deadlock: the transaction was chosen to break a cycle of waits and rolled back.
pub const DEADLOCK: &str = "40P01";
/// PostgreSQL's serialization failure: the transaction could not be ordered after a
/// concurrent one and was rolled back.
pub const SERIALIZATION_FAILURE: &str = "40001";
/// A foreign key violated: what a row referencing a row deleted meanwhile fails with.
pub const FOREIGN_KEY_VIOLATION: &str = "23503";
/// A database made by another process a moment before (`CREATE DATABASE`).
pub const DUPLICATE_DATABASE: &str = "42P04";
/// PostgreSQL's lock timeout: a lock was not granted within `lock_timeout`.
pub const LOCK_NOT_AVAILABLE: &str = "55P03";
/// A one-statement operation handing the request back to the general path before anything
/// was stored (`n8v_append_journalled`, see `operation::fused`).
pub const SLOW_PATH: &str = "N8VSL";
