//! The `n8v-journal` command line. Every command prints JSON on stdout; logs go to stderr.

use clap::{Parser, Subcommand};
use n8v_journal::app::{self, Database, Role};
use n8v_journal::auth::Scopes;
use n8v_journal::config::Config;
use n8v_journal::flags::Flag;
use n8v_journal::ids::{self, Kind};
use n8v_journal::{admin, db};
use serde_json::{Value, json};

#[derive(Parser)]
#[command(name = "n8v-journal", version, about = "The assistant journal service")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// HTTP API, MCP and the workers in one process (the default way to run it).
    Serve,
    /// HTTP only, for replicas behind a load balancer.
    Api,
    /// Background workers only.
    Worker,
    /// Apply the migrations and make sure the application role exists, then exit.
    Migrate,
    /// Print the OpenAPI document.
    Openapi,
    /// Operator commands (run with the owner's connection).
    #[command(subcommand)]
    Admin(AdminCommand),
    /// Post a harness's local transcripts as episodes (safe to run twice); prints a summary.
    Import {
        /// `claude-code` (JSONL under ~/.claude/projects), `codex` (~/.codex/sessions), `pi`
        /// (~/.pi/agent/sessions), `opencode` (its database, ~/.local/share/opencode) or
        /// `hermes` (its database, ~/.hermes; gateway conversations only with
        /// N8V_HERMES_CAPTURE=all).
        #[arg(long, value_parser = n8v_journal::import::Harness::NAMES)]
        harness: String,
        /// A transcript file, or a directory searched for `.jsonl` files; for OpenCode and
        /// Hermes, the database file or the folder holding it.
        path: std::path::PathBuf,
        /// The service.
        #[arg(long, env = "N8V_URL", default_value = "http://127.0.0.1:8080")]
        url: String,
        /// An API key with chats:read.
        #[arg(long, env = "N8V_TOKEN", hide_env_values = true)]
        token: String,
    },
    /// A harness's hook (Claude Code, Codex, and the OpenCode, Pi and Hermes integrations):
    /// never fails and never holds up the conversation;
    /// when it does nothing it says why in one line on stderr.
    #[command(subcommand)]
    Hook(HookCommand),
}

#[derive(clap::Args)]
struct HookArgs {
    /// The harness that runs the hook.
    #[arg(long, value_parser = n8v_journal::import::Harness::NAMES)]
    harness: String,
    /// The service.
    #[arg(long, env = "N8V_URL", default_value = "http://127.0.0.1:8080")]
    url: String,
    /// The longest the hook waits for the service, in seconds.
    #[arg(long, default_value_t = 20)]
    timeout: u64,
}

#[derive(clap::Args)]
struct FlushArgs {
    /// The harness whose transcripts are posted.
    #[arg(long, value_parser = ["claude-code", "codex", "pi"])]
    harness: String,
    /// The service.
    #[arg(long, env = "N8V_URL", default_value = "http://127.0.0.1:8080")]
    url: String,
    /// The longest each post waits for the service (and its drafts), in seconds.
    #[arg(long, default_value_t = 300)]
    timeout: u64,
    /// Transcripts modified in the last this many days.
    #[arg(long, default_value_t = 7)]
    days: u64,
    /// Leave transcripts modified in the last this many minutes (a conversation still going).
    #[arg(long, default_value_t = 5)]
    quiet_minutes: u64,
    /// Post at most this many transcripts.
    #[arg(long, default_value_t = 20)]
    max_files: usize,
    /// The starting conversation's transcript, left alone.
    #[arg(long, hide = true)]
    skip_transcript: Option<std::path::PathBuf>,
    /// The starting conversation's id, left alone.
    #[arg(long, hide = true)]
    skip_session: Option<String>,
}

