//! The journal's reads use the account's indexes under row-level security, and stop at the
//! page (issue 11, goal 3). Each read's real SQL is prepared as the application role and
//! explained with its generic plan, the one a pooled connection settles on after five runs:
//! the session list, the catch-up brief and search. And the two branches those reads are
//! written as (the caller's own sessions, its organizations' sessions) merge into one order.

use crate::common;

use crate::common::TestApp;
use chrono::{DateTime, Duration, Utc};
use n8v_journal::admin;
use n8v_journal::brief;
use n8v_journal::db::{Tenant, TenantTx};
use n8v_journal::ids::{self, Kind};
use n8v_journal::journal::{self, reads, search};
use n8v_journal::render::window;
use n8v_journal::scopes::Scopes;
use reqwest::Method;
use serde_json::Value;
use uuid::Uuid;

use crate::common::JOURNAL_AND_ORG_SCOPES as SCOPES;
const PURPOSE: &str = "check the read plans";
const MINE: i32 = 3_000;

/// `count` ended sessions of `account` (five calls each), the newest an hour ago, the oldest 30
/// days ago; every 600th one's goal is about a login timeout.
async fn seed(app: &TestApp, account: Uuid, count: i32, organization: Option<Uuid>) {
    sqlx::query(
        "WITH s AS ( \
           INSERT INTO journal_sessions (account_id, session_id, credential_id, kind, assistant, \
               organization_id, scopes, goal, started_at, last_activity_at, ended_at, end_reason, \
               journal_only) \
           SELECT $1, gen_random_uuid(), gen_random_uuid(), 'explicit', 'seed', $3, \
                  '{records:read}', \
                  CASE WHEN g % 600 = 0 THEN 'Fix the login timeout' ELSE 'Tidy the build ' || g END, \
                  now() - interval '1 hour' - g * interval '30 days' / $2, \
                  now() - interval '55 minutes' - g * interval '30 days' / $2, \
                  now() - interval '50 minutes' - g * interval '30 days' / $2, 'ended', false \
             FROM generate_series(1, $2) g \
           RETURNING account_id, session_id, credential_id, started_at) \
         INSERT INTO journal_calls (account_id, call_id, session_id, credential_id, operation, \
             purpose, status, ok, wrote, journal_read, duration_ms, created_at) \
         SELECT s.account_id, gen_random_uuid(), s.session_id, s.credential_id, 'appendRecordEntry', \
                'Put the result on record', 201, true, k % 2 = 0, false, 3, \
                s.started_at + k * interval '1 minute' \
           FROM s, generate_series(1, 5) k",
    )
    .bind(account)
    .bind(count)
    .bind(organization)
    .execute(&app.owner)
    .await
    .unwrap();
}

/// `sql`'s generic plan as `account`'s key (`types` are its parameters', `args` their values),
/// run: the JSON plan's nodes, flattened.
async fn plan(
    app: &TestApp,
    account: Uuid,
    key: Uuid,
    sql: &str,
    types: &str,
    args: &str,
) -> Vec<Value> {
    let tenant = Tenant {
        account_id: account,
        credential_id: Some(key),
        scopes: Scopes::parse(SCOPES).unwrap(),
        repository: None,
        service: false,
    };
    let mut tx = TenantTx::begin(&app.db, &tenant).await.unwrap();
    explain(tx.conn(), sql, types, args).await
}

/// The generic plan of `sql`, run on `conn`, flattened.
async fn explain(conn: &mut sqlx::PgConnection, sql: &str, types: &str, args: &str) -> Vec<Value> {
    for statement in [
        "SET LOCAL plan_cache_mode = force_generic_plan".to_owned(),
        format!("PREPARE read_under_test ({types}) AS {sql}"),
    ] {
        sqlx::raw_sql(sqlx::AssertSqlSafe(statement))
            .execute(&mut *conn)
            .await
            .unwrap();
    }
    let explained: Value = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE read_under_test ({args})"
    )))
    .fetch_one(&mut *conn)
    .await
    .unwrap();
    // Prepared statements outlive the transaction; the pooled connection is used again.
    sqlx::raw_sql("DEALLOCATE read_under_test")
        .execute(&mut *conn)
        .await
        .unwrap();
    let mut nodes = Vec::new();
    flatten(&explained[0]["Plan"], false, &mut nodes);
    nodes
}

