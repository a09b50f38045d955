//! A PostgreSQL cluster of the test's own that checks passwords (`scram-sha-256` for everyone,
//! as the embedded cluster is set up), with deployments on it run by the real binary: for what
//! the machine's trust-authenticated server cannot show (a refused login, one deployment's
//! password against another's roles).

use sqlx::Connection;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_n8v-journal");

/// The cluster, stopped and removed when dropped (passed or not).
pub struct Cluster {
    dir: PathBuf,
    /// The superuser's URL (database `postgres`, with its password).
    pub superuser: String,
}

impl Cluster {
    pub async fn start() -> Self {
        let dir =
            std::env::temp_dir().join(format!("n8v-cluster-{}", uuid::Uuid::new_v4().simple()));
        let pg = n8v_journal::db::embedded::EmbeddedPostgres::start(&dir)
            .await
            .expect("a cluster of the test's own");
        Self {
            superuser: pg.database_url("postgres"),
            dir,
        }
    }

    /// Stops the cluster and starts it again (same port, same data), as a database restart
    /// under a running service does.
    pub async fn restart(&self) {
        let pg = n8v_journal::db::embedded::EmbeddedPostgres::start(&self.dir)
            .await
            .unwrap();
        pg.stop().await.unwrap();
        n8v_journal::db::embedded::EmbeddedPostgres::start(&self.dir)
            .await
            .unwrap();
    }

    /// Runs `sql` as the superuser in `database`.
    pub async fn exec(&self, database: &str, sql: &str) {
        let url = super::with_database(&self.superuser, database);
        let mut conn = sqlx::PgConnection::connect(&url).await.unwrap();
        sqlx::raw_sql(sqlx::AssertSqlSafe(sql.to_owned()))
            .execute(&mut conn)
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
        conn.close().await.unwrap();
    }

    /// A deployment's owner: a role `name` with a password and CREATEROLE (no superuser), and a
    /// database `name` it owns. Its URL.
    pub async fn owner(&self, name: &str) -> Deployment {
        let password = format!("owner-{}", uuid::Uuid::new_v4().simple());
        self.exec(
            "postgres",
            &format!("CREATE ROLE {name} LOGIN CREATEROLE PASSWORD '{password}'"),
        )
        .await;
        self.exec("postgres", &format!("CREATE DATABASE {name} OWNER {name}"))
            .await;
        let (_, rest) = self.superuser.split_once('@').unwrap();
        let host = rest.rsplit_once('/').unwrap().0;
        Deployment {
            url: format!("postgres://{name}:{password}@{host}/{name}"),
            password,
            database: name.to_owned(),
        }
    }

    /// The login roles connected to `database` now (tenant work's connections).
    pub async fn login_roles_in(&self, database: &str) -> Vec<String> {
        let mut conn = sqlx::PgConnection::connect(&self.superuser).await.unwrap();
        let roles = sqlx::query_scalar(
            "SELECT DISTINCT usename::text FROM pg_stat_activity \
              WHERE datname = $1 AND usename LIKE '%\\_login' ORDER BY 1",
        )
        .bind(database)
        .fetch_all(&mut conn)
        .await
        .unwrap();
        conn.close().await.unwrap();
        roles
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let dir = self.dir.clone();
        let stopped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Runtime::new().unwrap();
            runtime.block_on(async {
                if let Ok(pg) = n8v_journal::db::embedded::EmbeddedPostgres::start(&dir).await {
                    let _ = pg.stop().await;
                }
            });
            let _ = std::fs::remove_dir_all(&dir);
        });
        let _ = stopped.join();
    }
}

/// One deployment: an owner and its database.
pub struct Deployment {
    /// The owner's connection (`DATABASE_URL`).
    pub url: String,
    pub password: String,
    pub database: String,
}

/// What a command printed.
pub struct Ran {
    pub success: bool,
    pub stdout: String,
    pub stderr: String,
}

impl Deployment {
    /// The binary's `args` against this deployment, at `RUST_LOG=trace`, with `env` added.
    pub fn run(&self, args: &[&str], env: &[(&str, &str)]) -> Ran {
        let out = self.command(args, env).output().expect("run the binary");
        Ran {
            success: out.status.success(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    /// The last line `args` printed, as JSON; panics when it failed.
    pub fn ok(&self, args: &[&str]) -> serde_json::Value {
        let ran = self.run(args, &[]);
        assert!(ran.success, "{args:?}: {}{}", ran.stdout, ran.stderr);
        serde_json::from_str(ran.stdout.lines().last().unwrap()).unwrap()
    }

    fn command(&self, args: &[&str], env: &[(&str, &str)]) -> Command {
        let mut command = Command::new(BIN);
        command
            .args(args)
            .env("DATABASE_URL", &self.url)
            .env("RUST_LOG", "trace")
            .env_remove("N8V_MIGRATION_DATABASE_URL")
            .env_remove("N8V_APP_ROLE")
            .env_remove("PGPASSWORD");
        for (name, value) in env {
            command.env(name, value);
        }
        command
    }

    /// An account with the journal on and a key of `scopes`: its token.
    pub fn key(&self, scopes: &str) -> String {
        let account = self.ok(&["admin", "create-account", "--name", "Ada"]);
        let account = account["account_id"].as_str().unwrap().to_owned();
        let on = [
            "admin",
            "flag",
            "set",
            "assistantJournal",
            "on",
            "--account",
        ];
        self.ok(&[&on[..], &[account.as_str()]].concat());
        let key = self.ok(&[
            "admin",
            "create-key",
            "--account",
            &account,
            "--scopes",
            scopes,
        ]);
        key["token"].as_str().unwrap().to_owned()
    }

    /// `n8v-journal serve` (or `api`, …) on a free port, logging at `trace` into a file.
    pub async fn serve(&self, role: &str, env: &[(&str, &str)]) -> Served {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let log = std::env::temp_dir().join(format!("n8v-served-{}.log", uuid::Uuid::new_v4()));
        let child = self
            .command(&[role], env)
            .env("N8V_BIND", format!("127.0.0.1:{port}"))
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        let mut served = Served {
            child,
            log,
            base: format!("http://127.0.0.1:{port}"),
        };
        served.wait_ready().await;
        served
    }
}

/// A running `serve`; stopped (SIGTERM) when dropped.
pub struct Served {
    child: Child,
    log: PathBuf,
    pub base: String,
}

impl Served {
    async fn wait_ready(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Ok(r) = reqwest::get(format!("{}/readyz", self.base)).await
                && r.status() == 200
            {
                return;
            }
            let exited = self.child.try_wait().ok().flatten();
            assert!(
                Instant::now() < deadline && exited.is_none(),
                "{} never became ready ({exited:?}); it logged:\n{}",
                self.base,
                tail(&self.log_text())
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    pub async fn get(&self, token: &str, path: &str) -> reqwest::Response {
        reqwest::Client::new()
            .get(format!("{}{path}", self.base))
            .bearer_auth(token)
            .send()
            .await
            .unwrap()
    }

    /// Everything it logged so far.
    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Stops it (SIGTERM, as a deployment would) and returns its whole log.
    pub fn stop(mut self) -> String {
        self.terminate();
        self.log_text()
    }

    fn terminate(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(30);
        while self.child.try_wait().ok().flatten().is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        self.terminate();
        let _ = std::fs::remove_file(&self.log);
    }
}

/// The last 30 lines of `text`.
pub fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(30)..].join("\n")
}
