#!/usr/bin/env bash
# Every side-by-side comparison in one command, each against its peers on the same input:
#
#   1. country lookup, load, memory, exactness, distance, cold start (run-country.sh:
#      shapely 2, reverse_geocoder, geographiclib; GEOS as the exactness oracle);
#   2. clustering, 1M random points, zooms 0–16 (peers/cluster_compare.py: pysupercluster);
#   3. batch resolution of a 10M-row CSV (resolve/run.sh: Python csv + shapely 2).
#
#   Benchmarks/run-all.sh                 # the full sizes (about 15 minutes here)
#   POINTS=200000 EXACT_POINTS=1000000 ROWS=1000000 Benchmarks/run-all.sh   # shorter
#
# The logs are Benchmarks/out/run-country.log, cluster-compare.log and resolve.log.
set -euo pipefail
cd "$(dirname "$0")/.."
POINTS=${POINTS:-1000000}
mkdir -p Benchmarks/out
Benchmarks/run-country.sh
echo "== clustering against pysupercluster"
python3 Benchmarks/peers/cluster_compare.py --points "$POINTS" --geonews .build-bench/release/geonews \
    2>&1 | tee Benchmarks/out/cluster-compare.log
echo "== batch resolution against Python csv + shapely"
GEONEWS=$PWD/.build-bench/release/geonews Benchmarks/resolve/run.sh 2>&1 | tee Benchmarks/out/resolve.log
