//! The command-line contract, end to end: the real binary, printing JSON.

use crate::common;

use serde_json::Value;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_n8v-journal");

fn run(db_url: &str, args: &[&str]) -> (bool, Value) {
    let out = Command::new(BIN)
        .args(args)
        .env("DATABASE_URL", db_url)
        .env_remove("N8V_MIGRATION_DATABASE_URL")
        .output()
        .expect("run the binary");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().last().unwrap_or_default();
    let json = serde_json::from_str(line).unwrap_or_else(|e| {
        panic!(
            "{args:?} printed {stdout:?} ({e}); stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.success(), json)
}

fn ok(db_url: &str, args: &[&str]) -> Value {
    let (success, json) = run(db_url, args);
    assert!(success, "{args:?} failed: {json}");
    json
}

async fn wait_ready(base: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Ok(r) = reqwest::get(format!("{base}/readyz")).await
            && r.status() == 200
        {
            return;
        }
        assert!(Instant::now() < deadline, "{base} never became ready");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn terminate(child: &mut std::process::Child) -> std::process::ExitStatus {
    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        assert!(
            Instant::now() < deadline,
            "the process did not stop on SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[tokio::test]
async fn admin_commands_print_json_and_take_effect() {
    // `migrate` on a database that has never been migrated.
    let db = common::empty_database().await;
    assert_eq!(ok(&db, &["migrate"]), serde_json::json!({"migrated": true}));
    assert_eq!(
        ok(&db, &["migrate"]),
        serde_json::json!({"migrated": true}),
        "migrate is idempotent"
    );

    let account = ok(&db, &["admin", "create-account", "--name", "Ada"]);
    let acc = account["account_id"].as_str().unwrap().to_owned();
    assert!(acc.starts_with("acc_"), "{account}");
    let internal = ok(
        &db,
        &["admin", "create-account", "--name", "Ops", "--internal"],
    );
    let other = internal["account_id"].as_str().unwrap().to_owned();

    let org = ok(
        &db,
        &[
            "admin",
            "create-org",
            "--owner",
            &acc,
            "--name",
            "Analytical Engines",
        ],
    );
    let org = org["organization_id"].as_str().unwrap().to_owned();
    assert!(org.starts_with("org_"));
    assert_eq!(
        ok(
            &db,
            &[
                "admin",
                "add-member",
                "--org",
                &org,
                "--account",
                &other,
                "--read"
            ]
        ),
        serde_json::json!({})
    );

    let key = ok(
        &db,
        &[
            "admin",
            "create-key",
            "--account",
            &acc,
            "--scopes",
            "chats:read,records:read",
            "--repo",
            "ada/engine",
            "--name",
            "laptop",
        ],
    );
    let key_id = key["key_id"].as_str().unwrap().to_owned();
    let token = key["token"].as_str().unwrap().to_owned();
    assert!(
        key_id.starts_with("key_") && token.starts_with("n8v_sk_"),
        "{key}"
    );
    let operator = ok(&db, &["admin", "create-operator-key", "--name", "ops"]);
    assert!(operator["token"].as_str().unwrap().starts_with("n8v_sk_"));
    let flag = ok(
        &db,
        &[
            "admin",
            "flag",
            "set",
            "assistantJournal",
            "on",
            "--account",
            &acc,
        ],
    );
    assert_eq!(flag["enabled"], true);
    ok(&db, &["admin", "flag", "set", "assistantJournal", "off"]);

    // What the commands did, read back as the owner.
    let pool = sqlx::PgPool::connect(&db).await.unwrap();
    let acc_uuid = n8v_journal::ids::parse(n8v_journal::ids::Kind::Account, &acc).unwrap();
    let kinds: Vec<String> = sqlx::query_scalar("SELECT kind FROM accounts ORDER BY kind")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert_eq!(kinds, ["customer", "internal"]);
    let (scopes, repo, name): (Vec<String>, Option<String>, String) =
        sqlx::query_as("SELECT scopes, repository, name FROM credentials WHERE account_id = $1")
            .bind(acc_uuid)
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(
        (scopes, repo.as_deref(), name.as_str()),
        (
            vec!["chats:read".into(), "records:read".into()],
            Some("ada/engine"),
            "laptop"
        )
    );
    let member_reads: bool = sqlx::query_scalar("SELECT can_read FROM organization_members")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert!(member_reads);
    let records: i64 = sqlx::query_scalar("SELECT count(*) FROM records")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(
        records, 3,
        "one Record per account and one per organization"
    );
    let flags: (bool, bool) = sqlx::query_as(
        "SELECT (SELECT enabled FROM feature_flag_overrides WHERE account_id = $1), (SELECT enabled FROM feature_flags)",
    )
    .bind(acc_uuid)
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(flags, (true, false));

    assert_eq!(
        ok(&db, &["admin", "revoke-key", "--key", &key_id]),
        serde_json::json!({})
    );
    let revoked: bool =
        sqlx::query_scalar("SELECT revoked_at IS NOT NULL FROM credentials WHERE account_id = $1")
            .bind(acc_uuid)
            .fetch_one(&pool)
            .await
            .unwrap();
    assert!(revoked);

    // Mistakes exit non-zero with a JSON error that says what is wrong.
    for (args, needle) in [
        (
            vec![
                "admin",
                "create-key",
                "--account",
                acc.as_str(),
                "--scopes",
                "root",
            ],
            "unknown scope",
        ),
        (
            vec!["admin", "create-org", "--owner", "acc_nope", "--name", "x"],
            "is not an account id (acc_…)",
        ),
        (
            vec!["admin", "flag", "set", "somethingElse", "on"],
            "unknown feature flag",
        ),
        (
            vec![
                "admin",
                "revoke-key",
                "--key",
                "key_00000000000000000000000000",
            ],
            "no key",
        ),
    ] {
        let (success, json) = run(&db, &args);
        assert!(!success, "{args:?} succeeded");
        assert!(
            json["error"].as_str().unwrap().contains(needle),
            "{args:?}: {json}"
        );
    }
}

#[tokio::test]
async fn serve_answers_and_stops_cleanly_on_sigterm() {
    let db = common::fresh_database().await;
    let account = ok(&db, &["admin", "create-account", "--name", "Ada"]);
    let acc = account["account_id"].as_str().unwrap().to_owned();
    let key = ok(
        &db,
        &[
            "admin",
            "create-key",
            "--account",
            &acc,
            "--scopes",
            "records:read",
        ],
    );
    let port = common::free_port();
    let mut child = Command::new(BIN)
        .arg("serve")
        .env("DATABASE_URL", &db)
        .env("N8V_BIND", format!("127.0.0.1:{port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let base = format!("http://127.0.0.1:{port}");
    wait_ready(&base).await;
    let records = reqwest::Client::new()
        .get(format!("{base}/api/v1/records"))
        .bearer_auth(key["token"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(records.status(), 200);
    assert!(terminate(&mut child).success());

    // The worker runs jobs: a closed session's summary job, queued as a close queues it, is
    // summarised (by code: no provider is configured) while the worker runs.
    let owner = sqlx::PgPool::connect(&db).await.unwrap();
    let account = n8v_journal::ids::parse(n8v_journal::ids::Kind::Account, &acc).unwrap();
    let credential =
        n8v_journal::ids::parse(n8v_journal::ids::Kind::Key, key["key_id"].as_str().unwrap())
            .unwrap();
    let session = uuid::Uuid::now_v7();
    sqlx::query(
        "INSERT INTO journal_sessions (account_id, session_id, credential_id, kind, assistant, \
             scopes, goal, started_at, last_activity_at, ended_at, end_reason, journal_only) \
         VALUES ($1, $2, $3, 'explicit', 'Claude', '{records:read}', 'Check the worker', \
             now(), now(), now(), 'ended', false)",
    )
    .bind(account)
    .bind(session)
    .bind(credential)
    .execute(&owner)
    .await
    .unwrap();
    let job = n8v_journal::queue::SummarizeSession {
        account_id: account,
        session_id: session,
        snapshot: 0,
    };
    n8v_journal::queue::enqueue_summary(&mut owner.acquire().await.unwrap(), &job)
        .await
        .unwrap();
    let mut worker = Command::new(BIN)
        .arg("worker")
        .env("DATABASE_URL", &db)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    common::race::wait_until("the worker to summarise the session", || async {
        let model: Option<String> =
            sqlx::query_scalar("SELECT summary_model FROM journal_sessions WHERE session_id = $1")
                .bind(session)
                .fetch_one(&owner)
                .await
                .unwrap();
        model.as_deref() == Some("code")
    })
    .await;
    assert!(
        worker.try_wait().unwrap().is_none(),
        "the worker exited on its own"
    );
    assert!(terminate(&mut worker).success());
}

/// With no DATABASE_URL, `serve` runs its own PostgreSQL in N8V_DATA_DIR and stops it after.
#[tokio::test]
async fn serve_without_database_url_runs_the_embedded_postgres() {
    let dir = std::env::temp_dir().join(format!("n8v-embedded-{}", uuid::Uuid::new_v4().simple()));
    let port = common::free_port();
    let mut child = Command::new(BIN)
        .arg("serve")
        .env_remove("DATABASE_URL")
        .env_remove("N8V_MIGRATION_DATABASE_URL")
        .env("N8V_DATA_DIR", &dir)
        .env("N8V_BIND", format!("127.0.0.1:{port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_ready(&format!("http://127.0.0.1:{port}")).await;
    assert!(dir.join("pgdata").join("postmaster.pid").exists());
    // An admin command meanwhile reuses that cluster, and says so (it starts nothing).
    let admin = Command::new(BIN)
        .args(["admin", "create-account", "--name", "Embedded"])
        .env_remove("DATABASE_URL")
        .env_remove("N8V_MIGRATION_DATABASE_URL")
        .env_remove("RUST_LOG")
        .env("N8V_DATA_DIR", &dir)
        .output()
        .unwrap();
    assert!(admin.status.success(), "{admin:?}");
    let said = String::from_utf8_lossy(&admin.stderr);
    assert!(said.contains("reusing embedded PostgreSQL"), "{said}");
    assert!(
        !said.contains("starting the embedded") && !said.contains("starting embedded"),
        "{said}"
    );
    assert!(terminate(&mut child).success());
    assert!(
        !dir.join("pgdata").join("postmaster.pid").exists(),
        "the embedded cluster was left running"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn constraint_violations_map_by_name_and_other_faults_stay_faults() {
    let app = common::spawn_app().await;
    for name in ["", &"x".repeat(201)] {
        let err = n8v_journal::admin::create_account(&app.owner, name, false)
            .await
            .unwrap_err();
        assert_eq!(err.to_string(), "name must be 1 to 200 characters");
    }
    let owner = n8v_journal::admin::create_account(&app.owner, "Owner", false)
        .await
        .unwrap();
    let err = n8v_journal::admin::create_org(&app.owner, owner, "")
        .await
        .unwrap_err();
    assert_eq!(err.to_string(), "name must be 1 to 200 characters");
    // A fault that is not that constraint is not described as one.
    app.owner.close().await;
    let err = n8v_journal::admin::create_account(&app.owner, "", false)
        .await
        .unwrap_err();
    assert!(!err.to_string().contains("name must be"), "{err}");
}

/// `admin create-key --help` names every scope a key may hold.
#[test]
fn create_key_help_names_every_scope() {
    let out = std::process::Command::new(BIN)
        .args(["admin", "create-key", "--help"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    for scope in n8v_journal::scopes::Scope::ALL {
        assert!(help.contains(scope.as_str()), "{scope:?} in:\n{help}");
    }
}
