"""geonews in Spark local[2] through mapInArrow (the six columns, the time zone alone, and all
twelve columns with the region's and the place's), beside tzfpy through mapInArrow (the time
zone alone, get_tz per row), beside `geonews resolve` as an RDD.pipe stage, and beside the
floor of mapInArrow itself (a function that returns its batches untouched), on the same N
positions uniform over the sphere generated in Spark (seeded). Each route's rows are counted
after a full pass; prints the seconds and rows per second of each, ROUNDS times, then each
route's median and the median ratio of tzfpy to the geonews time zone.

usage: bench.py GEONEWS_BINARY N ROUNDS

ROUTES=floor,zone,tzfpy (of floor, six, zone, twelve, tzfpy, pipe) runs only those, in that
order; PARTITIONS=P splits the positions into P partitions (4); WARMUP=K runs K rounds first and counts none of them (the JVM compiles Spark's own code
as it goes: mapInArrow's floor falls from about 3 s to 1.7 s over the first minutes); JVM_GC=1
asks the JVM to collect before each route, so that no route pays for the garbage of the one
before it.
"""
import os
import statistics
import sys
import time

import pyarrow as pa
from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql.types import StringType, StructField, StructType

from geonews import ALL_COLUMNS
from geonews.spark import resolve

binary, n, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
spark = (SparkSession.builder.master("local[2]").appName("geonews-bench")
         .config("spark.sql.shuffle.partitions", "4").config("spark.ui.enabled", "false").getOrCreate())
spark.sparkContext.setLogLevel("ERROR")
partitions = int(os.environ.get("PARTITIONS", "4"))
df = (spark.range(n, numPartitions=partitions)
      .select("id", F.degrees(F.asin(F.rand(22) * 2 - 1)).alias("lat"), (F.rand(23) * 360 - 180).alias("lon"))
      .cache())
df.count()


def tzfpy_batches(batches):
    from tzfpy import get_tz
    for batch in batches:
        lat, lon = batch.column("lat").to_pylist(), batch.column("lon").to_pylist()
        yield pa.RecordBatch.from_arrays(list(batch.columns) + [pa.array([get_tz(x, y) for x, y in zip(lon, lat)])],
                                         names=batch.schema.names + ["time_zone"])


def identity_batches(batches):
    yield from batches


tz_schema = StructType(df.schema.fields + [StructField("time_zone", StringType())])
ZONE, TZFPY = "geonews mapInArrow (time zone only)", "tzfpy mapInArrow (time zone only)"
routes = {
    "floor": ("mapInArrow floor (the batches returned as they come)", lambda: df.mapInArrow(identity_batches, df.schema).count()),
    "six": ("geonews mapInArrow (the six columns)", lambda: resolve(df).count()),
    "zone": (ZONE, lambda: resolve(df, columns=["time_zone"]).count()),
    "twelve": ("geonews mapInArrow (all twelve columns: with the region and the place)",
               lambda: resolve(df, columns=ALL_COLUMNS).count()),
    "tzfpy": (TZFPY, lambda: df.mapInArrow(tzfpy_batches, tz_schema).count()),
    "pipe": ("geonews resolve as RDD.pipe", lambda: df.rdd.map(lambda r: f"{r.id},{r.lat!r},{r.lon!r}")
             .pipe(f"{binary} resolve --no-header --lat-col 2 --lon-col 3 --no-progress --workers 1 -").count()),
}
chosen = os.environ.get("ROUTES", ",".join(routes)).split(",")
unknown = [key for key in chosen if key not in routes]
if unknown:
    sys.exit(f"bench.py: no route {', '.join(unknown)} (routes: {', '.join(routes)})")
collect = os.environ.get("JVM_GC") == "1"
warmup = int(os.environ.get("WARMUP", "0"))
print(f"{n:,} positions, local[2], {partitions} partitions" + (", the JVM collected before each route" if collect else "")
      + (f", {warmup} rounds of warm-up not counted" if warmup else ""))
for r in range(warmup):
    for key in chosen:
        started = time.perf_counter()
        routes[key][1]()
        print(f"warm-up {r + 1}: {routes[key][0]}: {time.perf_counter() - started:.2f} s")
seconds_of = {routes[key][0]: [] for key in chosen}
for r in range(rounds):
    for key in chosen:
        name, run = routes[key]
        if collect:
            spark.sparkContext._jvm.System.gc()
        started = time.perf_counter()
        rows = run()
        seconds = time.perf_counter() - started
        assert rows == n, (name, rows)
        seconds_of[name].append(seconds)
        print(f"round {r + 1}: {name}: {seconds:.2f} s, {n / seconds / 1e6:.2f} M rows/s")
for name, times in seconds_of.items():
    print(f"median of {len(times)}: {name}: {statistics.median(times):.2f} s")
if ZONE in seconds_of and TZFPY in seconds_of:
    print(f"tzfpy / geonews time zone, medians: {statistics.median(seconds_of[TZFPY]) / statistics.median(seconds_of[ZONE]):.2f}x")
spark.stop()
