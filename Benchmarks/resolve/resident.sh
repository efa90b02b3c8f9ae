#!/usr/bin/env bash
# The peak resident set of `geonews resolve` on 10,000,000 uniform world positions, with the
# data installed as a user installs them: Data/ copied alone, then `geonews data install` into
# an empty cache folder.
#
#   Benchmarks/resolve/resident.sh                     # this checkout's geonews
#   BEFORE=/path/to/older/geonews Benchmarks/resolve/resident.sh   # and another, interleaved
#   ROWS=… ROUNDS=… SEED=… Benchmarks/resolve/resident.sh
#
# Each binary gets its own copy of Data/ and its own cache folder, installed afresh. The first
# run after the install is timed apart (its index pages come from the disk); then ROUNDS rounds
# of four runs: one worker and the default workers, each without and with --region --place.
# Printed per run: wall seconds, peak RSS (/usr/bin/time), major faults; after the install, how
# many pages of each index the page cache holds (Scripts/page_cache.py). Generated files live in
# Benchmarks/out/resident (git-ignored).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
ROWS=${ROWS:-10000000}
ROUNDS=${ROUNDS:-3}
SEED=${SEED:-22}
OUT=$ROOT/Benchmarks/out/resident
mkdir -p "$OUT"
if [ -z "${GEONEWS:-}" ]; then
    echo "== building geonews (release, static Swift runtime, as Scripts/geonews builds it)"
    swift build -c release --static-swift-stdlib --product geonews >/dev/null
    GEONEWS=$ROOT/.build/release/geonews
fi
INPUT=$OUT/uniform-$ROWS-$SEED.csv
if [ ! -f "$INPUT" ]; then
    echo "== generating $ROWS uniform world positions (seed $SEED)"
    python3 Benchmarks/resolve/generate_positions.py "$ROWS" "$INPUT" --seed "$SEED" --uniform
fi

labels=(after)
binaries=("$GEONEWS")
if [ -n "${BEFORE:-}" ]; then
    labels=(before after)
    binaries=("$BEFORE" "$GEONEWS")
fi

run() {  # run LABEL BINARY WHAT ARGS… → one line
    local label=$1 binary=$2 what=$3
    shift 3
    /usr/bin/time -f "%e %M %F" -o "$OUT/time.txt" env XDG_CACHE_HOME="$OUT/$label/cache" \
        GEONEWS_DATA="$OUT/$label/Data" "$binary" resolve "$INPUT" -o "$OUT/$label/out.csv" --no-progress "$@"
    read -r wall kb faults <"$OUT/time.txt"
    printf '%-7s %-36s %6.2f s  peak RSS %4d MB  %6d major faults\n' "$label" "$what" "$wall" $((kb / 1024)) "$faults"
}

echo "== $(nproc) cores, Linux $(uname -r), $ROWS uniform positions, load $(cut -d' ' -f1-3 /proc/loadavg)"
for i in "${!labels[@]}"; do
    label=${labels[$i]}
    rm -rf "${OUT:?}/$label"
    mkdir -p "$OUT/$label/cache"
    cp -r Data "$OUT/$label/Data"
    XDG_CACHE_HOME="$OUT/$label/cache" "${binaries[$i]}" data install --data "$OUT/$label/Data" >/dev/null
    folder=$(dirname "$(XDG_CACHE_HOME="$OUT/$label/cache" "${binaries[$i]}" data path --data "$OUT/$label/Data")")
    echo "$label: installed; $(python3 Scripts/page_cache.py "$folder/area-index.bin" "$folder/land-index.bin" | paste -sd ';' | sed 's/;/; /')"
    run "$label" "${binaries[$i]}" "first run after the install, 1 worker" --workers 1
done
for round in $(seq "$ROUNDS"); do
    echo "-- round $round"
    for i in "${!labels[@]}"; do
        run "${labels[$i]}" "${binaries[$i]}" "1 worker" --workers 1
        run "${labels[$i]}" "${binaries[$i]}" "$(nproc) workers" 
        run "${labels[$i]}" "${binaries[$i]}" "--region --place, 1 worker" --workers 1 --region --place
        run "${labels[$i]}" "${binaries[$i]}" "--region --place, $(nproc) workers" --region --place
    done
done
rm -f "$OUT"/*/out.csv
