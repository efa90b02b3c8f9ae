#!/usr/bin/env python3
"""Checks Scripts/build_timezones.py's own decoder against timezonefinder's, and times both.

    python3 Benchmarks/peers/timezone_decode_compare.py [--geometry .build-data/timezone-boundaries.bin]

Reads every zone with timezonefinder's `get_geometry` (the reference reader of the wheel's
format) and compares each ring, vertex for vertex in micro-degrees, with the decoded
`timezone-boundaries.bin`; then prints how long `get_geometry` took for all zones beside the
time of a fresh decode by Scripts/build_timezones.py in the same run.

The first run creates Benchmarks/peers/.venv-timezones and installs
requirements-timezones.txt from PyPI; the script then re-runs itself inside that venv.
"""
import argparse
import json
import os
import struct
import subprocess
import sys
import time

import peer_venv
from array import array

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
VENV = os.path.join(HERE, ".venv-timezones")
REQUIREMENTS = os.path.join(HERE, "requirements-timezones.txt")


def in_venv() -> None:
    # timezonefinder-data 4 asks for Python 3.12; its data and timezonefinder's reader run
    # on Debian bookworm's 3.11.
    peer_venv.enter(VENV, REQUIREMENTS, ("--ignore-requires-python",))


def read_geometry(path: str):
    buf = open(path, "rb").read()
    if buf[:8] != b"GNTZB001":
        sys.exit(f"{path}: not a GeoNews time-zone boundary file")
    zones, polygons, rings, vertices = struct.unpack_from("<4I", buf, 8)
    tables, offset = [], 24
    for count in (zones + 1, polygons + 1, rings + 1):
        table = array("I")
        table.frombytes(buf[offset:offset + 4 * count])
        tables.append(table)
        offset += 4 * count
    coords = array("i")
    coords.frombytes(buf[offset:])
    return tables, coords


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--geometry", default=os.path.join(ROOT, ".build-data", "timezone-boundaries.bin"))
    args = parser.parse_args()
    in_venv()
    from timezonefinder import TimezoneFinder

    (first_polygon, first_ring, first_vertex), coords = read_geometry(args.geometry)
    names = [z["id"] for z in json.load(open(os.path.join(ROOT, "Data", "timezones.json")))["zones"]]
    started = time.monotonic()
    finder = TimezoneFinder(in_memory=True)
    theirs = [finder.get_geometry(tz_name=name) for name in names]
    reference_seconds = time.monotonic() - started

    differ, compared = [], 0
    for z, name in enumerate(names):
        ours = [[(list(coords[2 * first_vertex[r]:2 * first_vertex[r + 1]:2]),
                  list(coords[2 * first_vertex[r] + 1:2 * first_vertex[r + 1]:2]))
                 for r in range(first_ring[p], first_ring[p + 1])]
                for p in range(first_polygon[z], first_polygon[z + 1])]
        reference = [[([round(x * 1e6) for x in xs], [round(y * 1e6) for y in ys]) for xs, ys in polygon]
                     for polygon in theirs[z]]
        compared += sum(len(ring[0]) for polygon in reference for ring in polygon)
        if ours != reference:
            differ.append(name)

    started = time.monotonic()
    subprocess.run([sys.executable, os.path.join(ROOT, "Scripts", "build_timezones.py"), "--check"],
                   check=True, stderr=subprocess.DEVNULL)
    ours_seconds = time.monotonic() - started
    print(f"{len(names)} zones, {compared:,} vertices compared with timezonefinder's get_geometry: "
          f"{len(differ)} zones differ{(': ' + ', '.join(differ[:10])) if differ else ''}")
    print(f"timezonefinder get_geometry, all zones: {reference_seconds:.1f} s; "
          f"Scripts/build_timezones.py --check (unzip, decode, hash): {ours_seconds:.1f} s")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
