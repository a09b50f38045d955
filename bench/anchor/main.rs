//! The benchmark's anchor (issue 43): what this stack, axum + sqlx + tokio, can do on this machine
//! with none of the journal in it. `POST /api/v1/records/{id}/entries` takes the body scenario 1
//! sends (`bench/append.lua`, the same wrk load), authenticates nothing, does one single-row
//! `INSERT` into `bench_calls` (the table and row shape of `bench/pgbench-insert.sql`) and
//! answers `201` with the new call's id. `bench/run` measures it between the journalled append
//! and pgbench's raw insert, so that the results say how far the journal is from what the stack
//! does, and how far the stack is from the database.
//!
//! An `[[example]]` of the crate rather than a crate of its own or a `[[bin]]`: it is built from
//! the crate's one `Cargo.lock` (the same axum, sqlx, tokio and rustls as the service, so a
//! dependency bump moves both), `cargo clippy --all-targets` lints it, and nothing of it ships:
//! `cargo build --release` (the image's build, which copies no `bench/`) does not build
//! examples. A crate of its own would resolve its own versions, unlinted; a `[[bin]]` would be
//! in every build of the image. The price: an example takes the dev-dependencies' features
//! (tokio's `test-util`), so its first release build compiles the dependencies once more, in
//! their own artifacts; the service's binary is still built without them.
//!
//! Environment: `DATABASE_URL` (the scratch database, as its owner, as pgbench connects),
//! `ANCHOR_BIND` (default 127.0.0.1:18081), `ANCHOR_POOL` (connections, default 20: the
//! service's own default, `N8V_DB_MAX_CONNECTIONS`).

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;
use sqlx::PgPool;
use sqlx::postgres::PgPoolOptions;
use std::time::Duration;

/// The append's body as scenario 1 sends it; parsed, as the service parses it, and not kept.
#[derive(Deserialize)]
struct Entry {
    #[serde(rename = "line")]
    _line: String,
}

/// The row of `bench/pgbench-insert.sql`, with the record's id and the purpose bound from the
/// request (as the journal's call row takes them) and the call's id returned.
const INSERT: &str = "INSERT INTO bench_calls (account_id, call_id, session_id, credential_id, \
    operation, purpose, target_ids, status, ok, input_shape, result_ids, wrote, journal_read, \
    duration_ms, created_at) \
    VALUES ('00000000-0000-0000-0000-000000000001', gen_random_uuid(), \
    '00000000-0000-0000-0000-000000000002', '00000000-0000-0000-0000-000000000003', \
    'appendRecordEntry', $2, ARRAY[$1], 201, true, '{\"body\": {\"line\": \"string\"}}', \
    ARRAY['ent_x'], true, false, 1, now()) RETURNING call_id";

async fn append(
    State(pool): State<PgPool>,
    Path(record): Path<String>,
    headers: HeaderMap,
    Json(_entry): Json<Entry>,
) -> Result<(StatusCode, Json<serde_json::Value>), StatusCode> {
    let purpose = headers.get("x-purpose").and_then(|v| v.to_str().ok());
    let call_id: uuid::Uuid = sqlx::query_scalar(INSERT)
        .bind(record)
        .bind(purpose)
        .fetch_one(&pool)
        .await
        .map_err(|e| {
            eprintln!("anchor: {e}");
            StatusCode::INTERNAL_SERVER_ERROR
        })?;
    Ok((
        StatusCode::CREATED,
        Json(serde_json::json!({ "call_id": call_id })),
    ))
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let url = std::env::var("DATABASE_URL")?;
    let bind = std::env::var("ANCHOR_BIND").unwrap_or_else(|_| "127.0.0.1:18081".into());
    let size = std::env::var("ANCHOR_POOL").map_or(Ok(20), |s| s.parse())?;
    // As the service's tenant pool is set (src/db/mod.rs, `pool_options`): no ping before each
    // acquire, which sqlx does by default and the service turned off (issue 23). The ping sqlx
    // sends when a connection goes back to the pool stays: no option turns it off.
    let pool = PgPoolOptions::new()
        .max_connections(size)
        .acquire_timeout(Duration::from_secs(10))
        .test_before_acquire(false)
        .connect(&url)
        .await?;
    let app = Router::new()
        .route("/api/v1/records/{id}/entries", post(append))
        .route("/readyz", axum::routing::get(|| async { "ready" }))
        .with_state(pool);
    let listener = tokio::net::TcpListener::bind(&bind).await?;
    axum::serve(listener, app).await?;
    Ok(())
}
