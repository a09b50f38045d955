#!/bin/sh
# Initialises PGDATA on first start (the owner POSTGRES_USER with POSTGRES_PASSWORD, scram over
# TCP, the database POSTGRES_DB), then runs the server as the postgres user.
set -eu
bin=/usr/lib/postgresql/15/bin
user="${POSTGRES_USER:-postgres}"
db="${POSTGRES_DB:-$user}"
: "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set}"
if [ "$(id -u)" = 0 ]; then
    mkdir -p "$PGDATA" /var/run/postgresql
    chown postgres:postgres "$PGDATA" /var/run/postgresql
    chmod 700 "$PGDATA"
    exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    pwfile="$(mktemp)"
    printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
    "$bin/initdb" -D "$PGDATA" -U "$user" --pwfile="$pwfile" \
        --auth-local=trust --auth-host=scram-sha-256 >/dev/null
    rm -f "$pwfile"
    printf 'host all all all scram-sha-256\n' >> "$PGDATA/pg_hba.conf"
    if [ "$db" != postgres ]; then
        "$bin/postgres" --single -D "$PGDATA" postgres >/dev/null <<SQL
CREATE DATABASE "$db" OWNER "$user";
SQL
    fi
fi
exec "$bin/postgres" -D "$PGDATA" -p "$PGPORT" -c "listen_addresses=$POSTGRES_LISTEN" \
    -c unix_socket_directories=/var/run/postgresql "$@"
