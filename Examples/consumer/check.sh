#!/usr/bin/env bash
# Examples/consumer as a library user builds it: a package that depends on GeoNews by path and
# on its `GeoNews` product only. Builds it, then checks that the executable is made of none of
# GEOS (CGEOS, GeoNewsBoundaryBuilding) and none of the server's packages (NIO, GRDB,
# swift-crypto, Prometheus, Hummingbird), that none of its Swift files imports CGEOS, that it
# links no libgeos, and that it answers Paris, a point of the open sea and a bad argument as its
# usage says. Reads the checkout's Data/ and .build-data/ (Scripts/ensure-areas makes the area
# index). Prints "consumer: N passed, M failed" last and exits 1 when any check failed.
#
#   Examples/consumer/check.sh [--scratch-path DIR [--no-build]]
#
# With --scratch-path (CI passes the root package's .build), the build reuses the objects that
# the root's debug build made of every GeoNews module and compiles only the consumer's own code.
# With --no-build too, the consumer is taken as built in DIR/debug (CI builds it first, then runs
# these checks beside a release build that holds DIR's lock).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
# shellcheck source=../../Tests/checks.sh
source "$here/../../Tests/checks.sh" consumer

scratch_args=()
if [ "${1:-}" = "--scratch-path" ] && [ -n "${2:-}" ]; then scratch_args=(--scratch-path "$2"); fi
if [ "${3:-}" = "--no-build" ] && [ ${#scratch_args[@]} -gt 0 ]; then
  bin="$2/debug"
  check "the consumer was built in $2" test -x "$bin/consumer"
else
  check "swift build compiles the consumer" swift build "${scratch_args[@]}"
  bin="$(swift build "${scratch_args[@]}" --show-bin-path)"
fi
[ -x "$bin/consumer" ] || finish

# The modules the executable is made of: the folders (<Module>.build) of the object files that
# SwiftPM's link of the consumer lists.
modules="$(sed -n 's|.*/\([^/]*\)\.build/[^/]*\.o$|\1|p' "$bin/consumer.product/Objects.LinkFileList" | sort -u)"
echo "      linked: $(tr '\n' ' ' <<<"$modules")"
compiled_geonews() { grep -qx GeoNewsBoundaries <<<"$modules" && grep -qx GeoNews <<<"$modules"; }
check "the listing holds the GeoNews modules it needs" compiled_geonews
forbidden='^(CGEOS|GeoNewsBoundaryBuilding|GeoNewsDatasets|GeoNewsServer|GeoNewsStore|_?C?NIO.*|GRDB.*|_?C?Crypto.*|Prometheus.*|Hummingbird.*)$'
no_forbidden() {
  local found
  found="$(grep -E "$forbidden" <<<"$modules" || true)"
  [ -z "$found" ] || { echo "      compiled anyway: $(tr '\n' ' ' <<<"$found")"; return 1; }
}
check "no GEOS, NIO, GRDB, swift-crypto, Prometheus or Hummingbird module is linked" no_forbidden
# A Swift file compiled against CGEOS lists its module map among its dependencies (<file>.d).
no_geos_import() {
  local m
  for m in $modules; do
    ! grep -lr --include='*.d' 'CGEOS/module.modulemap' "$bin/$m.build" || return 1
  done
}
check "no file of a linked module imports CGEOS" no_geos_import
no_libgeos() { ! ldd "$bin/consumer" | grep -i geos && ! readelf -d "$bin/consumer" | grep NEEDED | grep -i geos; }
check "neither ldd nor readelf -d (NEEDED) finds libgeos in the consumer" no_libgeos

answers() {  # answers LAT LON EXPECTED: the consumer prints EXPECTED and exits 0
  local out
  out="$("$bin/consumer" --lat "$1" --lon "$2")" || return 1
  echo "      $1, $2 -> $(sed 's/\t/\\t/' <<<"$out")"
  [ "$out" = "$3" ]
}
check "Cape Town is ZA<TAB>Africa/Johannesburg<TAB>Cape Town<TAB>ZA-WC" answers -33.9249 18.4241 $'ZA\tAfrica/Johannesburg\tCape Town\tZA-WC'
check "the middle of the Atlantic is -<TAB>Etc/GMT+2<TAB>-<TAB>-" answers 0 -30 $'-\tEtc/GMT+2\t-\t-'
# A library user's machine: the data folder alone (no .build-data beside it), an empty XDG cache.
# The first run unpacks the committed pack into the cache (DataDirectory.installAreaIndex), the
# second finds it there.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cp -r "$here/../../Data" "$scratch/Data"
first_run() {
  local out started
  started=$(date +%s%N)
  out="$(GEONEWS_DATA="$scratch/Data" XDG_CACHE_HOME="$scratch/cache" "$bin/consumer" --lat 48.8566 --lon 2.3522)" || return 1
  echo "      first run: $(sed 's/\t/\\t/' <<<"$out") in $(( ($(date +%s%N) - started) / 1000000 )) ms; $(ls "$scratch"/cache/geonews/*/area-index.bin)"
  [ "$out" = $'FR\tEurope/Paris\tParis 04 Hôtel-de-Ville\tFR-IDF' ] && [ -f "$(ls "$scratch"/cache/geonews/*/area-index.bin)" ] \
    && [ -f "$(ls "$scratch"/cache/geonews/*/places.bin)" ] \
    && [ "$(GEONEWS_DATA="$scratch/Data" XDG_CACHE_HOME="$scratch/cache" "$bin/consumer" --lat 49.6116 --lon 6.1319)" = $'LU\tEurope/Luxembourg\tLuxembourg\tLU-LU' ]
}
check "with no area index anywhere, the first run unpacks it and indexes the places into the XDG cache, and the next finds them" first_run

refuses() {  # refuses TEXT ARGS...: exit 64 and one line on standard error holding TEXT
  local text="$1" err code; shift
  err="$("$bin/consumer" "$@" 2>&1 >/dev/null)"
  code=$?
  echo "      $* -> exit $code: $err"
  [ "$code" -eq 64 ] && [ "$(wc -l <<<"$err")" -eq 1 ] && grep -qF -- "$text" <<<"$err"
}
check "--lat 91 exits 64 with one line naming latitude 91" refuses "latitude 91" --lat 91 --lon 0
check "an unknown option exits 64 with one line naming it" refuses "'--zoom'" --lat 1 --lon 2 --zoom
finish
