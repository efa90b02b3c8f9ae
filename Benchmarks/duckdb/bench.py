"""geonews's DuckDB extension beside DuckDB spatial, on the same N positions uniform over the
sphere (NumPy's default_rng(22)) in a DuckDB table, 2 threads. Each query reads every row and
counts its answers; prints the seconds and rows per second of each, ROUNDS times.

- the two functions of the issue, `geonews_country` and `geonews_time_zone`, in one SELECT;
- `geonews_time_zone` alone, which the extension answers from the zones' index only;
- `geonews_resolve`, the struct of all six columns;
- DuckDB spatial (the duckdb-extension-spatial wheel): `ST_Contains` of the base map's
  polygons (Data/basemap.geojson, read with ST_Read) joined to `ST_Point(lon, lat)`, the
  country alone.

usage: bench.py BASEMAP N ROUNDS
"""
import sys
import time

import duckdb
import duckdb_extension_spatial
import numpy as np
import pyarrow as pa

import geonews.duckdb

basemap, n, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
con = duckdb.connect(config={"allow_unsigned_extensions": "true", "threads": 2})
geonews.duckdb.load(con)
spatial = f"{duckdb_extension_spatial.__path__[0]}/extensions/v{duckdb.__version__}/spatial.duckdb_extension"
con.execute(f"LOAD '{spatial}'")

rng = np.random.default_rng(22)
positions = pa.table({"lat": np.degrees(np.arcsin(rng.uniform(-1, 1, n))), "lon": rng.uniform(-180, 180, n)})
con.execute("CREATE TABLE p AS SELECT * FROM positions")
del positions
con.execute(f"CREATE TABLE countries AS SELECT iso2, geom FROM ST_Read('{basemap}')")

queries = {
    "geonews_country + geonews_time_zone": "SELECT count(geonews_country(lat, lon)), count(geonews_time_zone(lat, lon)) FROM p",
    "geonews_time_zone alone (the zones' index only)": "SELECT count(geonews_time_zone(lat, lon)) FROM p",
    "geonews_resolve (the struct)": "SELECT count(geonews_resolve(lat, lon).country_iso2), count(geonews_resolve(lat, lon).time_zone) FROM p",
    "spatial ST_Contains join, base map (country only)":
        "SELECT count(c.iso2), count(*) FROM p LEFT JOIN countries c ON ST_Contains(c.geom, ST_Point(p.lon, p.lat))",
}
print(f"{n:,} positions, DuckDB {duckdb.__version__}, 2 threads, {con.sql('SELECT count(*) FROM countries').fetchone()[0]} base-map polygons")
for r in range(rounds):
    for name, sql in queries.items():
        started = time.perf_counter()
        answer = con.sql(sql).fetchall()
        seconds = time.perf_counter() - started
        print(f"round {r + 1}: {name}: {seconds:.2f} s, {n / seconds / 1e6:.2f} M rows/s {answer}")
