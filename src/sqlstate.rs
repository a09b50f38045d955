//! The SQLSTATEs the service's own database functions raise (see the migrations), for the
//! code that begins transactions and the code that turns errors into answers.

/// A begin refused because the flag changed since it was cached (`n8v_begin`).
pub const FLAG_CHANGED: &str = "N8VFL";
/// A begin refused because the credential was revoked or removed (`n8v_begin`): a 401.
pub const REVOKED: &str = "N8VRV";
