//! Logs, traces and metrics.
//!
//! - Logs: structured lines on stderr (stdout is kept for the CLI's JSON); `N8V_LOG_FORMAT=json`
//!   for machine-readable lines, `RUST_LOG` filters them (and only them). Lines inside a request
//!   carry its `request_id` and `trace_id`.
//! - Traces and metrics: exported over OTLP when `OTEL_EXPORTER_OTLP_ENDPOINT` (or the
//!   per-signal `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` / `…_METRICS_ENDPOINT`) is set. The standard
//!   variables apply: `OTEL_EXPORTER_OTLP_PROTOCOL` (`http/protobuf`, the default, or
//!   `http/json`), `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_EXPORTER_OTLP_TIMEOUT`,
//!   `OTEL_SERVICE_NAME` (default `n8v-journal`), `OTEL_RESOURCE_ATTRIBUTES`,
//!   `OTEL_TRACES_SAMPLER(_ARG)`, `OTEL_METRIC_EXPORT_INTERVAL`, `OTEL_SDK_DISABLED`.
//!   Incoming W3C `traceparent` headers continue the caller's trace. Which spans are exported
//!   is never `RUST_LOG`'s to narrow: everything `N8V_OTEL_FILTER` (`target=level` directives,
//!   default `info`) or `RUST_LOG` lets through is exported, so an operator who quiets the logs
//!   keeps the traces.
//! - Whatever either filter says, payload-logging targets ([`PAYLOAD_TARGETS`]) stay at `info`.
//!
//! Spans carry the operation id and the account id (`acc_…`), never a purpose, a token or a
//! body: only the fields declared in [`http_span`] and [`record_operation`] are recorded.

use axum::extract::{MatchedPath, Request};
use axum::middleware::Next;
use axum::response::Response;
use opentelemetry::metrics::{Counter, Histogram};
use opentelemetry::trace::{TraceContextExt, TracerProvider as _};
use opentelemetry::{KeyValue, global};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::metrics::SdkMeterProvider;
use opentelemetry_sdk::trace::SdkTracerProvider;
use std::sync::OnceLock;
use std::time::Instant;
use tracing::Span;
use tracing::{Level, Metadata, Subscriber};
use tracing_opentelemetry::OpenTelemetrySpanExt;
use tracing_subscriber::filter::{Targets, filter_fn};
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
use tracing_subscriber::layer::{Filter, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::util::SubscriberInitExt;

/// Targets whose detailed levels would log request payloads (rmcp's `debug` prints whole tool
/// calls, episodes' prose included): held at `info` in every layer whatever the directives say
/// (`rmcp::service=debug` is as capped as `rmcp=trace`), because the journal promises never to
/// keep payloads or prose, logs and traces included.
const PAYLOAD_TARGETS: &[&str] = &["rmcp"];

/// Whether a span or event may be seen at all: never below `info` from a payload-logging target.
fn payload_safe(meta: &Metadata<'_>) -> bool {
    let target = meta.target();
    let payload = PAYLOAD_TARGETS.iter().any(|t| {
        target
            .strip_prefix(t)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with("::"))
    });
    !payload || *meta.level() <= Level::INFO
}

/// The log lines' default directives when `RUST_LOG` is unset.
pub const DEFAULT_LOG: &str = "info,sqlx=warn,rmcp=warn,tower_http=info";

/// The spans' default directives for OpenTelemetry when `N8V_OTEL_FILTER` is unset.
pub const DEFAULT_OTEL: &str = "info";

fn directives_or(directives: Option<&str>, default: &str) -> Targets {
    directives.unwrap_or(default).parse().unwrap_or_else(|e| {
        eprintln!(
            "telemetry: ignoring bad filter directives {directives:?} ({e}); using {default:?}"
        );
        default.parse().unwrap_or_default()
    })
}

/// A filter: the directives (`target=level`, comma-separated, as in `RUST_LOG`; or `default`),
/// with the payload-logging targets capped at `info`. A pure function of each callsite's target
/// and level (what tests use to capture the service's logs).
pub fn layer_filter<S>(
    directives: Option<&str>,
    default: &str,
) -> impl Filter<S> + Send + Sync + 'static
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    let targets = directives_or(directives, default);
    filter_fn(move |meta| payload_safe(meta) && targets.would_enable(meta.target(), meta.level()))
}

