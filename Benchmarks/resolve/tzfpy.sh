#!/usr/bin/env bash
# `geonews resolve --workers 1` beside tzfpy's get_tz on the same uniform world positions, in
# one run. Called by `Benchmarks/resolve/run.sh tzfpy`, which builds geonews first:
#
#   Benchmarks/resolve/run.sh tzfpy               # 1,000,000 positions, 3 rounds
#   ROWS=… ROUNDS=… SEED=… KEEP=1 Benchmarks/resolve/run.sh tzfpy
#
# The positions are uniform over the sphere's area (seeded, about 70 % at sea), as
# `id,lat,lon`. Each round runs geonews (CSV in, CSV out to a file, default columns, one
# worker; the whole process, index load included) and then tzfpy (only its loop of get_tz
# calls is timed: reading the CSV into lists is not). Rows per second are given per wall
# second and per CPU second (user + system: on a busy machine the wall clock also counts the
# time other processes held the cores), each round and as medians. The zone of every row is
# compared too: tzfpy's zones and ours come from different releases of
# timezone-boundary-builder, so a few thousand coastal rows differ.
set -euo pipefail
GEONEWS=$1
OUT=$2
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
ROWS=${ROWS:-1000000}
ROUNDS=${ROUNDS:-3}
SEED=${SEED:-22}

INPUT=$OUT/uniform-$ROWS-$SEED.csv
if [ ! -f "$INPUT" ]; then
    echo "== generating $ROWS uniform world positions (seed $SEED)"
    python3 "$ROOT/Benchmarks/resolve/generate_positions.py" "$ROWS" "$INPUT" --seed "$SEED" --uniform
fi
cat "$INPUT" >/dev/null  # both sides start from the page cache

echo "== $ROUNDS rounds of geonews resolve --workers 1 and tzfpy get_tz, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
: >"$OUT/tzfpy-rounds.txt"
for round in $(seq "$ROUNDS"); do
    # The wall clock to the microsecond ($EPOCHREALTIME; /usr/bin/time's %e has hundredths,
    # a 3 % step at a third of a second), around /usr/bin/time, which gives the CPU seconds.
    # Microseconds: the separator is dropped, whichever the locale writes.
    start=${EPOCHREALTIME/[.,]/}
    /usr/bin/time -f "%U %S" -o "$OUT/time-tzfpy-ours.txt" \
        "$GEONEWS" resolve "$INPUT" -o "$OUT/uniform-ours.csv" --no-progress --workers 1
    end=${EPOCHREALTIME/[.,]/}
    wall=$(printf '%d.%06d' $(((end - start) / 1000000)) $(((end - start) % 1000000)))
    peer=$(python3 "$ROOT/Benchmarks/peers/tzfpy_resolve.py" "$INPUT" --zones "$OUT/uniform-ours.csv")
    echo "$wall $(tail -n 1 "$OUT/time-tzfpy-ours.txt") $peer" >>"$OUT/tzfpy-rounds.txt"
done

python3 - "$OUT/tzfpy-rounds.txt" "$OUT/uniform-ours.csv" <<'PY'
import json, statistics, sys
rounds = []
for line in open(sys.argv[1]):
    wall, user, system, peer = line.split(" ", 3)
    rounds.append((float(wall), float(user) + float(system), json.loads(peer)))
rows = sum(1 for _ in open(sys.argv[2])) - 1
table = [(rows / w, rows / c, p["rows_per_s"], p["rows"] / p["cpu_seconds"]) for w, c, p in rounds]
print(f"{'':>6} {'geonews rows/s':>28} {'tzfpy get_tz rows/s':>28} {'geonews / tzfpy':>17}")
print(f"{'round':>6} {'per wall s':>13} {'per CPU s':>14} {'per wall s':>13} {'per CPU s':>14} {'wall':>8} {'CPU':>8}")
def line(name, o, oc, t, tc):
    print(f"{name:>6} {o:>13,.0f} {oc:>14,.0f} {t:>13,.0f} {tc:>14,.0f} {o / t:>7.2f}x {oc / tc:>7.2f}x")
for i, r in enumerate(table, 1):
    line(str(i), *r)
line("median", *(statistics.median(col) for col in zip(*table)))
peer = rounds[-1][2]
print(f"rows {rows} (tzfpy {peer['rows']}); tzfpy {peer['version']}; "
      f"same time zone on {peer['same_zone']}/{rows} rows ({100 * peer['same_zone'] / rows:.2f} %)")
PY
if [ "${KEEP:-0}" != 1 ]; then rm -f "$INPUT" "$OUT/uniform-ours.csv"; fi
