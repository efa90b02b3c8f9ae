"""geonews in DuckDB: `load(con)` loads the wheel's `geonews.duckdb_extension` into a
connection, which then has six scalar functions of (lat DOUBLE, lon DOUBLE):

- `geonews_country`: the ISO code of the country or territory that holds the position, NULL
  at sea;
- `geonews_news_country`: the suggested news country's ISO code;
- `geonews_time_zone`: the IANA time zone;
- `geonews_resolve`: a STRUCT of `geonews resolve`'s six columns;
- `geonews_region`: the region, a STRUCT(iso3166_2, geonames, name);
- `geonews_place`: the nearest populated place, a STRUCT(name, geonameid, distance_km).

The codes, zones and reasons are ENUMs (they compare, group and cast as VARCHAR). A NULL, NaN,
infinite or out-of-range coordinate answers NULL; `geonews_resolve(...).error` says why.

    >>> import duckdb, geonews.duckdb
    >>> con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    >>> geonews.duckdb.load(con)
    >>> con.sql("SELECT geonews_country(48.8566, 2.3522)").fetchone()
    ('FR',)

The extension is not signed, so the connection must allow unsigned extensions. It needs DuckDB
1.2 or later.
"""
import os

from ._native import DataError, data_path, index_folder

_here = os.path.dirname(os.path.abspath(__file__))


def extension_path():
    """$GEONEWS_DUCKDB_EXTENSION, else the extension the wheel carries (beside libgeonews)."""
    return os.environ.get("GEONEWS_DUCKDB_EXTENSION") or os.path.join(_here, "_lib", "geonews.duckdb_extension")


def load(con):
    """Loads the extension into the DuckDB connection `con`, which must allow unsigned
    extensions. The first load in a process opens the data (the wheel's, or $GEONEWS_DATA) and
    the indexes (in the folder `geonews.resolve` uses, which it names to the extension through
    $GEONEWS_INDEX_DIR); a missing or damaged file raises `geonews.DataError`."""
    data = data_path()
    os.environ.setdefault("GEONEWS_DATA", data)
    os.environ.setdefault("GEONEWS_INDEX_DIR", index_folder(data))
    path = extension_path()
    if not os.path.isfile(path):
        raise DataError(f"no DuckDB extension at {path}; build the wheel with Scripts/build-wheel")
    try:
        con.execute("LOAD '" + path.replace("'", "''") + "'")
    except Exception as e:  # duckdb's own error types, without importing duckdb here
        text = str(e)
        if "unsigned" in text.lower() or "signature" in text.lower():
            raise DataError(
                f"DuckDB refused {path}, which is not signed: connect with "
                "duckdb.connect(config={'allow_unsigned_extensions': 'true'})"
            ) from None
        if "geonews" in text:
            raise DataError(text) from None
        raise