/// The statement a PL/pgSQL function answers (`RETURN QUERY …;`), with its positional
/// parameters (`$1`…): the statements of the write path live in such functions, which the
/// one-statement append runs too (migration 0039).
async fn returned_query(app: &TestApp, function: &str) -> String {
    let body: String = sqlx::query_scalar("SELECT prosrc FROM pg_proc WHERE proname = $1")
        .bind(function)
        .fetch_one(&app.owner)
        .await
        .unwrap();
    let (_, query) = body.split_once("RETURN QUERY").unwrap();
    query.rsplit_once(';').unwrap().0.to_owned()
}

/// The plan of an owner's function's body (an SQL body, or the value a plpgsql body returns),
/// as its owner runs it for `account` and `key`: `params` name its parameters in order, with
/// their types and the values to explain it with.
async fn body_plan(
    app: &TestApp,
    account: Uuid,
    key: Uuid,
    function: &str,
    params: &[(&str, &str, &str)],
) -> Vec<Value> {
    let body: String = sqlx::query_scalar("SELECT prosrc FROM pg_proc WHERE proname = $1")
        .bind(function)
        .fetch_one(&app.owner)
        .await
        .unwrap();
    let mut sql = match body.split_once("RETURN ") {
        Some((_, returned)) => format!("SELECT {}", returned.rsplit_once(';').unwrap().0),
        None => body,
    };
    for (n, (name, _, _)) in params.iter().enumerate() {
        sql = sql.replace(name, &format!("${}", n + 1));
    }
    let types: Vec<&str> = params.iter().map(|p| p.1).collect();
    let args: Vec<&str> = params.iter().map(|p| p.2).collect();
    let mut tx = app.owner.begin().await.unwrap();
    sqlx::query(
        "SELECT set_config('app.account_id', $1::text, true), \
                set_config('app.credential_id', $2::text, true)",
    )
    .bind(account.to_string())
    .bind(key.to_string())
    .execute(&mut *tx)
    .await
    .unwrap();
    explain(&mut tx, &sql, &types.join(", "), &args.join(", ")).await
}

/// The nodes, each marked `"Per Row"` when it runs once per row of another (a subquery of the
/// select list or of a policy: bounded by the rows the read returns, not by the history).
fn flatten(node: &Value, per_row: bool, into: &mut Vec<Value>) {
    let per_row = per_row || node["Parent Relationship"] == "SubPlan";
    let mut own = node.clone();
    own.as_object_mut().unwrap().remove("Plans");
    own["Per Row"] = Value::Bool(per_row);
    into.push(own);
    for child in node["Plans"].as_array().into_iter().flatten() {
        flatten(child, per_row, into);
    }
}

/// The scans of `table` that ran, leaving out those run per row of another.
fn on<'a>(nodes: &'a [Value], table: &str) -> Vec<&'a Value> {
    nodes
        .iter()
        .filter(|n| n["Relation Name"] == table && n["Actual Loops"].as_f64() != Some(0.0))
        .filter(|n| n["Per Row"] == false)
        .collect()
}

/// The scans of `table` that ran (as `on`), at least one: a check over them proves nothing
/// when the plan has none.
fn scans<'a>(nodes: &'a [Value], table: &str) -> Vec<&'a Value> {
    let found = on(nodes, table);
    assert!(!found.is_empty(), "no scan of {table}: {}", outline(nodes));
    found
}

