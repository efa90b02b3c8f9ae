#!/usr/bin/env bash
# What --max-concurrent-dataset-builds bounds: UPLOADS uploads of POINTS random points each,
# sent at once to a fresh geonews-serve, once per number of turns; for each, the server's peak
# resident memory (VmHWM from /proc/PID/status) before and after, each upload's status and
# time to its answer, and the most builds seen running at once (from /metrics).
#
#   Benchmarks/run-dataset-builds.sh                 # 4 uploads of 1M points; turns 1, 2 and 4
#   Benchmarks/run-dataset-builds.sh --quick         # 4 uploads of 200k points
#   UPLOADS=6 POINTS=400000 TURNS="1 6" Benchmarks/run-dataset-builds.sh
#
# GEONEWS_SERVE names the binary (default: build the release one, in $GEONEWS_SCRATCH when
# set, else .build). Everything it writes goes to Benchmarks/out/dataset-builds/ (git-ignored).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
UPLOADS=${UPLOADS:-4} POINTS=${POINTS:-1000000} TURNS=${TURNS:-"1 2 4"}
for arg in "$@"; do
    case $arg in
        --quick) POINTS=200000 ;;
        *) echo "unknown option $arg"; exit 64 ;;
    esac
done
OUT=$ROOT/Benchmarks/out/dataset-builds
rm -rf "$OUT" && mkdir -p "$OUT"
exec > >(tee "$OUT/run-dataset-builds.log") 2>&1

echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -n "${GEONEWS_SERVE:-}" ]; then
    SERVE=$GEONEWS_SERVE
else
    SCRATCH=${GEONEWS_SCRATCH:-$ROOT/.build}
    swift build -c release --product geonews-serve --scratch-path "$SCRATCH" 2>&1 | tail -1
    SERVE=$SCRATCH/release/geonews-serve
fi
echo "== $SERVE; writing $UPLOADS CSV files of $POINTS random points"
python3 Benchmarks/write_points.py "$UPLOADS" "$POINTS" "$OUT"

SERVER_PID="" WATCH_PID=""
cleanup() {
    [ -z "$WATCH_PID" ] || kill "$WATCH_PID" 2>/dev/null || true
    [ -z "$SERVER_PID" ] || kill "$SERVER_PID" 2>/dev/null || true
}
trap cleanup EXIT
status() { awk -v k="$1" '$1 == k":" { print $2 }' "/proc/$SERVER_PID/status"; }

for turns in $TURNS; do
    STATE=$OUT/state-$turns
    : > "$OUT/serve.out"
    GEONEWS_DATA=$ROOT/Data GEONEWS_GOOGLE_NEWS_URL=http://127.0.0.1:9 GEONEWS_GDELT_URL=http://127.0.0.1:9 \
        "$SERVE" --port 0 --state-dir "$STATE" --max-body-bytes 4294967296 --quota-points 100000000 \
        --quota-bytes 100000000000 --max-concurrent-dataset-builds "$turns" --dataset-build-wait 3600 \
        >"$OUT/serve.out" 2>>"$OUT/serve.err" &
    SERVER_PID=$!
    for _ in $(seq 100); do grep -q "listening on" "$OUT/serve.out" && break; sleep 0.1; done
    BASE=$(sed -n 's/.*listening on //p' "$OUT/serve.out")
    [ -n "$BASE" ] || { echo "geonews-serve did not start"; cat "$OUT/serve.err"; exit 1; }
    TOKEN=$(curl -sf -X POST "$BASE/v1/users" | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')
    echo "== --max-concurrent-dataset-builds $turns: started, VmRSS $(status VmRSS) kB, VmHWM $(status VmHWM) kB"
    # The most builds running at once, sampled every 50 ms.
    (
        most=0
        while true; do
            now=$(curl -s "$BASE/metrics" | awk -F' ' '/^geonews_dataset_builds\{state="running"\}/ { print int($2) }')
            [ "${now:-0}" -gt "$most" ] && most=$now && echo "$most" > "$OUT/most-running"
            sleep 0.05
        done
    ) &
    WATCH_PID=$!
    echo 0 > "$OUT/most-running"
    started=$(date +%s.%N)
    CLIENTS=()
    for d in $(seq 0 $((UPLOADS - 1))); do
        curl -s -o "$OUT/answer-$turns-$d" -w "upload $d: %{http_code} in %{time_total} s\n" -T "$OUT/points-$d.csv" \
            -X POST -H 'Content-Type: text/csv' -H "Authorization: Bearer $TOKEN" "$BASE/v1/datasets" &
        CLIENTS+=($!)
    done
    wait "${CLIENTS[@]}"
    kill "$WATCH_PID" 2>/dev/null || true
    WATCH_PID=""
    took=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    echo "all $UPLOADS answered in $took s; at most $(cat "$OUT/most-running") builds ran at once"
    echo "after: VmRSS $(status VmRSS) kB, VmHWM $(status VmHWM) kB"
    kill -TERM "$SERVER_PID"
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
done
