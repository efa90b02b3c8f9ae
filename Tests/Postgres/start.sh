#!/usr/bin/env bash
# A throw-away PostgreSQL 15 (Debian's postgresql-15) for the store tests: initdb in a temporary
# directory owned by the unprivileged system user geonews-test, scram-sha-256 authentication with
# a random password, a free port on 127.0.0.1 only. Exports
#   GEONEWS_TEST_POSTGRES_URL  postgres://geonews:PASSWORD@127.0.0.1:PORT/geonews_test
#   GEONEWS_TEST_POSTGRES_CTL  a script taking stop | start, for the tests of a store that goes away
# and stops the server and removes the directory when the shell that sourced it exits.
# Source it (`. Tests/Postgres/start.sh`); when /usr/lib/postgresql/15/bin/initdb is missing it
# exports nothing and the PostgreSQL tests skip.
geonews_pg_bin=/usr/lib/postgresql/15/bin
if [ -x "$geonews_pg_bin/initdb" ]; then
  id -u geonews-test >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin geonews-test
  geonews_pg_dir="$(mktemp -d /tmp/geonews-postgres.XXXXXX)"
  chmod 0700 "$geonews_pg_dir"
  geonews_pg_password="$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
  printf '%s\n' "$geonews_pg_password" >"$geonews_pg_dir/password"
  chown -R geonews-test "$geonews_pg_dir"
  geonews_pg_port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  runuser -u geonews-test -- "$geonews_pg_bin/initdb" -D "$geonews_pg_dir/data" -U geonews -E UTF8 --no-sync \
    -A scram-sha-256 --pwfile="$geonews_pg_dir/password" >"$geonews_pg_dir/initdb.log" 2>&1 \
    || { cat "$geonews_pg_dir/initdb.log" >&2; return 1 2>/dev/null || exit 1; }
  cat >"$geonews_pg_dir/ctl" <<CTL
#!/usr/bin/env bash
# stop | start the test PostgreSQL (as geonews-test, on 127.0.0.1:$geonews_pg_port only).
exec runuser -u geonews-test -- "$geonews_pg_bin/pg_ctl" -D "$geonews_pg_dir/data" -l "$geonews_pg_dir/server.log" -w -t 30 \
  -o "-c listen_addresses=127.0.0.1 -p $geonews_pg_port -k $geonews_pg_dir -c max_connections=200 -c fsync=off" "\$1" -m fast
CTL
  chmod 0755 "$geonews_pg_dir/ctl"
  "$geonews_pg_dir/ctl" start >/dev/null || { cat "$geonews_pg_dir/server.log" >&2; return 1 2>/dev/null || exit 1; }
  PGPASSWORD="$geonews_pg_password" "$geonews_pg_bin/createdb" -h 127.0.0.1 -p "$geonews_pg_port" -U geonews geonews_test
  export GEONEWS_TEST_POSTGRES_URL="postgres://geonews:$geonews_pg_password@127.0.0.1:$geonews_pg_port/geonews_test"
  export GEONEWS_TEST_POSTGRES_CTL="$geonews_pg_dir/ctl"
  geonews_pg_stop() {
    "$geonews_pg_dir/ctl" stop >/dev/null 2>&1 || true
    rm -rf "$geonews_pg_dir"
  }
  # Kept with whatever the sourcing shell already does on exit.
  trap "geonews_pg_stop; $(trap -p EXIT | sed -E "s/^trap -- '(.*)' EXIT\$/\1/")" EXIT
  echo "== PostgreSQL 15 for the store tests on 127.0.0.1:$geonews_pg_port ($geonews_pg_dir)"
fi
