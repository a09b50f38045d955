//! Row-level security, checked as the application role: the catalog rules every tenant table
//! must follow, and isolation between two accounts at the SQL level.

use crate::common;

use n8v_journal::admin;
use n8v_journal::db::{Tenant, TenantTx};
use sqlx::Row;
use uuid::Uuid;

#[tokio::test]
async fn every_tenant_table_is_forced_under_rls_with_account_id_first() {
    let app = common::spawn_app().await;
    let rows = sqlx::query(
        "SELECT c.relname::text AS name, c.relrowsecurity AS enabled, c.relforcerowsecurity AS forced, \
                (SELECT count(*) FROM pg_policy p WHERE p.polrelid = c.oid) AS policies, \
                (SELECT a.attname::text FROM pg_index i \
                   JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0] \
                  WHERE i.indrelid = c.oid AND i.indisprimary) AS pk_first \
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
          WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') \
            AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid \
                          AND a.attname = 'account_id' AND NOT a.attisdropped) \
          ORDER BY 1",
    )
    .fetch_all(&app.owner)
    .await
    .unwrap();
    let names: Vec<String> = rows.iter().map(|r| r.get("name")).collect();
    for expected in [
        "accounts",
        "audit_log",
        "credentials",
        "feature_flag_overrides",
        "journal_calls",
        "journal_sessions",
        "organization_members",
        "organizations",
        "record_entries",
        "records",
    ] {
        assert!(
            names.iter().any(|n| n == expected),
            "{expected} missing from {names:?}"
        );
    }
    for row in &rows {
        let name: String = row.get("name");
        assert!(row.get::<bool, _>("enabled"), "{name}: RLS not enabled");
        assert!(row.get::<bool, _>("forced"), "{name}: RLS not forced");
        assert!(row.get::<i64, _>("policies") >= 1, "{name}: no policy");
        assert_eq!(
            row.get::<Option<String>, _>("pk_first").as_deref(),
            Some("account_id"),
            "{name}"
        );
    }

    let role = sqlx::query(
        "SELECT rolsuper, rolbypassrls, rolcanlogin, \
                (SELECT count(*) FROM pg_class WHERE relowner = r.oid) AS owned_relations, \
                (SELECT count(*) FROM pg_proc WHERE proowner = r.oid) AS owned_functions, \
                (SELECT count(*) FROM pg_type WHERE typowner = r.oid) AS owned_types \
           FROM pg_roles r WHERE rolname = $1",
    )
    .bind(app.db.app_role())
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert!(!role.get::<bool, _>("rolsuper"));
    assert!(!role.get::<bool, _>("rolbypassrls"));
    // Nobody logs in as it: tenant work logs in as its login role and becomes it.
    assert!(!role.get::<bool, _>("rolcanlogin"));
    assert_eq!(role.get::<i64, _>("owned_relations"), 0);
    assert_eq!(role.get::<i64, _>("owned_functions"), 0);
    assert_eq!(role.get::<i64, _>("owned_types"), 0);
}

