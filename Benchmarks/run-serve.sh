#!/usr/bin/env bash
# geonews-serve under load, side by side with nginx serving a small static JSON file on the
# same machine in the same run (the ceiling for an HTTP/1.1 answer on loopback), and with the
# server's own constant route (the floor of its stack: GET /v1/benchmark/constant, enabled by
# the hidden --benchmark-constant-route of a build with the BenchmarkRoutes trait, returns the Paris answer worked out once, through the
# same pipeline as /v1/resolve):
#
#   1. GET /v1/benchmark/constant, GET /v1/resolve, GET /v1/benchmark/constant-clusters and
#      GET /v1/clusters (the 54 markers at 15,000 km) with wrk, 64 connections: requests/s,
#      each route's ratio to the constant of its own size and to nginx, p99 latency, errors,
#      the server's RSS; then GET /v1/resolve over 100,000 GPS fixes in turn (a wrk script; more
#      than the answer cache holds, so every answer is worked out), for comparison;
#   2. POST /v1/resolve with a CSV of 10M GPS fixes streamed through (curl -T): rows/s end to
#      end and the server's peak RSS;
#   3. POST /v1/datasets with 1M points: seconds until the answer, which comes once the points
#      are read and clustered.
#
#   Benchmarks/run-serve.sh            # 30 s per wrk run, 10M rows, 1M points
#   Benchmarks/run-serve.sh --quick    # 5 s per wrk run, 1M rows, 200k points, to try it out
#   Benchmarks/run-serve.sh --get-only # part 1 only (with --quick as a second argument: 5 s runs)
#
# Builds geonews-serve in release mode with the BenchmarkRoutes trait (in $GEONEWS_SCRATCH when set, else .build-bench); installs Debian's nginx-light and wrk when missing.
# Everything it writes goes to Benchmarks/out/serve/ (git-ignored); the log is
# Benchmarks/out/serve/run-serve.log.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
DURATION=30s ROWS=10000000 POINTS=1000000
GET_ONLY=0
for arg in "$@"; do
    case $arg in
        --quick) DURATION=5s ROWS=1000000 POINTS=200000 ;;
        --get-only) GET_ONLY=1 ;;
        *) echo "unknown option $arg"; exit 64 ;;
    esac
done
CONNECTIONS=64 THREADS=2
OUT=$ROOT/Benchmarks/out/serve
rm -rf "$OUT" && mkdir -p "$OUT"
exec > >(tee "$OUT/run-serve.log") 2>&1

if ! command -v nginx >/dev/null || ! command -v wrk >/dev/null; then
    echo "== installing nginx-light and wrk (Debian)"
    for attempt in 1 2 3 4 5; do  # another apt may hold the lock
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q nginx-light wrk >/dev/null && break
        sleep 15
    done
fi

echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== building geonews-serve (release)"
# The constant routes are only in a build with the BenchmarkRoutes trait, kept in a scratch
# folder of its own so that the release binaries in .build carry none of them.
SCRATCH=${GEONEWS_SCRATCH:-$ROOT/.build-bench}
swift build -c release --traits BenchmarkRoutes --product geonews-serve --scratch-path "$SCRATCH" 2>&1 | tail -1
SERVE=$SCRATCH/release/geonews-serve
echo "$(nginx -v 2>&1), $(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2)"

PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