/// The log lines' filter: `RUST_LOG` (default [`DEFAULT_LOG`]), payload targets capped. The
/// service itself filters the same way ([`init`]).
pub fn log_filter<S>(directives: Option<&str>) -> impl Filter<S> + Send + Sync + 'static
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    layer_filter(directives, DEFAULT_LOG)
}

/// The log lines' format, writing only the events `RUST_LOG` asks for (the subscriber also
/// lets through what only the exported spans want).
struct LogLines<F>(F, Targets);

impl<S, N, F> FormatEvent<S, N> for LogLines<F>
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
    F: FormatEvent<S, N>,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        writer: Writer<'_>,
        event: &tracing::Event<'_>,
    ) -> std::fmt::Result {
        let meta = event.metadata();
        if self.1.would_enable(meta.target(), meta.level()) {
            self.0.format_event(ctx, writer, event)
        } else {
            Ok(())
        }
    }
}

/// The service name when `OTEL_SERVICE_NAME` does not say otherwise.
pub const SERVICE_NAME: &str = "n8v-journal";

/// Keeps the exporters alive; [`Telemetry::shutdown`] flushes what is still buffered.
#[must_use = "dropping it without shutdown() loses the last batch of spans and metrics"]
pub struct Telemetry {
    tracer: SdkTracerProvider,
    meter: Option<SdkMeterProvider>,
}

impl Telemetry {
    /// Flushes and stops the exporters (call once, before the process exits).
    pub fn shutdown(self) {
        if let Err(e) = self.tracer.shutdown() {
            eprintln!("telemetry: flushing spans failed: {e}");
        }
        if let Some(meter) = self.meter
            && let Err(e) = meter.shutdown()
        {
            eprintln!("telemetry: flushing metrics failed: {e}");
        }
    }
}

fn otel_var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

/// Whether a signal has somewhere to go (`OTEL_EXPORTER_OTLP_ENDPOINT` or the signal's own).
fn exporting(signal: &str) -> bool {
    if otel_var("OTEL_SDK_DISABLED").is_some_and(|v| v.eq_ignore_ascii_case("true")) {
        return false;
    }
    otel_var("OTEL_EXPORTER_OTLP_ENDPOINT").is_some()
        || otel_var(&format!("OTEL_EXPORTER_OTLP_{signal}_ENDPOINT")).is_some()
}

fn resource() -> Resource {
    // The default detectors read OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES.
    let builder = Resource::builder();
    let named = otel_var("OTEL_SERVICE_NAME").is_some()
        || otel_var("OTEL_RESOURCE_ATTRIBUTES").is_some_and(|a| a.contains("service.name="));
    let builder = if named {
        builder
    } else {
        builder.with_service_name(SERVICE_NAME)
    };
    builder
        .with_attribute(KeyValue::new("service.version", env!("CARGO_PKG_VERSION")))
        .build()
}

