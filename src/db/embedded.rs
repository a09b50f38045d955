//! A private PostgreSQL cluster for when no `DATABASE_URL` is configured.
//!
//! The journal needs PostgreSQL, but making every developer and test run provision a server
//! first is friction. So without `DATABASE_URL`, the service runs its own cluster, from the
//! PostgreSQL server binaries installed on the machine, in a directory it owns: `pgdata/` (the
//! cluster; initdb runs in `pgdata.init` and is renamed when complete), `password` (0600, random
//! hex), `port` (on 127.0.0.1, chosen once at init), `lock` (serialises start/stop across
//! processes) and `postgres.log`.
//!
//! Nobody else on the machine gets in: the directory is `0700`, the cluster listens on no Unix
//! socket (clusters made by older versions keep theirs, inside that `0700` directory), and every
//! connection, local or TCP, must give the generated password (`scram-sha-256`; `pg_hba.conf`
//! is rewritten to exactly [`PG_HBA`] at every start, which also upgrades clusters initialised
//! with `trust` by older versions).
//!
//! Durability settings stay at PostgreSQL's defaults (`fsync = on`): data safety comes first.
//! PostgreSQL refuses to run as root, so as root the binaries run as `N8V_EMBEDDED_PG_USER`
//! (default `postgres`) and the directory is handed to that user. Binaries: `N8V_PG_BIN_DIR`,
//! else `initdb` on `PATH`, else the newest `/usr/lib/postgresql/*/bin`. The only SQL here makes
//! the journal's database on the first start ([`EmbeddedPostgres::journal_database`]); the
//! caller migrates it.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::Duration;
use tokio::process::Command;

const AUTH_LOCAL: &str = "--auth-local=scram-sha-256";
const AUTH_HOST: &str = "--auth-host=scram-sha-256";
/// The whole `pg_hba.conf`: the password for everyone, however they connect.
pub const PG_HBA: &str = "# n8v-journal embedded cluster: every connection needs the password \
(see <dir>/password)\n\
# TYPE  DATABASE     USER  ADDRESS       METHOD\n\
local   all          all                 scram-sha-256\n\
host    all          all   127.0.0.1/32  scram-sha-256\n\
host    all          all   ::1/128       scram-sha-256\n\
local   replication  all                 scram-sha-256\n\
host    replication  all   127.0.0.1/32  scram-sha-256\n\
host    replication  all   ::1/128       scram-sha-256\n";

/// The database the journal keeps in the cluster (see [`EmbeddedPostgres::journal_database`],
/// whose statements name it).
pub const JOURNAL_DATABASE: &str = "n8v_journal";

const OR_DATABASE_URL: &str = "or set DATABASE_URL to an existing server";

#[derive(Debug, thiserror::Error)]
pub enum EmbeddedError {
    #[error(
        "PostgreSQL server binaries (initdb, pg_ctl) were not found {0}; install them: \
         `apt-get install postgresql` on Debian/Ubuntu, `brew install postgresql@16` on macOS; \
         {OR_DATABASE_URL}"
    )]
    BinariesNotFound(String),
    #[error(
        "PostgreSQL refuses to run as root (user `{0}` was not found or is root). Create an \
         unprivileged user (e.g. `useradd --system postgres`) and set N8V_EMBEDDED_PG_USER to it, \
         run as a non-root user, or set DATABASE_URL"
    )]
    NoUnprivilegedUser(String),
    #[error(
        "PostgreSQL runs as user `{0}` (we are root), but `{0}` cannot traverse {blocked} to \
         reach {dir}; set N8V_DATA_DIR to a directory it can reach (e.g. under /var/lib), make \
         {blocked} traversable (`chmod o+x`), {OR_DATABASE_URL}",
        blocked = .1.display(), dir = .2.display()
    )]
    Unreachable(String, PathBuf, PathBuf),
    #[error(
        "could not {0} {path}: {2}; make sure the directory is writable, set N8V_DATA_DIR to \
         another directory, {OR_DATABASE_URL}", path = .1.display()
    )]
    Io(&'static str, PathBuf, #[source] io::Error),
    #[error(
        "could not run {program}: {1}; reinstall PostgreSQL or point N8V_PG_BIN_DIR at its \
         bin directory", program = .0.display()
    )]
    Spawn(PathBuf, #[source] io::Error),
    #[error(
        "{path} {1}; restore it (the port must match `port` in pgdata/postgresql.conf); do not \
         delete pgdata, it holds the journal", path = .0.display()
    )]
    BadState(PathBuf, &'static str),
    #[error(
        "initdb failed: {0}\nfix the cause above and start again (nothing was kept), \
         {OR_DATABASE_URL}"
    )]
    Initdb(String),
    /// `pg_ctl start` output, then the last 20 lines of the server log.
    #[error(
        "PostgreSQL did not start: {0}\n{1}\nfix the cause shown in the log (if the port is \
         taken, write a free one into <dir>/port and `port =` at the end of \
         pgdata/postgresql.conf), {OR_DATABASE_URL}"
    )]
    Start(String, String),
    #[error(
        "PostgreSQL started but 127.0.0.1:{0} accepts no TCP connections; check {log} and that \
         loopback traffic is allowed, {OR_DATABASE_URL}", log = .1.display()
    )]
    NotListening(u16, PathBuf),
    #[error(
        "`pg_ctl stop` failed: {0}; check {log}, or stop it by hand as the PostgreSQL user: \
         `pg_ctl stop -D {pgdata} -m fast`",
        log = .1.display(), pgdata = .2.display()
    )]
    Stop(String, PathBuf, PathBuf),
}

