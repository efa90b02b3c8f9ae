"""libgeonews through ctypes: the library, the data folder, the folder of the unpacked
indexes, and one handle for the process."""
import ctypes
import json
import math
import os
import tempfile
import threading

import numpy as np

_here = os.path.dirname(os.path.abspath(__file__))

REASONS = ["inside", "sovereign", "offshore", "nearest-marker"]


class DataError(Exception):
    """The library or its data could not be used: the message names the file, what is wrong,
    and the command that makes it again."""

    __module__ = "geonews"  # raised from several modules, caught as geonews.DataError


def library_path():
    """$GEONEWS_LIBRARY, else the library the wheel carries."""
    return os.environ.get("GEONEWS_LIBRARY") or os.path.join(_here, "_lib", "libgeonews.so.1")


def data_path():
    """$GEONEWS_DATA, else the data folder the wheel carries."""
    return os.environ.get("GEONEWS_DATA") or os.path.join(_here, "_data")


def index_folder(data):
    """Where the unpacked indexes live: $GEONEWS_INDEX_DIR; else the cache folder the `geonews`
    command uses ($XDG_CACHE_HOME/geonews/<data id>, or ~/.cache/...), when it can be written;
    else a folder of this user's in the temporary directory (a Spark executor's home is often
    read-only)."""
    named = os.environ.get("GEONEWS_INDEX_DIR")
    if named:
        return named
    record = os.path.join(data, "area-index.json")
    try:
        with open(record, encoding="utf-8") as f:
            data_id = json.load(f)["checksum"].lower()
    except OSError as e:
        raise DataError(f"cannot read {record}: {e.strerror}; set GEONEWS_DATA to a GeoNews Data folder") from None
    except (ValueError, KeyError):
        raise DataError(f"{record} is damaged: no checksum") from None
    bases = []
    xdg, home = os.environ.get("XDG_CACHE_HOME"), os.environ.get("HOME")
    if xdg and xdg.startswith("/"):
        bases.append(xdg)
    elif home and home.startswith("/"):
        bases.append(os.path.join(home, ".cache"))
    bases.append(os.path.join(tempfile.gettempdir(), f"geonews-{os.getuid()}"))
    for base in bases:
        folder = os.path.join(base, "geonews", data_id)
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError:
            continue
        if os.access(folder, os.W_OK) or os.path.exists(os.path.join(folder, "area-index.bin")):
            return folder
    raise DataError(f"no writable folder for the indexes (tried {', '.join(bases)}); set GEONEWS_INDEX_DIR")


