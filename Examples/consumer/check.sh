#!/usr/bin/env bash
# Examples/consumer as a library user builds it: a package that depends on GeoNews by path and
# on its `GeoNews` product only. Builds it, then checks that the build compiled none of GEOS
# (CGEOS, GeoNewsBoundaryBuilding) and none of the server's packages (NIO, GRDB, swift-crypto,
# Prometheus, Hummingbird), that the executable links no libgeos, and that it answers Paris, a
# point of the open sea and a bad argument as its usage says. Reads the checkout's Data/ and
# .build-data/ (Scripts/ensure-areas makes the area index). Prints "consumer: N passed, M failed"
# last and exits 1 when any check failed.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
passed=0
failed=0
check() {  # check NAME COMMAND...: runs the command, counts and reports it
  local name="$1"; shift
  if "$@"; then passed=$((passed + 1)); echo "ok    $name"; else failed=$((failed + 1)); echo "FAIL  $name"; fi
}
finish() { echo "consumer: $passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit $?; }

check "swift build compiles the consumer" swift build
bin="$(swift build --show-bin-path)"
[ -x "$bin/consumer" ] || finish

# SwiftPM plans every target of the graph (each gets a <Target>.build folder) but compiles only
# those the product needs: a compiled Swift module has Modules/<Module>.swiftmodule, a compiled
# C target object files in its folder.
modules="$( (cd "$bin" && ls Modules/ | sed -n 's/\.swiftmodule$//p'
  for d in *.build; do find "$d" -name '*.o' | grep -q . && echo "${d%.build}"; done) | sort -u)"
echo "      compiled: $(tr '\n' ' ' <<<"$modules")"
compiled_geonews() { grep -qx GeoNewsBoundaries <<<"$modules" && grep -qx GeoNews <<<"$modules"; }
check "the listing holds the GeoNews modules it needs" compiled_geonews
forbidden='^(CGEOS|GeoNewsBoundaryBuilding|GeoNewsDatasets|GeoNewsServer|GeoNewsStore|_?C?NIO.*|GRDB.*|_?C?Crypto.*|Prometheus.*|Hummingbird.*)$'
no_forbidden() {
  local found
  found="$(grep -E "$forbidden" <<<"$modules" || true)"
  [ -z "$found" ] || { echo "      compiled anyway: $(tr '\n' ' ' <<<"$found")"; return 1; }
}
check "no GEOS, NIO, GRDB, swift-crypto, Prometheus or Hummingbird module was compiled" no_forbidden
# A Swift file compiled against CGEOS lists its module map among its dependencies (<file>.d).
no_geos_import() { ! grep -lr --include='*.d' 'CGEOS/module.modulemap' "$bin"; }
check "no compiled file imports CGEOS" no_geos_import
no_libgeos() { ! ldd "$bin/consumer" | grep -i geos && ! readelf -d "$bin/consumer" | grep NEEDED | grep -i geos; }
check "neither ldd nor readelf -d (NEEDED) finds libgeos in the consumer" no_libgeos

answers() {  # answers LAT LON EXPECTED: the consumer prints EXPECTED and exits 0
  local out
  out="$("$bin/consumer" --lat "$1" --lon "$2")" || return 1
  echo "      $1, $2 -> $(sed 's/\t/\\t/' <<<"$out")"
  [ "$out" = "$3" ]
}
check "Cape Town is ZA<TAB>Africa/Johannesburg<TAB>Cape Town" answers -33.9249 18.4241 $'ZA\tAfrica/Johannesburg\tCape Town'
check "the middle of the Atlantic is -<TAB>Etc/GMT+2<TAB>-" answers 0 -30 $'-\tEtc/GMT+2\t-'
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
  [ "$out" = $'FR\tEurope/Paris\tParis 04 Hôtel-de-Ville' ] && [ -f "$(ls "$scratch"/cache/geonews/*/area-index.bin)" ] \
    && [ -f "$(ls "$scratch"/cache/geonews/*/places.bin)" ] \
    && [ "$(GEONEWS_DATA="$scratch/Data" XDG_CACHE_HOME="$scratch/cache" "$bin/consumer" --lat 49.6116 --lon 6.1319)" = $'LU\tEurope/Luxembourg\tLuxembourg' ]
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
