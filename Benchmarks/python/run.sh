#!/usr/bin/env bash
# geonews.resolve in Python beside tzfpy's get_tz, geopandas' sjoin and the wrapper that pipes
# CSV through `geonews resolve`: builds the wheel (Scripts/build-wheel), installs it with tzfpy,
# geopandas and pyarrow into Benchmarks/out/python/venv, and runs Benchmarks/python/bench.py.
# Needs PyPI.
#
#   Benchmarks/python/run.sh [N] [ROUNDS]        # 10,000,000 positions, 2 rounds by default
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
. "$root/Benchmarks/wheel-venv.sh"
wheel_venv python tzfpy==2.1.1 geopandas==1.2.0 shapely==2.2.0 pyogrio==0.13.0 pandas==3.1.1 numpy==2.4.6 pyarrow==26.0.1
GEONEWS_INDEX_DIR="$index_dir" \
  "$venv/bin/python" "$root/Benchmarks/python/bench.py" "$root/.build/release/geonews" "$root/Data/basemap.geojson" \
  "${1:-10000000}" "${2:-2}"
