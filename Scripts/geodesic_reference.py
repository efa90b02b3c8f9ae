#!/usr/bin/env python3
"""Write the WGS 84 geodesic reference pairs the Swift tests compare `Geodesic.wgs84` with.

Every pair is solved by GeographicLib's own Python implementation, `Geodesic.WGS84.Inverse`
(C. F. F. Karney), at the version pinned below and installed, hash-checked, into a git-ignored
venv (Scripts/.venv-geodesic). The pairs come from a seeded generator, so the file is the same
on every run; `--check` regenerates it and compares it with the committed one: byte for byte, or, where this
machine's libm rounds a last bit differently, number by number to a few ulps.

Usage: python3 Scripts/geodesic_reference.py [--check] [--out FILE]
Exit codes: 0 ok, 1 --check found a difference, 3 the pinned package could not be installed.

Columns: kind, lat1, lon1, lat2, lon2 (degrees, as the generator drew them), s12 (metres),
azi1, azi2 (degrees, GeographicLib's convention: -180...180, azi2 continuing the path).
"""
from __future__ import annotations

import argparse
import io
import math
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "Tests/GeoNewsGeodesyTests/Fixtures/geodesic-reference.csv"
VENV = REPO / "Scripts/.venv-geodesic"
PIN = "geographiclib==2.1"
WHEEL_SHA256 = "e2a873b9b9e7fc38721ad73d5f4e6c9ed140d428a339970f505c07056997d40b"
SEED = 20130101  # Karney's paper appeared in January 2013


def ensure_venv() -> None:
    """Re-executes this script inside the venv, creating it and installing the pin if needed."""
    python = VENV / "bin" / "python"
    if Path(sys.prefix).resolve() == VENV.resolve():
        return
    try:
        if not python.exists():
            subprocess.check_call([sys.executable, "-m", "venv", str(VENV)])
        stamp = VENV / ".pinned"
        if not stamp.exists() or stamp.read_text() != f"{PIN} {WHEEL_SHA256}\n":
            with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as req:
                req.write(f"{PIN} --hash=sha256:{WHEEL_SHA256}\n")
            subprocess.check_call([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                                   "--require-hashes", "--only-binary=:all:", "-r", req.name])
            os.unlink(req.name)
            stamp.write_text(f"{PIN} {WHEEL_SHA256}\n")
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"geodesic_reference: could not install {PIN} into {VENV}: {e}", file=sys.stderr)
        sys.exit(3)
    os.execv(str(python), [str(python), str(Path(__file__).resolve())] + sys.argv[1:])


def uniform_on_sphere(rng: random.Random) -> tuple[float, float]:
    return math.degrees(math.asin(rng.uniform(-1, 1))), rng.uniform(-180, 180)


def wrap(lon: float) -> float:
    """A longitude folded into -180...180 (the generator's offsets may step over the antimeridian)."""
    return (lon + 180) % 360 - 180 if abs(lon) > 180 else lon


def pairs(rng: random.Random):
    """(kind, lat1, lon1, lat2, lon2) in a fixed order; every value rounded to 12 decimals."""
    def r(x: float) -> float:
        return round(x, 12)

    for _ in range(1500):  # anywhere to anywhere, uniform over the sphere
        (a, b), (c, d) = uniform_on_sphere(rng), uniform_on_sphere(rng)
        yield "random", r(a), r(b), r(c), r(d)
    for i in range(600):  # short lines: 1 mm to 100 km
        a, b = uniform_on_sphere(rng)
        size = 10 ** rng.uniform(-8, 0)  # degrees
        c = max(-90.0, min(90.0, a + size * rng.uniform(-1, 1)))
        yield "short", r(a), r(b), r(c), r(wrap(b + size * rng.uniform(-1, 1)))
    for _ in range(100):  # exactly antipodal
        a, b = uniform_on_sphere(rng)
        yield "antipodal", r(a), r(b), r(-a), r(wrap(b + 180))
    for i in range(600):  # nearly antipodal: 1e-3 to 1e-9 degrees away from the antipode
        a, b = uniform_on_sphere(rng)
        if i % 3 == 0:
            a = rng.uniform(-1, 1)  # near the equator, where the astroid case is hardest
        off = 10 ** rng.uniform(-9, -3)
        dlat, dlon = off * rng.uniform(-1, 1), off * rng.uniform(-1, 1)
        yield "nearly-antipodal", r(a), r(b), r(-a + dlat), r(wrap(b + 180 + dlon))
    for _ in range(250):  # on the equator, up to and past where it stops being the shortest path
        b = rng.uniform(-180, 180)
        dlon = rng.choice([rng.uniform(0, 180), 180 - 10 ** rng.uniform(-6, 0.5), 180])
        yield "equatorial", 0.0, r(b), 0.0, r(wrap(b + rng.choice([-1, 1]) * dlon))
    for _ in range(250):  # along a meridian, and over a pole onto the opposite meridian
        a, b = uniform_on_sphere(rng)
        c = math.degrees(math.asin(rng.uniform(-1, 1)))
        yield "meridional", r(a), r(b), r(c), r(b if rng.random() < 0.5 else wrap(b + 180))
    for _ in range(150):  # from or to a pole, and pole to pole
        a, b = uniform_on_sphere(rng)
        pole = rng.choice([90.0, -90.0])
        if rng.random() < 0.5:
            yield "polar", pole, r(b), r(a), r(rng.uniform(-180, 180))
        else:
            yield "polar", r(a), r(b), rng.choice([pole, -pole]), r(rng.uniform(-180, 180))
    for _ in range(250):  # across the antimeridian, short and long
        a, c = uniform_on_sphere(rng)[0], uniform_on_sphere(rng)[0]
        span = 10 ** rng.uniform(-6, 1.5)
        yield "antimeridian", r(a), r(180 - span * rng.random()), r(c), r(-180 + span * rng.random())
    for _ in range(50):  # the same point twice, and ±180 as one meridian
        a, b = uniform_on_sphere(rng)
        yield "coincident", r(a), r(b), r(a), r(b)
        yield "coincident", r(a), 180.0, r(a), -180.0


