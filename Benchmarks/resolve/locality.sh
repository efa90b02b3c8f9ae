#!/usr/bin/env bash
# How much of `--region` and `--place` is waiting on memory: the rows of uniform positions that
# have a country (the only rows those columns search for), resolved in their own order, sorted
# by 1° cell, and sorted within windows of N rows. The answers are the same; only the order in
# which the lookups touch the regions' and places' indexes changes. A window of about 6,000 such
# rows is what one 512 KB chunk of the batch holds.
#
#   Benchmarks/resolve/locality.sh            # 1,000,000 uniform positions (seed 22), best of 3
#   ROWS=… ROUNDS=… GEONEWS=/path/to/geonews Benchmarks/resolve/locality.sh
#
# Prints, per input, the best wall seconds of one worker without the flags, and what --region
# and --place each add to it. Generated files live in Benchmarks/out/locality (git-ignored).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
ROWS=${ROWS:-1000000}
ROUNDS=${ROUNDS:-3}
OUT=$ROOT/Benchmarks/out/locality
mkdir -p "$OUT"
if [ -z "${GEONEWS:-}" ]; then
    swift build -c release --static-swift-stdlib --product geonews >/dev/null
    GEONEWS=$ROOT/.build/release/geonews
fi
INPUT=$OUT/uniform-$ROWS-22.csv
[ -f "$INPUT" ] || python3 Benchmarks/resolve/generate_positions.py "$ROWS" "$INPUT" --seed 22 --uniform >/dev/null
"$GEONEWS" resolve --no-progress "$INPUT" -o "$OUT/resolved.csv"
python3 Benchmarks/resolve/locality.py "$OUT/resolved.csv" "$OUT" 6000 16384 65536
echo "== $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), geonews $(git rev-parse --short HEAD)"
best() {  # best wall seconds of ROUNDS runs of one worker on $1 with the flags after it
    local file=$1 b=""
    shift
    for _ in $(seq "$ROUNDS"); do
        /usr/bin/time -f %e -o "$OUT/time.txt" "$GEONEWS" resolve --no-progress --workers 1 "$@" "$file" -o "$OUT/out.csv"
        local t
        t=$(cat "$OUT/time.txt")
        if [ -z "$b" ] || awk -v a="$t" -v b="$b" 'BEGIN { exit !(a < b) }'; then b=$t; fi
    done
    echo "$b"
}
printf '%-22s %8s %10s %10s\n' input plain +region +place
for name in land land-w6000 land-w16384 land-w65536 land-sorted; do
    file=$OUT/$name.csv
    plain=$(best "$file")
    region=$(best "$file" --region)
    place=$(best "$file" --place)
    printf '%-22s %7.2fs %9.2fs %9.2fs\n' "$name" "$plain" "$(echo "$region - $plain" | bc)" "$(echo "$place - $plain" | bc)"
done
