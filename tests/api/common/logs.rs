//! The service's log lines captured in a test: its own filter at its most verbose (everything
//! it would ever log with `RUST_LOG=trace`), written into a buffer the test reads.

use std::io::Write;
use std::sync::{Arc, Mutex};
use tracing::Subscriber;
use tracing_subscriber::Layer;
use tracing_subscriber::registry::LookupSpan;

/// Where captured lines go.
pub type Buffer = Arc<Mutex<Vec<u8>>>;

/// A formatting layer writing what the service logs at `trace` into `buffer`.
pub fn layer<S>(buffer: Buffer) -> impl Layer<S>
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    tracing_subscriber::fmt::layer()
        .with_writer(move || Sink(buffer.clone()))
        .with_filter(n8v_journal::telemetry::log_filter(Some("trace")))
}

/// Every log line the calling thread writes at the service's most verbose, into a buffer, while
/// the guard lives. A `#[tokio::test]` runtime runs the app it spawns on its own thread, so the
/// app's requests are captured.
///
/// Other tests of this binary run on other threads meanwhile, with no subscriber. With a single
/// dispatcher registered, tracing asks the registering thread's own default whether a callsite
/// is of interest (and caches "never" for good when a callsite is first hit on another thread):
/// a second dispatcher, interested in nothing and kept for the process, makes it ask every
/// registered dispatcher instead.
pub fn capture_on_this_thread() -> (tracing::subscriber::DefaultGuard, Buffer) {
    use tracing_subscriber::layer::SubscriberExt;
    static SECOND: std::sync::OnceLock<tracing::Dispatch> = std::sync::OnceLock::new();
    SECOND.get_or_init(|| tracing::Dispatch::new(tracing::subscriber::NoSubscriber::default()));
    let buffer = Buffer::default();
    let subscriber = tracing_subscriber::registry().with(layer(buffer.clone()));
    let guard = tracing::subscriber::set_default(subscriber);
    tracing::callsite::rebuild_interest_cache();
    (guard, buffer)
}

/// The lines captured so far.
pub fn text(buffer: &Buffer) -> String {
    String::from_utf8_lossy(&buffer.lock().unwrap()).into_owned()
}

struct Sink(Buffer);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
