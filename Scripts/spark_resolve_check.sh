#!/usr/bin/env bash
# Runs `geonews resolve` as an Apache Spark RDD.pipe() stage in local mode and checks that the
# rows and countries equal a single-process run (NDJSON, and headerless CSV).
#
#   Scripts/spark_resolve_check.sh [ROWS]      # default 200000
#
# Needs Java 17 (on the machine) and PyPI; installs pyspark in Scripts/.venv-spark (git-ignored).
# Not part of the default test command: it takes a minute or two.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SCRATCH=${SCRATCH:-.build}
VENV=$ROOT/Scripts/.venv-spark
WORK=$ROOT/Benchmarks/out/spark

if [ -z "${GEONEWS:-}" ]; then  # GEONEWS=/path/to/geonews checks a binary built elsewhere
    swift build -c release --scratch-path "$SCRATCH" --product geonews >/dev/null
    GEONEWS=$ROOT/$SCRATCH/release/geonews
fi
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import pyspark' 2>/dev/null; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet pyspark
fi
export PYSPARK_PYTHON="$VENV/bin/python"
"$VENV/bin/python" Scripts/spark_resolve_check.py "$GEONEWS" "$ROOT/Data" "$WORK" "${1:-200000}"
rm -rf "$WORK"