/// Seeds one row (at least) in every tenant table for the account, as the owner.
async fn seed(app: &common::TestApp, account: Uuid) {
    let org = admin::create_org(&app.owner, account, "org").await.unwrap();
    admin::add_member(&app.owner, org, account, true)
        .await
        .unwrap();
    app.key(account, "chats:read", None).await;
    app.journal_on(account).await;
    let record: Uuid =
        sqlx::query_scalar("SELECT record_id FROM records WHERE account_id = $1 LIMIT 1")
            .bind(account)
            .fetch_one(&app.owner)
            .await
            .unwrap();
    let credential: Uuid =
        sqlx::query_scalar("SELECT credential_id FROM credentials WHERE account_id = $1 LIMIT 1")
            .bind(account)
            .fetch_one(&app.owner)
            .await
            .unwrap();
    // A connected assistant: a grant on a credential of its own.
    let (grant, _) = app.key(account, "chats:read", None).await;
    sqlx::query(
        "INSERT INTO oauth_grants (account_id, credential_id, client_id, client_name, resource, \
                                   redirect_uri, code_challenge, approved_by) \
         VALUES ($1, $2, 'n8v_cl_x', 'Tool', 'http://x/mcp', 'http://127.0.0.1/cb', 'c', $3)",
    )
    .bind(account)
    .bind(grant)
    .bind(credential)
    .execute(&app.owner)
    .await
    .unwrap();
    let session = Uuid::now_v7();
    sqlx::query(
        "INSERT INTO record_entries (account_id, entry_id, record_id, line, author_account_id) VALUES ($1, $2, $3, 'x', $1); \
         ",
    )
    .bind(account)
    .bind(Uuid::now_v7())
    .bind(record)
    .execute(&app.owner)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO journal_sessions (account_id, session_id, credential_id, kind, scopes, started_at, last_activity_at) \
         VALUES ($1, $2, $3, 'explicit', '{}', now(), now())",
    )
    .bind(account)
    .bind(session)
    .bind(credential)
    .execute(&app.owner)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO journal_calls (account_id, call_id, session_id, credential_id, operation, status, ok, wrote, journal_read, duration_ms, created_at) \
         VALUES ($1, $2, $3, $4, 'op', 200, true, false, false, 1, now())",
    )
    .bind(account)
    .bind(Uuid::now_v7())
    .bind(session)
    .bind(credential)
    .execute(&app.owner)
    .await
    .unwrap();
    common::seed::worker_rows(app, account, session, 1).await;
    sqlx::query(
        "INSERT INTO audit_log (account_id, audit_id, credential_id, request_id, method, path, status) \
         VALUES ($1, $2, $3, 'r', 'GET', '/', 200)",
    )
    .bind(account)
    .bind(Uuid::now_v7())
    .bind(credential)
    .execute(&app.owner)
    .await
    .unwrap();
}

/// The tenant tables the application role can read.
async fn readable_tables(app: &common::TestApp) -> Vec<String> {
    let mut readable = Vec::new();
    for table in common::seed::account_tables(&app.owner).await {
        let granted: bool =
            sqlx::query_scalar("SELECT has_table_privilege($2, $1::regclass, 'SELECT')")
                .bind(&table)
                .bind(app.db.app_role())
                .fetch_one(&app.owner)
                .await
                .unwrap();
        if granted {
            readable.push(table);
        }
    }
    readable
}

