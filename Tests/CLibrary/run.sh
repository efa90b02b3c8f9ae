#!/usr/bin/env bash
# libgeonews as a C and a Python caller use it: builds the library (Scripts/build-clib), then
# checks that a C program compiled against geonews.h with -Wall -Wextra -Werror writes, for
# 1,000,000 uniform positions, byte for byte what `geonews resolve` writes (on one thread, and
# on two threads sharing one handle), that a first run with an empty cache unpacks the packs,
# and the interface's edges through Python's ctypes (Tests/CLibrary/abi_check.py). Prints
# "clib: N passed, M failed" last; exits 1 when a check failed.
#
#   Tests/CLibrary/run.sh [--no-build]
#
# Needs the release `geonews` in .build/release and the area index where it reads it
# (Scripts/ensure-areas); --no-build is passed on to Scripts/build-clib.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
# shellcheck source=../../Tests/checks.sh
source "$root/Tests/checks.sh" clib

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
lib="$root/.build/clib"
check "Scripts/build-clib builds libgeonews, exporting the header's functions alone and needing only libc, libm, libstdc++ and libgcc_s" \
  Scripts/build-clib "$@" --out "$lib"
[ -e "$lib/libgeonews.so" ] || finish
cc="$(command -v cc || command -v gcc || command -v clang)"
check "a C program compiles against geonews.h and links libgeonews with -Wall -Wextra -Werror" \
  "$cc" -O2 -Wall -Wextra -Werror -I "$lib" Tests/CLibrary/resolve_csv.c -L "$lib" -lgeonews -lpthread \
  -Wl,-rpath,"$lib" -o "$scratch/resolve_csv"
[ -x "$scratch/resolve_csv" ] || finish

python3 Benchmarks/resolve/generate_positions.py 1000000 "$scratch/u1m.csv" --uniform --seed 22
.build/release/geonews resolve --no-progress --workers 1 "$scratch/u1m.csv" -o "$scratch/geonews.csv"
same_as_geonews() {  # same_as_geonews THREADS
  local started=$(date +%s%N)
  "$scratch/resolve_csv" "$root/Data" --threads "$1" <"$scratch/u1m.csv" >"$scratch/clib-$1.csv" || return 1
  echo "      $1 thread(s): $(( ($(date +%s%N) - started) / 1000000 )) ms, $(($(wc -l <"$scratch/clib-$1.csv") - 1)) rows"
  cmp "$scratch/geonews.csv" "$scratch/clib-$1.csv"
}
check "1,000,000 uniform positions: the C program's rows are geonews resolve's, byte for byte" same_as_geonews 1
check "the same through one handle on two threads at once" same_as_geonews 2

first_run() {  # a data folder alone and an empty cache: geonews_open unpacks the packs
  cp -r "$root/Data" "$scratch/Data"
  head -n 1001 "$scratch/u1m.csv" >"$scratch/u1k.csv"
  env -u GEONEWS_BUILD_DATA XDG_CACHE_HOME="$scratch/cache" "$scratch/resolve_csv" "$scratch/Data" <"$scratch/u1k.csv" >"$scratch/first.csv" \
    || return 1
  ls "$scratch"/cache/geonews/*/area-index.bin "$scratch"/cache/geonews/*/land-index.bin >/dev/null \
    && cmp "$scratch/first.csv" <(head -n 1001 "$scratch/geonews.csv")
}
check "with no area index anywhere, geonews_open unpacks the packs into the XDG cache and answers the same" first_run

refused() {  # a folder that is not GeoNews data: exit 65 and the library's one-line message
  local err
  err="$("$scratch/resolve_csv" /nonexistent/geonews-data </dev/null 2>&1 >/dev/null)"
  [ $? -eq 65 ] && grep -q "cannot read /nonexistent/geonews-data/" <<<"$err" && echo "      $err"
}
check "a missing data folder is refused with a message naming the file" refused
check "Python's ctypes: versions, answers, errors, NULLs and bounds (abi_check.py)" \
  python3 Tests/CLibrary/abi_check.py "$lib/libgeonews.so" "$root/Data"
finish
