#!/usr/bin/env python3
"""The nearest town in batch: `geonews resolve --place` beside the peers, in one run.

On N positions uniform over the sphere (seeded; about 70 % at sea), as `id,lat,lon`:

- speed: `geonews resolve --workers 1` with and without `--place` (the whole process, index
  loading included; the wall clock and /usr/bin/time's CPU), alternately, ROUNDS rounds each,
  medians; then reverse_geocoder 1.5.1 (`rg.search(..., mode=1)`, one process: a k-d tree over
  GeoNames cities1000) and reverse_geocode 1.6.6 (`reverse_geocode.search`: the same idea), each
  timed over its search call alone, loading excluded. The peers answer the nearest place of any
  country, GeoNews the nearest in the position's own country (at sea with no country, within
  50 km): the question differs where a border is nearer than the town, so their answers are
  compared only for the share that agree;
- exactness: for a sample of the rows, the nearest place found by brute force (numpy haversine
  over every place of `Data/places.tsv.gz` in the row's country, or within 50 km of the row
  with no country) against the row's `place_geonameid` and `place_distance_km`. A different id
  at the same distance (to 1 m) is a tie, not a miss.

Usage: python3 Benchmarks/places/run.py [--geonews BIN] [--rows 1000000] [--rounds 3]
                                         [--sample 20000] [--seed 23] [--out DIR]
Uses Benchmarks/regions/.venv (made from Benchmarks/regions/requirements.txt on first use).
Prints the figures; exit 1 when a sampled row is not the brute-force nearest.
"""
from __future__ import annotations

import argparse
import csv
import gzip
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "Benchmarks" / "peers"))
import peer_venv  # noqa: E402

peer_venv.enter(str(REPO / "Benchmarks" / "regions" / ".venv"), str(REPO / "Benchmarks" / "regions" / "requirements.txt"),
                ("--require-hashes",))

import numpy as np  # noqa: E402

RADIUS_KM = 6371.0088  # GreatCircle.meanEarthRadiusKm
OPEN_SEA_KM = 50.0     # PlaceIndex.openSeaReachKm


def timed(command: list[str], out: Path) -> tuple[float, float]:
    """(wall s, CPU s) of a whole process, its standard output to `out`."""
    clock = out.with_suffix(".time")
    start = time.perf_counter()
    with open(out, "wb") as f:
        subprocess.run(["/usr/bin/time", "-f", "%U %S", "-o", str(clock)] + command, stdout=f, check=True)
    wall = time.perf_counter() - start
    user, system = (float(x) for x in clock.read_text().split()[-2:])
    return wall, user + system


def places(data: Path):
    """Data/places.tsv.gz as columns, and the rows of each country."""
    ids, lat, lon, country = [], [], [], []
    with gzip.open(data / "places.tsv.gz", "rt", encoding="utf-8") as f:
        next(f)
        for line in f:
            p = line.rstrip("\n").split("\t")
            ids.append(int(p[0])), lat.append(float(p[2])), lon.append(float(p[3])), country.append(p[4])
    table = {"id": np.array(ids), "lat": np.radians(np.array(lat)), "lon": np.radians(np.array(lon)),
             "country": np.array(country)}
    table["cos"] = np.cos(table["lat"])
    by_country = {c: np.flatnonzero(table["country"] == c) for c in np.unique(table["country"])}
    return table, by_country


def haversine(table, rows, lat: float, lon: float):
    """Great-circle km from (lat, lon) in degrees to the places `rows`, as GreatCircle.distance."""
    φ, λ = np.radians(lat), np.radians(lon)
    s1 = np.sin((table["lat"][rows] - φ) / 2)
    s2 = np.sin((table["lon"][rows] - λ) / 2)
    h = s1 * s1 + np.cos(φ) * table["cos"][rows] * s2 * s2
    return 2 * RADIUS_KM * np.arcsin(np.sqrt(np.minimum(h, 1.0)))


