//! The login role tenant work connects as (PostgREST's `authenticator`, Supabase's too): LOGIN,
//! NOINHERIT, no privileges of its own and a member of the application role alone. Its
//! connections can do nothing until they become the application role, and a `RESET ROLE`
//! inside a tenant transaction returns to a role that reaches nothing.
//!
//! Its name is the application role's with `_login` appended. Its password is derived from the
//! owner's (the one in the owner's URL, else `PGPASSWORD`), so every process holding the owner's
//! connection computes the same one and nothing more is stored or configured; `migrate` sets it.
//! When the owner has no password (the server lets the owner's connection in without one), the
//! login role has none either and must be let in the same way (`trust`, as on a developer's
//! machine); a server that asks the owner for a password asks the login role for its own.

use sha2::{Digest, Sha256};
use sqlx::postgres::PgConnectOptions;
use std::str::FromStr;

/// The login role of an application role.
pub fn login_role(app_role: &str) -> String {
    format!("{app_role}_login")
}

/// The login role's password, derived from the owner's; `None` when the owner has none.
pub fn password(owner_url: &str, login_role: &str) -> Option<String> {
    let owner = url_password(owner_url)
        .or_else(|| std::env::var("PGPASSWORD").ok())
        .filter(|p| !p.is_empty())?;
    let mut digest = Sha256::new();
    digest.update(b"n8v-journal login role\n");
    digest.update(login_role.as_bytes());
    digest.update(b"\n");
    digest.update(owner.as_bytes());
    Some(hex::encode(digest.finalize()))
}

/// How the login role connects: the owner's server, database and TLS settings, as the login
/// role with its derived password.
pub fn options(owner_url: &str, app_role: &str) -> sqlx::Result<PgConnectOptions> {
    let role = login_role(app_role);
    let options = PgConnectOptions::from_str(owner_url)?.username(&role);
    Ok(match password(owner_url, &role) {
        Some(password) => options.password(&password),
        None => options,
    })
}

/// The password part of `postgres://user:password@host/...`, as written (percent-encoding
/// kept: it is only ever hashed).
fn url_password(url: &str) -> Option<String> {
    let rest = url.split_once("://")?.1;
    let authority = rest.split(['/', '?']).next()?;
    let userinfo = authority.rsplit_once('@')?.0;
    Some(userinfo.split_once(':')?.1.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_password_follows_the_owners() {
        let with = "postgres://n8v:s3cret@127.0.0.1:5432/n8v_journal?sslmode=disable";
        assert_eq!(url_password(with).as_deref(), Some("s3cret"));
        assert_eq!(url_password("postgres://n8v@host/db"), None);
        assert_eq!(url_password("postgres://host/db"), None);
        let a = password(with, "n8v_app_login").unwrap();
        assert_eq!(a.len(), 64);
        assert_eq!(password(with, "n8v_app_login"), Some(a.clone()));
        let other = "postgres://n8v:other@127.0.0.1:5432/n8v_journal";
        assert_ne!(password(other, "n8v_app_login"), Some(a));
    }
}
