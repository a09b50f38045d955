use crate::error::{Error, Result};
use crate::http::AppState;
use axum::Json;
use axum::extract::State;
use serde_json::{Value, json};

/// The process is alive.
pub async fn healthz() -> Json<Value> {
    Json(json!({"status": "ok"}))
}

/// The database answers and every migration this binary knows is applied.
pub async fn readyz(State(state): State<AppState>) -> Result<Json<Value>> {
    match state.db.ready().await {
        Ok(true) => Ok(Json(json!({"status": "ready"}))),
        Ok(false) => Err(Error::Unavailable(
            "migrations are not applied; run `n8v-journal migrate`".into(),
        )),
        Err(e) => {
            tracing::warn!(error = %e, "readiness check failed");
            Err(Error::Unavailable("the database is not reachable".into()))
        }
    }
}
