//! Wiring: which database, migrations, the HTTP server and the workers, and shutdown.

use crate::clock::SystemClock;
use crate::config::{Config, Pooler};
use crate::db::embedded::EmbeddedPostgres;
use crate::db::{self, Db};
use crate::jobs::{self, WorkerState};
use crate::ops::Services;
use crate::server;
use anyhow::Context;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::net::TcpListener;

/// The database the process will use. Without `DATABASE_URL`, the embedded cluster in
/// `N8V_DATA_DIR` is started (and must be stopped with [`Database::stop`]).
pub struct Database {
    pub url: String,
    pub owner_url: String,
    embedded: Option<EmbeddedPostgres>,
}

impl Database {
    pub async fn resolve(config: &Config) -> anyhow::Result<Self> {
        if let Some(url) = &config.database_url {
            let url = url.expose().to_owned();
            let owner_url = config
                .migration_database_url
                .as_ref()
                .map_or_else(|| url.clone(), |u| u.expose().to_owned());
            return Ok(Self {
                url,
                owner_url,
                embedded: None,
            });
        }
        if let Some(owner_url) = &config.migration_database_url {
            // Admin commands may be given only the owner's URL.
            return Ok(Self {
                url: owner_url.expose().to_owned(),
                owner_url: owner_url.expose().to_owned(),
                embedded: None,
            });
        }
        // Whether it starts the cluster or reuses a running one, `start` says (an admin command
        // beside a running `serve` only reuses it).
        tracing::info!(dir = %config.data_dir.display(), "DATABASE_URL is not set: using the embedded PostgreSQL");
        let pg = EmbeddedPostgres::start(&config.data_dir).await?;
        let url = pg.journal_database().await?;
        Ok(Self {
            owner_url: url.clone(),
            url,
            embedded: Some(pg),
        })
    }

    pub async fn stop(self) {
        if let Some(pg) = self.embedded
            && pg.started_here()
            && let Err(e) = pg.stop().await
        {
            tracing::warn!(error = %e, "stopping the embedded PostgreSQL failed");
        }
    }
}

/// What runs: `serve` = HTTP and workers, `api` = HTTP only, `worker` = workers only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Serve,
    Api,
    Worker,
}

pub async fn run(config: Config, role: Role) -> anyhow::Result<()> {
    let database = Database::resolve(&config).await?;
    let result = run_with(&config, &database, role).await;
    database.stop().await;
    result
}

async fn run_with(config: &Config, database: &Database, role: Role) -> anyhow::Result<()> {
    if role == Role::Serve {
        db::migrate(&database.owner_url, config.app_role.as_deref())
            .await
            .context("applying migrations")?;
    }
    // The owner's connection; tenant work logs in as the login role derived from it.
    let db = match config.pooler {
        Pooler::None => {
            Db::connect(
                &database.owner_url,
                config.app_role.as_deref(),
                config.db_max_connections,
            )
            .await
        }
        // Tenant work through the pooler (DATABASE_URL), the rest straight to PostgreSQL.
        Pooler::Transaction => {
            let direct = config
                .direct_database_url
                .as_ref()
                .map(|u| u.expose())
                .context("N8V_DATABASE_POOLER=transaction needs N8V_DIRECT_DATABASE_URL")?;
            Db::connect_through_pooler(
                &database.url,
                direct,
                config.app_role.as_deref(),
                config.db_max_connections,
            )
            .await
        }
    }
    .context("connecting to PostgreSQL")?
    .with_idle_in_transaction(config.db_idle_in_transaction);
    db::check_separation(db.pool(), db.app_role(), false).await?;
    // One signal, many listeners: the HTTP server and the workers both stop on it.
    let (stop, stopped) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        shutdown_signal().await;
        let _ = stop.send(true);
    });
    let until_stopped = move || {
        let mut stopped = stopped.clone();
        async move {
            let _ = stopped.wait_for(|s| *s).await;
        }
    };
    let clock: Arc<dyn crate::clock::Clock> = Arc::new(SystemClock);
    let workers = (role != Role::Api).then(|| {
        let state = WorkerState {
            db: db.clone(),
            config: Arc::new(config.clone()),
            clock: clock.clone(),
        };
        tokio::spawn(jobs::run(state, until_stopped()))
    });
    if role != Role::Worker {
        let listener = TcpListener::bind(config.bind)
            .await
            .with_context(|| format!("binding {} (N8V_BIND)", config.bind))?;
        tracing::info!(address = %listener.local_addr()?, "serving");
        // The address actually bound (port 0 picks one): the public URL's default.
        let mut served = config.clone();
        served.bind = listener.local_addr()?;
        let state = Services::new(db.clone(), served, clock);
        serve(listener, state, until_stopped()).await?;
    }
    if let Some(workers) = workers {
        workers.await.context("the workers panicked")??;
    }
    db.close().await;
    tracing::info!("stopped");
    Ok(())
}

pub async fn serve(
    listener: TcpListener,
    state: Services,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    // Cached credentials and flags are dropped as soon as they change (see db::cache).
    state.db.watch_invalidations();
    let app = server::router(state).into_make_service_with_connect_info::<SocketAddr>();
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await
}

/// Resolves on SIGINT or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! { _ = ctrl_c => {}, _ = term => {} }
    tracing::info!("shutdown signal received; finishing in-flight requests");
}
