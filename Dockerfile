# syntax=docker/dockerfile:1
# The n8v-journal service: one binary (serve | api | worker | migrate | admin …).
#
#   docker build -t n8v-journal .
#   docker run --env-file .env n8v-journal api
#
# Stage 1 builds the release binary; stage 2 is a small Debian runtime running as an
# unprivileged user. SQLX_OFFLINE keeps the build from querying a database (see .cargo/config.toml).

ARG RUST_VERSION=1.95
ARG DEBIAN_RELEASE=bookworm

FROM rust:${RUST_VERSION}-slim-${DEBIAN_RELEASE} AS build
WORKDIR /src
ENV SQLX_OFFLINE=true \
    CARGO_TERM_COLOR=never
# The C toolchain for ring and aws-lc-sys comes with the rust image; cmake and perl are not
# needed by the pinned versions.
COPY Cargo.toml Cargo.lock ./
COPY .cargo .cargo
COPY src src
COPY migrations migrations
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked \
    && install -D -m 0755 target/release/n8v-journal /out/n8v-journal

FROM debian:${DEBIAN_RELEASE}-slim AS runtime
# ca-certificates for the summary providers (HTTPS); curl for the container health check.
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates curl \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 n8v \
    && useradd --system --uid 10001 --gid n8v --home-dir /nonexistent --shell /usr/sbin/nologin n8v
COPY --from=build /out/n8v-journal /usr/local/bin/n8v-journal

# Listen on every interface inside the container; logs as JSON lines on stderr.
ENV N8V_BIND=0.0.0.0:8080 \
    N8V_LOG_FORMAT=json \
    RUST_LOG=info,sqlx=warn,rmcp=warn,tower_http=info
USER 10001:10001
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
    CMD ["curl", "-fsS", "http://127.0.0.1:8080/readyz"]
ENTRYPOINT ["/usr/local/bin/n8v-journal"]
CMD ["api"]
