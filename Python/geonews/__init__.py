"""GeoNews in process: the country that holds a position, the suggested news country and the
time zone, for NumPy and Arrow arrays of latitudes and longitudes.

    >>> import geonews
    >>> geonews.resolve([48.8566], [2.3522]).to_pylist()
    [{'country_iso2': 'FR', 'suggested_iso2': 'FR', 'suggestion_reason': 'inside', 'distance_km': 0.0, 'time_zone': 'Europe/Paris', 'error': None}]

The answers are `geonews resolve`'s (the same library, the same data): see the GeoNews
repository's docs/python.md.
"""
import json
import math
import numbers
import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pyarrow as pa

from ._native import COLUMN_TYPES, PLACE_COLUMN_TYPES, REASONS, DataError, library

__all__ = ["resolve", "resolve_df", "locate", "DataError", "COLUMNS", "REGION_COLUMNS", "PLACE_COLUMNS", "ALL_COLUMNS",
           "__version__"]
__version__ = "0.6.0"

#: The columns of `resolve`, as `geonews resolve` names them.
COLUMNS = ["country_iso2", "suggested_iso2", "suggestion_reason", "distance_km", "time_zone", "error"]
#: The columns `resolve(..., region=True)` and `place=True` add before `error`, as `geonews
#: resolve --region --place` names them.
REGION_COLUMNS = ["region_iso3166_2", "region_geonames", "region_name"]
PLACE_COLUMNS = ["place_name", "place_geonameid", "place_distance_km"]

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


def _columns(lat, lon, threads, call, types):
    """The library's columns (`types`) for the positions from `call` (a Library method), split
    across threads."""
    n = len(lat)
    out = {name: np.empty(n, dtype=kind) for name, kind in types}
    workers = threads or os.cpu_count() or 1
    if n < _PARALLEL_FROM or workers <= 1:
        call(lat, lon, out)
        return out
    step = math.ceil(n / workers)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        jobs = [
            pool.submit(call, lat[i:i + step], lon[i:i + step], {k: v[i:i + step] for k, v in out.items()})
            for i in range(0, n, step)
        ]
        for job in jobs:
            job.result()
    return out


def _names(lib, key, names):
    """`names` as an Arrow string array, made once per library: every column coded over them
    shares it as its dictionary. (The places' 199,116 names take 35 ms to convert: made per
    call, they cost a Spark batch of 10,000 rows seven times its resolution.)"""
    made = lib.arrow_names.get(key)
    if made is None:
        made = lib.arrow_names.setdefault(key, pa.array(names, pa.string()))
    return made


def _named(indexes, table, dictionary):
    """A dictionary array over `dictionary` (the Arrow array of table's distinct names) of the
    regions' or places' `indexes` (-1 for none, which is also where a name is empty): null where
    there is none."""
    coded = table[1][indexes]  # -1 reads the table's last slot, the empty name's -1
    return pa.DictionaryArray.from_arrays(pa.array(coded, mask=coded < 0), dictionary)


# The library's column (COLUMN_TYPES) each of COLUMNS is made from.
_SOURCES = {"country_iso2": "country", "suggested_iso2": "suggested", "suggestion_reason": "reason",
            "distance_km": "distance_km", "time_zone": "zone"}


def _answers(lat, lon, threads, names):
    """The library's columns for the positions, resolved once: the six's (COLUMN_TYPES) and,
    when `names` has region or place columns, those the library computes for them."""
    lib = library()
    wanted = set()
    if any(n in REGION_COLUMNS for n in names):
        wanted.add("region")
    if any(n in PLACE_COLUMNS for n in names):
        wanted |= {"place", "place_distance_km"}
    if not wanted:
        # Only the library's columns that `names` are made from (the error always: it masks the
        # others), so that the time zone alone is worked out alone.
        needed = {"error"} | {_SOURCES[n] for n in names if n in _SOURCES}
        return _columns(lat, lon, threads, lib.resolve_columns, [t for t in COLUMN_TYPES if t[0] in needed])
    lib.place_tables()  # read before the threads start, and a missing file named once
    types = COLUMN_TYPES + [t for t in PLACE_COLUMN_TYPES if t[0] in wanted]
    return _columns(lat, lon, threads, lib.resolve_places, types)


