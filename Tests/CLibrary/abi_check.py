#!/usr/bin/env python3
"""libgeonews's C interface through ctypes, as a Python caller sees it: the version, the
answers for known positions, the error results of positions out of range, NULL and bounds
handling, and the message of a data folder that cannot be opened, cut to the caller's buffer.
Prints one line per check and "c library abi: N passed, M failed" last; exits 1 on a failure.

usage: abi_check.py LIBRARY DATA_DIR
"""
import ctypes
import json
import math
import os
import re
import sys
import tempfile

passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok    {name}")
    else:
        failed += 1
        print(f"FAIL  {name} {detail}")


class Result(ctypes.Structure):
    _fields_ = [("country", ctypes.c_int32), ("suggested", ctypes.c_int32), ("reason", ctypes.c_int32),
                ("zone", ctypes.c_int32), ("distance_km", ctypes.c_double), ("error", ctypes.c_int32),
                ("reserved", ctypes.c_int32)]


def main():
    lib = ctypes.CDLL(sys.argv[1])
    data = sys.argv[2].encode()
    handle_t = ctypes.c_void_p
    lib.geonews_version.restype = ctypes.c_char_p
    lib.geonews_open.restype = handle_t
    lib.geonews_open.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t]
    lib.geonews_close.argtypes = [handle_t]
    lib.geonews_open_at.restype = handle_t
    lib.geonews_open_at.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t]
    doubles = ctypes.POINTER(ctypes.c_double)
    lib.geonews_resolve.argtypes = [handle_t, doubles, doubles, ctypes.c_size_t, ctypes.POINTER(Result)]
    lib.geonews_resolve.restype = ctypes.c_int64
    lib.geonews_country_count.argtypes = [handle_t]
    for name in ("geonews_country_iso2", "geonews_country_iso3", "geonews_country_name", "geonews_zone_id"):
        getattr(lib, name).restype = ctypes.c_char_p
        getattr(lib, name).argtypes = [handle_t, ctypes.c_int32]
    lib.geonews_reason_name.restype = ctypes.c_char_p
    lib.geonews_reason_name.argtypes = [ctypes.c_int32]

    release = re.search(r'static let version = "([0-9.]+)"', open("Sources/GeoNewsVersion/GeoNewsRelease.swift").read()).group(1)
    check(f"geonews_version() is the release, {release}", lib.geonews_version().decode() == release)
    check("geonews_abi_version() is 1", lib.geonews_abi_version() == 1)

    error = ctypes.create_string_buffer(512)
    handle = lib.geonews_open(data, error, len(error))
    check("geonews_open opens Data/", bool(handle), error.value)
    if not handle:
        return
    count = lib.geonews_country_count(handle)
    check(f"the catalogue holds over 200 countries and territories ({count})", count > 200)
    codes = [lib.geonews_country_iso2(handle, i).decode() for i in range(count)]
    names = [lib.geonews_country_name(handle, i).decode() for i in range(count)]
    france = names.index("France")
    check("France's entry is FR, FRA", codes[france] == "FR" and lib.geonews_country_iso3(handle, france) == b"FRA")
    check("indexes outside the catalogue give NULL",
          lib.geonews_country_iso2(handle, -1) is None and lib.geonews_country_name(handle, count) is None)

    positions = [(48.8566, 2.3522), (0.0, -30.0), (-21.1151, 55.5364), (91.0, 0.0), (math.nan, 0.0),
                 (0.0, 180.5), (0.0, math.inf), (90.0, 180.0), (-90.0, -180.0)]
    n = len(positions)
    lat = (ctypes.c_double * n)(*[p[0] for p in positions])
    lon = (ctypes.c_double * n)(*[p[1] for p in positions])
    out = (Result * n)()
    resolved = lib.geonews_resolve(handle, lat, lon, n, out)
    check(f"5 of the 9 positions are resolved ({resolved})", resolved == 5)

    def answer(i):
        r = out[i]
        name = lambda c: (lib.geonews_country_iso2(handle, c) or b"").decode()
        return (name(r.country), name(r.suggested), (lib.geonews_reason_name(r.reason) or b"").decode(),
                (lib.geonews_zone_id(handle, r.zone) or b"").decode(), round(r.distance_km, 3), r.error)

    check("Paris: FR, inside, Europe/Paris", answer(0) == ("FR", "FR", "inside", "Europe/Paris", 0.0, 0), answer(0))
    a = answer(1)
    check("the middle of the Atlantic: no country, Etc/GMT+2, the nearest marker",
          a[0] == "" and a[2] == "nearest-marker" and a[3] == "Etc/GMT+2" and a[4] > 1000 and a[5] == 0, a)
    check("Réunion: RE, France by sovereignty", answer(2)[:3] == ("RE", "FR", "sovereign"), answer(2))
    for i, code in ((3, 1), (4, 1), (5, 2), (6, 2)):
        r = out[i]
        check(f"{positions[i]} is error {code}, with no country, reason or zone",
              r.error == code and r.country == -1 and r.suggested == -1 and r.reason == -1
              and r.zone == -2**31 and r.distance_km == 0 and lib.geonews_zone_id(handle, r.zone) is None)
    check("the poles' corners resolve", out[7].error == 0 and out[8].error == 0 and answer(8)[0] == "AQ", (answer(7), answer(8)))

    class Columns(ctypes.Structure):
        _fields_ = [(name, ctypes.c_void_p) for name in ("country", "suggested", "reason", "zone", "distance_km", "error")]

    lib.geonews_resolve_columns.restype = ctypes.c_int64
    lib.geonews_resolve_columns.argtypes = [handle_t, doubles, doubles, ctypes.c_size_t, ctypes.POINTER(Columns)]
    for name in ("geonews_code", "geonews_zone_name"):
        getattr(lib, name).restype = ctypes.c_char_p
        getattr(lib, name).argtypes = [handle_t, ctypes.c_int32]
    lib.geonews_code_count.argtypes = [handle_t]
    lib.geonews_zone_name_count.argtypes = [handle_t]
    codes = [lib.geonews_code(handle, k).decode() for k in range(lib.geonews_code_count(handle))]
    zones = [lib.geonews_zone_name(handle, k).decode() for k in range(lib.geonews_zone_name_count(handle))]
    check(f"the distinct codes ({len(codes)}) and zone ids ({len(zones)}) are sorted and unique",
          codes == sorted(set(codes)) and zones == sorted(set(zones)) and "FR" in codes and "Etc/GMT+2" in zones
          and lib.geonews_code(handle, len(codes)) is None)
    country, suggested, zone = (ctypes.c_int16 * n)(), (ctypes.c_int16 * n)(), (ctypes.c_int16 * n)()
    reason, err, km = (ctypes.c_int8 * n)(), (ctypes.c_int8 * n)(), (ctypes.c_double * n)()
    columns = Columns(*(ctypes.cast(a, ctypes.c_void_p) for a in (country, suggested, reason, zone, km, err)))
    same = lib.geonews_resolve_columns(handle, lat, lon, n, ctypes.byref(columns)) == resolved
    for i in range(n):
        r = out[i]
        iso = lambda c: lib.geonews_country_iso2(handle, c).decode() if c >= 0 else None
        by_row = (iso(r.country), iso(r.suggested), r.reason, (lib.geonews_zone_id(handle, r.zone) or b"").decode() or None,
                  r.distance_km, r.error)
        by_column = (codes[country[i]] if country[i] >= 0 else None, codes[suggested[i]] if suggested[i] >= 0 else None,
                     reason[i], zones[zone[i]] if zone[i] >= 0 else None, km[i], err[i])
        same = same and by_row == by_column
    check("geonews_resolve_columns gives each position's answer as geonews_resolve does", same)
    skipped = Columns(ctypes.cast(country, ctypes.c_void_p), None, None, None, None, None)
    check("a NULL column is left out", lib.geonews_resolve_columns(handle, lat, lon, n, ctypes.byref(skipped)) == resolved)
    # The zone and the error alone take the zones' index only: the same zones and errors.
    zone2, err2 = (ctypes.c_int16 * n)(*([7] * n)), (ctypes.c_int8 * n)(*([9] * n))
    zoned = Columns(None, None, None, ctypes.cast(zone2, ctypes.c_void_p), None, ctypes.cast(err2, ctypes.c_void_p))
    check("the zone alone is the same zone, with the same errors",
          lib.geonews_resolve_columns(handle, lat, lon, n, ctypes.byref(zoned)) == resolved
          and list(zone2) == list(zone) and list(err2) == list(err), (list(zone2), list(zone)))

    check("a NULL argument gives -1", lib.geonews_resolve(handle, None, lon, n, out) == -1
          and lib.geonews_resolve(None, lat, lon, n, out) == -1)
    check("no positions give 0, with NULL arrays", lib.geonews_resolve(handle, None, None, 0, None) == 0)
    check("reason names outside 0..3 are NULL", lib.geonews_reason_name(4) is None and lib.geonews_reason_name(-1) is None)

    lib.geonews_locate_json.restype = ctypes.c_int64
    lib.geonews_locate_json.argtypes = [handle_t, ctypes.c_double, ctypes.c_double, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t]
    text = ctypes.create_string_buffer(4096)
    length = lib.geonews_locate_json(handle, 48.8566, 2.3522, None, text, len(text))
    paris = json.loads(text.value) if 0 < length < len(text) else {}
    check("geonews_locate_json: Paris in France, Île-de-France, Europe/Paris, its length returned",
          length == len(text.value) and paris.get("country", {}).get("iso2") == "FR"
          and paris.get("region", {}).get("iso3166_2") == "FR-IDF" and paris.get("timeZone") == "Europe/Paris", text.value[:200])
    german = ctypes.create_string_buffer(4096)
    lib.geonews_locate_json(handle, 48.8566, 2.3522, b"de", german, len(german))
    check("geonews_locate_json names in the language asked for", json.loads(german.value)["country"]["name"] == "Frankreich", german.value[:160])
    short = ctypes.create_string_buffer(b"\xff" * 16)
    check("a short buffer gets the text cut and terminated, and the whole length back",
          lib.geonews_locate_json(handle, 48.8566, 2.3522, None, short, 10) == length and short.raw[9] == 0
          and short.raw[:9] == text.raw[:9] and short.raw[10] == 0xFF)
    check("a NULL buffer of size 0 gives the length alone", lib.geonews_locate_json(handle, 48.8566, 2.3522, None, None, 0) == length)
    check("geonews_locate_json: -1 for a NULL handle or buffer, -2 for a latitude, -3 for a longitude",
          [lib.geonews_locate_json(None, 0, 0, None, text, 10), lib.geonews_locate_json(handle, 0, 0, None, None, 10),
           lib.geonews_locate_json(handle, 91, 0, None, text, 10), lib.geonews_locate_json(handle, math.nan, 0, None, text, 10),
           lib.geonews_locate_json(handle, 0, -180.5, None, text, 10), lib.geonews_locate_json(handle, 0, math.inf, None, text, 10)]
          == [-1, -1, -2, -2, -3, -3])

    class PlaceColumns(ctypes.Structure):
        _fields_ = [("region", ctypes.POINTER(ctypes.c_int32)), ("place", ctypes.POINTER(ctypes.c_int32)),
                    ("place_distance_km", ctypes.POINTER(ctypes.c_double))]
    for name in ("geonews_region_iso3166_2", "geonews_region_geonames", "geonews_region_name", "geonews_place_name"):
        getattr(lib, name).restype = ctypes.c_char_p
        getattr(lib, name).argtypes = [handle_t, ctypes.c_int32]
    lib.geonews_place_geonameid.restype = ctypes.c_int64
    lib.geonews_place_geonameid.argtypes = [handle_t, ctypes.c_int32]
    lib.geonews_region_count.argtypes = lib.geonews_place_count.argtypes = [handle_t]
    lib.geonews_load_places.argtypes = [handle_t, ctypes.c_char_p, ctypes.c_size_t]
    lib.geonews_resolve_places.restype = ctypes.c_int64
    lib.geonews_resolve_places.argtypes = [handle_t, doubles, doubles, ctypes.c_size_t, ctypes.c_void_p, ctypes.POINTER(PlaceColumns)]
    fresh = lib.geonews_open(data, error, len(error))
    check("before geonews_load_places, no regions or places and NULL names",
          lib.geonews_region_count(fresh) == 0 and lib.geonews_place_count(fresh) == 0 and lib.geonews_region_name(fresh, 0) is None)
    spots = [(48.8566, 2.3522), (0.0, -30.0), (91.0, 0.0), (40.7128, -74.006)]
    plat, plon = (ctypes.c_double * 4)(*[p[0] for p in spots]), (ctypes.c_double * 4)(*[p[1] for p in spots])
    regions, places, km = (ctypes.c_int32 * 4)(), (ctypes.c_int32 * 4)(), (ctypes.c_double * 4)()
    columns = PlaceColumns(regions, places, km)
    done = lib.geonews_resolve_places(fresh, plat, plon, 4, None, ctypes.byref(columns))
    check(f"geonews_resolve_places loads at its first call and resolves 3 of 4 ({done})", done == 3)
    check(f"regions ({lib.geonews_region_count(fresh)}) and places ({lib.geonews_place_count(fresh)}) are there after it",
          lib.geonews_region_count(fresh) > 3000 and lib.geonews_place_count(fresh) > 100_000)
    paris = (lib.geonews_region_iso3166_2(fresh, regions[0]), lib.geonews_region_geonames(fresh, regions[0]),
             lib.geonews_region_name(fresh, regions[0]).decode(), lib.geonews_place_name(fresh, places[0]).decode(),
             lib.geonews_place_geonameid(fresh, places[0]), round(km[0], 3))
    check("Paris: FR-IDF, FR.11, Île-de-France; Paris 04 Hôtel-de-Ville, 3013131, 0.404 km",
          paris == (b"FR-IDF", b"FR.11", "Île-de-France", "Paris 04 Hôtel-de-Ville", 3013131, 0.404), paris)
    check("the open Atlantic and a latitude of 91 have no region and no place",
          list(regions[1:3]) == [-1, -1] and list(places[1:3]) == [-1, -1] and km[1] == 0 and km[2] == 0)
    check("New York: US-NY", lib.geonews_region_iso3166_2(fresh, regions[3]) == b"US-NY")
    def six(call):
        arrays = [(ctypes.c_int16 * 4)(), (ctypes.c_int16 * 4)(), (ctypes.c_int8 * 4)(), (ctypes.c_int16 * 4)(),
                  (ctypes.c_double * 4)(), (ctypes.c_int8 * 4)()]
        call(Columns(*(ctypes.addressof(a) for a in arrays)))
        return [list(a) for a in arrays]
    alone = six(lambda c: lib.geonews_resolve_columns(fresh, plat, plon, 4, ctypes.byref(c)))
    together = six(lambda c: lib.geonews_resolve_places(fresh, plat, plon, 4, ctypes.byref(c), ctypes.byref(PlaceColumns(None, None, None))))
    check("geonews_resolve_places writes the six columns too, as geonews_resolve_columns does", alone == together, (alone, together))
    check("indexes outside the regions and places give NULL and -1",
          lib.geonews_region_name(fresh, -1) is None and lib.geonews_place_name(fresh, 1 << 30) is None
          and lib.geonews_place_geonameid(fresh, -1) == -1)
    check("geonews_resolve_places: -1 for a NULL argument, 0 for none", lib.geonews_resolve_places(fresh, None, plon, 4, None, ctypes.byref(columns)) == -1
          and lib.geonews_resolve_places(None, plat, plon, 4, None, ctypes.byref(columns)) == -1
          and lib.geonews_resolve_places(fresh, None, None, 0, None, None) == 0)
    check("geonews_load_places again is 0", lib.geonews_load_places(fresh, error, len(error)) == 0)
    lib.geonews_close(fresh)

    lib.geonews_close(handle)
    lib.geonews_close(None)
    check("closing NULL is ignored", True)

    with tempfile.TemporaryDirectory() as scratch:
        folder = os.path.join(scratch, "indexes", "here").encode()
        error = ctypes.create_string_buffer(512)
        opened = lib.geonews_open_at(data, folder, error, len(error))
        made = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
        check("geonews_open_at unpacks the indexes into a folder it makes, and answers from them",
              bool(opened) and made == [b"area-index.bin", b"land-index.bin"], (error.value, made))
        if opened:
            r = (Result * 1)()
            lib.geonews_resolve(opened, (ctypes.c_double * 1)(48.8566), (ctypes.c_double * 1)(2.3522), 1, r)
            check("a handle opened there answers Paris", lib.geonews_country_iso2(opened, r[0].country) == b"FR")
            lib.geonews_close(opened)
        blocked = os.path.join(scratch, "a-file").encode()
        open(blocked, "w").close()
        check("an index folder that is a file is refused with a message naming it",
              lib.geonews_open_at(data, blocked, error, len(error)) is None and blocked in error.value, error.value)

    missing = b"/nonexistent/geonews-data"
    error = ctypes.create_string_buffer(512)
    check("a missing folder gives NULL and a message naming its file",
          lib.geonews_open(missing, error, len(error)) is None and b"/nonexistent/geonews-data/" in error.value, error.value)
    small = ctypes.create_string_buffer(b"\xff" * 12)
    lib.geonews_open(missing, small, 12)
    check("the message is cut to the buffer and terminated", small.raw[11] == 0 and len(small.value) == 11, small.raw)
    check("no buffer is written to with a size of 0 or a NULL buffer",
          lib.geonews_open(missing, None, 0) is None and lib.geonews_open(missing, small, 0) is None)


main()
print(f"c library abi: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