/// What the plan did, a line per node, for the failure messages.
fn outline(nodes: &[Value]) -> String {
    nodes
        .iter()
        .map(|n| {
            format!(
                "{} {} {} rows={} removed={} loops={}{}\n",
                n["Node Type"],
                n["Relation Name"],
                n["Index Name"],
                n["Actual Rows"],
                n["Rows Removed by Filter"],
                n["Actual Loops"],
                if n["Per Row"] == true {
                    " (per row)"
                } else {
                    ""
                }
            )
        })
        .collect()
}

/// Rows a node looked at: those it returned and those its filter threw away, every loop.
fn read(node: &Value) -> f64 {
    let loops = node["Actual Loops"].as_f64().unwrap_or(1.0);
    let kept = node["Actual Rows"].as_f64().unwrap_or(0.0);
    let dropped = node["Rows Removed by Filter"].as_f64().unwrap_or(0.0);
    (kept + dropped) * loops
}

fn uses(nodes: &[Value], index: &str) -> bool {
    nodes.iter().any(|n| n["Index Name"] == index)
}

struct Scene {
    app: TestApp,
    me: Uuid,
    key: Uuid,
    token: String,
}

/// An account with 3,000 sessions among 30 accounts of 300, analysed.
async fn scene() -> Scene {
    let app = common::spawn_app().await;
    let me = admin::create_account(&app.owner, "me", false)
        .await
        .unwrap();
    let (key, token) = app.key(me, SCOPES, None).await;
    seed(&app, me, MINE, None).await;
    for n in 0..30 {
        let other = admin::create_account(&app.owner, &format!("other {n}"), false)
            .await
            .unwrap();
        seed(&app, other, 300, None).await;
    }
    sqlx::raw_sql("ANALYZE").execute(&app.owner).await.unwrap();
    Scene {
        app,
        me,
        key,
        token,
    }
}

#[tokio::test]
async fn the_session_list_reads_one_page_of_the_accounts_index() {
    let Scene { app, me, key, .. } = scene().await;
    let sql = reads::list_sessions_sql(&Default::default(), false);
    let nodes = plan(
        &app,
        me,
        key,
        &sql,
        "text, uuid, uuid, text, timestamptz, timestamptz, timestamptz, uuid, bigint",
        "NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 51",
    )
    .await;
    assert!(uses(&nodes, "journal_sessions_list"), "{}", outline(&nodes));
    let sessions = on(&nodes, "journal_sessions");
    assert!(!sessions.is_empty());
    for node in sessions {
        assert!(
            node["Node Type"] == "Index Scan" || node["Node Type"] == "Index Only Scan",
            "a scan that reads more than its index serves: {node:#}"
        );
        assert!(
            read(node) <= 51.0,
            "read {} rows for a page of 51: {node:#}",
            read(node)
        );
    }
}

#[tokio::test]
async fn the_catch_up_reads_only_the_windows_sessions_of_the_account() {
    let Scene { app, me, key, .. } = scene().await;
    let nodes = plan(
        &app,
        me,
        key,
        &brief::catch_up_sql(),
        "timestamptz, bigint, timestamptz",
        "now() - interval '7 days', 21, now() - interval '7 days' - interval '1 minute'",
    )
    .await;
    assert!(
        uses(&nodes, "journal_sessions_by_activity") || uses(&nodes, "journal_sessions_list"),
        "{}",
        outline(&nodes)
    );
    for node in scans(&nodes, "journal_sessions") {
        assert_ne!(node["Node Type"], "Seq Scan", "{node:#}");
        // Sessions of the per-row subqueries are looked up by id; the scan of the account's
        // sessions stops at the 21 the brief takes.
        assert!(
            read(node) <= 21.0 * 2.0,
            "read {} rows: {node:#}",
            read(node)
        );
    }
}

