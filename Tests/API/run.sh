#!/usr/bin/env bash
# The HTTP API checked from outside against a live geonews-serve (default: the debug build):
# its vector tiles decoded by PyPI's mapbox-vector-tile, /metrics read by prometheus_client's
# parser, then schemathesis over every operation of the served openapi.yaml, and its stateful
# phase along the spec's links. The pinned packages live in a git-ignored venv, .venv-serve.
#
#   Tests/API/run.sh [PATH_TO_GEONEWS_SERVE]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
server="${1:-$root/.build/debug/geonews-serve}"
venv="$root/.venv-serve"
"$root/Scripts/python-venvs" .venv-serve
status=0
echo "== vector tiles: decoded by mapbox-vector-tile against the server's GeoJSON"
"$venv/bin/python" Tests/API/check_tiles.py "$server" || status=1
echo "== metrics: parsed by prometheus_client, Prometheus naming, buckets from 0.5 ms, process families"
"$venv/bin/python" Tests/API/check_metrics.py "$server" || status=1
echo "== schemathesis: every operation of /openapi.yaml, no server error, no answer outside the spec"
"$venv/bin/python" Tests/API/run_schemathesis.py "$server" || status=1
exit "$status"
