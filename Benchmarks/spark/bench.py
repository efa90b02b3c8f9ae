"""geonews in Spark local[2] through mapInArrow (the six columns, the time zone alone, and all
twelve columns with the region's and the place's), beside tzfpy through mapInArrow (the time
zone alone, get_tz per row), beside `geonews resolve` as an RDD.pipe stage, and beside the
floor of mapInArrow itself (a function that returns its batches untouched), on the same N
positions uniform over the sphere generated in Spark (seeded). Each route's rows are counted
after a full pass; prints the seconds and rows per second of each, ROUNDS times.

usage: bench.py GEONEWS_BINARY N ROUNDS
"""
import math
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
df = (spark.range(n, numPartitions=4)
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
routes = {
    "mapInArrow floor (the batches returned as they come)": lambda: df.mapInArrow(identity_batches, df.schema).count(),
    "geonews mapInArrow (the six columns)": lambda: resolve(df).count(),
    "geonews mapInArrow (time zone only)": lambda: resolve(df, columns=["time_zone"]).count(),
    "geonews mapInArrow (all twelve columns: with the region and the place)": lambda: resolve(df, columns=ALL_COLUMNS).count(),
    "tzfpy mapInArrow (time zone only)": lambda: df.mapInArrow(tzfpy_batches, tz_schema).count(),
    "geonews resolve as RDD.pipe": lambda: df.rdd.map(lambda r: f"{r.id},{r.lat!r},{r.lon!r}")
                                             .pipe(f"{binary} resolve --no-header --lat-col 2 --lon-col 3 --no-progress --workers 1 -").count(),
}
print(f"{n:,} positions, local[2], 4 partitions")
for r in range(rounds):
    for name, run in routes.items():
        started = time.perf_counter()
        rows = run()
        seconds = time.perf_counter() - started
        assert rows == n, (name, rows)
        print(f"round {r + 1}: {name}: {seconds:.2f} s, {n / seconds / 1e6:.2f} M rows/s")
spark.stop()