#[tokio::test]
async fn search_finds_the_accounts_matches_through_the_text_indexes() {
    let Scene { app, me, key, .. } = scene().await;
    let nodes = plan(
        &app,
        me,
        key,
        &search::search_sql(&Default::default()),
        "text, text, uuid, text, timestamptz, timestamptz, boolean, bigint",
        "'login timeout', NULL, NULL, NULL, now() - interval '365 days', NULL, false, 20",
    )
    .await;
    // The five matches are sessions, read here by id (the calls' candidates come from their
    // function, checked below); a plan reading no session proves nothing.
    assert!(
        !on(&nodes, "journal_sessions").is_empty(),
        "{}",
        outline(&nodes)
    );
    for table in ["journal_sessions", "journal_calls"] {
        for node in on(&nodes, table) {
            assert_ne!(node["Node Type"], "Seq Scan", "{node:#}");
            // The five matches, looked up by key; never the account's history.
            assert!(
                read(node) <= 10.0,
                "read {} rows: {}",
                read(node),
                outline(&nodes)
            );
        }
    }
    let hits = nodes
        .iter()
        .find(|n| n["Node Type"] == "Append" && n["Per Row"] == false)
        .map(|n| n["Actual Rows"].clone());
    assert_eq!(hits, Some(5.into()), "{}", outline(&nodes));
    // The candidates come from the text indexes, the account's entries only.
    for (function, index, table) in [
        (
            "n8v_session_matches",
            "journal_sessions_search",
            "journal_sessions",
        ),
        ("n8v_call_matches", "journal_calls_search", "journal_calls"),
    ] {
        let params = [
            (
                "p_query",
                "tsquery",
                "websearch_to_tsquery('english', 'login timeout')",
            ),
            ("p_from", "timestamptz", "now() - interval '365 days'"),
        ];
        let nodes = body_plan(&app, me, key, function, &params).await;
        assert!(uses(&nodes, index), "{function}: {}", outline(&nodes));
        assert!(
            !on(&nodes, table).is_empty(),
            "{function} scans no {table}: {}",
            outline(&nodes)
        );
        for table in ["journal_sessions", "journal_calls"] {
            for node in on(&nodes, table) {
                assert_ne!(node["Node Type"], "Seq Scan", "{function}: {node:#}");
                assert!(read(node) <= 10.0, "{function}: {}", outline(&nodes));
            }
        }
    }
}