def exactness(output: Path, sample: int, seed: int, data: Path) -> dict:
    table, by_country = places(data)
    every = np.arange(len(table["id"]))
    with open(output, newline="") as f:
        rows = list(csv.DictReader(f))
    rng = np.random.default_rng(seed)
    picked = rng.choice(len(rows), size=min(sample, len(rows)), replace=False)
    checked = misses = ties = with_place = 0
    examples = []
    for k in picked:
        r = rows[k]
        if r["error"]:
            continue
        lat, lon = float(r["lat"]), float(r["lon"])
        if r["country_iso2"]:
            candidates = by_country.get(r["country_iso2"], np.array([], dtype=np.int64))
            limit = np.inf
        else:
            near = np.abs(np.degrees(table["lat"]) - lat) <= 0.5
            candidates, limit = every[near], OPEN_SEA_KM
        d = haversine(table, candidates, lat, lon) if len(candidates) else np.array([])
        best = int(np.argmin(d)) if len(d) else -1
        expected = None if best < 0 or d[best] > limit else (int(table["id"][candidates[best]]), float(d[best]))
        got = None if not r["place_geonameid"] else (int(r["place_geonameid"]), float(r["place_distance_km"]))
        checked += 1
        with_place += got is not None
        if expected == got:
            continue
        if expected and got and abs(expected[1] - got[1]) <= 0.001:
            # Rounded to the metre: the same distance, or another place at it (a tie).
            ties += expected[0] != got[0]
            continue
        misses += 1
        if len(examples) < 5:
            examples.append(f"{lat},{lon} ({r['country_iso2'] or 'no country'}): {got} against brute force {expected}")
    return {"checked": checked, "with_place": with_place, "misses": misses, "ties": ties, "examples": examples}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--geonews", default=str(REPO / ".build" / "release" / "geonews"))
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sample", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--data", default=str(REPO / "Data"))
    parser.add_argument("--out", default=str(REPO / "Benchmarks" / "out" / "places"))
    o = parser.parse_args()
    out = Path(o.out)
    out.mkdir(parents=True, exist_ok=True)
    positions = out / f"uniform-{o.rows}-{o.seed}.csv"
    if not positions.exists():
        subprocess.run([sys.executable, str(REPO / "Benchmarks" / "resolve" / "generate_positions.py"), str(o.rows),
                        str(positions), "--seed", str(o.seed), "--uniform"], check=True)
    positions.read_bytes()  # every side starts from the page cache
    base = [o.geonews, "resolve", str(positions), "--no-progress", "--workers", "1"]
    print(f"== {o.rows:,} uniform positions (seed {o.seed}), {os.cpu_count()} cores, load "
          f"{' '.join(open('/proc/loadavg').read().split()[:3])}, {o.geonews}", flush=True)
    plain, placed = [], []
    for _ in range(o.rounds):
        plain.append(timed(base, out / "plain.csv"))
        placed.append(timed(base + ["--place"], out / "place.csv"))
    rows = sum(1 for _ in open(out / "place.csv")) - 1

    import reverse_geocoder as rg
    import reverse_geocode
    with open(positions) as f:
        next(f)
        points = [(float(a), float(b)) for _, a, b in (line.rstrip("\n").split(",") for line in f)]
    rg.search(points[:1], mode=1)  # loads its tree: not timed
    start = time.perf_counter()
    rg_answers = rg.search(points, mode=1)
    rg_seconds = time.perf_counter() - start
    reverse_geocode.search(points[:1])
    start = time.perf_counter()
    rc_answers = reverse_geocode.search(points)
    rc_seconds = time.perf_counter() - start

    print(f"{'':<44} {'rows/s, wall':>14} {'rows/s, CPU':>14}")
    for name, runs in (("geonews resolve --workers 1", plain), ("geonews resolve --workers 1 --place", placed)):
        w, c = statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)
        print(f"{name:<44} {rows / w:>14,.0f} {rows / c:>14,.0f}   (median of {len(runs)}: {w:.3f} s wall, {c:.2f} s CPU)")
    print(f"{'reverse_geocoder 1.5.1, mode=1 (search only)':<44} {len(points) / rg_seconds:>14,.0f} {'':>14}   ({rg_seconds:.2f} s)")
    print(f"{'reverse_geocode 1.6.6 (search only)':<44} {len(points) / rc_seconds:>14,.0f} {'':>14}   ({rc_seconds:.2f} s)")
    w_plain, w_place = statistics.median(r[0] for r in plain), statistics.median(r[0] for r in placed)
    print(f"--place costs {w_place / w_plain:.2f}x the wall time of the same run without it; "
          f"{(rows / w_place) / (len(points) / rg_seconds):.1f}x reverse_geocoder's search rate (ours with loading, theirs without)")

    with open(out / "place.csv", newline="") as f:
        ours = [r["place_name"] for r in csv.DictReader(f)]
    named = sum(1 for name in ours if name)
    same_rg = sum(1 for a, b in zip(ours, rg_answers) if a and a == b["name"])
    same_rc = sum(1 for a, b in zip(ours, rc_answers) if a and a == b["city"])
    print(f"rows with a place: {named:,} of {rows:,}; of those, the same name as reverse_geocoder {same_rg / named:.1%}, "
          f"as reverse_geocode {same_rc / named:.1%} (they answer the nearest place of any country, from cities1000)")

    check = exactness(out / "place.csv", o.sample, o.seed, Path(o.data))
    print(f"exactness: {check['checked']:,} sampled rows against brute force, {check['with_place']:,} with a place: "
          f"{check['misses']} differ, {check['ties']} ties (another place at the same distance)")
    for e in check["examples"]:
        print("  " + e)
    print(json.dumps({"rows": rows, "plain": plain, "place": placed, "rg_seconds": rg_seconds, "rc_seconds": rc_seconds,
                      "exactness": {k: v for k, v in check.items() if k != "examples"}}))
    return 1 if check["misses"] else 0


if __name__ == "__main__":
    sys.exit(main())
