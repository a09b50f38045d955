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