def _arrays(lat, lon, c, names):
    """The Arrow arrays of `names` (among COLUMNS, REGION_COLUMNS and PLACE_COLUMNS) from the
    library's columns `c` (`_answers`); the names and codes dictionary-encoded."""
    lib = library()
    failed = c["error"] != 0
    made = {
        "country_iso2": lambda: _coded(c["country"], _names(lib, "codes", lib.codes)),
        "suggested_iso2": lambda: _coded(c["suggested"], _names(lib, "codes", lib.codes)),
        "suggestion_reason": lambda: _coded(c["reason"], _names(lib, "reasons", REASONS)),
        "distance_km": lambda: pa.array(c["distance_km"], mask=failed),
        "time_zone": lambda: _coded(c["zone"], _names(lib, "zones", lib.zone_names)),
        "error": lambda: _error_texts(lat, lon, c["error"]) if failed.any() else pa.nulls(len(lat), pa.string()),
    }
    if "region" in c or "place" in c:
        tables = lib.place_tables()
        for name in REGION_COLUMNS:
            made[name] = lambda name=name: _named(c["region"], tables[name], _names(lib, name, tables[name][0]))
        made["place_name"] = lambda: _named(c["place"], tables["place_name"], _names(lib, "place_name", tables["place_name"][0]))
        made["place_geonameid"] = lambda: pa.array(tables["place_geonameid"][c["place"]], mask=c["place"] < 0)
        made["place_distance_km"] = lambda: pa.array(c["place_distance_km"], mask=c["place"] < 0)
    return {name: made[name]() for name in names}


def _coded(indexes, dictionary):
    """A dictionary array over `dictionary` (an Arrow string array), null where an index is
    below 0."""
    return pa.DictionaryArray.from_arrays(pa.array(indexes, mask=indexes < 0), dictionary)


def _error_texts(lat, lon, codes):
    texts = [None] * len(codes)
    for i in np.flatnonzero(codes):
        field, value, bound = ("latitude", float(lat[i]), "-90…90") if codes[i] == 1 else ("longitude", float(lon[i]), "-180…180")
        texts[i] = f"{field} {value!r} is not a finite number" if not math.isfinite(value) else f"{field} {value!r} is outside {bound}"
    return pa.array(texts, pa.string())


#: Every column `resolve` can give, in the order it gives them (`geonews resolve --region
#: --place`'s): what `columns=` names.
ALL_COLUMNS = COLUMNS[:5] + REGION_COLUMNS + PLACE_COLUMNS + ["error"]


def _chosen(columns, region=False, place=False):
    """The names of `columns` (among ALL_COLUMNS, in any order) in ALL_COLUMNS' order; for None,
    the six of `geonews resolve` with the region's and the place's when asked for."""
    if columns is None:
        return COLUMNS[:5] + (REGION_COLUMNS if region else []) + (PLACE_COLUMNS if place else []) + ["error"]
    if isinstance(columns, str):
        raise TypeError(f"columns: a list of names, not the string {columns!r}")
    unknown = [c for c in columns if c not in ALL_COLUMNS]
    if unknown or not columns:
        raise ValueError(f"columns: {unknown or 'none'} not among {', '.join(ALL_COLUMNS)}")
    if region or place:
        raise ValueError("columns: name the region's and the place's columns there, not with region= or place=")
    return [c for c in ALL_COLUMNS if c in columns]