#[tokio::test]
async fn an_account_sees_only_its_rows_and_cannot_write_anothers() {
    let app = common::spawn_app().await;
    let a = app
        .account("A", crate::common::JOURNAL_AND_ORG_SCOPES)
        .await;
    let b = app
        .account("B", crate::common::JOURNAL_AND_ORG_SCOPES)
        .await;
    seed(&app, a.id).await;
    seed(&app, b.id).await;

    let tenant = Tenant {
        account_id: a.id,
        credential_id: Some(a.key_id),
        scopes: n8v_journal::scopes::Scopes::parse(
            "chats:read,orgs:read,records:read,records:write",
        )
        .unwrap(),
        repository: None,
        service: false,
    };
    for table in readable_tables(&app).await {
        let mut tx = TenantTx::begin(&app.db, &tenant).await.unwrap();
        let sql = format!("SELECT count(*) FILTER (WHERE account_id = $1), count(*) FROM {table}");
        let (own, all): (i64, i64) = sqlx::query_as(sqlx::AssertSqlSafe(sql))
            .bind(a.id)
            .fetch_one(tx.conn())
            .await
            .unwrap();
        assert!(own >= 1, "{table}: A sees none of its own rows");
        assert_eq!(
            own,
            all,
            "{table}: A sees {} rows of another account",
            all - own
        );
        tx.rollback().await.unwrap();
    }

    // Writing a row for B with A's tenant set fails with insufficient_privilege (42501).
    let b_record: Uuid =
        sqlx::query_scalar("SELECT record_id FROM records WHERE account_id = $1 LIMIT 1")
            .bind(b.id)
            .fetch_one(&app.owner)
            .await
            .unwrap();
    let writes = [
        (
            "INSERT INTO record_entries (account_id, entry_id, record_id, line, author_account_id) VALUES ($1, $2, $3, 'x', $1)",
            true,
        ),
        (
            "INSERT INTO journal_sessions (account_id, session_id, credential_id, kind, scopes, started_at, last_activity_at) VALUES ($1, $2, $3, 'explicit', '{}', now(), now())",
            false,
        ),
        (
            "INSERT INTO audit_log (account_id, audit_id, credential_id, request_id, method, path, status) VALUES ($1, $2, $3, 'r', 'GET', '/', 200)",
            false,
        ),
        (
            "INSERT INTO feature_flag_overrides (account_id, flag, enabled) VALUES ($1, 'assistantJournal' || $2::text || $3::text, true)",
            false,
        ),
    ];
    for (sql, uses_record) in writes {
        let mut tx = TenantTx::begin(&app.db, &tenant).await.unwrap();
        let third = if uses_record { b_record } else { a.key_id };
        let err = sqlx::query(sql)
            .bind(b.id)
            .bind(Uuid::now_v7())
            .bind(third)
            .execute(tx.conn())
            .await
            .expect_err(sql);
        let code = err
            .as_database_error()
            .and_then(|e| e.code())
            .map(|c| c.into_owned());
        assert_eq!(code.as_deref(), Some("42501"), "{sql}: {err}");
    }

    // A dismissal is only the reader's own, and only of an item it reads: none in B's name,
    // none of B's item, which A does not read.
    let b_item: Uuid =
        sqlx::query_scalar("SELECT loop_id FROM journal_loops WHERE account_id = $1 LIMIT 1")
            .bind(b.id)
            .fetch_one(&app.owner)
            .await
            .unwrap();
    let dismissals = [
        (b.id, b.id, b_item),
        (b.id, Uuid::now_v7(), Uuid::now_v7()),
        (a.id, b.id, b_item),
    ];
    for (reader, author, item) in dismissals {
        let mut tx = TenantTx::begin(&app.db, &tenant).await.unwrap();
        let err = sqlx::query(
            "INSERT INTO journal_loop_dismissals (account_id, loop_account_id, loop_id, \
                 dismissed_at) VALUES ($1, $2, $3, now())",
        )
        .bind(reader)
        .bind(author)
        .bind(item)
        .execute(tx.conn())
        .await
        .expect_err("a dismissal A may not make");
        let code = err.as_database_error().and_then(|e| e.code());
        assert!(
            matches!(code.as_deref(), Some("42501") | Some("23514")),
            "{reader} {author}: {err}"
        );
    }

    // And an update aimed at B's rows changes nothing.
    let mut tx = TenantTx::begin(&app.db, &tenant).await.unwrap();
    let updated =
        sqlx::query("UPDATE journal_sessions SET goal = 'hijacked' WHERE account_id = $1")
            .bind(b.id)
            .execute(tx.conn())
            .await
            .unwrap();
    assert_eq!(updated.rows_affected(), 0);
}

#[tokio::test]
async fn with_no_tenant_set_nothing_is_visible() {
    let app = common::spawn_app().await;
    let a = app.account("A", "chats:read").await;
    seed(&app, a.id).await;
    for table in readable_tables(&app).await {
        let mut tx = app.owner.begin().await.unwrap();
        sqlx::query("SELECT set_config('role', $1, true)")
            .bind(app.db.app_role())
            .execute(&mut *tx)
            .await
            .unwrap();
        let sql = format!("SELECT count(*) FROM {table}");
        let count: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
            .fetch_one(&mut *tx)
            .await
            .unwrap();
        assert_eq!(count, 0, "{table} shows rows with no tenant set");
    }
    // The app role cannot reach operator credentials, nor credentials at all (keys are looked
    // up through the owner's SECURITY DEFINER functions).
    for table in ["operator_credentials", "credentials"] {
        let mut tx = app.owner.begin().await.unwrap();
        sqlx::query("SELECT set_config('role', $1, true)")
            .bind(app.db.app_role())
            .execute(&mut *tx)
            .await
            .unwrap();
        let err = sqlx::query(sqlx::AssertSqlSafe(format!("SELECT count(*) FROM {table}")))
            .fetch_one(&mut *tx)
            .await
            .unwrap_err();
        assert_eq!(
            err.as_database_error().and_then(|e| e.code()).as_deref(),
            Some("42501"),
            "{table}"
        );
    }
}