#[derive(Subcommand)]
enum HookCommand {
    /// Prints the recent journal for the new conversation's context, sized for the harness.
    SessionStart {
        #[command(flatten)]
        args: HookArgs,
        /// Characters to ask for instead of the harness's own budget.
        #[arg(long)]
        max_chars: Option<usize>,
    },
    /// Posts the conversation that ended (its transcript, named on stdin) as ended.
    SessionEnd {
        #[command(flatten)]
        args: HookArgs,
    },
    /// Posts the conversation so far, before its context is compacted.
    PreCompact {
        #[command(flatten)]
        args: HookArgs,
    },
    /// Posts the conversation so far, after a turn (Codex's `Stop`).
    Stop {
        #[command(flatten)]
        args: HookArgs,
    },
    /// Posts, marked ended, the harness's recent transcripts whose last post was not settled
    /// (what `session-start` starts in the background; run it from cron too), and prints
    /// what it did. Recent: modified in the last `--days` but not the last `--quiet-minutes`.
    Flush {
        #[command(flatten)]
        args: FlushArgs,
    },
    /// Sets the hooks and the MCP server up in the harness's configuration (Codex), or copies
    /// the harness's integration into its folder (OpenCode's plugin, Pi's extension, Hermes'
    /// plugin); Claude Code installs the plugin in integrations/claude-code instead.
    Install {
        #[arg(long, value_parser = n8v_journal::import::Harness::NAMES)]
        harness: String,
        /// The service the MCP server entry points at.
        #[arg(long, env = "N8V_URL", default_value = "http://127.0.0.1:8080")]
        url: String,
        /// Codex's home (default `$CODEX_HOME`, else `~/.codex`).
        #[arg(long)]
        codex_home: Option<std::path::PathBuf>,
        /// Claude Code: an `http` hook in its user settings that Claude Code posts itself (no
        /// binary runs; it loads the journal, and posts no conversation).
        #[arg(long)]
        http: bool,
        /// Claude Code's settings file (default `$CLAUDE_CONFIG_DIR/settings.json`, else
        /// `~/.claude/settings.json`).
        #[arg(long)]
        claude_settings: Option<std::path::PathBuf>,
        /// OpenCode's config folder, Pi's agent folder or Hermes' home (default: the harness's
        /// own, from its environment).
        #[arg(long)]
        dir: Option<std::path::PathBuf>,
    },
}

#[derive(Subcommand)]
enum AdminCommand {
    CreateAccount {
        #[arg(long)]
        name: String,
        /// An n8v-internal account (summaries go through the proxy model).
        #[arg(long)]
        internal: bool,
    },
    CreateOrg {
        #[arg(long)]
        owner: String,
        #[arg(long)]
        name: String,
    },
    AddMember {
        #[arg(long)]
        org: String,
        #[arg(long)]
        account: String,
        /// Give the member the organization's read permission.
        #[arg(long)]
        read: bool,
    },
    CreateKey {
        #[arg(long)]
        account: String,
        #[arg(
            long,
            help = "Comma-separated: chats:read, chats:delete, records:read, records:write, \
                    orgs:read, account:delete, webhooks:write, chats:release (the person's own, \
                    for the journal pages: release or delete a withheld item)"
        )]
        scopes: String,
        /// Restrict the key to one repository.
        #[arg(long)]
        repo: Option<String>,
        #[arg(long, default_value = "")]
        name: String,
    },
    CreateOperatorKey {
        #[arg(long, default_value = "")]
        name: String,
    },
    RevokeKey {
        #[arg(long)]
        key: String,
    },
    /// Deletes an account and every row of it, in every table, with its queued jobs; the
    /// deletion is written to the operator log.
    DeleteAccount {
        #[arg(long)]
        account: String,
    },
    /// Runs one pass of a background job now and prints what it did.
    Run {
        #[arg(value_parser = ["retention", "audit-retention", "digests", "sweep"])]
        job: String,
    },
    /// Feature flags.
    #[command(subcommand)]
    Flag(FlagCommand),
}

#[derive(Subcommand)]
enum FlagCommand {
    /// `flag set assistantJournal on|off [--account ACC]`
    Set {
        flag: String,
        #[arg(value_parser = ["on", "off"])]
        value: String,
        #[arg(long)]
        account: Option<String>,
    },
}

#[tokio::main]
async fn main() {
    // A hook's stderr is one line at most, and its exit status always 0: no telemetry.
    let command = match Cli::parse().command {
        Command::Hook(hook) => std::process::exit(run_hook(hook).await),
        other => other,
    };
    let telemetry = n8v_journal::telemetry::init();
    let result = run(command).await;
    // The exporters' last batch leaves before the process does (blocking: off the runtime).
    let _ = tokio::task::spawn_blocking(move || telemetry.shutdown()).await;
    if let Err(e) = result {
        eprintln!("error: {e:#}");
        println!("{}", json!({"error": format!("{e:#}")}));
        std::process::exit(1);
    }
}