/// The append's audit + call statement (goals 1 and 6). PostgreSQL builds every node of a plan
/// on every run, executed or not, so the statement carries no policy subquery it has no use
/// for: no lookup of organizations or their members (those policies compare against one array,
/// migration 0012) and no read of calls under the policies. It finds the caller's open session
/// among the account's 3,000 by index, writes the call, and answers with that session.
#[tokio::test]
async fn the_appends_statement_plans_no_organization_lookups_and_reads_one_session() {
    let Scene {
        app,
        me,
        key,
        token,
    } = scene().await;
    // The key's implicit session, opened by a call; the statement must join it.
    app.journal_on(me).await;
    app.call(Method::GET, "/api/v1/records")
        .token(&token)
        .purpose(PURPOSE)
        .ok(200)
        .await;
    let scopes: Vec<String> =
        sqlx::query_scalar("SELECT scopes FROM journal_sessions WHERE credential_id = $1")
            .bind(key)
            .fetch_one(&app.owner)
            .await
            .unwrap();
    let scopes = format!("'{{{}}}'", scopes.join(","));
    let assistant: String =
        sqlx::query_scalar("SELECT assistant FROM journal_sessions WHERE credential_id = $1")
            .bind(key)
            .fetch_one(&app.owner)
            .await
            .unwrap();
    let args = format!(
        "true, gen_random_uuid(), 'req', 'POST', '/api/v1/records/x/entries', 201, now(), \
         true, NULL, {scopes}, now() - interval '30 minutes', now() - interval '31 minutes', \
         now() - interval '12 hours', gen_random_uuid(), 'appendRecordEntry', '{PURPOSE}', \
         '{{rec_x}}', 201, '{{}}', '{{ent_x}}', NULL, true, false, 3, now(), NULL, \
         now() - interval '1 minute', '{assistant}', NULL"
    );
    let nodes = plan(
        &app,
        me,
        key,
        &returned_query(&app, "n8v_record_call").await,
        "boolean, uuid, text, text, text, integer, timestamptz, boolean, uuid, text[], \
         timestamptz, timestamptz, timestamptz, uuid, text, text, text[], integer, jsonb, \
         text[], integer, boolean, boolean, integer, timestamptz, uuid, timestamptz, text, \
         integer",
        &args,
    )
    .await;
    for table in ["organizations", "organization_members"] {
        assert!(
            nodes.iter().all(|n| n["Relation Name"] != table),
            "{table} in the plan:\n{}",
            outline(&nodes)
        );
    }
    assert!(
        nodes
            .iter()
            .all(|n| n["Relation Name"] != "journal_calls" || n["Node Type"] == "ModifyTable"),
        "calls read under the policies:\n{}",
        outline(&nodes)
    );
    let sessions: Vec<_> = nodes
        .iter()
        .filter(|n| n["Relation Name"] == "journal_sessions" && n["Node Type"] != "ModifyTable")
        .collect();
    assert!(!sessions.is_empty(), "{}", outline(&nodes));
    for node in sessions {
        assert_ne!(node["Node Type"], "Seq Scan", "{node:#}");
        assert!(
            read(node) <= 2.0,
            "read {} rows: {}",
            read(node),
            outline(&nodes)
        );
    }
    // One row: the call joined that session (none would mean the caller must issue one).
    assert_eq!(nodes[0]["Actual Rows"], 1, "{}", outline(&nodes));

    // The Record statement before it: the Record and its new entry checked against the
    // organizations the caller may read as one array, not a membership lookup per check.
    let record: Uuid = sqlx::query_scalar(
        "SELECT record_id FROM records WHERE account_id = $1 AND organization_id IS NULL",
    )
    .bind(me)
    .fetch_one(&app.owner)
    .await
    .unwrap();
    let args = format!("'{record}', gen_random_uuid(), 'a line', '{me}', '{key}', now()");
    let nodes = plan(
        &app,
        me,
        key,
        &returned_query(&app, "n8v_append_entry").await,
        "uuid, uuid, text, uuid, uuid, timestamptz",
        &args,
    )
    .await;
    assert!(
        nodes
            .iter()
            .all(|n| n["Relation Name"] != "organization_members"),
        "membership lookups in the plan:\n{}",
        outline(&nodes)
    );
    assert_eq!(nodes[0]["Actual Rows"], 1, "{}", outline(&nodes));

    // The exact last activity reads the newest call only, however many came since the stored
    // bound (a busy session gathers a minute of them between two moves of the bound).
    let session: Uuid =
        sqlx::query_scalar("SELECT session_id FROM journal_sessions WHERE credential_id = $1")
            .bind(key)
            .fetch_one(&app.owner)
            .await
            .unwrap();
    sqlx::query(
        "INSERT INTO journal_calls (account_id, call_id, session_id, credential_id, operation, \
             status, ok, wrote, journal_read, duration_ms, created_at) \
         SELECT $1, gen_random_uuid(), $2, $3, 'listRecords', 200, true, false, false, 1, \
                now() - g * interval '10 milliseconds' \
           FROM generate_series(1, 500) g",
    )
    .bind(me)
    .bind(session)
    .bind(key)
    .execute(&app.owner)
    .await
    .unwrap();
    let session = format!("'{session}'");
    let params = [
        ("p_session", "uuid", session.as_str()),
        ("p_stored", "timestamptz", "now() - interval '1 minute'"),
    ];
    let nodes = body_plan(&app, me, key, "n8v_own_last_activity", &params).await;
    let calls = on(&nodes, "journal_calls");
    assert!(!calls.is_empty(), "{}", outline(&nodes));
    for node in calls {
        assert!(
            read(node) <= 1.0,
            "read {} calls: {}",
            read(node),
            outline(&nodes)
        );
    }
}

