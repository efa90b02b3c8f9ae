#!/usr/bin/env bash
# geonews in DuckDB beside DuckDB spatial: builds the wheel (Scripts/build-wheel), installs it
# with duckdb and duckdb-extension-spatial into Benchmarks/out/duckdb/venv, and runs
# Benchmarks/duckdb/bench.py. Needs PyPI.
#
#   Benchmarks/duckdb/run.sh [N] [ROUNDS]        # 10,000,000 positions, 2 rounds by default
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
. "$root/Benchmarks/wheel-venv.sh"
wheel_venv duckdb duckdb==1.5.5 duckdb-extension-spatial==1.5.5 numpy==2.4.6 pyarrow==26.0.1
GEONEWS_INDEX_DIR="$index_dir" \
  "$venv/bin/python" "$root/Benchmarks/duckdb/bench.py" "$root/Data/basemap.geojson" "${1:-10000000}" "${2:-2}"
