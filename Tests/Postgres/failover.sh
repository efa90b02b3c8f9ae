#!/usr/bin/env bash
# Acknowledged means committed, with two instances on one PostgreSQL behind nginx (Debian) as a
# round-robin upstream: concurrent writers save favourites with unique urls through nginx while
# one instance at random is killed with SIGKILL and restarted, KILLS times (default 20); a save
# cut by a kill is sent again until answered. Then every save answered 2xx must be stored exactly
# once, as listed through either instance, and clients must have seen no failure other than the
# killed instance's requests in flight (nginx answers those 502). The two instances start
# together on an empty database, so their migrations race too. Prints the figures; exits 1 when a
# check fails (Tests/Postgres/failover.py does the work).
#
#   Tests/Postgres/failover.sh [KILLS]
#
# Uses the debug geonews-serve (swift build --product geonews-serve first), a PostgreSQL from
# Tests/Postgres/start.sh, and loopback only.
set -euo pipefail
cd "$(dirname "$0")/../.."
kills="${1:-20}"
serve=.build/debug/geonews-serve
[ -x "$serve" ] || { echo "failover: build geonews-serve first (swift build --product geonews-serve)" >&2; exit 1; }
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || { echo "failover: nginx is missing (apt-get install nginx-light)" >&2; exit 1; }
. Tests/Postgres/start.sh
[ -n "${GEONEWS_TEST_POSTGRES_URL:-}" ] || { echo "failover: no PostgreSQL 15 (apt-get install postgresql-15)" >&2; exit 1; }
python3 Tests/Postgres/failover.py --serve "$serve" --store "$GEONEWS_TEST_POSTGRES_URL" --kills "$kills"
