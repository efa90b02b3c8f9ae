"""The resident memory of a Python process that resolves N positions with geonews, two ways:

- `stream`: reads the positions from a Parquet file a row group at a time (1,048,576 rows;
  `ParquetFile.iter_batches` held every batch it had read, 158 MB for these 10M rows), adds
  `geonews.resolve`'s six columns to each batch of BATCH rows (65,536) and writes it to
  another Parquet file (`ParquetWriter`): what an analyst does with a file larger than memory;
- `arrays`: reads the whole file into two NumPy arrays and calls `geonews.resolve` once on
  them, keeping the inputs and the table.

- `chunks`: makes the same N positions in the process, 1,048,576 at a time as `write` does,
  resolves them BATCH rows at a time (the six columns) and counts the rows per country, keeping
  no answer: a
  process that holds only Python, NumPy, pyarrow and geonews;
- `floor-chunks` and `floor-stream`: `chunks` and `stream` with every geonews call left out
  (the floor of the stream appends the same six columns' types, made of zeros), so that what
  geonews adds to each process is the difference.

Each runs in a process of its own (`python resident.py MODE FILE`, `python resident.py chunks
N`), which prints its rows and,
from /proc/self/status at the end, VmHWM (the peak), VmRSS, RssAnon and RssFile (the mapped
indexes' pages). `python resident.py write FILE N` first writes N positions uniform over the
sphere (NumPy default_rng(22), as bench.py) to FILE.

usage: resident.py write FILE N | stream FILE | arrays FILE | chunks N | floor-stream FILE | floor-chunks N
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


def uniform_blocks(n):
    """N positions uniform over the sphere, NumPy default_rng(22), 1,048,576 at a time."""
    import numpy as np

    rng = np.random.default_rng(22)
    for start in range(0, n, 1 << 20):
        k = min(1 << 20, n - start)
        yield np.degrees(np.arcsin(rng.uniform(-1, 1, k))), rng.uniform(-180, 180, k)


def floor_answers(rows):
    """A table of `geonews.resolve`'s six columns' types, made of zeros and nulls, for the
    floor processes."""
    import numpy as np
    import pyarrow as pa

    zeros = np.zeros(rows, dtype=np.int16)
    coded = pa.DictionaryArray.from_arrays(pa.array(zeros), pa.array(["XX"]))
    return pa.table({"country_iso2": coded, "suggested_iso2": coded, "suggestion_reason": coded,
                     "distance_km": pa.array(np.zeros(rows)), "time_zone": coded,
                     "error": pa.nulls(rows, pa.string())})


mode, path = sys.argv[1], sys.argv[2]
if mode == "write":
    import pyarrow as pa
    import pyarrow.parquet as pq

    with pq.ParquetWriter(path, pa.schema([("lat", pa.float64()), ("lon", pa.float64())])) as writer:
        for lat, lon in uniform_blocks(int(sys.argv[3])):
            writer.write_table(pa.table({"lat": lat, "lon": lon}))
elif mode in ("stream", "floor-stream"):
    import pyarrow as pa
    import pyarrow.parquet as pq

    if mode == "stream":
        import geonews

    batch_rows = int(os.environ.get("BATCH", 1 << 16))
    out = path + ".resolved.parquet"
    rows = 0
    writer = None
    source = pq.ParquetFile(path)
    for group in range(source.num_row_groups):
        for batch in source.read_row_group(group, columns=["lat", "lon"]).to_batches(max_chunksize=batch_rows):
            if mode == "stream":
                answers = geonews.resolve(batch.column("lat"), batch.column("lon"))
            else:
                answers = floor_answers(batch.num_rows)
            table = pa.Table.from_batches([batch])
            for name in answers.column_names:
                table = table.append_column(name, answers.column(name))
            if writer is None:
                writer = pq.ParquetWriter(out, table.schema)
            writer.write_table(table)
            rows += batch.num_rows
    writer.close()
    report(mode, rows)
    os.remove(out)
elif mode == "arrays":
    import pyarrow.parquet as pq

    import geonews

    whole = pq.read_table(path)
    lat, lon = whole.column("lat").to_numpy(), whole.column("lon").to_numpy()
    del whole
    table = geonews.resolve(lat, lon)
    report("arrays", table.num_rows)
elif mode in ("chunks", "floor-chunks"):
    import numpy as np
    import pyarrow as pa

    if mode == "chunks":
        import geonews

    batch_rows = int(os.environ.get("BATCH", 1 << 16))
    counts = {}
    rows = 0
    for lat, lon in uniform_blocks(int(path)):
        for start in range(0, len(lat), batch_rows):
            if mode == "chunks":
                answers = geonews.resolve(lat[start:start + batch_rows], lon[start:start + batch_rows])
                country = answers.column("country_iso2").combine_chunks()
            else:
                country = floor_answers(len(lat[start:start + batch_rows])).column(0).combine_chunks()
            # Counted by the dictionary's index, the rows at sea (null) under the extra slot.
            n = len(country.dictionary)
            indexes = country.indices.fill_null(n).to_numpy()
            for code, count in zip([str(c) for c in country.dictionary] + ["(sea)"], np.bincount(indexes, minlength=n + 1)):
                if count:
                    counts[code] = counts.get(code, 0) + int(count)
            rows += len(country)
    if sum(counts.values()) != rows:
        sys.exit(f"{mode}: counted {sum(counts.values()):,} rows of {rows:,}")
    top = sorted(counts.items(), key=lambda kv: -kv[1])[:3]
    print(f"{mode}: most rows: " + ", ".join(f"{code} {count:,}" for code, count in top))
    report(mode, rows)
else:
    sys.exit(__doc__)
