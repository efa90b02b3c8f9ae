#!/usr/bin/env python3
"""How small the committed packs could be without losing a bit: each stream of
`Data/area-index.pack` and `Data/land-index.pack` as it is (zlib), inflated and compressed again
with xz at its strongest, and the information in the land's vertex differences measured as
entropy. Issue 32 asks for the committed data in one pack under 40 MB; this prints why no
lossless coding reaches it.

Usage: python3 Benchmarks/data/pack_floor.py [--data Data] [--no-xz] [--simplify WKB]
Needs numpy (any recent version). Takes about a minute on two cores (xz -9e on 90 MB).
`--simplify .build-data/osm-land.wkb` (the land `Scripts/build_land.py --ensure` extracts) also
counts the vertices left after a topology-preserving Douglas-Peucker simplification at 2, 5, 10
and 20 m (needs shapely; `Scripts/build_land.py` pins 2.2.0): the lossy way to fewer bytes.

What it reads, as `LandIndexPack` and `AreaIndexPack` document the formats: the header's stream
table (size in the pack, size inflated), then the zlib streams. Streams 1 and 2 of the land
pack are the vertices' longitude and latitude differences, zigzag LEB128 varints in units of
2^-16 degree, one per vertex given.

The entropy figures are lower bounds for a coder that sees one difference at a time:
- order 0: each axis's differences as independent symbols;
- with context: a difference given the size classes (log2 and sign) of the vertex's previous
  differences, the latitude given the longitude's too; the model's own cost is left out, so a
  real coder does worse;
- coarser lattices: the same vertices rounded to 2^-15 … 2^-12 degree (3.4 m … 27 m at the
  equator), which would change answers at the coast.
"""
from __future__ import annotations

import argparse
import lzma
import struct
import sys
import zlib
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]


def streams(path: Path, table_at: int) -> list[tuple[int, bytes]]:
    """Each stream of a pack: (its size in the pack, its inflated bytes)."""
    data = path.read_bytes()
    count = struct.unpack_from("<I", data, 12)[0]
    sizes = [struct.unpack_from("<QQ", data, table_at + 16 * i) for i in range(count)]
    offset = table_at + 16 * count
    out = []
    for packed, plain in sizes:
        raw = zlib.decompress(data[offset:offset + packed])
        if len(raw) != plain:
            sys.exit(f"{path}: a stream inflates to {len(raw)} bytes where the header says {plain}")
        out.append((packed, raw))
        offset += packed
    if offset != len(data):
        sys.exit(f"{path}: {len(data) - offset} bytes after the last stream")
    return out


def varints(raw: bytes) -> np.ndarray:
    """Zigzag LEB128 varints, decoded."""
    b = np.frombuffer(raw, dtype=np.uint8)
    ends = np.nonzero(b < 0x80)[0]
    starts = np.concatenate(([0], ends[:-1] + 1))
    values = np.zeros(len(ends), dtype=np.uint64)
    for k in range(int((ends - starts).max()) + 1):
        at = starts + k
        live = at <= ends
        values[live] |= (b[at[live]].astype(np.uint64) & np.uint64(0x7F)) << np.uint64(7 * k)
    z = values.astype(np.int64)
    return (z >> 1) ^ -(z & 1)


def entropy_bits(symbols: np.ndarray) -> float:
    _, counts = np.unique(symbols, return_counts=True)
    p = counts / counts.sum()
    return float(-(counts * np.log2(p)).sum())


def conditional_bits(symbols: np.ndarray, context: np.ndarray) -> float:
    """Total bits of `symbols` given `context` (H(symbol, context) - H(context))."""
    joint = context.astype(np.int64) * (1 << 40) + (symbols.astype(np.int64) + (1 << 39))
    return entropy_bits(joint) - entropy_bits(context)


def size_class(v: np.ndarray) -> np.ndarray:
    return np.floor(np.log2(np.abs(v) + 1)).astype(np.int64) * 2 + (v < 0)