# A geonews-serve on a free port; sets SERVER_PID and BASE.
start_server() {
    local state=$OUT/state-$1
    rm -rf "$state"
    : > "$OUT/serve-$1.out"
    GEONEWS_DATA=$ROOT/Data GEONEWS_GOOGLE_NEWS_URL=http://127.0.0.1:9 GEONEWS_GDELT_URL=http://127.0.0.1:9 \
        "$SERVE" --port 0 --state-dir "$state" --max-body-bytes 4294967296 --benchmark-constant-route \
        >"$OUT/serve-$1.out" 2>"$OUT/serve-$1.err" &
    SERVER_PID=$!
    PIDS+=("$SERVER_PID")
    for _ in $(seq 100); do grep -q "listening on" "$OUT/serve-$1.out" && break; sleep 0.1; done
    BASE=$(sed -n 's/.*listening on //p' "$OUT/serve-$1.out")
    [ -n "$BASE" ] || { echo "geonews-serve did not start"; cat "$OUT/serve-$1.err"; exit 1; }
}
stop_server() { kill -TERM "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; }
rss_kb() { awk -v k="$2" '$1 == k":" { print $2 }' "/proc/$1/status"; }

# Largest VmRSS of PID while COMMAND runs, in kB, written to $OUT/$NAME.rss.
sample_rss() {
    local pid=$1 name=$2; shift 2
    ( peak=0; while kill -0 "$pid" 2>/dev/null; do
          r=$(rss_kb "$pid" VmRSS || echo 0); [ "${r:-0}" -gt "$peak" ] && peak=$r
          echo "$peak" > "$OUT/$name.rss"; sleep 0.2; done ) &
    local sampler=$!
    "$@"
    kill "$sampler" 2>/dev/null || true; wait "$sampler" 2>/dev/null || true
}

# CPU time PID has used, in clock ticks (user + system).
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# wrk against URL; the summary goes to $OUT/NAME.wrk, and the server's CPU ticks over the run
# to $OUT/NAME.cpu: CPU per request is steady where requests/s follows whatever else runs.
load() {
    local name=$1 url=$2 before
    before=$(cpu_ticks "$SERVER_PID")
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency "$url" > "$OUT/$name.wrk"
    echo $(( $(cpu_ticks "$SERVER_PID") - before )) > "$OUT/$name.cpu"
    echo "-- $name: $url"; cat "$OUT/$name.wrk"
}

echo "== 1. GET under load: wrk -t$THREADS -c$CONNECTIONS -d$DURATION --latency"
start_server get
curl -sf "$BASE/v1/resolve?lat=48.8566&lon=2.3522" > "$OUT/static.json"
echo "static file for nginx: the /v1/resolve answer for Paris, $(wc -c < "$OUT/static.json") bytes"
NGINX_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat > "$OUT/nginx.conf" <<EOF
worker_processes auto;
daemon off;
pid $OUT/nginx.pid;
error_log $OUT/nginx-error.log;
events { worker_connections 1024; }
http {
    access_log off;
    default_type application/json;
    keepalive_requests 1000000;
    server { listen 127.0.0.1:$NGINX_PORT; root $OUT; location = /static.json { } }
}
EOF
nginx -c "$OUT/nginx.conf" -p "$OUT" &
PIDS+=($!)
sleep 1
curl -sf "http://127.0.0.1:$NGINX_PORT/static.json" | cmp - "$OUT/static.json"
curl -sf "$BASE/v1/benchmark/constant" | cmp - "$OUT/static.json"
curl -sf "$BASE/v1/clusters?altitude=15000km" > "$OUT/clusters.json"
echo "clusters at 15,000 km: $(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["features"]))' "$OUT/clusters.json") features, $(wc -c < "$OUT/clusters.json") bytes"
wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency "http://127.0.0.1:$NGINX_PORT/static.json" > "$OUT/nginx.wrk"
echo "-- nginx: http://127.0.0.1:$NGINX_PORT/static.json"; cat "$OUT/nginx.wrk"
sample_rss "$SERVER_PID" constant load constant "$BASE/v1/benchmark/constant"
sample_rss "$SERVER_PID" resolve load resolve "$BASE/v1/resolve?lat=48.8566&lon=2.3522"
curl -sf "$BASE/v1/benchmark/constant-clusters" | cmp - "$OUT/clusters.json"
sample_rss "$SERVER_PID" constant-clusters load constant-clusters "$BASE/v1/benchmark/constant-clusters"
sample_rss "$SERVER_PID" clusters load clusters "$BASE/v1/clusters?altitude=15000km"
# The same route over 100,000 GPS fixes (the batch benchmark's generator): more than the
# server's answer cache keeps (4,096), so that nothing is answered from a repeated query's work.
# Reported beside Paris.
python3 Benchmarks/resolve/generate_positions.py 100000 "$OUT/varied.csv" --seed 7 >/dev/null
python3 - "$OUT/varied.csv" "$OUT/varied.lua" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
with open(sys.argv[2], "w") as f:
    f.write("paths = {\n" + "".join(f'  "/v1/resolve?lat={r["lat"]}&lon={r["lon"]}",\n' for r in rows) + "}\n")
    f.write("i = 0\nrequest = function()\n  i = i + 1\n  return wrk.format(\"GET\", paths[(i % #paths) + 1])\nend\n")
PY
before=$(cpu_ticks "$SERVER_PID")
wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s "$OUT/varied.lua" "$BASE" > "$OUT/varied.wrk"
echo $(( $(cpu_ticks "$SERVER_PID") - before )) > "$OUT/varied.cpu"
echo "-- varied: $BASE/v1/resolve, 100,000 positions in turn ($OUT/varied.lua)"; cat "$OUT/varied.wrk"
echo "geonews-serve peak RSS over the GET runs: $(rss_kb "$SERVER_PID" VmHWM) kB"
stop_server

if [ "$GET_ONLY" = 0 ]; then
echo "== 2. POST /v1/resolve, $ROWS CSV rows streamed (curl -T)"
python3 Benchmarks/resolve/generate_positions.py "$ROWS" "$OUT/fixes.csv" --seed 42
echo "input: $(wc -c < "$OUT/fixes.csv") bytes"
start_server post
curl -sf -o /dev/null "$BASE/v1/resolve?lat=0&lon=0"
sample_rss "$SERVER_PID" post curl -sf -T "$OUT/fixes.csv" -X POST -H 'Content-Type: text/csv' \
    -w '%{time_total} %{size_upload} %{size_download}\n' -o "$OUT/resolved.csv" "$BASE/v1/resolve" > "$OUT/post.curl"
echo "curl: seconds, bytes up, bytes down: $(cat "$OUT/post.curl")"
echo "rows out (less the header): $(( $(wc -l < "$OUT/resolved.csv") - 1 )), error rows: $(awk -F, 'NR > 1 && $NF != "" { n++ } END { print n + 0 }' "$OUT/resolved.csv")"
echo "geonews-serve peak RSS (VmHWM): $(rss_kb "$SERVER_PID" VmHWM) kB"
stop_server
rm -f "$OUT/resolved.csv"

echo "== 3. POST /v1/datasets, $POINTS points"
python3 - "$POINTS" "$OUT/points.csv" <<'PY'
import random, sys
n, path = int(sys.argv[1]), sys.argv[2]
rng = random.Random(7)
with open(path, "w") as f:
    f.write("lat,lon\n")
    for _ in range(n):
        f.write(f"{rng.uniform(-60, 75):.5f},{rng.uniform(-180, 180):.5f}\n")
PY
start_server dataset
TOKEN=$(curl -sf -X POST "$BASE/v1/users" | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')
curl -sf -T "$OUT/points.csv" -X POST -H 'Content-Type: text/csv' -H "Authorization: Bearer $TOKEN" -w '%{time_total}\n' \
    -o "$OUT/dataset.json" "$BASE/v1/datasets" > "$OUT/dataset.curl"
echo "answer: $(cat "$OUT/dataset.json"), seconds: $(cat "$OUT/dataset.curl")"
echo "geonews-serve peak RSS (VmHWM): $(rss_kb "$SERVER_PID" VmHWM) kB"
stop_server
fi

echo "== summary"
python3 - "$OUT" "$ROWS" "$POINTS" "$DURATION" "$GET_ONLY" <<'PY'
import os, re, sys
out, rows, points, duration, get_only = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5] == "1"

def wrk(name):
    text = open(f"{out}/{name}.wrk").read()
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
    p99 = re.search(r"\s99%\s+([\d.]+)(us|ms|s)", text)
    p99_ms = float(p99.group(1)) * {"us": 0.001, "ms": 1, "s": 1000}[p99.group(2)]
    errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", text))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    return rps, p99_ms, errors + (int(non2xx.group(1)) if non2xx else 0)

def cpu_us(name):
    """The server's CPU time per request of a run, in microseconds."""
    text = open(f"{out}/{name}.wrk").read()
    requests = int(re.search(r"(\d+) requests in", text).group(1))
    return int(open(f"{out}/{name}.cpu").read()) / os.sysconf("SC_CLK_TCK") / requests * 1e6

def rss_mb(name):
    try:
        return int(open(f"{out}/{name}.rss").read()) / 1024
    except (OSError, ValueError):
        return float("nan")

nginx, _, nginx_errors = wrk("nginx")
constant, constant_p99, constant_errors = wrk("constant")
print(f"| measure (64 connections, {duration} per wrk run) | result | target |")
print("|---|---|---|")
print(f"| nginx 1.22, static JSON file (ceiling) | {nginx:,.0f} req/s, {nginx_errors} errors | |")
print(f"| GET /v1/benchmark/constant, the same bytes worked out once (floor of the stack) | {constant:,.0f} req/s"
      f" = {constant / nginx:.2f}× nginx, p99 {constant_p99:.2f} ms, {constant_errors} errors, server CPU {cpu_us('constant'):.1f} µs/request | |")
clusters_constant, clusters_constant_p99, clusters_constant_errors = wrk("constant-clusters")
print(f"| GET /v1/benchmark/constant-clusters, the clusters' bytes worked out once | {clusters_constant:,.0f} req/s"
      f" = {clusters_constant / nginx:.2f}× nginx, p99 {clusters_constant_p99:.2f} ms, {clusters_constant_errors} errors,"
      f" server CPU {cpu_us('constant-clusters'):.1f} µs/request | |")
for name, label, target, floor in [("resolve", "GET /v1/resolve (Paris)", 0.9, "constant"),
                                   ("clusters", "GET /v1/clusters, 54 markers at 15,000 km", 0.85, "constant-clusters")]:
    rps, p99, errors = wrk(name)
    ratio = rps / wrk(floor)[0]
    print(f"| {label} | {rps:,.0f} req/s = {ratio:.2f}× its constant = {rps / nginx:.2f}× nginx, p99 {p99:.2f} ms, {errors} errors,"
          f" server CPU {cpu_us(name):.1f} µs/request = {cpu_us(floor) / cpu_us(name):.2f}× its constant's requests per CPU second,"
          f" RSS ≤ {rss_mb(name):.0f} MB | ≥ {target}× constant {'✓' if ratio >= target else '✗'},"
          f" p99 ≤ 5 ms {'✓' if p99 <= 5 else '✗'}, 0 errors {'✓' if errors == 0 else '✗'} |")
rps, p99, errors = wrk("varied")
print(f"| GET /v1/resolve, 100,000 GPS fixes in turn (no target; every answer worked out) | {rps:,.0f} req/s = {rps / constant:.2f}× constant"
      f" = {rps / nginx:.2f}× nginx, p99 {p99:.2f} ms, {errors} errors, server CPU {cpu_us('varied'):.1f} µs/request | |")
if get_only:
    sys.exit(0)
seconds = float(open(f"{out}/post.curl").read().split()[0])
print(f"| POST /v1/resolve, {rows:,} CSV rows streamed | {rows / seconds / 1e6:.2f} M rows/s end to end ({seconds:.1f} s), server RSS ≤ {rss_mb('post'):.0f} MB"
      f" | ≥ 1.5 M rows/s {'✓' if rows / seconds >= 1.5e6 else '✗'}, ≤ 150 MB {'✓' if rss_mb('post') <= 150 else '✗'} |")
seconds = float(open(f"{out}/dataset.curl").read())
print(f"| POST /v1/datasets, {points:,} points, upload to clustered | {seconds:.2f} s | about 1 s |")
PY