#[derive(Debug)]
pub struct EmbeddedPostgres {
    dir: PathBuf,
    pgdata: PathBuf,
    bin_dir: PathBuf,
    /// (uid, gid) to run the binaries as, when we are root.
    run_as: Option<(u32, u32)>,
    port: u16,
    password: String,
    started_here: bool,
}

fn io_err(action: &'static str, path: &Path) -> impl FnOnce(io::Error) -> EmbeddedError {
    let path = path.to_path_buf();
    move |source| EmbeddedError::Io(action, path, source)
}

impl EmbeddedPostgres {
    /// Initialises the cluster in `dir` on first use, starts it unless it is already running,
    /// and waits until it accepts connections. Safe to call from several processes at once
    /// (they serialise on a lock file in `dir`; a second caller reuses the running cluster).
    pub async fn start(dir: &Path) -> Result<Self, EmbeddedError> {
        fs::create_dir_all(dir).map_err(io_err("create", dir))?;
        let dir = fs::canonicalize(dir).map_err(io_err("resolve", dir))?;
        let private = fs::set_permissions(&dir, fs::Permissions::from_mode(0o700));
        private.map_err(io_err("make private (0700)", &dir))?;
        let (bin_dir, run_as, pgdata) = (find_bin_dir()?, run_as(&dir)?, dir.join("pgdata"));
        let (port, password, started_here) = (0, String::new(), false);
        let mut pg = Self {
            dir,
            pgdata,
            bin_dir,
            run_as,
            port,
            password,
            started_here,
        };
        let _lock = pg.lock().await?;
        if pg.pgdata.exists() {
            pg.hand_over().await?;
        } else {
            pg.initdb().await?;
        }
        let (port_file, pw_file) = (pg.dir.join("port"), pg.dir.join("password"));
        let port = fs::read_to_string(&port_file).map(|s| s.trim().parse());
        let bad_port = EmbeddedError::BadState(port_file, "is missing or holds no port");
        pg.port = port.ok().and_then(Result::ok).ok_or(bad_port)?;
        let password = fs::read_to_string(&pw_file).unwrap_or_default();
        pg.password = password.trim().to_owned();
        if pg.password.is_empty() {
            let problem = "is missing or empty (it holds the password)";
            return Err(EmbeddedError::BadState(pw_file, problem));
        }
        let log = pg.dir.join("postgres.log");
        let hba_changed = pg.write_hba()?;
        if pg.is_running().await? {
            tracing::info!(port = pg.port, dir = %pg.dir.display(), "reusing embedded PostgreSQL");
            if hba_changed {
                tracing::warn!(
                    "embedded PostgreSQL trusted local users; now the password is required"
                );
                let out = run(&mut pg.pg_ctl("reload")).await?;
                if !out.status.success() {
                    return Err(EmbeddedError::Start(describe(&out), String::new()));
                }
            }
        } else {
            tracing::info!(port = pg.port, dir = %pg.dir.display(), "starting embedded PostgreSQL");
            let mut cmd = pg.pg_ctl("start");
            let out = run(cmd.arg("-l").arg(&log).args(["-w", "-t", "60"])).await?;
            if !out.status.success() {
                let text = fs::read_to_string(&log).unwrap_or_default();
                let lines: Vec<&str> = text.lines().collect();
                let tail = lines[lines.len().saturating_sub(20)..].join("\n");
                let tail = format!("last lines of {}:\n{tail}", log.display());
                return Err(EmbeddedError::Start(describe(&out), tail));
            }
            pg.started_here = true;
        }
        for _ in 0..100 {
            let connected = tokio::net::TcpStream::connect(("127.0.0.1", pg.port)).await;
            if connected.is_ok() {
                return Ok(pg);
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Err(EmbeddedError::NotListening(pg.port, log))
    }

    /// postgres://postgres:<password>@127.0.0.1:<port>/<database>
    pub fn database_url(&self, database: &str) -> String {
        let (password, port) = (&self.password, self.port);
        format!("postgres://postgres:{password}@127.0.0.1:{port}/{database}")
    }

    /// The journal's database in the cluster ([`JOURNAL_DATABASE`]), made on the first start,
    /// and its URL. `CREATE DATABASE` takes no parameters, so the name is a constant of the
    /// statement; two processes starting at once may both make it: the one that loses finds it.
    #[tracing::instrument(skip_all, err)]
    pub async fn journal_database(&self) -> sqlx::Result<String> {
        use sqlx::Connection;
        let mut conn = sqlx::PgConnection::connect(&self.database_url("postgres")).await?;
        let exists = sqlx::query_scalar!(
            r#"SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = 'n8v_journal') AS "exists!""#
        )
        .fetch_one(&mut conn)
        .await?;
        if !exists {
            match sqlx::query!("CREATE DATABASE n8v_journal")
                .execute(&mut conn)
                .await
            {
                Err(e)
                    if e.as_database_error().and_then(|d| d.code()).as_deref()
                        == Some(crate::sqlstate::DUPLICATE_DATABASE) => {}
                made => {
                    made?;
                }
            }
        }
        Ok(self.database_url(JOURNAL_DATABASE))
    }

    /// True when this call to `start` started the server (false when it reused a running one).
    pub fn started_here(&self) -> bool {
        self.started_here
    }

    /// Stops the cluster (pg_ctl stop -m fast). Stopping a cluster that is not running is a no-op.
    pub async fn stop(&self) -> Result<(), EmbeddedError> {
        let _lock = self.lock().await?;
        if !self.is_running().await? {
            return Ok(());
        }
        tracing::info!(port = self.port, dir = %self.dir.display(), "stopping embedded PostgreSQL");
        let out = run(self.pg_ctl("stop").args(["-m", "fast", "-w", "-t", "60"])).await?;
        if out.status.success() {
            return Ok(());
        }
        let (log, pgdata) = (self.dir.join("postgres.log"), self.pgdata.clone());
        Err(EmbeddedError::Stop(describe(&out), log, pgdata))
    }

    /// Takes the cross-process lock on `<dir>/lock`; released when the returned file is dropped.
    async fn lock(&self) -> Result<File, EmbeddedError> {
        let path = self.dir.join("lock");
        let file = File::options().create(true).append(true).open(&path);
        let file = file.map_err(io_err("create lock file", &path))?;
        let locked = tokio::task::spawn_blocking(move || file.lock().map(|()| file)).await;
        let locked = locked.map_err(io::Error::other).and_then(|r| r);
        locked.map_err(io_err("lock", &path))
    }

    /// When we are root, hands `dir` to the unprivileged user PostgreSQL runs as.
    async fn hand_over(&self) -> Result<(), EmbeddedError> {
        let (Some(user), dir) = (self.run_as, self.dir.clone()) else {
            return Ok(());
        };
        let chowned = tokio::task::spawn_blocking(move || chown_tree(&dir, user, true)).await;
        let chowned = chowned.map_err(io::Error::other).and_then(|r| r);
        chowned.map_err(io_err("hand over to the PostgreSQL user", &self.dir))
    }

    /// Writes the password and port files, runs initdb into `pgdata.init`, configures the
    /// cluster, then renames it to `pgdata` (so a half-finished init is never mistaken for one).
    async fn initdb(&self) -> Result<(), EmbeddedError> {
        tracing::info!(dir = %self.pgdata.display(), "initialising embedded PostgreSQL cluster");
        let staging = self.dir.join("pgdata.init");
        if staging.exists() {
            fs::remove_dir_all(&staging).map_err(io_err("remove unfinished", &staging))?;
        }
        let pw_file = self.dir.join("password");
        let password = hex::encode(rand::random::<[u8; 24]>());
        let mut options = OpenOptions::new();
        let pw = options.create(true).truncate(true).write(true).mode(0o600);
        let written = pw.open(&pw_file).and_then(|mut f| {
            f.set_permissions(fs::Permissions::from_mode(0o600))?;
            f.write_all(password.as_bytes())
        });
        written.map_err(io_err("write", &pw_file))?;
        let port_file = self.dir.join("port");
        let listener = std::net::TcpListener::bind(("127.0.0.1", 0));
        let port = listener.and_then(|l| l.local_addr()).map(|a| a.port());
        let port = port.map_err(io_err("pick a port for", &port_file))?;
        fs::write(&port_file, format!("{port}\n")).map_err(io_err("write", &port_file))?;
        self.hand_over().await?;
        let pwfile = format!("--pwfile={}", self.dir.join("password").display());
        let mut failure = None;
        for locale in ["--locale=C.UTF-8", "--no-locale"] {
            let mut cmd = self.command("initdb");
            cmd.arg("-D").arg(&staging).args(["-U", "postgres"]);
            let out = run(cmd.args([&pwfile, AUTH_LOCAL, AUTH_HOST, "-E", "UTF8", locale])).await?;
            failure = (!out.status.success()).then(|| describe(&out));
            if failure.is_none() {
                break;
            }
            let _ = fs::remove_dir_all(&staging);
        }
        if let Some(failure) = failure {
            return Err(EmbeddedError::Initdb(failure));
        }
        // TCP on loopback only, no Unix socket: nothing to reach without the password.
        let conf = format!(
            "\n# n8v-journal embedded cluster\nlisten_addresses = '127.0.0.1'\nport = {port}\n\
             unix_socket_directories = ''\nmax_connections = 200\n\
             shared_buffers = 128MB\nfsync = on\npassword_encryption = 'scram-sha-256'\n"
        );
        let conf_path = staging.join("postgresql.conf");
        let file = OpenOptions::new().append(true).open(&conf_path);
        let written = file.and_then(|mut f| f.write_all(conf.as_bytes()));
        written.map_err(io_err("configure", &conf_path))?;
        fs::rename(&staging, &self.pgdata).map_err(io_err("move the new cluster to", &self.pgdata))
    }

    /// Makes `pg_hba.conf` exactly [`PG_HBA`]; true when it was something else.
    fn write_hba(&self) -> Result<bool, EmbeddedError> {
        let path = self.pgdata.join("pg_hba.conf");
        if fs::read_to_string(&path).is_ok_and(|current| current == PG_HBA) {
            return Ok(false);
        }
        // Writing into the existing file keeps its owner (the PostgreSQL user) and mode.
        let file = OpenOptions::new().write(true).truncate(true).open(&path);
        let written = file.and_then(|mut f| f.write_all(PG_HBA.as_bytes()));
        written.map_err(io_err("write", &path))?;
        Ok(true)
    }

    async fn is_running(&self) -> Result<bool, EmbeddedError> {
        if !self.pgdata.join("postmaster.pid").exists() {
            return Ok(false);
        }
        Ok(run(&mut self.pg_ctl("status")).await?.status.success())
    }

    /// `pg_ctl <action> -D <pgdata>`
    fn pg_ctl(&self, action: &str) -> Command {
        let mut cmd = self.command("pg_ctl");
        cmd.arg(action).arg("-D").arg(&self.pgdata);
        cmd
    }

    /// A command for one of the PostgreSQL binaries, as the unprivileged user when we are root.
    fn command(&self, program: &str) -> Command {
        let mut cmd = Command::new(self.bin_dir.join(program));
        cmd.current_dir(&self.dir).stdin(Stdio::null());
        cmd.env("LC_MESSAGES", "C");
        if let Some((uid, gid)) = self.run_as {
            cmd.uid(uid).gid(gid);
        }
        cmd
    }
}

async fn run(cmd: &mut Command) -> Result<Output, EmbeddedError> {
    let program = PathBuf::from(cmd.as_std().get_program());
    let out = cmd.output().await;
    out.map_err(|source| EmbeddedError::Spawn(program, source))
}

fn describe(out: &Output) -> String {
    let text = [&out.stderr, &out.stdout].map(|b| String::from_utf8_lossy(b).trim().to_owned());
    format!("({}) {}", out.status, text.join("\n").trim())
}

fn find_bin_dir() -> Result<PathBuf, EmbeddedError> {
    let complete =
        |d: &Path| ["initdb", "pg_ctl", "postgres"].map(|b| d.join(b).is_file()) == [true; 3];
    if let Some(dir) = std::env::var_os("N8V_PG_BIN_DIR").map(PathBuf::from) {
        let detail = format!("in N8V_PG_BIN_DIR={} (fix or unset it)", dir.display());
        let found = complete(&dir).then_some(dir);
        return found.ok_or(EmbeddedError::BinariesNotFound(detail));
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        let real = fs::canonicalize(dir.join("initdb"));
        let real_dir = real.ok().and_then(|r| r.parent().map(Path::to_path_buf));
        if let Some(real_dir) = real_dir.filter(|d| complete(d)) {
            return Ok(real_dir);
        }
    }
    let entries = fs::read_dir("/usr/lib/postgresql").into_iter().flatten();
    let version = |e: &fs::DirEntry| e.file_name().to_str()?.parse::<u32>().ok();
    let bin_dirs = entries
        .flatten()
        .filter_map(|e| Some((version(&e)?, e.path().join("bin"))));
    let newest = bin_dirs.filter(|(_, d)| complete(d)).max().map(|(_, d)| d);
    let detail = "on PATH or under /usr/lib/postgresql/*/bin".to_owned();
    newest.ok_or(EmbeddedError::BinariesNotFound(detail))
}

fn effective_uid() -> Option<u32> {
    if let Ok(status) = fs::read_to_string("/proc/self/status") {
        let uids = status.lines().find_map(|l| l.strip_prefix("Uid:"))?;
        return uids.split_whitespace().nth(1)?.parse().ok();
    }
    let out = std::process::Command::new("id").arg("-u").output().ok()?;
    String::from_utf8_lossy(&out.stdout).trim().parse().ok()
}

/// When we are root: the unprivileged user to run PostgreSQL as, checked to be able to reach `dir`.
fn run_as(dir: &Path) -> Result<Option<(u32, u32)>, EmbeddedError> {
    if effective_uid() != Some(0) {
        return Ok(None);
    }
    let name = std::env::var("N8V_EMBEDDED_PG_USER").unwrap_or_else(|_| "postgres".into());
    let passwd = fs::read_to_string("/etc/passwd").unwrap_or_default();
    let mut entries = passwd.lines().map(|l| l.split(':').collect::<Vec<_>>());
    let entry = entries.find(|f| f.len() > 3 && f[0] == name);
    let ids = entry.and_then(|f| Some((f[2].parse().ok()?, f[3].parse().ok()?)));
    let no_user = || EmbeddedError::NoUnprivilegedUser(name.clone());
    let (uid, gid) = ids.filter(|&(uid, _)| uid != 0).ok_or_else(no_user)?;
    // Setting uid drops supplementary groups, so owner/group/other bits decide (ACLs aside).
    for ancestor in dir.ancestors().skip(1) {
        let meta = fs::metadata(ancestor).map_err(io_err("inspect", ancestor))?;
        let bit = match (meta.uid() == uid, meta.gid() == gid) {
            (true, _) => 0o100,
            (false, true) => 0o010,
            _ => 0o001,
        };
        if meta.mode() & bit == 0 {
            let (blocked, dir) = (ancestor.to_path_buf(), dir.to_path_buf());
            return Err(EmbeddedError::Unreachable(name, blocked, dir));
        }
    }
    Ok(Some((uid, gid)))
}

/// Hands `path` (and, below the top, whatever was not theirs yet) to the user `(uid, gid)`.
/// Directories already theirs are not entered: PostgreSQL creates its files as that user.
fn chown_tree(path: &Path, (uid, gid): (u32, u32), top: bool) -> io::Result<()> {
    let meta = match fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        meta => meta?,
    };
    let theirs = meta.uid() == uid && meta.gid() == gid;
    if !theirs {
        std::os::unix::fs::lchown(path, Some(uid), Some(gid))?;
    }
    if meta.is_dir() && (top || !theirs) {
        for entry in fs::read_dir(path)? {
            chown_tree(&entry?.path(), (uid, gid), false)?;
        }
    }
    Ok(())
}
