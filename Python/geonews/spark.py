"""geonews in Apache Spark: `resolve(df, "lat", "lon")` adds `geonews.resolve`'s six columns to
a DataFrame through `mapInArrow`. Each Python worker opens the library once, at its first
batch, and keeps it while Spark reuses the worker (`spark.python.worker.reuse`, on by default).
The workers need the package installed (the same wheel) and, where their home is read-only, a
writable temporary folder or `GEONEWS_INDEX_DIR`.

    >>> from geonews.spark import resolve
    >>> resolve(spark.createDataFrame([(48.8566, 2.3522)], ["lat", "lon"])).collect()
"""
import pyarrow as pa

from . import COLUMNS, PLACE_COLUMNS, REGION_COLUMNS, _answers, _arrays, _floats

# Every column a job can ask for, in the order they are appended (`geonews resolve --region
# --place`'s), and their Arrow types as Spark takes them: the strings decoded from their
# dictionaries, the GeoNames id as a 64-bit integer (Spark has no unsigned type).
ALL_COLUMNS = COLUMNS[:5] + REGION_COLUMNS + PLACE_COLUMNS + ["error"]
ARROW_TYPES = dict(zip(COLUMNS, [pa.string(), pa.string(), pa.string(), pa.float64(), pa.string(), pa.string()]))
ARROW_TYPES.update({name: pa.string() for name in REGION_COLUMNS + ["place_name"]})
ARROW_TYPES.update(place_geonameid=pa.int64(), place_distance_km=pa.float64())


def _chosen(columns):
    """`columns` (names among ALL_COLUMNS, in any order) in ALL_COLUMNS' order; the six of
    `geonews resolve` for None."""
    if columns is None:
        return list(COLUMNS)
    unknown = [c for c in columns if c not in ALL_COLUMNS]
    if unknown or not columns:
        raise ValueError(f"columns: {unknown or 'none'} not among {', '.join(ALL_COLUMNS)}")
    return [c for c in ALL_COLUMNS if c in columns]


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