fn at(hours_ago: i64) -> DateTime<Utc> {
    Utc::now() - Duration::hours(hours_ago)
}

/// Sessions the owner's own and its member's on the organization, alternating in time: the
/// list pages through both in one order, each session once, and the brief takes both.
#[tokio::test]
async fn own_and_organization_sessions_merge_in_one_order_across_pages() {
    let app = common::spawn_app().await;
    let owner = app.account("owner", SCOPES).await;
    let member = app.account("member", crate::common::JOURNAL_SCOPES).await;
    app.journal_on(owner.id).await;
    let org = app
        .organization_with_reader(owner.id, "Org", member.id)
        .await;
    let mut expected = Vec::new();
    for hour in 1..=9 {
        // Every third session is the owner's own work on the organization: listed once.
        let (account, organization) = match hour % 3 {
            0 => (owner.id, Some(org)),
            1 => (member.id, Some(org)),
            _ => (owner.id, None),
        };
        let id = ids::new_id();
        sqlx::query(
            "INSERT INTO journal_sessions (account_id, session_id, credential_id, kind, \
                 assistant, organization_id, scopes, started_at, last_activity_at, journal_only) \
             VALUES ($1, $2, gen_random_uuid(), 'explicit', 'seed', $3, '{records:read}', $4, $4, \
                 false)",
        )
        .bind(account)
        .bind(id)
        .bind(organization)
        .bind(at(hour))
        .execute(&app.owner)
        .await
        .unwrap();
        expected.push(ids::format(Kind::Session, id));
    }
    // A member session on no organization stays the member's.
    sqlx::query(
        "INSERT INTO journal_sessions (account_id, session_id, credential_id, kind, assistant, \
             scopes, started_at, last_activity_at, journal_only) \
         VALUES ($1, gen_random_uuid(), gen_random_uuid(), 'explicit', 'seed', '{records:read}', \
             now(), now(), false)",
    )
    .bind(member.id)
    .execute(&app.owner)
    .await
    .unwrap();

    let listed = app
        .paged_ids(&owner.token, "/api/v1/journal/sessions", 4, "sessions")
        .await;
    assert_eq!(listed, expected, "newest first, each once, across pages");

    let brief = app
        .call(Method::GET, "/api/v1/journal/catch-up")
        .token(&owner.token)
        .purpose(PURPOSE)
        .ok(200)
        .await;
    let mut in_brief: Vec<String> = brief["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap().to_owned())
        .collect();
    in_brief.retain(|id| expected.contains(id));
    assert_eq!(in_brief, expected, "{brief:#}");
}

/// Rows of `journal_calls` (the table's and its indexes') this transaction has read so far: its
/// own statistics, which count what functions' bodies read too, where a plan does not show them.
async fn calls_read(conn: &mut sqlx::PgConnection) -> i64 {
    sqlx::query_scalar(
        "SELECT (pg_stat_get_xact_tuples_returned('journal_calls'::regclass) \
            + (SELECT coalesce(sum(pg_stat_get_xact_tuples_returned(i.indexrelid)), 0) \
                 FROM pg_index i WHERE i.indrelid = 'journal_calls'::regclass))::bigint",
    )
    .fetch_one(conn)
    .await
    .unwrap()
}

/// The rows of `journal_calls` that `sql` (its generic plan, as a pooled connection settles on)
/// reads as `account`'s key, functions' bodies included.
async fn calls_read_by(
    app: &TestApp,
    account: Uuid,
    key: Uuid,
    sql: &str,
    types: &str,
    args: &str,
) -> i64 {
    let tenant = Tenant {
        account_id: account,
        credential_id: Some(key),
        scopes: Scopes::parse(SCOPES).unwrap(),
        repository: None,
        service: false,
    };
    let mut tx = TenantTx::begin(&app.db, &tenant).await.unwrap();
    let conn = tx.conn();
    for statement in [
        "SET LOCAL plan_cache_mode = force_generic_plan".to_owned(),
        format!("PREPARE read_under_test ({types}) AS {sql}"),
    ] {
        sqlx::raw_sql(sqlx::AssertSqlSafe(statement))
            .execute(&mut *conn)
            .await
            .unwrap();
    }
    let before = calls_read(conn).await;
    sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
        "EXECUTE read_under_test ({args})"
    )))
    .execute(&mut *conn)
    .await
    .unwrap();
    let read = calls_read(conn).await - before;
    sqlx::raw_sql("DEALLOCATE read_under_test")
        .execute(&mut *conn)
        .await
        .unwrap();
    read
}

