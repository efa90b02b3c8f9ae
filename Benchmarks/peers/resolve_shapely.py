#!/usr/bin/env python3
"""The pipeline a Python user would write instead of `geonews resolve`: the csv module reads
rows, shapely 2 answers point-in-country with prepared `contains_xy` over the same boundaries
GeoNews uses (Data/boundaries.bin), and the csv module writes each row with its country.

It does less than geonews: only the containing country, no offshore or nearest-marker
suggestion, no distance, no trace summary. It is vectorised the way a careful user would do it:
rows are gathered in batches and each country tests only the points inside its bounding box.

usage: resolve_shapely.py DATA_DIR IN.csv OUT.csv
"""
import csv
import json
import struct
import sys
import time

import numpy as np
import shapely

BATCH = 200_000


def load_countries(data_dir):
    with open(f"{data_dir}/countries.json") as f:
        countries = json.load(f)["countries"]
    with open(f"{data_dir}/boundaries.bin", "rb") as f:
        blob = f.read()
    if blob[:8] != b"GNBOUND1":
        raise SystemExit("boundaries.bin: bad magic")
    count, _ = struct.unpack_from("<II", blob, 8)
    table = [struct.unpack_from("<QQ", blob, 16 + 16 * i) for i in range(count)]
    result = []
    for c in countries:
        offset, length = table[c["boundary"]]
        geom = shapely.from_wkb(blob[offset:offset + length])
        shapely.prepare(geom)
        result.append((c.get("iso2") or c["id"], geom, shapely.bounds(geom)))
    return result


def resolve_batch(countries, lats, lons):
    xs, ys = np.asarray(lons, dtype=float), np.asarray(lats, dtype=float)
    answer = np.full(len(xs), -1, dtype=np.int32)
    for i, (_, geom, (west, south, east, north)) in enumerate(countries):
        box = (xs >= west) & (xs <= east) & (ys >= south) & (ys <= north) & (answer < 0)
        idx = np.nonzero(box)[0]
        if len(idx):
            inside = shapely.contains_xy(geom, xs[idx], ys[idx])
            answer[idx[inside]] = i
    return answer


def main():
    data_dir, src, dst = sys.argv[1:4]
    t0 = time.perf_counter()
    countries = load_countries(data_dir)
    t_load = time.perf_counter() - t0
    rows_out = 0
    with open(src, newline="") as fin, open(dst, "w", newline="") as fout:
        reader = csv.reader(fin)
        writer = csv.writer(fout, lineterminator="\n")
        header = next(reader)
        lower = [h.lower() for h in header]
        lat_i = next(i for i, h in enumerate(lower) if h in ("lat", "latitude"))
        lon_i = next(i for i, h in enumerate(lower) if h in ("lon", "lng", "long", "longitude"))
        writer.writerow(header + ["country_iso2"])
        while True:
            rows, lats, lons = [], [], []
            for row in reader:
                rows.append(row)
                try:
                    lats.append(float(row[lat_i]))
                    lons.append(float(row[lon_i]))
                except (ValueError, IndexError):
                    lats.append(float("nan"))
                    lons.append(float("nan"))
                if len(rows) == BATCH:
                    break
            if not rows:
                break
            answer = resolve_batch(countries, lats, lons)
            writer.writerows(row + [countries[a][0] if a >= 0 else ""] for row, a in zip(rows, answer))
            rows_out += len(rows)
    total = time.perf_counter() - t0
    print(json.dumps({"rows": rows_out, "seconds": total, "load_seconds": t_load,
                      "rows_per_second": rows_out / (total - t_load)}))


if __name__ == "__main__":
    main()
