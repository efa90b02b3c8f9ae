"""Writes COUNT CSV files of N seeded random points (latitude -60..75, longitude -180..180) to
OUT/points-0.csv, points-1.csv, ...: the uploads of the dataset benchmarks. File d is seeded
with d, so two runs upload the same points. With --names an empty name column follows the id.

    python3 Benchmarks/write_points.py COUNT N OUT [--names]
"""
import random
import sys


def main() -> None:
    count, n, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    names = "--names" in sys.argv[4:]
    for d in range(count):
        rng = random.Random(d)
        with open(f"{out}/points-{d}.csv", "w") as f:
            f.write("lat,lon,id,name\n" if names else "lat,lon,id\n")
            tail = ",\n" if names else "\n"
            for i in range(n):
                f.write(f"{rng.uniform(-60, 75):.5f},{rng.uniform(-180, 180):.5f},d{d}p{i}{tail}")


if __name__ == "__main__":
    main()
