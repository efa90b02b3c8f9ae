#!/usr/bin/env bash
# The floor under `geonews resolve --region --place`: the same run with its searches taken away.
# Builds the committed HEAD twice in a worktree of its own (.build-floor/, git-ignored): as it is,
# and with Benchmarks/resolve/free-answers.patch, where each row with a country takes a region
# and a place of its country picked by a hash of its coordinates, read and written as the real
# answers are (a place's record, name and great-circle distance; a region's three fields), and
# a row at sea takes no place. Then runs both alternately over 1,000,000 uniform positions
# (seed 22) on one worker: without the flags, with them, and with them answered for free.
#
#   Benchmarks/resolve/floor.sh                 # 5 rounds; the first build takes several minutes
#   ROUNDS=… ROWS=… Benchmarks/resolve/floor.sh
#
# Prints each run's wall seconds and peak RSS, then per kind the fastest, the median and the
# slowest, in rows per second. The data is the checkout's (Data/ and .build-data/, as
# Scripts/ensure-areas leaves them); uncommitted changes are not measured.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
ROWS=${ROWS:-1000000}
ROUNDS=${ROUNDS:-5}
FLOOR=$ROOT/.build-floor
OUT=$ROOT/Benchmarks/out/floor
mkdir -p "$FLOOR" "$OUT"
Scripts/ensure-areas >/dev/null
export GEONEWS_DATA=$ROOT/Data GEONEWS_BUILD_DATA=$ROOT/.build-data
commit=$(git rev-parse HEAD)
# A worktree whose folder was deleted is forgotten first, so that it can be added again.
git worktree prune
if [ ! -d "$FLOOR/src" ]; then git worktree add --detach "$FLOOR/src" "$commit" >/dev/null; fi
git -C "$FLOOR/src" checkout --quiet --detach --force "$commit"
git -C "$FLOOR/src" reset --quiet --hard
build() {  # build NAME: geonews of the worktree as it stands, copied to $FLOOR/NAME
    swift build --package-path "$FLOOR/src" --scratch-path "$FLOOR/build" -c release --static-swift-stdlib \
        --product geonews >"$FLOOR/build-$1.log" 2>&1 || { cat "$FLOOR/build-$1.log"; exit 1; }
    cp "$FLOOR/build/release/geonews" "$FLOOR/$1"
}
echo "== building $commit as it is and with free answers (logs in $FLOOR)"
build geonews-head
git -C "$FLOOR/src" apply "$ROOT/Benchmarks/resolve/free-answers.patch" \
    || { echo "Benchmarks/resolve/free-answers.patch no longer applies to HEAD: make it again" >&2; exit 1; }
build geonews-free
git -C "$FLOOR/src" reset --quiet --hard
INPUT=$OUT/uniform-$ROWS-22.csv
[ -f "$INPUT" ] || python3 Benchmarks/resolve/generate_positions.py "$ROWS" "$INPUT" --seed 22 --uniform >/dev/null
# One run of each first: the indexes built or mapped once, the page cache warm.
"$FLOOR/geonews-head" resolve --no-progress --workers 1 --region --place "$INPUT" -o "$OUT/head.csv"
"$FLOOR/geonews-free" resolve --no-progress --workers 1 --region --place "$INPUT" -o "$OUT/free.csv"
cmp -s <(cut -d, -f1-8 "$OUT/head.csv") <(cut -d, -f1-8 "$OUT/free.csv") \
    || { echo "the free build answers other countries than HEAD's" >&2; exit 1; }
echo "== $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $ROWS rows, one worker, $ROUNDS rounds"
: >"$OUT/times.txt"
for round in $(seq "$ROUNDS"); do
    for kind in plain region-place free; do
        case $kind in
            plain) run=("$FLOOR/geonews-head" resolve --no-progress --workers 1) ;;
            region-place) run=("$FLOOR/geonews-head" resolve --no-progress --workers 1 --region --place) ;;
            free) run=("$FLOOR/geonews-free" resolve --no-progress --workers 1 --region --place) ;;
        esac
        /usr/bin/time -f "%e %M" -o "$OUT/time.txt" "${run[@]}" "$INPUT" -o "$OUT/out.csv"
        read -r seconds kb <"$OUT/time.txt"
        printf 'round %d  %-13s %6.2f s  %4d MB\n' "$round" "$kind" "$seconds" $((kb / 1024))
        echo "$kind $seconds" >>"$OUT/times.txt"
    done
done
for kind in plain region-place free; do
    awk -v kind="$kind" '$1 == kind { print $2 }' "$OUT/times.txt" | sort -n | awk -v kind="$kind" -v rows="$ROWS" '
        { t[NR] = $1 }
        END {
            m = NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
            printf "%-13s fastest %5.2f s (%.2f M rows/s), median %5.2f s (%.2f M), slowest %5.2f s (%.2f M)\n",
                kind, t[1], rows / t[1] / 1e6, m, rows / m / 1e6, t[NR], rows / t[NR] / 1e6
        }'
done
