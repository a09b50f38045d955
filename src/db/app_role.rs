//! Which application role (and so which login role) a deployment uses.
//!
//! Roles belong to the whole PostgreSQL server, not to a database: two deployments on one
//! server that used the same role would each set its login role's password to their own
//! owner's derivation (locking the other out) and either owner could log in as it and read the
//! other's accounts. So each database gets roles of its own:
//!
//! - `N8V_APP_ROLE` set: that role, as before. It must serve no other database.
//! - unset: [`default_for`] the database, `n8v_app_<database>` (shortened with a hash when the
//!   name is long or not plain lowercase), except for a database migrated before under the old
//!   default `n8v_app`, which keeps it while it serves that database alone ([`resolve`]): an
//!   upgrade changes nothing there. Where `n8v_app` also serves another database (the old
//!   default shared), this database moves to its own role and `migrate` takes `n8v_app`'s
//!   privileges here away ([`super::roles::ensure_app_role`]).
//!
//! A role serves a database when it holds privileges there (the server-wide catalog
//! `pg_shdepend` records them per database) or when its comment, which `migrate` sets to
//! [`marker`], names it. [`serves_elsewhere`] finds another database a role serves;
//! [`super::check_separation`] refuses to migrate or start with such a role.

use sha2::{Digest, Sha256};
use sqlx::PgPool;

/// The application role every deployment used before roles were per database.
pub const LEGACY: &str = "n8v_app";

/// Longest an application role's name may be: PostgreSQL keeps 63 bytes of a name, and the
/// login role appends `_login`.
const MAX_LEN: usize = 63 - "_login".len();

/// The default application role of `database`: `n8v_app_<database>` when that is plain
/// (lowercase letters, digits, underscores) and short enough, else up to 40 characters of it
/// made plain and 8 hex digits of its hash (so `a-b` and `a_b` stay apart).
pub fn default_for(database: &str) -> String {
    let plain = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_';
    let name = format!("{LEGACY}_{database}");
    if database.chars().all(plain) && !database.is_empty() && name.len() <= MAX_LEN {
        return name;
    }
    let kept: String = database
        .chars()
        .map(|c| if plain(c) { c } else { '_' })
        .take(40)
        .collect();
    let hash = hex::encode(&Sha256::digest(database.as_bytes())[..4]);
    format!("{LEGACY}_{kept}_{hash}")
}

/// The comment `migrate` puts on the roles of `database`.
pub fn marker(database: &str) -> String {
    format!("n8v-journal: {database}")
}

/// The database named in a role's comment, when `migrate` wrote it.
fn marked(comment: Option<&str>) -> Option<&str> {
    comment?.strip_prefix("n8v-journal: ")
}

/// The default for a URL's database, without asking the server (for a handle that connects
/// later): its database, else its user's name, as PostgreSQL defaults it.
pub fn default_for_url(url: &str) -> sqlx::Result<String> {
    let options: sqlx::postgres::PgConnectOptions = url.parse()?;
    let database = options
        .get_database()
        .unwrap_or(options.get_username())
        .to_owned();
    Ok(default_for(&database))
}

/// The application role of the database `pool` reaches: `configured` (`N8V_APP_ROLE`) when
/// given, else this database's default, or [`LEGACY`] where it serves this database alone.
pub async fn resolve(pool: &PgPool, configured: Option<&str>) -> anyhow::Result<String> {
    if let Some(role) = configured {
        return Ok(role.to_owned());
    }
    let database: String = sqlx::query_scalar!(r#"SELECT current_database()::text AS "db!""#)
        .fetch_one(pool)
        .await?;
    let own = default_for(&database);
    let found = sqlx::query!(
        r#"SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1) AS "own_exists!",
                  EXISTS (SELECT 1 FROM pg_shdepend s JOIN pg_roles r ON r.oid = s.refobjid
                           WHERE s.refclassid = 'pg_authid'::regclass AND r.rolname = $2
                             AND s.dbid = (SELECT oid FROM pg_database
                                            WHERE datname = current_database()))
                    AS "legacy_here!""#,
        own,
        LEGACY
    )
    .fetch_one(pool)
    .await?;
    if !found.own_exists && found.legacy_here && serves_elsewhere(pool, LEGACY).await?.is_none() {
        return Ok(LEGACY.to_owned());
    }
    Ok(own)
}

/// Another database `role` (or its login role) serves on this server: one where it holds
/// privileges, or the one its comment names (while that database exists).
pub async fn serves_elsewhere(pool: &PgPool, role: &str) -> anyhow::Result<Option<String>> {
    let login = super::login::login_role(role);
    let holds = sqlx::query_scalar!(
        r#"SELECT d.datname::text AS "datname!" FROM pg_shdepend s
             JOIN pg_roles r ON r.oid = s.refobjid
             JOIN pg_database d ON d.oid = s.dbid
            WHERE s.refclassid = 'pg_authid'::regclass AND r.rolname IN ($1, $2)
              AND d.datname <> current_database()
            ORDER BY 1 LIMIT 1"#,
        role,
        &login
    )
    .fetch_optional(pool)
    .await?;
    if holds.is_some() {
        return Ok(holds);
    }
    let comments = sqlx::query_scalar!(
        r#"SELECT shobj_description(oid, 'pg_authid') AS "comment"
             FROM pg_roles WHERE rolname IN ($1, $2)"#,
        role,
        &login
    )
    .fetch_all(pool)
    .await?;
    let current: String = sqlx::query_scalar!(r#"SELECT current_database()::text AS "db!""#)
        .fetch_one(pool)
        .await?;
    for database in comments.iter().filter_map(|c| marked(c.as_deref())) {
        if database == current {
            continue;
        }
        let exists = sqlx::query_scalar!(
            r#"SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1) AS "exists!""#,
            database
        )
        .fetch_one(pool)
        .await?;
        if exists {
            return Ok(Some(database.to_owned()));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_database_gets_a_valid_role_of_its_own() {
        assert_eq!(default_for("journal"), "n8v_app_journal");
        assert_eq!(default_for("n8v_journal_2"), "n8v_app_n8v_journal_2");
        let long = "n8v_test_1764625249_0123456789abcdef0123456789abcdef";
        for database in [
            long,
            "Journal",
            "a-b",
            "a_b",
            "ümlaut",
            "x".repeat(200).as_str(),
        ] {
            let role = default_for(database);
            assert!(role.len() <= MAX_LEN, "{role}");
            assert!(
                role.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
                "{role}"
            );
            assert_eq!(default_for(database), role, "the same every time");
        }
        assert_ne!(default_for("a-b"), default_for("a_b"));
        assert_ne!(default_for(long), default_for(&long.replace('f', "e")));
        assert_eq!(
            default_for_url("postgres://u:p@h:5432/journal").unwrap(),
            "n8v_app_journal"
        );
        assert_eq!(marked(Some(&marker("db"))), Some("db"));
        assert_eq!(marked(Some("something else")), None);
    }
}
