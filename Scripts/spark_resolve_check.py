#!/usr/bin/env python3
"""`geonews resolve` as a stage of Apache Spark: RDD.pipe() in local mode must give exactly the
rows and countries of a single-process run.

Two cases, each over a generated, seeded input split into several partitions:
  1. NDJSON, one object per line (`--format ndjson`);
  2. headerless CSV (`--format csv --no-header --lat-col 1 --lon-col 2`): no partition has a
     header, and none is written.

usage: spark_resolve_check.py GEONEWS_BINARY DATA_DIR WORK_DIR [ROWS]
"""
import json
import os
import random
import subprocess
import sys

from pyspark import SparkConf, SparkContext

CITIES = [(48.8566, 2.3522), (46.2044, 6.1432), (45.4642, 9.19), (52.52, 13.405), (40.4168, -3.7038),
          (35.6762, 139.6503), (-33.8688, 151.2093), (40.7128, -74.006), (-23.5505, -46.6333), (30.0444, 31.2357)]


def generate(rows, ndjson_path, csv_path, seed=7):
    rng = random.Random(seed)
    with open(ndjson_path, "w") as nd, open(csv_path, "w") as cs:
        for i in range(rows):
            if rng.random() < 0.75:
                lat, lon = CITIES[rng.randrange(len(CITIES))]
                lat, lon = lat + rng.gauss(0, 0.5), lon + rng.gauss(0, 0.5)
            else:
                lat, lon = rng.uniform(-60, 70), rng.uniform(-180, 180)
            if i % 997 == 0:
                lat = 95.0  # a bad row: out of range, must come out as an error row
            nd.write(json.dumps({"id": i, "trace_id": f"t{i // 100}", "lat": round(lat, 6), "lon": round(lon, 6), "src": "gen"}) + "\n")
            cs.write(f"{lat:.6f},{lon:.6f},{i}\n")


def countries_ndjson(lines):
    result = {}
    for line in lines:
        obj = json.loads(line)
        result[obj["id"]] = (obj["country_iso2"], obj["suggested_iso2"], obj["error"] is not None)
    return result


def countries_csv(lines):
    result = {}
    for line in lines:
        f = line.split(",")
        # lat,lon,id,country_iso2,suggested_iso2,suggestion_reason,distance_km,time_zone,error
        result[int(f[2])] = (f[3], f[4], f[8] != "")
    return result


def main():
    geonews, data_dir, work = sys.argv[1], sys.argv[2], sys.argv[3]
    rows = int(sys.argv[4]) if len(sys.argv) > 4 else 200_000
    os.makedirs(work, exist_ok=True)
    nd_path, csv_path = os.path.join(work, "fixes.ndjson"), os.path.join(work, "fixes.csv")
    generate(rows, nd_path, csv_path)
    env = dict(os.environ, GEONEWS_DATA=data_dir)

    cases = [
        ("NDJSON", nd_path, [geonews, "resolve", "--format", "ndjson", "--no-progress"], countries_ndjson),
        ("headerless CSV", csv_path,
         [geonews, "resolve", "--format", "csv", "--no-header", "--lat-col", "1", "--lon-col", "2", "--no-progress"],
         countries_csv),
    ]
    conf = SparkConf().setMaster("local[2]").setAppName("geonews-resolve-check").set("spark.ui.enabled", "false").set("spark.ui.showConsoleProgress", "false")
    sc = SparkContext(conf=conf)
    sc.setLogLevel("ERROR")
    failures = 0
    try:
        for name, path, command, parse in cases:
            single = subprocess.run(command + [path], env=env, check=True, capture_output=True, text=True).stdout.splitlines()
            rdd = sc.textFile("file://" + os.path.abspath(path), minPartitions=8)
            piped = rdd.pipe(" ".join(command), env={"GEONEWS_DATA": data_dir}).collect()
            a, b = parse(single), parse(piped)
            errors = sum(1 for v in b.values() if v[2])
            same = a == b
            print(f"{name}: {rdd.getNumPartitions()} partitions; rows in {rows}, single-process rows out {len(single)}, "
                  f"Spark rows out {len(piped)}, error rows {errors}; countries equal: {same}")
            if not (len(single) == len(piped) == rows and same):
                failures += 1
    finally:
        sc.stop()
    print("spark check:", "PASSED" if failures == 0 else f"FAILED ({failures} cases)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
