#!/usr/bin/env bash
# The Python package as a user gets it: builds the wheel (Scripts/build-wheel), checks its
# platform tag with auditwheel, installs it with pip into a fresh venv, and runs
# Tests/Python/test_geonews.py there with pytest, against `geonews resolve` on 200,000 uniform
# positions.
# Prints "python: N passed, M failed" last; exits 1 when a check failed.
#
#   Tests/Python/run.sh [--no-build]
#
# Needs the release `geonews` in .build/release; --no-build is passed on to Scripts/build-wheel.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
# shellcheck source=../../Tests/checks.sh
source "$root/Tests/checks.sh" python
scratch="$(mktemp -d)"
trap '[ -n "${KEEP:-}" ] || rm -rf "$scratch"' EXIT

check "Scripts/build-wheel builds dist/geonews-*.whl" Scripts/build-wheel "$@"
wheel="$(ls dist/geonews-*.whl 2>/dev/null | head -n 1)"
[ -n "$wheel" ] || finish
tag="$(basename "$wheel" .whl | sed 's/.*-py3-none-//')"
tagged() {  # auditwheel names the wheel's own tag as the platform its library allows
  local shown
  shown="$(.venv-python/bin/auditwheel show "$wheel" 2>&1)" || { echo "$shown"; return 1; }
  echo "      $(grep -m1 -o 'platform tag[^.]*' <<<"$shown")"
  grep -q "\"$tag\"" <<<"$shown"
}
check "auditwheel show: the library keeps the wheel to its tag, $tag" tagged
installed() {
  python3 -m venv "$scratch/venv" && "$scratch/venv/bin/pip" install -q --disable-pip-version-check "$wheel" pandas==3.1.1 polars==2.1.0 duckdb==1.5.5 pytest==9.2.0
}
check "pip installs the wheel and its dependencies into a fresh venv" installed
[ -x "$scratch/venv/bin/python" ] || finish

python3 Benchmarks/resolve/generate_positions.py 200000 "$scratch/uniform.csv" --uniform --seed 23
.build/release/geonews resolve --no-progress "$scratch/uniform.csv" -o "$scratch/resolved.csv"
.build/release/geonews resolve --no-progress --region --place "$scratch/uniform.csv" -o "$scratch/resolved-places.csv"
# The indexes `geonews resolve` read (with country-areas.bin beside them in a checkout, which
# settles positions within rounding of a zone's edge), so that the two compare like with like.
indexes="$(dirname "$(.build/release/geonews data path)")"
(
  cd "$scratch"  # away from the checkout, so that `import geonews` is the installed one
  GEONEWS_INDEX_DIR="$indexes" GEONEWS_BINARY="$root/.build/release/geonews" GEONEWS_CHECKOUT_DATA="$root/Data" \
  GEONEWS_UNIFORM="$scratch/uniform.csv" GEONEWS_RESOLVED="$scratch/resolved.csv" \
    GEONEWS_RESOLVED_PLACES="$scratch/resolved-places.csv" XDG_CACHE_HOME="$scratch/cache" \
    "$scratch/venv/bin/python" -m pytest -v -p no:cacheprovider --rootdir "$scratch" "$root/Tests/Python/test_geonews.py" 2>&1
) | tee "$scratch/pytest.log"
# pytest's last line: "N passed[, M failed][, K skipped][, J errors] in …". The Spark job's
# test runs where pyspark and Java are (Benchmarks/spark/run.sh's venv); CI has neither, and
# the mapInArrow function is checked on Arrow batches there.
summary="$(tail -n 1 "$scratch/pytest.log")"
passed=$((passed + $(grep -oE '[0-9]+ passed' <<<"$summary" | awk '{ s += $1 } END { print s + 0 }')))
failed=$((failed + $(grep -oE '[0-9]+ (failed|errors?)' <<<"$summary" | awk '{ s += $1 } END { print s + 0 }')))
skipped="$(grep -oE '[0-9]+ skipped' <<<"$summary" | awk '{ s += $1 } END { print s + 0 }')"
grep -qE '^=+ [0-9]+ passed(, [0-9]+ skipped)? in' <<<"$summary" || [ "$failed" -gt 0 ] || failed=1
finish