/// `sessions` sessions of `account`'s `key`, `calls` calls each (one a second, every other one
/// wrote, the last two hours ago): ended, or open.
async fn sessions_of(
    app: &TestApp,
    account: Uuid,
    key: Uuid,
    sessions: i32,
    calls: i32,
    ended: bool,
) {
    sqlx::query(
        "WITH s AS ( \
           INSERT INTO journal_sessions (account_id, session_id, credential_id, kind, assistant, \
               scopes, goal, started_at, last_activity_at, ended_at, end_reason, journal_only) \
           SELECT $1, gen_random_uuid(), $2, 'explicit', 'seed', $3, 'Fix the login timeout ' || g, \
                  now() - interval '2 hours' - g * interval '1 minute' - $4 * interval '1 second', \
                  now() - interval '2 hours' - g * interval '1 minute', \
                  CASE WHEN $5 THEN now() - interval '2 hours' - g * interval '1 minute' END, \
                  CASE WHEN $5 THEN 'ended' END, false \
             FROM generate_series(1, 10) g WHERE g <= $6 \
           RETURNING account_id, session_id, credential_id, started_at) \
         INSERT INTO journal_calls (account_id, call_id, session_id, credential_id, operation, \
             purpose, status, ok, wrote, journal_read, duration_ms, created_at) \
         SELECT s.account_id, gen_random_uuid(), s.session_id, s.credential_id, 'appendRecordEntry', \
                'Put the result on record', 201, true, k % 2 = 0, false, 3, \
                s.started_at + k * interval '1 second' \
           FROM s, generate_series(1, $4) k",
    )
    .bind(account)
    .bind(key)
    .bind(SCOPES.split(',').collect::<Vec<_>>())
    .bind(calls)
    .bind(ended)
    .bind(sessions)
    .execute(&app.owner)
    .await
    .unwrap();
}

