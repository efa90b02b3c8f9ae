#!/usr/bin/env bash
# The whole country-lookup comparison in one command: builds release, generates the inputs,
# runs geonews-bench and the Python peers on the same points, measures cold start, and prints
# the tables. Everything it writes goes to Benchmarks/out/ (git-ignored); the full log is
# Benchmarks/out/run-country.log.
#
#   Benchmarks/run-country.sh                      # 1M points per set, 10M exactness points
#   POINTS=200000 EXACT_POINTS=1000000 Benchmarks/run-country.sh   # a shorter run
#
# Needs: swift, python3 (the peers' venv is made on first run), hyperfine (Debian:
# apt-get install -y hyperfine; without it a Python loop times the cold start).
set -euo pipefail
cd "$(dirname "$0")/.."
POINTS=${POINTS:-1000000}
EXACT_POINTS=${EXACT_POINTS:-10000000}
SEED=${SEED:-42}
OUT=Benchmarks/out
mkdir -p "$OUT"
exec > >(tee "$OUT/run-country.log") 2>&1

echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
build() {
    local log
    if ! log=$(swift build -c release "$@" 2>&1); then echo "$log" | tail -30; exit 1; fi
    echo "$log" | tail -1
}
echo "== building (release)"
# geonews-bench is the benchmark package's (Benchmarks/Package.swift), built in Benchmarks/.build.
build --package-path Benchmarks --product geonews-bench
build --scratch-path .build-bench --product geonews
build --static-swift-stdlib --scratch-path .build-bench-static --product geonews
BENCH="$(swift build -c release --package-path Benchmarks --show-bin-path)/geonews-bench"

python3 Benchmarks/peers/country_peers.py cities --out "$OUT" --points "$POINTS" --seed "$SEED"
"$BENCH" load resolve distance cluster --input "$OUT/cities.csv" --out "$OUT" --points "$POINTS" --seed "$SEED"
"$BENCH" exactness --points "$EXACT_POINTS" --seed "$SEED"

# Cold start: exec to exit of one lookup, dynamic and static Swift runtime.
ARGS=(--lat 48.8566 --lon 2.3522)
if .build-bench/release/geonews locate --help 2>&1 | grep -q -- '--no-headlines'; then ARGS+=(--no-headlines); fi
echo "== cold start: geonews ${ARGS[*]}"
for b in .build-bench/release/geonews .build-bench-static/release/geonews; do "$b" "${ARGS[@]}" > /dev/null; done
python3 - "$OUT/coldstart.json" "${ARGS[@]}" <<'PY'
import json, shutil, subprocess, sys, tempfile, time, os
out, args = sys.argv[1], sys.argv[2:]
builds = {"dynamic Swift runtime": ".build-bench/release/geonews",
          "static Swift runtime (--static-swift-stdlib)": ".build-bench-static/release/geonews"}
result = {"command": "geonews " + " ".join(args)}
for name, exe in builds.items():
    if shutil.which("hyperfine"):
        with tempfile.NamedTemporaryFile(suffix=".json") as j:
            subprocess.run(["hyperfine", "-N", "--warmup", "20", "--runs", "300", "--export-json", j.name,
                            "--command-name", name, " ".join([exe] + args)], check=True, stdout=sys.stderr)
            r = json.load(open(j.name))["results"][0]
        result[name] = {k: r[k] for k in ("mean", "stddev", "min", "median")}
    else:
        times = []
        for _ in range(300):
            t0 = time.perf_counter()
            subprocess.run([exe] + args, stdout=subprocess.DEVNULL, check=True)
            times.append(time.perf_counter() - t0)
        times.sort()
        mean = sum(times) / len(times)
        result[name] = {"mean": mean, "stddev": (sum((t - mean) ** 2 for t in times) / len(times)) ** 0.5,
                        "min": times[0], "median": times[len(times) // 2]}
json.dump(result, open(out, "w"), indent=1)
PY

python3 Benchmarks/peers/country_peers.py compare --out "$OUT"