def build() -> str:
    from geographiclib.geodesic import Geodesic
    import geographiclib
    g = Geodesic.WGS84
    out = io.StringIO()
    out.write(f"# WGS 84 geodesics from geographiclib {geographiclib.__version__} Geodesic.WGS84.Inverse; "
              f"written by Scripts/geodesic_reference.py (seed {SEED}); do not edit\n")
    out.write("kind,lat1,lon1,lat2,lon2,s12,azi1,azi2\n")
    for kind, a, b, c, d in pairs(random.Random(SEED)):
        inv = g.Inverse(a, b, c, d)
        out.write(f"{kind},{a!r},{b!r},{c!r},{d!r},{inv['s12']!r},{inv['azi1']!r},{inv['azi2']!r}\n")
    return out.getvalue()


def numeric_differences(committed: str, fresh: str) -> str | None:
    """None when two builds hold the same pairs, the numbers agreeing to a few ulps; else why not.

    Another libm (a different machine) may round sin, atan2 or pow differently in the last bit,
    which moves a generated input by 1e-15 degrees or a distance by a nanometre: far below what
    the tests check, so such a build still counts as the same reference."""
    if committed.splitlines()[:1] != fresh.splitlines()[:1]:
        return "the first line (source and seed) differs"
    old = [line.split(",") for line in committed.splitlines()[1:]]
    new = [line.split(",") for line in fresh.splitlines()[1:]]
    if len(old) != len(new):
        return f"{len(old) - 1} pairs committed, {len(new) - 1} built"
    for number, (a, b) in enumerate(zip(old, new), start=2):
        if a[0] != b[0] or len(a) != len(b):
            return f"line {number}: '{','.join(a)}' against '{','.join(b)}'"
        if a[0] == "kind":
            continue
        x, y = [float(v) for v in a[1:]], [float(v) for v in b[1:]]
        inputs = max(abs(p - q) for p, q in zip(x[:4], y[:4]))
        metres = abs(x[4] - y[4])
        degrees = max(abs((p - q + 180) % 360 - 180) for p, q in zip(x[5:], y[5:]))
        if inputs > 1e-11 or metres > 1e-6 or degrees > 1e-6 * max(1.0, 1e3 / max(x[4], 1e-3)):
            return (f"line {number}: inputs differ by {inputs:.3g}°, s12 by {metres:.3g} m, "
                    f"azimuths by {degrees:.3g}°")
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="regenerate and compare with the committed file")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where to write (default: %(default)s)")
    args = parser.parse_args()
    text = build()
    rows = text.count("\n") - 2
    if args.check:
        committed = args.out.read_text() if args.out.exists() else ""
        if committed == text:
            print(f"geodesic_reference: {args.out} is up to date, byte for byte ({rows} pairs, {PIN})")
            return 0
        why = numeric_differences(committed, text) if committed else "the file is missing"
        if why:
            print(f"geodesic_reference: {args.out} differs from a fresh build: {why}; "
                  "rerun python3 Scripts/geodesic_reference.py", file=sys.stderr)
            return 1
        print(f"geodesic_reference: {args.out} is up to date to the last bits of this machine's libm "
              f"({rows} pairs, {PIN})")
        return 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    print(f"geodesic_reference: wrote {rows} pairs to {args.out} with {PIN}")
    return 0


if __name__ == "__main__":
    ensure_venv()
    sys.exit(main())