class Library:
    """The loaded library and one open handle; the names it hands out, decoded once."""

    def __init__(self, path, data, indexes):
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            raise DataError(f"cannot load {path}: {e}") from None
        handle = ctypes.c_void_p
        lib.geonews_version.restype = ctypes.c_char_p
        lib.geonews_open_at.restype = handle
        lib.geonews_open_at.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t]
        lib.geonews_close.argtypes = [handle]
        lib.geonews_resolve_columns.restype = ctypes.c_int64
        lib.geonews_resolve_columns.argtypes = [handle, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
        lib.geonews_code_count.argtypes = [handle]
        lib.geonews_zone_name_count.argtypes = [handle]
        for name in ("geonews_code", "geonews_zone_name"):
            getattr(lib, name).restype = ctypes.c_char_p
            getattr(lib, name).argtypes = [handle, ctypes.c_int32]
        lib.geonews_load_places.argtypes = [handle, ctypes.c_char_p, ctypes.c_size_t]
        lib.geonews_resolve_places.restype = ctypes.c_int64
        lib.geonews_resolve_places.argtypes = [handle, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p,
                                               ctypes.c_void_p]
        for name in ("geonews_region_count", "geonews_place_count"):
            getattr(lib, name).argtypes = [handle]
        for name in ("geonews_region_iso3166_2", "geonews_region_geonames", "geonews_region_name", "geonews_place_name"):
            getattr(lib, name).restype = ctypes.c_char_p
            getattr(lib, name).argtypes = [handle, ctypes.c_int32]
        lib.geonews_place_geonameid.restype = ctypes.c_int64
        lib.geonews_place_geonameid.argtypes = [handle, ctypes.c_int32]
        lib.geonews_locate_json.restype = ctypes.c_int64
        lib.geonews_locate_json.argtypes = [handle, ctypes.c_double, ctypes.c_double, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t]
        if lib.geonews_abi_version() != 1:
            raise DataError(f"{path} has interface version {lib.geonews_abi_version()}, this package reads 1")
        error = ctypes.create_string_buffer(1024)
        self.handle = lib.geonews_open_at(data.encode(), indexes.encode(), error, len(error))
        if not self.handle:
            raise DataError(error.value.decode("utf-8", "replace"))
        self.lib = lib
        self._tables = None
        self.version = lib.geonews_version().decode()
        # The distinct codes and zone ids the columns index (geonews_resolve_columns).
        self.codes = [lib.geonews_code(self.handle, k).decode() for k in range(lib.geonews_code_count(self.handle))]
        self.zone_names = [lib.geonews_zone_name(self.handle, k).decode() for k in range(lib.geonews_zone_name_count(self.handle))]
        # The Arrow arrays of these names and of the place tables' (geonews/__init__.py's
        # `_names`), each made at its first use and shared by every column after.
        self.arrow_names = {}
        # The pandas dtypes over those arrays (`_pandas_values`), likewise.
        self.pandas_dtypes = {}

    def resolve_columns(self, lat, lon, columns):
        """Resolves `lat` and `lon` into `columns` (some of COLUMN_TYPES' arrays, of their
        length, or slices of such arrays; those left out are not written, and with only the
        zone and the error the library works out the zone alone); the GIL is released for the
        call."""
        n = len(lat)
        if n == 0:
            return 0
        pointers = Columns(*(columns[name].ctypes.data if name in columns else None for name, _ in COLUMN_TYPES))
        done = self.lib.geonews_resolve_columns(self.handle, lat.ctypes.data, lon.ctypes.data, n, ctypes.addressof(pointers))
        if done < 0:
            raise DataError("geonews_resolve_columns refused its arguments")
        return done


    def place_tables(self):
        """The regions' and places' names, read once: for each of region_iso3166_2,
        region_geonames, region_name and place_name, (the distinct names, each region's or
        place's index among them with -1 for "" and a last -1 for none), and the places'
        GeoNames ids with a last 0."""
        with _tables_lock:
            if self._tables is None:
                error = ctypes.create_string_buffer(1024)
                if self.lib.geonews_load_places(self.handle, error, len(error)) != 0:
                    raise DataError(error.value.decode("utf-8", "replace"))
                lib, h = self.lib, self.handle
                regions = range(lib.geonews_region_count(h))
                places = range(lib.geonews_place_count(h))
                tables = {}
                for column, name, items in (("region_iso3166_2", "geonews_region_iso3166_2", regions),
                                            ("region_geonames", "geonews_region_geonames", regions),
                                            ("region_name", "geonews_region_name", regions),
                                            ("place_name", "geonews_place_name", places)):
                    get = getattr(lib, name)
                    texts = np.array([get(h, k).decode() for k in items] + [""], dtype=object)
                    distinct, inverse = np.unique(texts, return_inverse=True)
                    # "" (none, and the slot for -1) is the first of the sorted names when present.
                    # The narrowest index type for the names (the regions' fit 16 bits).
                    kind = np.int16 if len(distinct) < 2**15 else np.int32
                    index = (inverse.astype(np.int32) - (1 if distinct[0] == "" else 0)).astype(kind)
                    tables[column] = (list(distinct[1:] if distinct[0] == "" else distinct), index)
                tables["place_geonameid"] = np.array([lib.geonews_place_geonameid(h, k) for k in places] + [0], dtype=np.uint32)
                self._tables = tables
        return self._tables

    def resolve_places(self, lat, lon, columns):
        """Resolves `lat` and `lon` once into `columns`: COLUMN_TYPES' arrays and some of
        PLACE_COLUMN_TYPES' (those left out are not computed); the GIL is released for the
        call."""
        n = len(lat)
        if n == 0:
            return 0
        six = Columns(*(columns[name].ctypes.data for name, _ in COLUMN_TYPES))
        places = PlaceColumns(*(columns[name].ctypes.data if name in columns else None for name, _ in PLACE_COLUMN_TYPES))
        done = self.lib.geonews_resolve_places(self.handle, lat.ctypes.data, lon.ctypes.data, n, ctypes.addressof(six),
                                               ctypes.addressof(places))
        if done < 0:
            raise DataError(f"geonews_resolve_places refused its arguments ({done})")
        return done

    def locate_json(self, lat, lon, language):
        """geonews_locate_json's text for one position; ValueError for a position that is not
        one, DataError for a file it cannot read."""
        size = 2048
        while True:
            buffer = ctypes.create_string_buffer(size)
            n = self.lib.geonews_locate_json(self.handle, lat, lon, language.encode() if language else None, buffer, size)
            if n == -2 or n == -3:
                field, value, bound = ("latitude", lat, "-90…90") if n == -2 else ("longitude", lon, "-180…180")
                if not math.isfinite(value):
                    raise ValueError(f"{field} {value!r} is not a finite number")
                raise ValueError(f"{field} {value!r} is outside {bound}")
            if n == -4:
                raise DataError(buffer.value.decode("utf-8", "replace"))
            if n < 0:
                raise DataError("geonews_locate_json refused its arguments")
            if n < size:
                return buffer.raw[:n].decode("utf-8")
            size = n + 1


# geonews_columns (geonews.h): the arrays, in order, and their element types.
COLUMN_TYPES = [("country", np.int16), ("suggested", np.int16), ("reason", np.int8), ("zone", np.int16),
                ("distance_km", np.float64), ("error", np.int8)]


class Columns(ctypes.Structure):
    _fields_ = [(name, ctypes.c_void_p) for name, _ in COLUMN_TYPES]


# geonews_place_columns (geonews.h).
PLACE_COLUMN_TYPES = [("region", np.int32), ("place", np.int32), ("place_distance_km", np.float64)]


class PlaceColumns(ctypes.Structure):
    _fields_ = [(name, ctypes.c_void_p) for name, _ in PLACE_COLUMN_TYPES]


_lock = threading.Lock()
_tables_lock = threading.Lock()
_library = None


def library():
    """The process's library and handle, opened at the first call."""
    global _library
    if _library is None:
        with _lock:
            if _library is None:
                data = data_path()
                _library = Library(library_path(), data, index_folder(data))
    return _library
