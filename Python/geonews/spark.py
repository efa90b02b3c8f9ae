"""geonews in Apache Spark: `resolve(df, "lat", "lon")` adds `geonews.resolve`'s six columns to
a DataFrame through `mapInArrow`. Each Python worker opens the library once, at its first
batch, and keeps it while Spark reuses the worker (`spark.python.worker.reuse`, on by default).
The workers need the package installed (the same wheel) and, where their home is read-only, a
writable temporary folder or `GEONEWS_INDEX_DIR`.

    >>> from geonews.spark import resolve
    >>> resolve(spark.createDataFrame([(48.8566, 2.3522)], ["lat", "lon"])).collect()
"""
import numpy as np
import pyarrow as pa

from . import COLUMNS, _coded, _columns, _error_texts, _floats
from ._native import COLUMN_TYPES, REASONS, library

# The columns' Arrow types as Spark takes them: the strings decoded from their dictionaries.
ARROW_TYPES = dict(zip(COLUMNS, [pa.string(), pa.string(), pa.string(), pa.float64(), pa.string(), pa.string()]))


def _chosen(columns):
    """`columns` (names among COLUMNS, in any order) in COLUMNS' order; all six for None."""
    if columns is None:
        return list(COLUMNS)
    unknown = [c for c in columns if c not in COLUMNS]
    if unknown or not columns:
        raise ValueError(f"columns: {unknown or 'none'} not among {', '.join(COLUMNS)}")
    return [c for c in COLUMNS if c in columns]


def resolve_batches(batches, lat, lon, columns=None):
    """`mapInArrow`'s function: each `pyarrow.RecordBatch` of `batches` with the columns
    appended after its own (all six, or those named in `columns`), its rows in order. `lat` and
    `lon` name its coordinate columns."""
    chosen = _chosen(columns)
    lib = library()
    for batch in batches:
        la, lo = _floats(batch.column(lat), "lat"), _floats(batch.column(lon), "lon")
        c = _columns(la, lo, 1, lib.resolve_columns, COLUMN_TYPES)
        # Only the columns asked for are made, each straight to the plain type Spark takes.
        made = {
            "country_iso2": lambda: _coded(c["country"], lib.codes).dictionary_decode(),
            "suggested_iso2": lambda: _coded(c["suggested"], lib.codes).dictionary_decode(),
            "suggestion_reason": lambda: _coded(c["reason"], REASONS).dictionary_decode(),
            "distance_km": lambda: pa.array(c["distance_km"], mask=c["error"] != 0),
            "time_zone": lambda: _coded(c["zone"], lib.zone_names).dictionary_decode(),
            "error": lambda: _error_texts(la, lo, c["error"]) if np.any(c["error"]) else pa.nulls(len(la), pa.string()),
        }
        added = [made[name]().cast(ARROW_TYPES[name]) for name in chosen]
        yield pa.RecordBatch.from_arrays(list(batch.columns) + added, names=list(batch.schema.names) + chosen)


def resolve(df, lat="lat", lon="lon", columns=None):
    """`df` with the columns of `geonews.resolve` appended (`country_iso2`, `suggested_iso2`,
    `suggestion_reason`, `distance_km`, `time_zone`, `error`; or those named in `columns`,
    such as `["country_iso2", "time_zone"]`: Spark then moves and stores no more), computed in
    the Python workers through `mapInArrow`. `lat` and `lon` must be numeric columns; a column
    missing raises `KeyError` naming it, an unknown name in `columns` `ValueError`."""
    from pyspark.sql.types import DoubleType, StringType, StructField, StructType

    for name in (lat, lon):
        if name not in df.columns:
            raise KeyError(f"no column {name!r} in the DataFrame (it has {', '.join(df.columns)})")
    chosen = _chosen(columns)
    added = [StructField(name, DoubleType() if name == "distance_km" else StringType(), True) for name in chosen]
    schema = StructType(list(df.schema.fields) + added)
    return df.mapInArrow(lambda batches: resolve_batches(batches, lat, lon, chosen), schema)
