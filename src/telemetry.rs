//! Structured logs on stderr (stdout is kept for the CLI's JSON). `N8V_LOG_FORMAT=json` for
//! machine-readable lines; `RUST_LOG` filters as usual.

use tracing_subscriber::EnvFilter;

/// Targets whose detailed levels would log request payloads (rmcp traces whole tool calls,
/// episodes' prose included): held at `info` whatever `RUST_LOG` asks, because the journal
/// promises never to keep payloads or prose, logs included.
const PAYLOAD_SAFE: &str = "rmcp=info";

/// The log filter: `RUST_LOG` (default `info,sqlx=warn,rmcp=warn,tower_http=info`), with the
/// payload-logging targets capped.
pub fn filter(directives: Option<&str>) -> EnvFilter {
    let base = directives.unwrap_or("info,sqlx=warn,rmcp=warn,tower_http=info");
    EnvFilter::try_new(format!("{base},{PAYLOAD_SAFE}"))
        .unwrap_or_else(|_| EnvFilter::new(format!("info,{PAYLOAD_SAFE}")))
}

pub fn init() {
    let filter = filter(std::env::var("RUST_LOG").ok().as_deref());
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