/// Sets up logging, and tracing and metrics export when configured. Call once, early in
/// `main`; later calls (tests) keep the first subscriber.
pub fn init() -> Telemetry {
    let rust_log = otel_var("RUST_LOG");
    let otel_filter = otel_var("N8V_OTEL_FILTER");
    let resource = resource();

    // Spans always get OpenTelemetry ids (so log lines carry a trace id and `traceparent` is
    // honoured); they leave the process only when an endpoint is configured.
    let mut tracer = SdkTracerProvider::builder().with_resource(resource.clone());
    let mut problems = Vec::new();
    if exporting("TRACES") {
        match opentelemetry_otlp::SpanExporter::builder()
            .with_http()
            .build()
        {
            Ok(exporter) => tracer = tracer.with_batch_exporter(exporter),
            Err(e) => problems.push(format!("OTLP span exporter: {e}")),
        }
    }
    let tracer = tracer.build();
    global::set_text_map_propagator(opentelemetry_sdk::propagation::TraceContextPropagator::new());

    let meter = if exporting("METRICS") {
        match opentelemetry_otlp::MetricExporter::builder()
            .with_http()
            .build()
        {
            Ok(exporter) => {
                let provider = SdkMeterProvider::builder()
                    .with_resource(resource)
                    .with_periodic_exporter(exporter)
                    .build();
                global::set_meter_provider(provider.clone());
                Some(provider)
            }
            Err(e) => {
                problems.push(format!("OTLP metric exporter: {e}"));
                None
            }
        }
    } else {
        None
    };

    // One global filter lets through what either the log lines or the exported spans want
    // (payload targets capped for both); the log lines then keep only what `RUST_LOG` asks
    // for ([`LogLines`]). tracing-subscriber's per-layer filters were tried here and lost the
    // request spans' events or attributes in one layer or the other.
    let logs = directives_or(rust_log.as_deref(), DEFAULT_LOG);
    let exported = directives_or(otel_filter.as_deref(), DEFAULT_OTEL);
    let (wanted_logs, wanted_spans) = (logs.clone(), exported);
    let either = filter_fn(move |meta| {
        payload_safe(meta)
            && (wanted_logs.would_enable(meta.target(), meta.level())
                || wanted_spans.would_enable(meta.target(), meta.level()))
    });
    let otel = tracing_opentelemetry::layer().with_tracer(tracer.tracer(SERVICE_NAME));
    let fmt = tracing_subscriber::fmt::layer().with_writer(std::io::stderr);
    let registry = tracing_subscriber::registry().with(either).with(otel);
    let result = if std::env::var("N8V_LOG_FORMAT").as_deref() == Ok("json") {
        let format = LogLines(tracing_subscriber::fmt::format().json(), logs);
        registry.with(fmt.json().event_format(format)).try_init()
    } else {
        let format = LogLines(tracing_subscriber::fmt::format(), logs);
        registry.with(fmt.event_format(format)).try_init()
    };
    let _ = result; // already initialised (tests): keep the first
    for problem in problems {
        tracing::warn!("telemetry: {problem}; not exporting");
    }
    Telemetry { tracer, meter }
}

/// The span of one HTTP request. Only these fields exist on it; headers, queries and bodies
/// are never recorded (the path is, without its query string).
pub fn http_span<B>(req: &axum::http::Request<B>) -> Span {
    let request_id = req
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("-");
    let method = req.method().as_str();
    let span = tracing::info_span!(
        "request",
        otel.name = %format!("{method}"),
        otel.kind = "server",
        otel.status_code = tracing::field::Empty,
        method = %method,
        // The path as the audit log keeps it: a token in it never reaches logs or traces.
        path = %crate::scrub::audit_path(req.uri().path()),
        request_id = %request_id,
        trace_id = tracing::field::Empty,
        route = tracing::field::Empty,
        status = tracing::field::Empty,
        operation_id = tracing::field::Empty,
        account_id = tracing::field::Empty,
    );
    let parent = global::get_text_map_propagator(|p| {
        p.extract(&opentelemetry_http::HeaderExtractor(req.headers()))
    });
    if parent.span().span_context().is_valid() {
        let _ = span.set_parent(parent);
    }
    let trace_id = span.context().span().span_context().trace_id();
    if trace_id != opentelemetry::trace::TraceId::INVALID {
        span.record("trace_id", tracing::field::display(trace_id));
    }
    span
}

/// Marks the current span with the operation and the account it acts for. Called where an
/// operation begins (REST and MCP alike), so the attributes are on the request's span.
pub fn record_operation(operation_id: &str, account_id: uuid::Uuid) {
    let span = Span::current();
    let account = crate::ids::format(crate::ids::Kind::Account, account_id);
    span.record("operation_id", operation_id);
    span.record("account_id", account.as_str());
    // Also as OpenTelemetry attributes, for spans that did not declare the fields.
    span.set_attribute("n8v.operation_id", operation_id.to_owned());
    span.set_attribute("n8v.account_id", account);
}

