//! The schema is ready to be distributed by `account_id` (docs/scaling.md): read from the
//! migrated catalog, every tenant table's primary key and every foreign key between tenant
//! tables lead with `account_id`. A tenant table is any table in `public` with an `account_id`
//! column.

use crate::common;

use sqlx::PgPool;
use std::collections::BTreeSet;

/// Foreign keys that deliberately do not lead with `account_id`, with the reason. A key listed
/// here that no longer exists (or has become conforming) fails the test, so the list stays true.
const FOREIGN_KEY_EXCEPTIONS: &[(&str, &str)] = &[
    (
        // A membership row belongs to the member's account (so the member's own policy finds
        // it), and points at the organization in its owner's account: a relation that crosses
        // accounts by design. On Citus this key is dropped (or organization_members becomes a
        // reference table); docs/scaling.md says how.
        "organization_members_owner_account_id_organization_id_fkey",
        "membership crosses accounts: member's row -> owner's organization",
    ),
    (
        // A delivery belongs to its endpoint's account (who lists it) and points at the event
        // in the account whose session caused it: an organization member's session heard by
        // the organization's owner crosses accounts, as the membership does. On Citus this key
        // is dropped like the membership's (the event's deletion then deletes its deliveries
        // in n8v_delete_account and the prune).
        "webhook_deliveries_event_account_id_event_id_fkey",
        "an organization's event heard by its owner: owner's delivery -> member's event",
    ),
];

/// Tables that must be found as tenant tables (guards against the catalog query finding nothing).
const KNOWN_TENANT_TABLES: &[&str] = &[
    "accounts",
    "organizations",
    "organization_members",
    "credentials",
    "feature_flag_overrides",
    "audit_log",
    "records",
    "record_entries",
    "journal_sessions",
    "journal_calls",
    "session_summaries",
    "summary_budget",
    "journal_digests",
    "journal_loops",
    "journal_loop_sources",
    "journal_exposures",
    "journal_exposure_sightings",
    "oauth_grants",
    "oauth_tokens",
];

/// A foreign key, its columns in key order on both sides.
#[derive(Debug, sqlx::FromRow)]
struct ForeignKey {
    name: String,
    from_table: String,
    columns: Vec<String>,
    to_table: String,
    referenced: Vec<String>,
}

async fn owner_pool() -> PgPool {
    let url = common::fresh_database().await;
    sqlx::postgres::PgPoolOptions::new()
        .max_connections(1)
        .connect(&url)
        .await
        .expect("connect to the migrated database")
}

async fn tenant_tables(pool: &PgPool) -> BTreeSet<String> {
    common::seed::account_tables(pool)
        .await
        .into_iter()
        .collect()
}

#[tokio::test]
async fn every_tenant_table_has_account_id_first_in_its_primary_key() {
    let pool = owner_pool().await;
    let tenant = tenant_tables(&pool).await;
    for table in KNOWN_TENANT_TABLES {
        assert!(
            tenant.contains(*table),
            "{table} is not seen as a tenant table: {tenant:?}"
        );
    }

    // (table, primary key columns in key order); a table without a primary key has none.
    let keys: Vec<(String, Option<Vec<String>>)> = sqlx::query_as(
        "SELECT c.relname::text,
                (SELECT array_agg(a.attname::text ORDER BY k.ord)
                   FROM unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord)
                   JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum)
           FROM pg_class c
           JOIN pg_namespace n ON n.oid = c.relnamespace
           LEFT JOIN pg_constraint con ON con.conrelid = c.oid AND con.contype = 'p'
          WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND c.relname = ANY($1)",
    )
    .bind(tenant.iter().cloned().collect::<Vec<_>>())
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(keys.len(), tenant.len());

    let wrong: Vec<String> = keys
        .iter()
        .filter(|(_, columns)| {
            columns.as_ref().and_then(|c| c.first()).map(String::as_str) != Some("account_id")
        })
        .map(|(table, columns)| format!("{table}: primary key {columns:?}"))
        .collect();
    assert!(
        wrong.is_empty(),
        "tenant tables whose primary key does not lead with account_id: {wrong:#?}"
    );
}

#[tokio::test]
async fn every_foreign_key_between_tenant_tables_leads_with_account_id() {
    let pool = owner_pool().await;
    let tenant = tenant_tables(&pool).await;

    let foreign_keys: Vec<ForeignKey> = sqlx::query_as(
        "SELECT con.conname::text AS name, src.relname::text AS from_table,
                (SELECT array_agg(a.attname::text ORDER BY k.ord)
                   FROM unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord)
                   JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum)
                  AS columns,
                dst.relname::text AS to_table,
                (SELECT array_agg(a.attname::text ORDER BY k.ord)
                   FROM unnest(con.confkey) WITH ORDINALITY AS k(attnum, ord)
                   JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum)
                  AS referenced
           FROM pg_constraint con
           JOIN pg_class src ON src.oid = con.conrelid
           JOIN pg_class dst ON dst.oid = con.confrelid
           JOIN pg_namespace n ON n.oid = src.relnamespace
          WHERE con.contype = 'f' AND n.nspname = 'public'
            AND src.relname = ANY($1) AND dst.relname = ANY($1)
          ORDER BY 1",
    )
    .bind(tenant.iter().cloned().collect::<Vec<_>>())
    .fetch_all(&pool)
    .await
    .unwrap();
    assert!(
        foreign_keys
            .iter()
            .any(|fk| fk.from_table == "journal_calls"),
        "the catalog query found no foreign key of journal_calls: {foreign_keys:#?}"
    );

    let exceptions: BTreeSet<&str> = FOREIGN_KEY_EXCEPTIONS.iter().map(|e| e.0).collect();
    let mut wrong = Vec::new();
    let mut excused = BTreeSet::new();
    for ForeignKey {
        name,
        from_table,
        columns,
        to_table,
        referenced,
    } in &foreign_keys
    {
        let leads = columns.first().map(String::as_str) == Some("account_id")
            && referenced.first().map(String::as_str) == Some("account_id");
        if leads {
            continue;
        }
        if exceptions.contains(name.as_str()) {
            excused.insert(name.as_str());
        } else {
            wrong.push(format!(
                "{name}: {from_table}{columns:?} -> {to_table}{referenced:?}"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "foreign keys between tenant tables that do not lead with account_id on both sides \
         (fix the key, or list it in FOREIGN_KEY_EXCEPTIONS with the reason): {wrong:#?}"
    );
    assert_eq!(
        excused, exceptions,
        "FOREIGN_KEY_EXCEPTIONS lists keys that no longer need an exception"
    );
}
