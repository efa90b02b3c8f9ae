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

from ._native import NO_ZONE, REASONS, RESULT, GeoNewsError, library

__all__ = ["resolve", "resolve_df", "GeoNewsError", "COLUMNS", "__version__"]
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


def _results(lat, lon, threads):
    lib = library()
    out = np.empty(len(lat), dtype=RESULT)
    n = len(lat)
    workers = threads or os.cpu_count() or 1
    if n < _PARALLEL_FROM or workers <= 1:
        lib.resolve_into(lat, lon, out)
        return out
    step = math.ceil(n / workers)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        jobs = [pool.submit(lib.resolve_into, lat[i:i + step], lon[i:i + step], out[i:i + step]) for i in range(0, n, step)]
        for job in jobs:
            job.result()
    return out


def _coded(indexes, names, valid):
    """A dictionary array of `names`, null where not `valid`."""
    return pa.DictionaryArray.from_arrays(
        pa.array(np.where(valid, indexes, 0).astype(np.int32), mask=~valid), pa.array(names, pa.string()))


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
    r = _results(lat, lon, threads)
    lib = library()
    ok = r["error"] == 0
    has_country = ok & (r["country"] >= 0)
    country = lib.code_of[np.where(has_country, r["country"], 0)]
    suggested = lib.code_of[np.where(ok, r["suggested"], 0)]
    zone = lib.zone_name_of[np.where(ok, np.where(r["zone"] >= 0, r["zone"], lib.zone_count - 1 - r["zone"].astype(np.int64)), 0)]
    columns = [
        _coded(country, lib.codes, has_country),
        _coded(suggested, lib.codes, ok),
        _coded(r["reason"], REASONS, ok),
        pa.array(r["distance_km"], mask=~ok),
        _coded(zone, lib.zone_names, ok),
        _error_texts(lat, lon, r["error"]) if not ok.all() else pa.nulls(len(r), pa.string()),
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