def mb(n: float) -> str:
    return f"{n / 1e6:.1f} MB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT / "Data")
    parser.add_argument("--no-xz", action="store_true", help="skip the xz column (the slow part)")
    parser.add_argument("--simplify", type=Path, help="OpenStreetMap's land as WKB, to count what simplifying removes")
    args = parser.parse_args()

    packs = [("land-index.pack", 32, ["plain", "x", "y", "corners"]),
             ("area-index.pack", 48, None)]
    totals = {}
    land = None
    print("| pack | stream | inflated | zlib (as committed) | xz -9e |")
    print("|---|---|---:|---:|---:|")
    for name, table_at, names in packs:
        found = streams(args.data / name, table_at)
        if name.startswith("land"):
            land = found
        zsum = xsum = 0
        for i, (packed, raw) in enumerate(found):
            xz = 0 if args.no_xz else len(lzma.compress(raw, preset=9 | lzma.PRESET_EXTREME))
            zsum += packed
            xsum += xz
            label = names[i] if names else str(i)
            print(f"| {name} | {label} | {len(raw):,} | {packed:,} | {xz:,} |")
        totals[name] = (zsum, xsum)
        print(f"| {name} | all | | {zsum:,} | {xsum:,} |")
    z = sum(v[0] for v in totals.values())
    x = sum(v[1] for v in totals.values())
    print(f"\nboth packs: zlib {mb(z)}, xz {mb(x) if not args.no_xz else '(skipped)'}; the goal is under 40 MB")

    assert land is not None
    dx, dy = varints(land[1][1]), varints(land[2][1])
    if len(dx) != len(dy):
        sys.exit("the land pack's x and y streams give different vertex counts")
    n = len(dx)
    order0 = entropy_bits(dx) + entropy_bits(dy)
    px = size_class(np.concatenate(([0], dx[:-1])))
    py = size_class(np.concatenate(([0], dy[:-1])))
    context = conditional_bits(dx, px * 64 + py) + conditional_bits(dy, (px * 64 + py) * 64 + size_class(dx))
    other = sum(len(lzma.compress(land[i][1], preset=9 | lzma.PRESET_EXTREME)) for i in (0, 3)) if not args.no_xz else 0
    print(f"\nthe land's {n:,} vertex differences (2^-16 degree):")
    print(f"  order-0 entropy:       {mb(order0 / 8)}")
    print(f"  entropy with context:  {mb(context / 8)} (the model's own cost left out)")
    print(f"  the rest of the land pack (plain, corners) at xz: {mb(other)}")
    xs, ys = np.cumsum(dx), np.cumsum(dy)
    for shift in (1, 2, 3, 4):
        q = 1 << shift
        qx = np.round(xs / q).astype(np.int64)
        qy = np.round(ys / q).astype(np.int64)
        bits = entropy_bits(np.diff(qx, prepend=0)) + entropy_bits(np.diff(qy, prepend=0))
        metres = 1.7 * q
        print(f"  rounded to 2^-{16 - shift} degree ({metres:.1f} m): order-0 {mb(bits / 8)}")
    if not args.no_xz:
        area_xz = totals["area-index.pack"][1]
        floor = area_xz + other + context / 8
        print(f"\na lossless floor for one pack: the area pack at xz {mb(area_xz)} + the land's rest "
              f"{mb(other)} + its differences {mb(context / 8)} = {mb(floor)}")
    if args.simplify:
        simplified(args.simplify)


def simplified(path: Path) -> None:
    import shapely  # only for --simplify

    parts = shapely.get_parts(shapely.from_wkb(path.read_bytes()))
    before = int(shapely.get_num_coordinates(parts).sum())
    print(f"\n{path.name}: {len(parts):,} polygons, {before:,} vertices; simplified, topology kept:")
    for metres in (2, 5, 10, 20):
        # Degrees of latitude: at every latitude no wider than `metres`.
        after = shapely.simplify(parts, metres / 111_320, preserve_topology=True)
        left = int(shapely.get_num_coordinates(after).sum())
        print(f"  {metres:>2} m: {left:,} vertices ({100 * (1 - left / before):.1f} % fewer), "
              f"{int(shapely.is_empty(after).sum())} polygons lost")


if __name__ == "__main__":
    main()
