"""geonews.resolve in Python beside the Python peers, on the same N positions uniform over the
sphere (NumPy's default_rng(22)) as NumPy arrays. Prints the seconds and rows per second of
each route, ROUNDS times, each after a one-row warm-up call outside the timings:

- `geonews.resolve(lat, lon)`, the six columns, on the default threads (the cores);
- `geonews.resolve(lat, lon, region=True, place=True)`, with the region and place columns;
- `geonews.resolve(lat, lon, columns=["time_zone"])`, the time zone alone (like for like with
  tzfpy), on the default threads and on one;
- tzfpy's `get_tz(lng, lat)` in a Python loop over the rows (the time zone alone);
- geopandas `sjoin` (predicate "within", how "left") of the points, built with
  `points_from_xy` inside the timing, against the base map's polygons (Data/basemap.geojson,
  read once), the country alone; the left join repeats a point for each polygon that holds it;
- the wrapper that pipes through the binary: `geonews resolve --no-progress --workers 2 -`
  fed `lat,lon` CSV by pyarrow.csv.write_csv from a writer thread, its output read back with
  pyarrow.csv.read_csv.

The geonews routes run first, then the process's resident memory is printed (the peers are
imported after it), then the peers. Last, on the first round's answers: how often tzfpy's zone
equals geonews's time_zone, geopandas' iso2 geonews's country_iso2 (where both give a
country), and the pipe's country_iso2 geonews's.

usage: bench.py GEONEWS_BINARY BASEMAP N ROUNDS
"""
import os
import subprocess
import sys
import threading
import time
from importlib.metadata import version

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pv

import geonews

binary, basemap, n, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rng = np.random.default_rng(22)
lat = np.degrees(np.arcsin(rng.uniform(-1, 1, n)))
lon = rng.uniform(-180, 180, n)
first = {}


def run_rounds(routes):
    for r in range(rounds):
        for name, run in routes.items():
            started = time.perf_counter()
            answer, rows = run()
            seconds = time.perf_counter() - started
            first.setdefault(name, answer)
            print(f"round {r + 1}: {name}: {seconds:.2f} s, {n / seconds / 1e6:.2f} M rows/s ({rows})", flush=True)


def memory():
    status = dict(line.split(":", 1) for line in open("/proc/self/status"))
    return (int(status[key].split()[0]) / 1024 for key in ("VmRSS", "RssAnon", "RssFile", "VmHWM"))


def pipe():
    process = subprocess.Popen([binary, "resolve", "--no-progress", "--workers", "2", "-"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def write():
        with process.stdin:
            pv.write_csv(pa.table({"lat": lat, "lon": lon}), process.stdin)

    writer = threading.Thread(target=write)
    writer.start()
    table = pv.read_csv(process.stdout)
    writer.join()
    assert process.wait() == 0 and table.num_rows == n, (process.returncode, table.num_rows)
    return table, f"{table.num_rows:,} rows, {table.num_columns} columns"


print(f"{n:,} positions, {os.cpu_count()} cores, geonews {geonews.__version__}, numpy {np.__version__}, "
      f"pyarrow {pa.__version__}, tzfpy {version('tzfpy')}, geopandas {version('geopandas')} "
      f"(shapely {version('shapely')}, pyogrio {version('pyogrio')}, pandas {version('pandas')})", flush=True)

geonews.resolve(lat[:1], lon[:1], region=True, place=True)
run_rounds({
    "geonews.resolve": lambda: (t := geonews.resolve(lat, lon), f"{t.num_rows - t['country_iso2'].null_count:,} with a country"),
    "geonews.resolve region+place": lambda: (t := geonews.resolve(lat, lon, region=True, place=True),
                                             f"{t.num_rows - t['place_name'].null_count:,} with a place"),
    "geonews.resolve time zone only": lambda: (t := geonews.resolve(lat, lon, columns=["time_zone"]),
                                               f"{t.num_rows - t['time_zone'].null_count:,} with a zone"),
    "geonews.resolve time zone only, threads=1": lambda: (t := geonews.resolve(lat, lon, columns=["time_zone"], threads=1),
                                                          f"{t.num_rows - t['time_zone'].null_count:,} with a zone"),
})
rss, anonymous, mapped, peak = memory()
print(f"RSS after geonews.resolve of {n:,} rows, holding the inputs and two tables: {rss:.0f} MB "
      f"({anonymous:.0f} MB anonymous, {mapped:.0f} MB of mapped files: the indexes' pages; peak {peak:.0f} MB)", flush=True)

import geopandas  # noqa: E402 (after the memory figure, which is geonews's own)
from tzfpy import get_tz  # noqa: E402

countries = geopandas.read_file(basemap)[["iso2", "geometry"]]
get_tz(0.0, 0.0)


def sjoin():
    points = geopandas.GeoDataFrame(geometry=geopandas.points_from_xy(lon, lat), crs=countries.crs)
    joined = geopandas.sjoin(points, countries, how="left", predicate="within")
    return joined, f"{len(joined):,} rows, {joined['iso2'].notna().sum():,} with a country"


run_rounds({
    "tzfpy get_tz loop (time zone only)": lambda: (z := [get_tz(x, y) for x, y in zip(lon.tolist(), lat.tolist())],
                                                   f"{sum(map(bool, z)):,} with a zone"),
    f"geopandas sjoin within, {len(countries)} base-map polygons (country only)": sjoin,
    "geonews resolve pipe (pyarrow.csv)": pipe,
})

ours = first["geonews.resolve"]
zone = ours["time_zone"].cast(pa.string()).fill_null("")
country = ours["country_iso2"].cast(pa.string()).fill_null("")
tz = pa.array(first["tzfpy get_tz loop (time zone only)"], pa.string())
print(f"tzfpy zone = geonews time_zone: {pc.mean(pc.equal(zone, tz)).as_py():.2%} of {n:,} rows")
alone = first["geonews.resolve time zone only"]["time_zone"].cast(pa.string()).fill_null("")
print(f"the time zone alone = the whole answer's: {pc.all(pc.equal(alone, zone)).as_py()}")
joined = next(v for k, v in first.items() if k.startswith("geopandas"))
joined = joined[~joined.index.duplicated()]  # the first polygon of each point
theirs = pa.array(joined["iso2"].fillna("").to_numpy(), pa.string())
both = pc.and_(pc.not_equal(country, ""), pc.not_equal(theirs, ""))
agree = pc.sum(pc.and_(both, pc.equal(country, theirs))).as_py()
print(f"geopandas iso2 = geonews country_iso2: {agree / pc.sum(both).as_py():.2%} of the {pc.sum(both).as_py():,} rows both give a country")
piped = first["geonews resolve pipe (pyarrow.csv)"]["country_iso2"].cast(pa.string()).fill_null("")
print(f"pipe country_iso2 = geonews.resolve's: {pc.mean(pc.equal(country, piped)).as_py():.2%} of {n:,} rows")
