#!/usr/bin/env bash
# The soak test of geonews-serve: two instances on a throw-away PostgreSQL 15 behind Debian's
# nginx as a round-robin upstream, Google News answered by a loopback stub, and a mixed load
# (resolve, clusters, tiles, headlines, favourites, settings, dataset uploads and deletions)
# through nginx at half of the maximum measured first, for --minutes. Every --report-every
# seconds one line: each instance's RSS, descriptors and connections, PostgreSQL's connections,
# p50/p99 per route, errors by status. At the end the checks (RSS and descriptors flat, p99 at
# the end within 1.5x of the start, no 5xx, no lost write) and "soak: passed" or
# "soak: FAILED: …"; exit 0 or 1. Benchmarks/soak.py does the work; Benchmarks/README-soak.md
# says what each figure means.
#
#   Benchmarks/soak.sh [--minutes 30] [--report-every 300] [--serve .build/release/geonews-serve]
#
# Root (Tests/Postgres/start.sh runs PostgreSQL as the user geonews-test). Loopback only; the
# PostgreSQL and everything the driver starts are stopped and removed on exit and on Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=30 every=300 serve=.build/release/geonews-serve
usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }
while [ $# -gt 0 ]; do
  case $1 in
    --minutes) minutes=${2:?--minutes needs a number}; shift 2 ;;
    --report-every) every=${2:?--report-every needs seconds}; shift 2 ;;
    --serve) serve=${2:?--serve needs a path}; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "soak: unknown option $1 (see --help)" >&2; exit 64 ;;
  esac
done
[ -x "$serve" ] || { echo "soak: no geonews-serve at $serve (swift build -c release --static-swift-stdlib --product geonews-serve, or --serve PATH)" >&2; exit 1; }
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || { echo "soak: nginx is missing (apt-get install nginx-light)" >&2; exit 1; }
[ -x /usr/lib/postgresql/15/bin/initdb ] && command -v psql >/dev/null \
  || { echo "soak: PostgreSQL 15 is missing (apt-get install postgresql-15)" >&2; exit 1; }

. Tests/Postgres/start.sh
[ -n "${GEONEWS_TEST_POSTGRES_URL:-}" ] || { echo "soak: the throw-away PostgreSQL did not start" >&2; exit 1; }

# The driver runs in the background, in a session of its own with everything it starts, so
# that Ctrl-C reaches only this shell: the trap then stops the driver, which stops what it
# started (nginx, the instances, its clients), before start.sh's exit trap stops PostgreSQL.
setsid python3 Benchmarks/soak.py --serve "$serve" --store "$GEONEWS_TEST_POSTGRES_URL" --pg-ctl "$GEONEWS_TEST_POSTGRES_CTL" \
  --minutes "$minutes" --report-every "$every" &
driver=$!
trap 'kill -TERM "$driver" 2>/dev/null; wait "$driver"; exit 130' INT TERM
status=0
wait "$driver" || status=$?
exit "$status"