async fn run(command: Command) -> anyhow::Result<()> {
    if let Command::Openapi = command {
        print!("{}", n8v_journal::server::openapi_json());
        return Ok(());
    }
    if let Command::Import {
        harness,
        path,
        url,
        token,
    } = command
    {
        let harness = n8v_journal::import::Harness::parse(&harness)?;
        let summary = n8v_journal::import::run(harness, &path, &url, &token).await?;
        print(serde_json::to_value(summary)?);
        return Ok(());
    }
    let config = Config::from_env()?;
    match command {
        Command::Serve => app::run(config, Role::Serve).await,
        Command::Api => app::run(config, Role::Api).await,
        Command::Worker => app::run(config, Role::Worker).await,
        Command::Migrate => {
            let database = Database::resolve(&config).await?;
            let result = db::migrate(&database.owner_url, config.app_role.as_deref()).await;
            database.stop().await;
            result?;
            print(json!({"migrated": true}));
            Ok(())
        }
        Command::Admin(command) => {
            let database = Database::resolve(&config).await?;
            let result = run_admin(&database.owner_url, &config, command).await;
            database.stop().await;
            print(result?);
            Ok(())
        }
        Command::Openapi | Command::Import { .. } | Command::Hook(_) => unreachable!(),
    }
}

/// Runs a hook and prints what it has to say; the exit status (0 but for a failed install).
async fn run_hook(command: HookCommand) -> i32 {
    use n8v_journal::hook::{self, Event, Options};
    let (event, args, max_chars) = match command {
        HookCommand::SessionStart { args, max_chars } => (Event::SessionStart, args, max_chars),
        HookCommand::SessionEnd { args } => (Event::SessionEnd, args, None),
        HookCommand::PreCompact { args } => (Event::PreCompact, args, None),
        HookCommand::Stop { args } => (Event::Stop, args, None),
        HookCommand::Install {
            harness,
            url,
            http: true,
            claude_settings,
            ..
        } if harness == "claude-code" => return install_http_hook(&url, claude_settings),
        HookCommand::Install { http: true, .. } => {
            eprintln!("error: --http is for Claude Code's http hooks (--harness claude-code)");
            return 1;
        }
        HookCommand::Install {
            harness,
            url,
            codex_home,
            dir,
            ..
        } => return install_hooks(&harness, &url, codex_home, dir),
        HookCommand::Flush { args } => return run_flush(args).await,
    };
    let Ok(harness) = n8v_journal::import::Harness::parse(&args.harness) else {
        return 0; // clap allows only the known names
    };
    let timeout = std::time::Duration::from_secs(args.timeout.clamp(1, 600));
    let options = Options {
        max_chars,
        catch_up: std::env::current_exe().ok(),
        ..Options::from_env(args.url, timeout)
    };
    let outcome = hook::run(event, harness, &options, tokio::io::stdin()).await;
    if let Some(text) = outcome.stdout {
        use std::io::Write;
        let _ = std::io::stdout().write_all(text.as_bytes());
    }
    if let Some(why) = outcome.why {
        eprintln!("n8v-journal hook {}: {why}", event.name());
    }
    0
}

/// `hook flush`: prints what it did as JSON, and why it did nothing in one line on stderr.
async fn run_flush(args: FlushArgs) -> i32 {
    use n8v_journal::hook::{self, Options, flush};
    let Ok(harness) = n8v_journal::import::Harness::parse(&args.harness) else {
        return 0; // clap allows only the known names
    };
    let timeout = std::time::Duration::from_secs(args.timeout.clamp(1, 3600));
    let options = Options::from_env(args.url, timeout);
    let recent = flush::Recent {
        days: args.days,
        quiet_minutes: args.quiet_minutes,
        max_files: args.max_files,
    };
    let skip = flush::Skip {
        transcript: args.skip_transcript,
        session_id: args.skip_session,
    };
    let (flushed, outcome) = hook::run_flush(harness, &options, recent, &skip).await;
    print(json!(flushed));
    if let Some(why) = outcome.why {
        eprintln!("n8v-journal hook flush: {why}");
    }
    0
}

