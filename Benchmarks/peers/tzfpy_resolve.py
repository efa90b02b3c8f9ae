#!/usr/bin/env python3
"""tzfpy's `get_tz` over the positions of a `geonews resolve` input, timed beside it.

    python3 Benchmarks/peers/tzfpy_resolve.py IN.csv [--zones OURS.csv]

IN.csv has a header with `lat` and `lon` columns (Benchmarks/resolve/generate_positions.py
--uniform writes one). The csv module reads every position into two lists first; only the loop
of `get_tz(lon, lat)` calls is timed, so the figure is tzfpy's lookup alone, with none of the
reading and writing that `geonews resolve`'s own figure includes. With `--zones`, the zone of
each row is compared with the `time_zone` column of geonews's output for the same input.

Prints one line of JSON: rows, seconds (wall), rows_per_s, cpu_seconds (this process's
user and system time over the same loop), version, and (with --zones) same_zone.

The first run creates Benchmarks/peers/.venv-tzfpy and installs requirements-tzfpy.txt from
PyPI; the script then re-runs itself inside that venv.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import time

import peer_venv

HERE = os.path.dirname(os.path.abspath(__file__))
VENV = os.path.join(HERE, ".venv-tzfpy")
REQUIREMENTS = os.path.join(HERE, "requirements-tzfpy.txt")


def in_venv() -> None:
    peer_venv.enter(VENV, REQUIREMENTS)


def read_positions(path):
    with open(path, newline="") as f:
        rows = csv.reader(f)
        header = next(rows)
        ilat, ilon = header.index("lat"), header.index("lon")
        lats, lons = [], []
        for row in rows:
            lats.append(float(row[ilat]))
            lons.append(float(row[ilon]))
    return lats, lons


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input")
    parser.add_argument("--zones", help="geonews resolve's output for the same input")
    args = parser.parse_args()
    in_venv()
    from importlib.metadata import version
    from tzfpy import get_tz

    lats, lons = read_positions(args.input)
    get_tz(2.3522, 48.8566)  # the first call builds tzfpy's index; a batch pays it once
    start, cpu = time.perf_counter(), time.process_time()
    zones = [get_tz(lon, lat) for lon, lat in zip(lons, lats)]
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu
    result = {"rows": len(zones), "seconds": seconds, "rows_per_s": len(zones) / seconds,
              "cpu_seconds": cpu_seconds, "version": version("tzfpy")}
    if args.zones:
        with open(args.zones, newline="") as f:
            rows = csv.reader(f)
            izone = next(rows).index("time_zone")
            result["same_zone"] = sum(row[izone] == z for row, z in zip(rows, zones))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
