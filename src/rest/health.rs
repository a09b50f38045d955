use crate::error::{Error, Problem, Result};
use crate::ops::Services;
use axum::Json;
use axum::extract::State;
use serde::Serialize;

/// How the service is.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(example = json!({"status": "ok"}))]
pub struct Health {
    /// `ok` (alive) or `ready` (ready to serve).
    pub status: &'static str,
}

/// The process is alive.
///
/// Answers as long as the process runs; it does not look at the database.
#[utoipa::path(
    get,
    path = "/healthz",
    operation_id = "healthz",
    tag = "health",
    responses((status = 200, description = "Alive: `{\"status\": \"ok\"}`", body = Health))
)]
pub async fn healthz() -> Json<Health> {
    Json(Health { status: "ok" })
}

/// The service is ready to serve.
///
/// The database answers, every migration this binary knows is applied, and every background
/// worker of this process (`serve`, `worker`) is running.
#[utoipa::path(
    get,
    path = "/readyz",
    operation_id = "readyz",
    tag = "health",
    responses(
        (status = 200, description = "Ready: `{\"status\": \"ready\"}`", body = Health,
            example = json!({"status": "ready"})),
        (status = 503, description = "Not ready: the database is not reachable, the migrations \
            are not applied, or a worker is not running (it restarts with backoff; `unavailable`)",
            body = Problem,
            content_type = "application/problem+json"),
    )
)]
pub async fn readyz(State(state): State<Services>) -> Result<Json<Health>> {
    match state.db.ready().await {
        Ok(true) => {
            let down = state.db.liveness().not_running();
            if down.is_empty() {
                Ok(Json(Health { status: "ready" }))
            } else {
                Err(Error::Unavailable(down.join("; ")))
            }
        }
        Ok(false) => Err(Error::Unavailable(
            "migrations are not applied; run `n8v-journal migrate`".into(),
        )),
        Err(e) => {
            tracing::warn!(error = %e, "readiness check failed");
            Err(Error::Unavailable("the database is not reachable".into()))
        }
    }
}