fn install_http_hook(url: &str, settings: Option<std::path::PathBuf>) -> i32 {
    use n8v_journal::hook::install;
    let installed = || -> anyhow::Result<Value> {
        let settings = match settings {
            Some(path) => path,
            None => install::claude_settings()?,
        };
        Ok(serde_json::to_value(install::claude_code_http(
            &settings, url,
        )?)?)
    };
    match installed() {
        Ok(value) => {
            print(value);
            0
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            1
        }
    }
}

fn install_hooks(
    harness: &str,
    url: &str,
    home: Option<std::path::PathBuf>,
    dir: Option<std::path::PathBuf>,
) -> i32 {
    use n8v_journal::hook::{install, plugins};
    if harness == "claude-code" {
        eprintln!(
            "error: Claude Code installs the plugin instead: /plugin marketplace add \
             <this repository>/integrations/claude-code, then /plugin install n8v-journal@n8v-journal \
             (or --http for an http hook that needs no binary)"
        );
        return 1;
    }
    let installed = || -> anyhow::Result<Value> {
        let exe = std::env::current_exe()?;
        let which = n8v_journal::import::Harness::parse(harness)?;
        if which != n8v_journal::import::Harness::Codex {
            let dir = match dir {
                Some(dir) => dir,
                None => plugins::harness_dir(which)?,
            };
            return Ok(serde_json::to_value(plugins::install(
                which, &dir, &exe, url,
            )?)?);
        }
        let home = match home {
            Some(home) => home,
            None => install::codex_home()?,
        };
        Ok(serde_json::to_value(install::codex(&home, &exe, url)?)?)
    };
    match installed() {
        Ok(value) => {
            print(value);
            0
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            1
        }
    }
}

async fn run_admin(
    owner_url: &str,
    config: &Config,
    command: AdminCommand,
) -> anyhow::Result<Value> {
    let pool = sqlx::postgres::PgPoolOptions::new()
        .max_connections(1)
        .connect(owner_url)
        .await?;
    let acc = |text: &str| admin::parse_id(Kind::Account, text);
    let out = match command {
        AdminCommand::CreateAccount { name, internal } => {
            let id = admin::create_account(&pool, &name, internal).await?;
            json!({"account_id": ids::format(Kind::Account, id)})
        }
        AdminCommand::CreateOrg { owner, name } => {
            let id = admin::create_org(&pool, acc(&owner)?, &name).await?;
            json!({"organization_id": ids::format(Kind::Organization, id)})
        }
        AdminCommand::AddMember { org, account, read } => {
            let org = admin::parse_id(Kind::Organization, &org)?;
            admin::add_member(&pool, org, acc(&account)?, read).await?;
            json!({})
        }
        AdminCommand::CreateKey {
            account,
            scopes,
            repo,
            name,
        } => {
            let scopes = Scopes::parse(&scopes).map_err(anyhow::Error::msg)?;
            if scopes == Scopes::default() {
                anyhow::bail!("--scopes needs at least one scope");
            }
            let key =
                admin::create_key(&pool, acc(&account)?, &scopes, repo.as_deref(), &name).await?;
            json!({"key_id": ids::format(Kind::Key, key.key_id), "token": key.token})
        }
        AdminCommand::CreateOperatorKey { name } => {
            let key = admin::create_operator_key(&pool, &name).await?;
            json!({"key_id": ids::format(Kind::Key, key.key_id), "token": key.token})
        }
        AdminCommand::RevokeKey { key } => {
            admin::revoke_key(&pool, admin::parse_id(Kind::Key, &key)?).await?;
            json!({})
        }
        AdminCommand::DeleteAccount { account } => {
            let deleted = admin::delete_account(&pool, acc(&account)?, "cli").await?;
            json!({"account_id": account, "deleted": deleted})
        }
        AdminCommand::Run { job } => admin::run_job(owner_url, config, &job).await?,
        AdminCommand::Flag(FlagCommand::Set {
            flag,
            value,
            account,
        }) => {
            let flag = Flag::parse(&flag).map_err(anyhow::Error::msg)?;
            let account = account.as_deref().map(acc).transpose()?;
            admin::set_flag(&pool, flag, value == "on", account).await?;
            json!({"flag": flag.name(), "enabled": value == "on",
                   "account": account.map(|a| ids::format(Kind::Account, a))})
        }
    };
    pool.close().await;
    Ok(out)
}

fn print(value: Value) {
    println!("{value}");
}
