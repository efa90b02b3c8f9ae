#!/usr/bin/env bash
# geonews resolve against the Python pipeline a user would otherwise write, in one run.
#
#   Benchmarks/resolve/run.sh              # 10,000,000 rows (ROWS=… to change)
#   BIG=1 Benchmarks/resolve/run.sh        # also peak RSS on a ≥ 2 GB input (then deleted)
#   Benchmarks/resolve/run.sh tzfpy        # one worker beside tzfpy's get_tz (below)
#
# Builds geonews as Scripts/geonews and the .deb do (release, static Swift runtime), makes a
# venv with shapely 2 from PyPI, generates a seeded CSV of city, cross-border road and
# open-sea fixes, and prints rows/s of both, their ratio, and peak RSS from /usr/bin/time -v.
# Generated files live in Benchmarks/out/ (git-ignored) and are deleted at the end unless
# KEEP=1.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
ROWS=${ROWS:-10000000}
OUT=$ROOT/Benchmarks/out/resolve
VENV=$ROOT/Benchmarks/peers/.venv
SCRATCH=${SCRATCH:-.build}
mkdir -p "$OUT"
MODE=${1:-shapely}
case "$MODE" in shapely | tzfpy) ;; *) echo "usage: $0 [shapely|tzfpy]" >&2; exit 64 ;; esac

if [ -z "${GEONEWS:-}" ]; then  # GEONEWS=/path/to/geonews runs a binary built elsewhere
    echo "== building geonews (release, static Swift runtime, as Scripts/geonews builds it)"
    swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --product geonews >/dev/null
    GEONEWS=$ROOT/$SCRATCH/release/geonews
fi

if [ "$MODE" = tzfpy ]; then
    exec "$ROOT/Benchmarks/resolve/tzfpy.sh" "$GEONEWS" "$OUT"
fi

if [ ! -x "$VENV/bin/python" ]; then
    echo "== making the Python venv (shapely 2, numpy)"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet "shapely>=2,<3" numpy
fi

INPUT=$OUT/positions-$ROWS.csv
if [ ! -f "$INPUT" ]; then
    echo "== generating $ROWS rows"
    python3 Benchmarks/resolve/generate_positions.py "$ROWS" "$INPUT"
fi
SIZE=$(stat -c %s "$INPUT")
echo "   input: $INPUT ($((SIZE / 1000000)) MB)"

measure() {  # measure LABEL COMMAND… → prints seconds and peak RSS
    local log=$OUT/time-$1.log
    shift
    /usr/bin/time -v "$@" 2>"$log" >/dev/null || { cat "$log"; exit 1; }
    local wall rss
    wall=$(grep 'Elapsed (wall clock)' "$log" | awk '{print $NF}' | awk -F: '{ if (NF == 3) print $1 * 3600 + $2 * 60 + $3; else print $1 * 60 + $2 }')
    rss=$(grep 'Maximum resident set size' "$log" | awk '{print $NF}')
    echo "$wall $rss"
}

echo "== geonews resolve ($(nproc) cores)"
read -r OURS_S OURS_KB < <(measure ours "$GEONEWS" resolve "$INPUT" -o "$OUT/ours.csv" --no-progress)
OURS_ROWS=$(($(wc -l <"$OUT/ours.csv") - 1))

echo "== geonews resolve, one worker"
read -r ONE_S ONE_KB < <(measure one "$GEONEWS" resolve "$INPUT" -o /dev/null --no-progress --workers 1)

echo "== Python: csv + shapely prepared contains_xy"
read -r PEER_S PEER_KB < <(measure peer "$VENV/bin/python" Benchmarks/peers/resolve_shapely.py "$ROOT/Data" "$INPUT" "$OUT/peer.csv")
PEER_ROWS=$(($(wc -l <"$OUT/peer.csv") - 1))

echo "== agreement on the containing country"
python3 - "$OUT/ours.csv" "$OUT/peer.csv" <<'PY'
import csv, sys
a, b = csv.reader(open(sys.argv[1])), csv.reader(open(sys.argv[2]))
ha, hb = next(a), next(b)
ia, ib = ha.index("country_iso2"), hb.index("country_iso2")
n = same = 0
for ra, rb in zip(a, b):
    n += 1
    same += ra[ia] == rb[ib]
print(f"   same country on {same}/{n} rows ({100 * same / max(1, n):.3f} %)")
PY

python3 - "$ROWS" "$OURS_ROWS" "$OURS_S" "$OURS_KB" "$ONE_S" "$PEER_ROWS" "$PEER_S" "$PEER_KB" <<'PY'
import sys
rows, ours_rows, ours_s, ours_kb, one_s, peer_rows, peer_s, peer_kb = sys.argv[1:]
ours = int(ours_rows) / float(ours_s)
one = int(ours_rows) / float(one_s)
peer = int(peer_rows) / float(peer_s)
print()
print(f"{'':34} {'rows':>11} {'seconds':>8} {'rows/s':>12} {'peak RSS':>9}")
print(f"{'geonews resolve (all cores)':34} {int(ours_rows):>11} {float(ours_s):>8.2f} {ours:>12,.0f} {int(ours_kb)//1024:>6} MB")
print(f"{'geonews resolve (1 worker)':34} {int(ours_rows):>11} {float(one_s):>8.2f} {one:>12,.0f}")
print(f"{'python csv + shapely contains_xy':34} {int(peer_rows):>11} {float(peer_s):>8.2f} {peer:>12,.0f} {int(peer_kb)//1024:>6} MB")
print(f"ratio geonews / python: {ours / peer:.1f}x")
PY

if [ "${BIG:-0}" = 1 ]; then
    BIGFILE=$OUT/positions-big.csv
    echo "== peak RSS on a >= 2 GB input"
    cp "$INPUT" "$BIGFILE"
    while [ "$(stat -c %s "$BIGFILE")" -lt 2100000000 ]; do tail -n +2 "$INPUT" >>"$BIGFILE"; done
    BIGROWS=$(($(wc -l <"$BIGFILE") - 1))
    read -r BIG_S BIG_KB < <(measure big "$GEONEWS" resolve "$BIGFILE" -o /dev/null --no-progress)
    echo "   $(($(stat -c %s "$BIGFILE") / 1000000)) MB, $BIGROWS rows in ${BIG_S}s: $(python3 -c "print(f'{$BIGROWS / $BIG_S:,.0f}')") rows/s, peak RSS $((BIG_KB / 1024)) MB"
    rm -f "$BIGFILE"
fi

if [ "${KEEP:-0}" != 1 ]; then rm -f "$INPUT" "$OUT/ours.csv" "$OUT/peer.csv"; fi
