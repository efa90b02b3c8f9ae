#!/usr/bin/env bash
# Uploaded datasets that never fill memory: the release geonews-serve takes ten uploads of
# 1M points each, then
#   1. its resident memory (VmRSS, with RssAnon and RssFile, from /proc/PID/status);
#   2. cold GET /v1/clusters: a dataset the --mapped-dataset-budget has unmapped (the budget
#      here holds about two of the ten archives), each query on another dataset, each with a
#      new bbox so that no cached answer helps; the median of the runs, in ms;
#   3. the same after a restart, once the start-up check has verified each archive whole (its
#      checksum and tables), and one query made before it could; warm (mapped) for comparison;
#   4. each upload's time to its answer (points read, clustered, archive written).
#
#   Benchmarks/run-datasets.sh          # ten datasets of 1M points
#   Benchmarks/run-datasets.sh --quick  # three of 200k, to try it out
#
# Builds geonews-serve in release mode (in $GEONEWS_SCRATCH when set, else .build).
# Everything it writes goes to Benchmarks/out/datasets/ (git-ignored), the log included.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
DATASETS=10 POINTS=1000000 BUDGET=$((256 << 20))
for arg in "$@"; do
    case $arg in
        --quick) DATASETS=3 POINTS=200000 BUDGET=$((24 << 20)) ;;
        *) echo "unknown option $arg"; exit 64 ;;
    esac
done
OUT=$ROOT/Benchmarks/out/datasets
rm -rf "$OUT" && mkdir -p "$OUT"
exec > >(tee "$OUT/run-datasets.log") 2>&1

echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
SCRATCH=${GEONEWS_SCRATCH:-$ROOT/.build}
echo "== building geonews-serve (release)"
swift build -c release --product geonews-serve --scratch-path "$SCRATCH" 2>&1 | tail -1
SERVE=$SCRATCH/release/geonews-serve

echo "== writing $DATASETS CSV files of $POINTS random points"
python3 Benchmarks/write_points.py "$DATASETS" "$POINTS" "$OUT" --names

SERVER_PID=""
cleanup() { [ -z "$SERVER_PID" ] || kill "$SERVER_PID" 2>/dev/null || true; }
trap cleanup EXIT
STATE=$OUT/state
start_server() {
    : > "$OUT/serve.out"
    GEONEWS_DATA=$ROOT/Data GEONEWS_GOOGLE_NEWS_URL=http://127.0.0.1:9 GEONEWS_GDELT_URL=http://127.0.0.1:9 \
        "$SERVE" --port 0 --state-dir "$STATE" --max-body-bytes 4294967296 \
        --quota-points 100000000 --quota-bytes 100000000000 --mapped-dataset-budget "$BUDGET" \
        >"$OUT/serve.out" 2>>"$OUT/serve.err" &
    SERVER_PID=$!
    for _ in $(seq 100); do grep -q "listening on" "$OUT/serve.out" && break; sleep 0.1; done
    BASE=$(sed -n 's/.*listening on //p' "$OUT/serve.out")
    [ -n "$BASE" ] || { echo "geonews-serve did not start"; cat "$OUT/serve.err"; exit 1; }
}
stop_server() { kill -TERM "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=""; }
status() { awk -v k="$1" '$1 == k":" { print $2 }' "/proc/$SERVER_PID/status"; }
memory() { echo "VmRSS $(status VmRSS) kB (RssAnon $(status RssAnon) kB, RssFile $(status RssFile) kB), VmHWM $(status VmHWM) kB"; }

# Milliseconds of one GET.
get_ms() { curl -sf -o /dev/null -w '%{time_total}\n' "$1" | awk '{ printf "%.2f\n", $1 * 1000 }'; }
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
# A world query at zoom 3 whose bbox differs by a hair each time: no cached answer.
RUN=0
clusters_url() { RUN=$((RUN + 1)); echo "$BASE/v1/clusters?dataset=$1&zoom=3&bbox=-180,-85,$(printf '179.9%05d' "$RUN"),85"; }

start_server
echo "== started: $(memory)"
TOKEN=$(curl -sf -X POST "$BASE/v1/users" | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')
IDS=()
for d in $(seq 0 $((DATASETS - 1))); do
    seconds=$(curl -sf -T "$OUT/points-$d.csv" -X POST -H 'Content-Type: text/csv' -H "Authorization: Bearer $TOKEN" \
        -w '%{time_total}' -o "$OUT/dataset-$d.json" "$BASE/v1/datasets")
    id=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["id"])' "$OUT/dataset-$d.json")
    IDS+=("$id")
    echo "upload $d: $id, $(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["points"])' "$OUT/dataset-$d.json") points, ${seconds} s"
done
echo "archives: $(du -ch "$STATE"/datasets/*.cluster | tail -1 | cut -f1) for $DATASETS datasets, points files $(du -ch "$STATE"/datasets/*.csv | tail -1 | cut -f1)"
echo "== after $DATASETS uploads: $(memory)"

echo "== cold GET /v1/clusters (unmapped by the budget of $BUDGET bytes), each on the next dataset"
for round in 1 2 3; do for id in "${IDS[@]}"; do get_ms "$(clusters_url "$id")"; done; done > "$OUT/cold.ms"
echo "cold ms: $(tr '\n' ' ' < "$OUT/cold.ms")"
echo "cold median: $(median < "$OUT/cold.ms") ms over $(wc -l < "$OUT/cold.ms") queries"
LAST=${IDS[$((DATASETS - 1))]}
for i in $(seq 9); do get_ms "$(clusters_url "$LAST")"; done > "$OUT/warm.ms"
echo "warm median (mapped, new bbox): $(median < "$OUT/warm.ms") ms"
echo "== after the queries: $(memory)"

stop_server
start_server
echo "== restarted: $(memory)"
echo "first query right after the restart, before the start-up check reached its archive (it verifies it whole): $(get_ms "$(clusters_url "$LAST")") ms"
sleep 10  # the start-up check verifies each stored archive once, about 0.1 s each
for id in "${IDS[@]}"; do get_ms "$(clusters_url "$id")"; done > "$OUT/restart.ms"
echo "cold after the restart (archives checked at start, then mapped on first use) ms: $(tr '\n' ' ' < "$OUT/restart.ms")"
echo "cold after the restart median: $(median < "$OUT/restart.ms") ms"
echo "== at the end: $(memory)"
stop_server
