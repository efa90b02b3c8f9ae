#!/usr/bin/env bash
# geonews in Spark local[2] (mapInArrow) beside tzfpy and the RDD.pipe route: builds the wheel
# (Scripts/build-wheel), installs it with pyspark and tzfpy into Benchmarks/out/spark/venv,
# and runs Benchmarks/spark/bench.py. Needs Java 17 (openjdk-17-jre-headless) and PyPI.
#
#   Benchmarks/spark/run.sh [N] [ROUNDS]        # 10,000,000 positions, 2 rounds by default
#   ROUTES=floor,zone,tzfpy WARMUP=3 Benchmarks/spark/run.sh 10000000 6   # those routes, after a warm-up (bench.py)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
command -v java >/dev/null || { echo "spark bench: no java (apt-get install openjdk-17-jre-headless)" >&2; exit 1; }
. "$root/Benchmarks/wheel-venv.sh"
wheel_venv spark pyspark==4.3.0 tzfpy numpy==2.4.6 pyarrow==26.0.1 pandas==3.1.1
PYSPARK_PYTHON="$venv/bin/python" GEONEWS_INDEX_DIR="$index_dir" \
  "$venv/bin/python" "$root/Benchmarks/spark/bench.py" "$root/.build/release/geonews" "${1:-10000000}" "${2:-2}"
