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
        /// `claude-code` (JSONL under ~/.claude/projects) or `codex` (~/.codex/sessions).
        #[arg(long, value_parser = ["claude-code", "codex"])]
        harness: String,
        /// A transcript file, or a directory searched for `.jsonl` files.
        path: std::path::PathBuf,
        /// The service.
        #[arg(long, env = "N8V_URL", default_value = "http://127.0.0.1:8080")]
        url: String,
        /// An API key with chats:read.
        #[arg(long, env = "N8V_TOKEN", hide_env_values = true)]
        token: String,
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
        /// Comma-separated: chats:read, records:read, records:write, orgs:read.
        #[arg(long)]
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
    let telemetry = n8v_journal::telemetry::init();
    let cli = Cli::parse();
    let result = run(cli.command).await;
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
        print!("{}", n8v_journal::http::openapi_json());
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
        Command::Openapi | Command::Import { .. } => unreachable!(),
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