/// Issue 25. Another account's ten open sessions of 2,000 calls each cost a small account's
/// reads nothing: its list, brief, window and search read none of those calls. And an
/// account's own reads of those ten sessions read what the page shows, not the 20,000 calls:
/// their counts and purposes come folded on the session (migrations 0015 and 0016) by the
/// appends that name them.
#[tokio::test]
async fn reads_touch_no_other_accounts_calls_and_not_the_whole_of_their_own() {
    let app = common::spawn_app().await;
    let small = app.account("small", SCOPES).await;
    let busy = app.account("busy", SCOPES).await;
    app.journal_on(busy.id).await;
    sessions_of(&app, small.id, small.key_id, 10, 1, true).await;
    sessions_of(&app, busy.id, busy.key_id, 10, 2_000, false).await;
    // Each open session gets a call through the service (its stored last activity is two
    // hours behind, so the append folds its count).
    let record = app.first_record(&busy.token).await;
    let open: Vec<Uuid> = sqlx::query_scalar(
        "SELECT session_id FROM journal_sessions WHERE account_id = $1 AND ended_at IS NULL \
           AND kind = 'explicit'",
    )
    .bind(busy.id)
    .fetch_all(&app.owner)
    .await
    .unwrap();
    assert_eq!(open.len(), 10);
    for session in &open {
        let session = ids::format(Kind::Session, *session);
        app.append(
            &busy.token,
            &record,
            Some(&session),
            Some(PURPOSE),
            "one more",
        )
        .await;
    }
    sqlx::raw_sql("ANALYZE").execute(&app.owner).await.unwrap();

    let list = reads::list_sessions_sql(&Default::default(), false);
    let list_types = "text, uuid, uuid, text, timestamptz, timestamptz, timestamptz, uuid, bigint";
    let list_args = "NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 11";
    let brief_types = "timestamptz, bigint, timestamptz";
    let brief_args =
        "now() - interval '7 days', 21, now() - interval '7 days' - interval '1 minute'";
    let window_args =
        "now() - interval '14 days', 500, now() - interval '14 days' - interval '1 minute'";
    let search = search::search_sql(&Default::default());
    let search_types = "text, text, uuid, text, timestamptz, timestamptz, boolean, bigint";
    let search_args =
        "'login timeout', NULL, NULL, NULL, now() - interval '365 days', NULL, false, 20";
    let reads = [
        ("list", list.as_str(), list_types, list_args),
        ("catch-up", &brief::catch_up_sql(), brief_types, brief_args),
        ("window", &window::window_sql(), brief_types, window_args),
        ("search", search.as_str(), search_types, search_args),
    ];
    for (name, sql, types, args) in reads {
        // Ten sessions of one call: a few rows per session at most, whatever the neighbours do.
        let read = calls_read_by(&app, small.id, small.key_id, sql, types, args).await;
        assert!(read <= 100, "the small account's {name} read {read} calls");
        if name == "search" {
            continue;
        }
        // Per session: its newest call, and the calls since its counts and purposes were
        // folded (the append's own) for the counts and the provisional purposes.
        let read = calls_read_by(&app, busy.id, busy.key_id, sql, types, args).await;
        assert!(
            read <= 200,
            "the {name} of 10 sessions × 2,000 calls read {read} calls"
        );
    }
    // The purposes that may carry a marker, which the brief and the window read for sessions
    // without a summary: those since the fold, then the folded ones.
    for (who, most) in [(&small, 100), (&busy, 200)] {
        let sessions: Vec<Uuid> =
            sqlx::query_scalar("SELECT session_id FROM journal_sessions WHERE account_id = $1")
                .bind(who.id)
                .fetch_all(&app.owner)
                .await
                .unwrap();
        let array = |ids: Vec<String>| format!("'{{{}}}'", ids.join(","));
        let args = format!(
            "{}, {}, 100",
            array(sessions.iter().map(|_| who.id.to_string()).collect()),
            array(sessions.iter().map(Uuid::to_string).collect())
        );
        let read = calls_read_by(
            &app,
            who.id,
            who.key_id,
            journal::MARKED_PURPOSES,
            "uuid[], uuid[], bigint",
            &args,
        )
        .await;
        assert!(read <= most, "the marked purposes read {read} calls");
    }

    // The counts stay exact: 2,000 calls and 1,000 writes each, and the ten appends that
    // folded them. (The first read of the Records came from another assistant than the seeded
    // sessions', so it opened an implicit session of its own.)
    let listed = app
        .call(Method::GET, "/api/v1/journal/sessions?limit=20")
        .token(&busy.token)
        .purpose(PURPOSE)
        .ok(200)
        .await;
    let sessions: Vec<&Value> = listed["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["assistant"] == "seed")
        .collect();
    assert_eq!(sessions.len(), 10, "{listed:#}");
    let sum = |field: &str| {
        sessions
            .iter()
            .map(|s| s[field].as_i64().unwrap())
            .sum::<i64>()
    };
    assert_eq!(sum("call_count"), 20_010, "{listed:#}");
    assert_eq!(sum("write_count"), 10_010, "{listed:#}");
    for s in sessions {
        assert_eq!(s["provisional"]["calls"], s["call_count"], "{s:#}");
    }
}
