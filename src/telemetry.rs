//! Structured logs on stderr (stdout is kept for the CLI's JSON). `N8V_LOG_FORMAT=json` for
//! machine-readable lines; `RUST_LOG` filters as usual.

use tracing_subscriber::EnvFilter;

pub fn init() {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,rmcp=warn,tower_http=info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let result = if std::env::var("N8V_LOG_FORMAT").as_deref() == Ok("json") {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
    let _ = result; // already initialised (tests): keep the first
}
