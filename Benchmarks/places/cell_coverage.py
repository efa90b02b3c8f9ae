#!/usr/bin/env python3
"""How many rows a table of answer cells could give their nearest place without a search.

For the rows of a `geonews resolve --place` output that have a country and a place, and for
cells of 1/4°, 1/16°, 1/32°, 1/64° and 1/128°: whether one place of the row's country is the
nearest of that country's places (`Data/places.tsv.gz`) to every point of the row's cell.
The test is the one a table would be built with: the place `p` nearest the cell's centre `c`
holds the cell when every other place `q` of the country within `|c - p| + 2r` of the centre
(`r` the chord from the centre to the cell's farthest corner; every place that is nearest to
some point of the cell lies within it) is on the far side of their bisecting plane from the
whole cell: `c·(p - q) > |p - q| r`. Chords between unit vectors, as PlaceIndex measures.

Prints, per size, the cells the rows fall in, those one place holds, the share of rows they
cover, and how many places the test weighs per cell. About 90 s for 1,000,000 uniform rows.

Usage: python3 Benchmarks/places/cell_coverage.py RESOLVED.csv [--places Data/places.tsv.gz]
  where RESOLVED.csv is `geonews resolve --place` output (columns lat, lon, country_iso2,
  place_geonameid), e.g. of `Benchmarks/resolve/generate_positions.py 1000000 IN --seed 22 --uniform`.
Uses Benchmarks/regions/.venv (made from Benchmarks/regions/requirements.txt on first use).
"""
from __future__ import annotations

import argparse
import csv
import gzip
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "Benchmarks" / "peers"))
import peer_venv  # noqa: E402

peer_venv.enter(str(REPO / "Benchmarks" / "regions" / ".venv"), str(REPO / "Benchmarks" / "regions" / "requirements.txt"),
                ("--require-hashes",))

import numpy as np  # noqa: E402
from scipy.spatial import cKDTree  # noqa: E402


def unit(lat: float, lon: float) -> np.ndarray:
    φ, λ = np.radians(lat), np.radians(lon)
    return np.array([np.cos(φ) * np.cos(λ), np.cos(φ) * np.sin(λ), np.sin(φ)])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("resolved")
    parser.add_argument("--places", default=str(REPO / "Data" / "places.tsv.gz"))
    args = parser.parse_args()

    ids, lats, lons, codes = [], [], [], []
    with gzip.open(args.places, "rt", encoding="utf-8") as f:
        next(f)
        for line in f:
            a = line.rstrip("\n").split("\t")
            ids.append(int(a[0]))
            lats.append(float(a[2]))
            lons.append(float(a[3]))
            codes.append(a[4])
    φ, λ = np.radians(np.array(lats)), np.radians(np.array(lons))
    points = np.stack([np.cos(φ) * np.cos(λ), np.cos(φ) * np.sin(λ), np.sin(φ)], 1)
    codes = np.array(codes)
    trees = {c: cKDTree(points[codes == c]) for c in np.unique(codes)}
    country_of = dict(zip(ids, codes))

    rows = []
    with open(args.resolved, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            if r["country_iso2"] and r["place_geonameid"]:
                rows.append((float(r["lat"]), float(r["lon"]), country_of[int(r["place_geonameid"])]))
    print(f"{len(rows):,} rows with a country and a place")
    print(f"{'cell':>7} {'cells':>9} {'held':>9} {'rows covered':>13} {'places weighed':>15}")
    for per in (4, 16, 32, 64, 128):
        cells: dict[tuple[int, int, str], int] = {}
        for lat, lon, c in rows:
            key = (int(np.floor((lat + 90) * per)), int(np.floor((lon + 180) * per)), c)
            cells[key] = cells.get(key, 0) + 1
        held = covered = 0
        weighed = []
        for (i, j, c), n in cells.items():
            south, west = -90 + i / per, -180 + j / per
            centre = unit(south + 0.5 / per, west + 0.5 / per)
            r = max(np.linalg.norm(unit(a, b) - centre) for a in (south, south + 1 / per) for b in (west, west + 1 / per))
            r = r * 1.0001 + 1e-9
            tree = trees[c]
            d, k = tree.query(centre)
            near = tree.query_ball_point(centre, d + 2 * r)
            weighed.append(len(near))
            p = tree.data[k]
            if all(centre @ (p - tree.data[q]) > np.linalg.norm(p - tree.data[q]) * r + 1e-12 for q in near if q != k):
                held += 1
                covered += n
        print(f"  1/{per:<4} {len(cells):>9,} {held:>9,} {100 * covered / len(rows):>12.1f}% "
              f"{'median %d, mean %.1f' % (np.median(weighed), np.mean(weighed)):>15}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
