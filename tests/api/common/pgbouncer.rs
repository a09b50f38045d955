//! PgBouncer in transaction mode in front of the test server, started by the test itself
//! (Debian's `pgbouncer`, 1.18: no prepared statements carried across transactions).

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::str::FromStr;
use std::time::Duration;

pub struct PgBouncer {
    child: Child,
    port: u16,
    dir: PathBuf,
    /// The application role whose login role it lets in.
    pub app_role: String,
}

const INSTALL: &str = "pgbouncer is not installed: `apt-get install -y pgbouncer` (.ci/run \
                       installs it); the PgBouncer tests need it and do not skip";

impl PgBouncer {
    /// Starts PgBouncer on a free port of 127.0.0.1 in front of the server `server_url` names,
    /// in transaction mode with `pool_size` server connections per database and user (fewer
    /// than the app's pool, so client connections take turns on them). It lets in the server
    /// URL's user and the app's login role with the passwords the server wants from them
    /// (`auth_type = trust` towards the app). Stopped when dropped.
    pub async fn start(server_url: &str, pool_size: u32) -> Self {
        let binary = ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"]
            .into_iter()
            .find(|p| std::path::Path::new(p).exists())
            .expect(INSTALL);
        let server = sqlx::postgres::PgConnectOptions::from_str(server_url).unwrap();
        let owner = server.get_username().to_owned();
        let owner_password = url_password(server_url).unwrap_or_default();
        // A role of this bouncer's own (roles belong to the whole server; each database's
        // default one is made after the bouncer starts).
        let app_role = format!(
            "n8v_app_bouncer_{}",
            &uuid::Uuid::new_v4().simple().to_string()[..12]
        );
        let login = n8v_journal::db::login::login_role(&app_role);
        let login_password =
            n8v_journal::db::login::password(server_url, &login).unwrap_or_default();

        let port = super::free_port();
        let dir = std::env::temp_dir().join(format!("n8v-pgbouncer-{port}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let userlist = dir.join("userlist.txt");
        std::fs::write(
            &userlist,
            format!("\"{owner}\" \"{owner_password}\"\n\"{login}\" \"{login_password}\"\n"),
        )
        .unwrap();
        let ini = dir.join("pgbouncer.ini");
        std::fs::write(
            &ini,
            format!(
                "[databases]\n* = host={host} port={server_port}\n\n[pgbouncer]\n\
                 listen_addr = 127.0.0.1\nlisten_port = {port}\nunix_socket_dir =\n\
                 auth_type = trust\nauth_file = {userlist}\npool_mode = transaction\n\
                 default_pool_size = {pool_size}\nmax_client_conn = 200\n",
                host = server.get_host(),
                server_port = server.get_port(),
                userlist = userlist.display(),
            ),
        )
        .unwrap();
        let log = std::fs::File::create(dir.join("pgbouncer.log")).unwrap();
        // PgBouncer refuses to run as root.
        let mut command = if running_as_root() {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--", binary]);
            c
        } else {
            Command::new(binary)
        };
        let child = command
            .arg(&ini)
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("starting pgbouncer");
        let mut bouncer = Self {
            child,
            port,
            dir,
            app_role,
        };
        bouncer.wait_until_listening().await;
        bouncer
    }

    /// `direct_url` (a database of the test server) as reached through PgBouncer.
    pub fn url(&self, direct_url: &str) -> String {
        let (scheme, rest) = direct_url.split_once("://").unwrap();
        let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
        let userinfo = rest[..authority_end]
            .rsplit_once('@')
            .map(|(u, _)| format!("{u}@"))
            .unwrap_or_default();
        format!(
            "{scheme}://{userinfo}127.0.0.1:{}{}",
            self.port,
            &rest[authority_end..]
        )
    }

    /// What PgBouncer logged so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("pgbouncer.log")).unwrap_or_default()
    }

    async fn wait_until_listening(&mut self) {
        for _ in 0..100 {
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("pgbouncer exited ({status}):\n{}", self.log());
            }
            if tokio::net::TcpStream::connect(("127.0.0.1", self.port))
                .await
                .is_ok()
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("pgbouncer did not listen within 5 s:\n{}", self.log());
    }
}

impl Drop for PgBouncer {
    fn drop(&mut self) {
        // runuser passes SIGTERM on to pgbouncer; then both are reaped.
        let _ = Command::new("kill")
            .arg(self.child.id().to_string())
            .status();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn running_as_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.trim_ascii() == b"0")
}

/// The password part of `postgres://user:password@host/...`, if any.
fn url_password(url: &str) -> Option<String> {
    let rest = url.split_once("://")?.1;
    let authority = rest.split(['/', '?']).next()?;
    let userinfo = authority.rsplit_once('@')?.0;
    Some(userinfo.split_once(':')?.1.to_owned())
}