/// Middleware after routing: names the request span by its route template, and measures the
/// request (rate and latency, by method, route and status).
pub async fn track_route(req: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = req.method().as_str().to_owned();
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map(|p| p.as_str().to_owned())
        .unwrap_or_else(|| "unmatched".to_owned());
    let span = Span::current();
    span.record("route", route.as_str());
    // The OpenTelemetry span exists by now (http_span read its trace id): rename it directly.
    span.context()
        .span()
        .update_name(format!("{method} {route}"));
    let response = next.run(req).await;
    let status = response.status();
    span.record("status", status.as_u16());
    if status.is_server_error() {
        span.record("otel.status_code", "error");
    }
    metrics().http_duration.record(
        started.elapsed().as_secs_f64(),
        &[
            KeyValue::new("http.request.method", method),
            KeyValue::new("http.route", route),
            KeyValue::new("http.response.status_code", i64::from(status.as_u16())),
        ],
    );
    response
}

/// The service's instruments (no-ops unless a meter provider exports them).
pub struct Metrics {
    pub http_duration: Histogram<f64>,
    pub jobs: Counter<u64>,
    pub sessions_opened: Counter<u64>,
    pub sessions_closed: Counter<u64>,
    pub limit_fallbacks: Counter<u64>,
    pub summary_tokens: Counter<u64>,
    pub summary_cost_usd: Counter<f64>,
}

pub fn metrics() -> &'static Metrics {
    static METRICS: OnceLock<Metrics> = OnceLock::new();
    METRICS.get_or_init(|| {
        let meter = global::meter(SERVICE_NAME);
        Metrics {
            http_duration: meter
                .f64_histogram("http.server.request.duration")
                .with_unit("s")
                .with_description("HTTP requests: how long they took (count = request rate)")
                .with_boundaries(vec![
                    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
                ])
                .build(),
            jobs: meter
                .u64_counter("n8v.jobs")
                .with_description("Background jobs finished, by job and outcome")
                .build(),
            sessions_opened: meter
                .u64_counter("n8v.sessions.opened")
                .with_description("Journal sessions opened, by kind (explicit, implicit)")
                .build(),
            sessions_closed: meter
                .u64_counter("n8v.sessions.closed")
                .with_description("Journal sessions closed, by reason (ended, quiet, retired)")
                .build(),
            limit_fallbacks: meter
                .u64_counter("n8v.limits.fallbacks")
                .with_description(
                    "Requests a replica counted against its own lease because the shared \
                     bucket was locked (the database's limit statement gave up)",
                )
                .build(),
            summary_tokens: meter
                .u64_counter("n8v.summary.tokens")
                .with_description("Model tokens spent on session summaries, by model and direction")
                .build(),
            summary_cost_usd: meter
                .f64_counter("n8v.summary.cost")
                .with_unit("USD")
                .with_description("Cost of session summaries, by model")
                .build(),
        }
    })
}

/// A background job finished: `outcome` is `ok`, `skipped` or `error`.
pub fn job_finished(job: &'static str, outcome: &'static str) {
    metrics().jobs.add(
        1,
        &[KeyValue::new("job", job), KeyValue::new("outcome", outcome)],
    );
}

/// Sessions were opened (`kind`: `explicit` or `implicit`).
pub fn sessions_opened(kind: &'static str, count: u64) {
    metrics()
        .sessions_opened
        .add(count, &[KeyValue::new("kind", kind)]);
}

/// A replica counted a credential's requests against a lease of its own, the shared bucket
/// being locked.
pub fn limit_fallback() {
    metrics().limit_fallbacks.add(1, &[]);
}

/// Sessions were closed (`reason`: `ended`, `quiet` or `retired`).
pub fn sessions_closed(reason: &'static str, count: u64) {
    metrics()
        .sessions_closed
        .add(count, &[KeyValue::new("reason", reason)]);
}

/// A summary was stored: its model, tokens and exact cost (as a float for the metric only).
pub fn summary_recorded(model: &str, input_tokens: u64, output_tokens: u64, cost_usd: f64) {
    let m = metrics();
    let model = KeyValue::new("model", model.to_owned());
    m.summary_tokens.add(
        input_tokens,
        &[model.clone(), KeyValue::new("direction", "input")],
    );
    m.summary_tokens.add(
        output_tokens,
        &[model.clone(), KeyValue::new("direction", "output")],
    );
    m.summary_cost_usd.add(cost_usd, &[model]);
}
