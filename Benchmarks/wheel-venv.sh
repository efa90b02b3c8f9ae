# Sourced by the in-process benchmarks (Benchmarks/python, duckdb and spark/run.sh):
#   wheel_venv NAME PACKAGE==VERSION…
# builds the wheel (Scripts/build-wheel) and the release `geonews` (the pipe routes and the
# installed indexes' folder come from it), makes Benchmarks/out/NAME/venv once, installs the
# peers' packages and then the wheel into it, prints the run's header line, moves into
# Benchmarks/out/NAME and sets `venv` and `index_dir` (the installed indexes, so that the
# wheel's copy of the data is not unpacked again). Needs PyPI. Expects `root`.
wheel_venv() {
  local name=$1
  shift
  (cd "$root" && Scripts/build-wheel >/dev/null && swift build -c release --product geonews >/dev/null)
  venv="$root/Benchmarks/out/$name/venv"
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "$@"
  "$venv/bin/pip" install -q --disable-pip-version-check --force-reinstall --no-deps "$root"/dist/geonews-*.whl
  echo "geonews $(git -C "$root" rev-parse --short HEAD), $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
  cd "$root/Benchmarks/out/$name"
  index_dir="$(dirname "$("$root/.build/release/geonews" data path)")"
}
