# The n8v-journal service: one binary (serve | api | worker | migrate | admin …).
#
#   docker build -t n8v-journal .                      # builds the code in the image (default)
#   docker run --env-file .env n8v-journal api
#
# or, with a release binary built on a Debian 12 (glibc 2.36) machine:
#
#   mkdir -p ctx/deploy/prebuilt && cp target/release/n8v-journal ctx/deploy/prebuilt/
#   docker build --target prebuilt -f Dockerfile -t n8v-journal ctx
#
# Stages, in the order the classic builder runs them (it builds every stage before the target,
# so the stages a prebuilt build needs come first): `runtime-base` (the small Debian runtime,
# running as uid 10001, everything but the binary), `prebuilt` (the binary from the context),
# `build` (the release build, its dependencies in a layer of their own, as cargo-chef does, so
# an edit to the code rebuilds only the crate) and `runtime`, the default.
# Works with BuildKit and the classic builder alike (no RUN --mount). Base images are build
# arguments whose defaults are the official images; CI passes locally made ones.

ARG RUST_IMAGE=rust:1.95-slim-bookworm
ARG RUNTIME_IMAGE=debian:bookworm-slim

FROM ${RUNTIME_IMAGE} AS runtime-base
# ca-certificates for the summary providers (HTTPS); curl for the container health check.
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates curl \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 n8v \
    && useradd --system --uid 10001 --gid n8v --home-dir /nonexistent --shell /usr/sbin/nologin n8v
# Listen on every interface inside the container; logs as JSON lines on stderr. RUST_LOG filters
# the logs only; N8V_OTEL_FILTER (default info) adds the exported spans.
ENV N8V_BIND=0.0.0.0:8080 \
    N8V_LOG_FORMAT=json \
    RUST_LOG=info,sqlx=warn,rmcp=warn,tower_http=info
USER 10001:10001
EXPOSE 8080
# The port is N8V_BIND's, so a container given another address (host networking) stays checked.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
    CMD ["/bin/sh", "-c", "curl -fsS \"http://127.0.0.1:${N8V_BIND##*:}/readyz\" >/dev/null"]
ENTRYPOINT ["/usr/local/bin/n8v-journal"]
CMD ["api"]

# The binary from the build context: `deploy/prebuilt/n8v-journal`. The directory is in the
# repository (empty but for .gitkeep) so that this stage also passes in a default build.
FROM runtime-base AS prebuilt
COPY deploy/prebuilt/ /usr/local/bin/

FROM ${RUST_IMAGE} AS build
WORKDIR /src
ENV SQLX_OFFLINE=true \
    CARGO_TERM_COLOR=never
# The dependencies first, against an empty crate: this layer is reused until Cargo.lock changes.
COPY Cargo.toml Cargo.lock ./
COPY .cargo .cargo
RUN mkdir src \
    && echo 'fn main() {}' > src/main.rs \
    && touch src/lib.rs \
    && cargo build --release --locked \
    && rm -rf src target/release/n8v-journal* target/release/deps/n8v_journal-* \
        target/release/deps/libn8v_journal-* target/release/.fingerprint/n8v-journal-*
# Everything the crate reads at compile time: the code, the migrations (sqlx::migrate!), the
# checked statements' offline data (sqlx::query!, SQLX_OFFLINE) and the pages' templates and
# assets (include_str!), the integrations guide `GET /integrations.md` serves and the
# harness integrations `hook install` writes (include_str!). CI compiles exactly these
# (.ci/container-check).
COPY src src
COPY migrations migrations
COPY .sqlx .sqlx
COPY templates templates
COPY integrations/README.md integrations/README.md
COPY integrations/opencode integrations/opencode
COPY integrations/pi integrations/pi
COPY integrations/hermes integrations/hermes
RUN cargo build --release --locked \
    && install -D -m 0755 target/release/n8v-journal /out/n8v-journal

FROM runtime-base AS runtime
COPY --from=build /out/n8v-journal /usr/local/bin/n8v-journal
