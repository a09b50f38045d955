# CI's stand-in for the official postgres image (no registry image can be pulled here): Debian's
# PostgreSQL, honouring the same variables (POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB,
# PGDATA) plus PGPORT and POSTGRES_LISTEN for host networking. Not for production.
ARG BASE_IMAGE=debian:bookworm-slim
FROM ${BASE_IMAGE}
RUN apt-get update \
    && apt-get install -y --no-install-recommends postgresql-15 \
    && rm -rf /var/lib/apt/lists/*
COPY postgres-entrypoint.sh /usr/local/bin/postgres-entrypoint.sh
ENV PGDATA=/var/lib/postgresql/data \
    PGPORT=5432 \
    POSTGRES_LISTEN=*
ENTRYPOINT ["/usr/local/bin/postgres-entrypoint.sh"]
