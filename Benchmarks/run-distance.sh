#!/usr/bin/env bash
# Distance throughput in one run: GeoNews's great circle and WGS 84 geodesic (geonews-bench
# distance, release build) beside GeographicLib's Python Geodesic.WGS84.Inverse on the same
# pairs, with the ratios and the largest difference between the two geodesics. Writes to
# Benchmarks/out/ (git-ignored); the log is Benchmarks/out/run-distance.log.
#
#   Benchmarks/run-distance.sh                          # 1M pairs for ours, 100k for the peer
#   POINTS=200000 PEER_PAIRS=20000 Benchmarks/run-distance.sh
set -euo pipefail
cd "$(dirname "$0")/.."
POINTS=${POINTS:-1000000}
PEER_PAIRS=${PEER_PAIRS:-100000}
SEED=${SEED:-42}
OUT=Benchmarks/out/distance
mkdir -p "$OUT"
exec > >(tee "$OUT/run-distance.log") 2>&1

echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== building geonews-bench (release)"
swift build -c release --package-path Benchmarks --product geonews-bench 2>&1 | tail -1
"$(swift build -c release --package-path Benchmarks --show-bin-path)/geonews-bench" distance --out "$OUT" --points "$POINTS" --seed "$SEED"
python3 Benchmarks/peers/country_peers.py distance --out "$OUT" --geodesic-pairs "$PEER_PAIRS"