def resolve(lat, lon, *, region=False, place=False, threads=None, columns=None):
    """Resolves each position (`lat[i]`, `lon[i]`, WGS 84 degrees) and returns a
    `pyarrow.Table` of one row per position, in order, with `geonews resolve`'s columns:

    - `country_iso2`: the country or territory that holds it, null at sea ("" for the few
      entries without a code, as the CSV has it); `suggested_iso2` the suggested news country; `suggestion_reason`
      (`inside`, `sovereign`, `offshore`, `nearest-marker`); `time_zone` the IANA zone; all
      four dictionary-encoded over the catalogue, with no Python string per row;
    - `distance_km`: the suggestion's distance (0 inside);
    - with `region=True`, `region_iso3166_2`, `region_geonames` and `region_name`: the
      first-level region of the country that holds it (the one whose polygons hold it, else
      the country's nearest), null with no country; with `place=True`, `place_name`,
      `place_geonameid` and `place_distance_km`: the nearest populated place of GeoNames in
      that country, or with no country the nearest within 50 km; as `geonews resolve
      --region --place` writes them, before `error`;
    - `error`: null, or why the position is not one (out of range, NaN); its other columns
      are then null.

    `columns` names the columns wanted instead (among ALL_COLUMNS, given in that order): only
    those are made, and `columns=["time_zone"]` works out the zone alone, from the zones' index,
    several times faster than the whole answer.

    Millions of positions are split across `threads` threads (the cores by default); the GIL
    is released while the library works.
    """
    names = _chosen(columns, region, place)
    lat, lon = _floats(lat, "lat"), _floats(lon, "lon")
    if len(lat) != len(lon):
        raise ValueError(f"lat has {len(lat)} values and lon {len(lon)}")
    made = _arrays(lat, lon, _answers(lat, lon, threads, names), names)
    return pa.Table.from_arrays(list(made.values()), names=list(made))


def resolve_df(df, lat="lat", lon="lon", *, region=False, place=False, threads=None, columns=None):
    """`df` (a pandas or polars DataFrame) with `resolve`'s columns added after its own
    (replacing any of the same names), taken from its columns `lat` and `lon`; the string
    columns are pandas categoricals, or polars Categoricals. The input is left as it was.
    Raises KeyError naming a missing column."""
    for name in (lat, lon):
        if name not in df.columns:
            raise KeyError(f"no column {name!r} in the DataFrame (it has {', '.join(map(str, df.columns))})")
    table = resolve(df[lat], df[lon], region=region, place=place, threads=threads, columns=columns)
    if type(df).__module__.split(".")[0] == "polars":
        import polars as pl

        return df.with_columns(pl.from_arrow(table).get_columns())
    out = df.copy()
    for name in table.column_names:
        out[name] = _pandas_values(table.column(name))
    return out


def _pandas_values(column):
    """A table column as pandas takes it: for a dictionary column, a Categorical over the whole
    dictionary, as Arrow converts it, with its dtype made once per dictionary and process (a
    dtype over the places' 199,116 names takes a tenth of a second to make: per call, it cost
    `resolve_df` of a few rows that much)."""
    import pandas as pd

    array = column.combine_chunks() if column.num_chunks != 1 else column.chunk(0)
    if not pa.types.is_dictionary(array.type):
        return column.to_pandas().values
    # The dictionaries are `_names`'s arrays, kept for the process: their offsets' address
    # names each one.
    key = array.dictionary.buffers()[1].address
    dtypes = library().pandas_dtypes
    dtype = dtypes.get(key)
    if dtype is None:
        dtype = dtypes.setdefault(key, pd.CategoricalDtype(array.dictionary.to_pandas(), ordered=False))
    return pd.Categorical.from_codes(array.indices.fill_null(-1).to_numpy(), dtype=dtype)


def locate(lat, lon, *, language=None):
    """Everything GeoNews knows of one position, as a dict with the keys of `geonews --json`
    (headlines aside): `country`, `suggestion` (`iso2`, `name`, `reason`, `distanceKm`,
    `explanation`), `nearest` (the nearest land at sea), `borderDistanceKm`, `timeZone`,
    `utcOffset` and `utcOffsetSeconds` now, `region` (ISO 3166-2, GeoNames admin1, name) and
    `place` (the nearest populated place of GeoNames), each None where there is none.
    `language` gives the names in another language ("fr", "zht"); English by default.

        >>> geonews.locate(48.8566, 2.3522)["region"]["iso3166_2"]
        'FR-IDF'

    Raises ValueError for a latitude or longitude that is not a finite number in range. The
    first call reads the places and the regions (under a second); later calls take
    microseconds.
    """
    for name, value in (("latitude", lat), ("longitude", lon)):
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(f"{name} {value!r} is not a number")
    if language is not None and not isinstance(language, str):
        raise TypeError(f"language {language!r} is not a string")
    return json.loads(library().locate_json(float(lat), float(lon), language))
