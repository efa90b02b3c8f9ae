"""The resident memory of a Python process that resolves N positions with geonews, two ways:

- `stream`: reads the positions from a Parquet file a row group at a time (1,048,576 rows;
  `ParquetFile.iter_batches` held every batch it had read, 158 MB for these 10M rows), adds
  `geonews.resolve`'s six columns to each batch of BATCH rows (65,536) and writes it to
  another Parquet file (`ParquetWriter`): what an analyst does with a file larger than memory;
- `arrays`: reads the whole file into two NumPy arrays and calls `geonews.resolve` once on
  them, keeping the inputs and the table.

Each runs in a process of its own (`python resident.py MODE FILE`), which prints its rows and,
from /proc/self/status at the end, VmHWM (the peak), VmRSS, RssAnon and RssFile (the mapped
indexes' pages). `python resident.py write FILE N` first writes N positions uniform over the
sphere (NumPy default_rng(22), as bench.py) to FILE.

usage: resident.py write FILE N | stream FILE | arrays FILE
"""
import os
import sys


def memory():
    status = dict(line.split(":", 1) for line in open("/proc/self/status"))
    return {key: int(status[key].split()[0]) / 1024 for key in ("VmHWM", "VmRSS", "RssAnon", "RssFile")}


def report(mode, rows):
    m = memory()
    print(f"{mode}: {rows:,} rows; peak {m['VmHWM']:.0f} MB, at the end {m['VmRSS']:.0f} MB "
          f"({m['RssAnon']:.0f} MB anonymous, {m['RssFile']:.0f} MB of mapped files)", flush=True)


mode, path = sys.argv[1], sys.argv[2]
if mode == "write":
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    n = int(sys.argv[3])
    rng = np.random.default_rng(22)
    with pq.ParquetWriter(path, pa.schema([("lat", pa.float64()), ("lon", pa.float64())])) as writer:
        for start in range(0, n, 1 << 20):
            k = min(1 << 20, n - start)
            lat = np.degrees(np.arcsin(rng.uniform(-1, 1, k)))
            lon = rng.uniform(-180, 180, k)
            writer.write_table(pa.table({"lat": lat, "lon": lon}))
elif mode == "stream":
    import pyarrow as pa
    import pyarrow.parquet as pq

    import geonews

    batch_rows = int(os.environ.get("BATCH", 1 << 16))
    out = path + ".resolved.parquet"
    rows = 0
    writer = None
    source = pq.ParquetFile(path)
    for group in range(source.num_row_groups):
        for batch in source.read_row_group(group, columns=["lat", "lon"]).to_batches(max_chunksize=batch_rows):
            answers = geonews.resolve(batch.column("lat"), batch.column("lon"))
            table = pa.Table.from_batches([batch])
            for name in answers.column_names:
                table = table.append_column(name, answers.column(name))
            if writer is None:
                writer = pq.ParquetWriter(out, table.schema)
            writer.write_table(table)
            rows += batch.num_rows
    writer.close()
    report("stream", rows)
    os.remove(out)
elif mode == "arrays":
    import pyarrow.parquet as pq

    import geonews

    whole = pq.read_table(path)
    lat, lon = whole.column("lat").to_numpy(), whole.column("lon").to_numpy()
    del whole
    table = geonews.resolve(lat, lon)
    report("arrays", table.num_rows)
else:
    sys.exit(__doc__)
