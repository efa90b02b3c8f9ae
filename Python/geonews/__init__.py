"""GeoNews in process: the country that holds a position, the suggested news country and the
time zone, for NumPy and Arrow arrays of latitudes and longitudes.

    >>> import geonews
    >>> geonews.resolve([48.8566], [2.3522]).to_pylist()
    [{'country_iso2': 'FR', 'suggested_iso2': 'FR', 'suggestion_reason': 'inside', 'distance_km': 0.0, 'time_zone': 'Europe/Paris', 'error': None}]

The answers are `geonews resolve`'s (the same library, the same data): see the GeoNews
repository's docs/python.md.
"""
import math
import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pyarrow as pa

from ._native import COLUMN_TYPES, REASONS, DataError, library

__all__ = ["resolve", "resolve_df", "DataError", "COLUMNS", "__version__"]
__version__ = "0.6.0"

#: The columns of `resolve`, as `geonews resolve` names them.
COLUMNS = ["country_iso2", "suggested_iso2", "suggestion_reason", "distance_km", "time_zone", "error"]

# Below this many positions a call stays on the calling thread.
_PARALLEL_FROM = 200_000


def _floats(values, name):
    """A contiguous float64 NumPy array of `values` (a NumPy or Arrow array, a pandas or polars
    Series, a list); Arrow nulls become NaN, which is an error row."""
    if isinstance(values, (pa.ChunkedArray, pa.Array)):
        values = values.to_numpy(zero_copy_only=False)
    elif hasattr(values, "to_numpy"):
        values = values.to_numpy()
    try:
        array = np.ascontiguousarray(values, dtype=np.float64)
    except (TypeError, ValueError) as e:
        raise TypeError(f"{name}: not numbers ({e})") from None
    if array.ndim != 1:
        raise ValueError(f"{name}: a one-dimensional array is needed, not shape {array.shape}")
    return array


def _columns(lat, lon, threads):
    """The library's columns (COLUMN_TYPES) for the positions, split across threads."""
    lib = library()
    n = len(lat)
    out = {name: np.empty(n, dtype=kind) for name, kind in COLUMN_TYPES}
    workers = threads or os.cpu_count() or 1
    if n < _PARALLEL_FROM or workers <= 1:
        lib.resolve_columns(lat, lon, out)
        return out
    step = math.ceil(n / workers)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        jobs = [
            pool.submit(lib.resolve_columns, lat[i:i + step], lon[i:i + step], {k: v[i:i + step] for k, v in out.items()})
            for i in range(0, n, step)
        ]
        for job in jobs:
            job.result()
    return out


def _coded(indexes, names):
    """A dictionary array over `names`, null where an index is below 0."""
    return pa.DictionaryArray.from_arrays(pa.array(indexes, mask=indexes < 0), pa.array(names, pa.string()))


def _error_texts(lat, lon, codes):
    texts = [None] * len(codes)
    for i in np.flatnonzero(codes):
        field, value, bound = ("latitude", float(lat[i]), "-90…90") if codes[i] == 1 else ("longitude", float(lon[i]), "-180…180")
        texts[i] = f"{field} {value!r} is not a finite number" if not math.isfinite(value) else f"{field} {value!r} is outside {bound}"
    return pa.array(texts, pa.string())


def resolve(lat, lon, *, threads=None):
    """Resolves each position (`lat[i]`, `lon[i]`, WGS 84 degrees) and returns a
    `pyarrow.Table` of one row per position, in order, with `geonews resolve`'s columns:

    - `country_iso2`: the country or territory that holds it, null at sea ("" for the few
      entries without a code, as the CSV has it); `suggested_iso2` the suggested news country; `suggestion_reason`
      (`inside`, `sovereign`, `offshore`, `nearest-marker`); `time_zone` the IANA zone; all
      four dictionary-encoded over the catalogue, with no Python string per row;
    - `distance_km`: the suggestion's distance (0 inside);
    - `error`: null, or why the position is not one (out of range, NaN); its other columns
      are then null.

    Millions of positions are split across `threads` threads (the cores by default); the GIL
    is released while the library works.
    """
    lat, lon = _floats(lat, "lat"), _floats(lon, "lon")
    if len(lat) != len(lon):
        raise ValueError(f"lat has {len(lat)} values and lon {len(lon)}")
    c = _columns(lat, lon, threads)
    lib = library()
    failed = c["error"] != 0
    columns = [
        _coded(c["country"], lib.codes),
        _coded(c["suggested"], lib.codes),
        _coded(c["reason"], REASONS),
        pa.array(c["distance_km"], mask=failed),
        _coded(c["zone"], lib.zone_names),
        _error_texts(lat, lon, c["error"]) if failed.any() else pa.nulls(len(lat), pa.string()),
    ]
    return pa.Table.from_arrays(columns, names=COLUMNS)


def resolve_df(df, lat="lat", lon="lon", *, threads=None):
    """`df` (a pandas DataFrame) with `resolve`'s six columns added after its own, taken from
    its columns `lat` and `lon`; the string columns are pandas categoricals. Raises KeyError
    naming a missing column."""
    for name in (lat, lon):
        if name not in df.columns:
            raise KeyError(f"no column {name!r} in the DataFrame (it has {', '.join(map(str, df.columns))})")
    table = resolve(df[lat], df[lon], threads=threads)
    out = df.copy()
    for name in COLUMNS:
        out[name] = table.column(name).to_pandas().values
    return out
