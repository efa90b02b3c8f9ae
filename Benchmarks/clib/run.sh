#!/usr/bin/env bash
# libgeonews in process: builds the library (Scripts/build-clib) and Benchmarks/clib/bench.c,
# then resolves N uniform positions (10,000,000 by default) ROUNDS times (3) on one thread and
# on two. Needs the area index where the resolver reads it (Scripts/ensure-areas).
#
#   Benchmarks/clib/run.sh [N] [ROUNDS]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
Scripts/build-clib >/dev/null
cc="$(command -v cc || command -v gcc || command -v clang)"
out="$root/Benchmarks/out/clib"
mkdir -p "$out"
"$cc" -O2 -I .build/clib Benchmarks/clib/bench.c -L .build/clib -lgeonews -lpthread -lm -Wl,-rpath,"$root/.build/clib" -o "$out/bench"
echo "libgeonews $(git rev-parse --short HEAD), $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
"$out/bench" "$root/Data" "${1:-10000000}" "${2:-3}"
