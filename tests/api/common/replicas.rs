//! Replicas of the real binary: `serve` processes on one database, each with its own port, as
//! the Helm chart runs them (tenant work through PgBouncer when one is given, the rest and the
//! migrations straight to the server, one JWT secret for all).

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_n8v-journal");
const SECRET: &str = "fleet-secret-fleet-secret-fleet-secret";

pub struct Replica {
    child: Child,
    pub port: u16,
    env: Vec<(String, String)>,
}

impl Replica {
    /// Starts `serve` on `db_url` (the server's URL of the database), with tenant work through
    /// `pooled_url` when given (`N8V_DATABASE_POOLER=transaction`, as the application role
    /// `app_role`), and `extra` settings; returns at once (see [`Replica::ready`]).
    pub fn start(db_url: &str, pooled: Option<(&str, &str)>, extra: &[(&str, &str)]) -> Self {
        let mut env: Vec<(String, String)> = vec![
            ("N8V_MIGRATION_DATABASE_URL".into(), db_url.into()),
            ("N8V_JWT_SECRET".into(), SECRET.into()),
            ("RUST_LOG".into(), "warn".into()),
        ];
        match pooled {
            Some((pooled_url, app_role)) => env.extend([
                ("DATABASE_URL".into(), pooled_url.into()),
                ("N8V_DATABASE_POOLER".into(), "transaction".into()),
                ("N8V_DIRECT_DATABASE_URL".into(), db_url.into()),
                ("N8V_APP_ROLE".into(), app_role.into()),
            ]),
            None => env.push(("DATABASE_URL".into(), db_url.into())),
        }
        env.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        let port = super::free_port();
        Self {
            child: spawn(port, &env),
            port,
            env,
        }
    }

    pub fn base(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Waits until `/readyz` answers 200; panics with the replica's log when it exits first.
    pub async fn ready(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                let said = std::fs::read_to_string(log(self.port)).unwrap_or_default();
                panic!("replica on {} exited ({status}): {said}", self.port);
            }
            let ready = reqwest::get(format!("{}/readyz", self.base())).await;
            if ready.is_ok_and(|r| r.status() == 200) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "{} never became ready",
                self.base()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Stops the process with SIGTERM (it finishes the requests in flight) and waits for it.
    pub fn stop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let _ = self.child.wait();
    }

    /// Stops it and starts it again on the same port with the same settings.
    pub async fn restart(&mut self) {
        self.stop();
        self.child = spawn(self.port, &self.env);
        self.ready().await;
    }
}

impl Drop for Replica {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Where a replica's log goes (a file: a pipe nobody reads would stop it once full).
fn log(port: u16) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("n8v-replica-{port}.log"))
}

fn spawn(port: u16, env: &[(String, String)]) -> Child {
    let stderr = std::fs::File::create(log(port)).expect("the replica's log");
    Command::new(BIN)
        .arg("serve")
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .envs(env.iter().map(|(k, v)| (k, v)))
        .env("N8V_BIND", format!("127.0.0.1:{port}"))
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .expect("start a replica")
}
