"""geonews in Apache Spark: `resolve(df, "lat", "lon")` adds `geonews.resolve`'s six columns to
a DataFrame through `mapInArrow`. Each Python worker opens the library once, at its first
batch, and keeps it while Spark reuses the worker (`spark.python.worker.reuse`, on by default).
The workers need the package installed (the same wheel) and, where their home is read-only, a
writable temporary folder or `GEONEWS_INDEX_DIR`.

    >>> from geonews.spark import resolve
    >>> resolve(spark.createDataFrame([(48.8566, 2.3522)], ["lat", "lon"])).collect()
"""
import pyarrow as pa

from . import ALL_COLUMNS, _answers, _arrays, _chosen, _floats

# The Arrow types of the columns as Spark takes them: the strings decoded from their
# dictionaries, the GeoNames id as a 64-bit integer (Spark has no unsigned type).
ARROW_TYPES = {name: pa.string() for name in ALL_COLUMNS}
ARROW_TYPES.update(distance_km=pa.float64(), place_geonameid=pa.int64(), place_distance_km=pa.float64())


def resolve_batches(batches, lat, lon, columns=None):
    """`mapInArrow`'s function: each `pyarrow.RecordBatch` of `batches` with the columns
    appended after its own (all six, or those named in `columns`), its rows in order. `lat` and
    `lon` name its coordinate columns."""
    chosen = _chosen(columns)
    for batch in batches:
        la, lo = _floats(batch.column(lat), "lat"), _floats(batch.column(lon), "lon")
        # Only the columns asked for are made, each decoded to the plain type Spark takes.
        arrays = _arrays(la, lo, _answers(la, lo, 1, chosen), chosen)
        added = []
        for name in chosen:
            column = arrays[name]
            if pa.types.is_dictionary(column.type):
                column = column.dictionary_decode()
            added.append(column.cast(ARROW_TYPES[name]))
        yield pa.RecordBatch.from_arrays(list(batch.columns) + added, names=list(batch.schema.names) + chosen)


def resolve(df, lat="lat", lon="lon", columns=None):
    """`df` with the columns of `geonews.resolve` appended (`country_iso2`, `suggested_iso2`,
    `suggestion_reason`, `distance_km`, `time_zone`, `error`; or those named in `columns`,
    such as `["country_iso2", "time_zone"]`: Spark then moves and stores no more; the region
    and place columns of `geonews.resolve(..., region=True, place=True)` among them), computed in
    the Python workers through `mapInArrow`. `lat` and `lon` must be numeric columns; a column
    missing raises `KeyError` naming it, an unknown name in `columns` `ValueError`."""
    from pyspark.sql.types import DoubleType, LongType, StringType, StructField, StructType

    for name in (lat, lon):
        if name not in df.columns:
            raise KeyError(f"no column {name!r} in the DataFrame (it has {', '.join(df.columns)})")
    chosen = _chosen(columns)
    kinds = {"distance_km": DoubleType(), "place_distance_km": DoubleType(), "place_geonameid": LongType()}
    added = [StructField(name, kinds.get(name, StringType()), True) for name in chosen]
    schema = StructType(list(df.schema.fields) + added)
    return df.mapInArrow(lambda batches: resolve_batches(batches, lat, lon, chosen), schema)
