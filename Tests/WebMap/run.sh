#!/usr/bin/env bash
# The web map's browser scenarios, as Scripts/test runs them: selenium (pinned) in a git-ignored
# venv, then Tests/WebMap/run.py against .build/debug/geonews-serve (built by `swift build
# --build-tests`) and the loopback provider fixtures. Chromium, its driver and Leaflet come from
# Scripts/setup-system.sh. The last line is "webmap: N passed, M failed".
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv="$root/Tests/WebMap/.venv"
serve="${GEONEWS_SERVE:-$root/.build/debug/geonews-serve}"
# The scenarios need the HTTP server of issue 12. A tree without that product cannot run them:
# say so plainly rather than fail on what the tree does not contain.
if [ -z "${GEONEWS_SERVE:-}" ] && ! grep -q '"geonews-serve"' "$root/Package.swift"; then
  echo "webmap: NOT RUN: this tree has no geonews-serve executable (issue 12), which serves the page and its API" >&2
  echo "webmap: 0 passed, 0 failed"
  exit 0
fi
"$root/Scripts/python-venvs" Tests/WebMap/.venv
if [ ! -x "$serve" ]; then
  echo "webmap: geonews-serve is not built ($serve); the browser scenarios need it" >&2
  echo "webmap: 0 passed, 1 failed"
  exit 1
fi
exec "$venv/bin/python" "$root/Tests/WebMap/run.py" --serve "$serve" "$@"
