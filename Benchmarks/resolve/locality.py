"""Splits `geonews resolve`'s output of uniform positions into inputs that differ only in the
order of their rows, for Benchmarks/resolve/locality.sh:

- `land.csv`: the rows that have a country, in their input order;
- `land-sorted.csv`: the same rows sorted by their 1° cell (row, then column);
- `land-wN.csv`: sorted by 1° cell within each window of N rows, for each N given.

usage: locality.py RESOLVED.csv OUT_FOLDER N...
"""
import csv
import os
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    resolved, folder, windows = sys.argv[1], sys.argv[2], [int(n) for n in sys.argv[3:]]
    rows = []
    with open(resolved, newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        lat, lon, country = header.index("lat"), header.index("lon"), header.index("country_iso2")
        for row in reader:
            if row[country]:
                rows.append((row[0], row[lat], row[lon]))

    def cell(row):
        return (int((float(row[1]) + 90) // 1), int((float(row[2]) + 180) // 1))

    def write(name, ordered):
        with open(os.path.join(folder, name), "w") as f:
            f.write("id,lat,lon\n")
            for row in ordered:
                f.write(",".join(row) + "\n")

    write("land.csv", rows)
    write("land-sorted.csv", sorted(rows, key=cell))
    for n in windows:
        write(f"land-w{n}.csv", (row for start in range(0, len(rows), n) for row in sorted(rows[start:start + n], key=cell)))
    print(f"{len(rows):,} rows with a country")


main()
