#!/usr/bin/env bash
# The resident memory of a Python process that resolves 10,000,000 positions with the wheel:
# made in the process and resolved a batch at a time, streamed from a Parquet file a batch at a
# time, and as two whole NumPy arrays; then the first two again without geonews, for what it
# adds (Benchmarks/python/resident.py). Builds the wheel and the venv as run.sh does. Needs PyPI.
#
#   Benchmarks/python/resident.sh [N]        # 10,000,000 positions
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
. "$root/Benchmarks/wheel-venv.sh"
wheel_venv python tzfpy==2.1.1 geopandas==1.2.0 shapely==2.2.0 pyogrio==0.13.0 pandas==3.1.1 numpy==2.4.6 pyarrow==26.0.1
n="${1:-10000000}"
file="$PWD/uniform-$n.parquet"
[ -f "$file" ] || "$venv/bin/python" "$root/Benchmarks/python/resident.py" write "$file" "$n"
# The indexes as a user of the wheel gets them: unpacked from the wheel's packs by the first
# process (into an empty folder: the install leaves them out of the page cache), then checked
# whole at each later open, which leaves the page cache as it found it.
indexes="$(mktemp -d)"
trap 'rm -rf "$indexes"' EXIT
# chunks first: it unpacks the indexes. The floors last: the same processes without geonews.
for mode in chunks stream arrays floor-chunks floor-stream; do
  case $mode in *chunks) input=$n ;; *) input=$file ;; esac
  GEONEWS_INDEX_DIR="$indexes" "$venv/bin/python" "$root/Benchmarks/python/resident.py" "$mode" "$input"
done
