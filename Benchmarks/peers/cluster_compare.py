#!/usr/bin/env python3
"""Index the same random points with pysupercluster (the C++ port of mapbox/supercluster) and
with `geonews`, then check both give the same cluster count at every zoom and the same
positions (within 1e-9 degrees), and print build times side by side with their ratio.

    python3 Benchmarks/peers/cluster_compare.py [--points 1000000] [--seed 42]

Creates Benchmarks/peers/.venv on first use (numpy, then pysupercluster built from source with
gcc/g++). Builds `geonews` in release mode unless --geonews names a binary. Exits 1 when the
two disagree.
"""
import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
VENV = os.path.join(HERE, ".venv")
VENV_PYTHON = os.path.join(VENV, "bin", "python")
PEER = "pysupercluster==0.7.7"
TOLERANCE_DEGREES = 1e-9


def ensure_venv():
    """Re-run this script inside Benchmarks/peers/.venv, creating it if needed."""
    if os.path.realpath(sys.prefix) == os.path.realpath(VENV):
        return
    if not os.path.exists(VENV_PYTHON):
        subprocess.check_call([sys.executable, "-m", "venv", VENV])
    pip = [VENV_PYTHON, "-m", "pip", "install", "--quiet"]
    probe = subprocess.run([VENV_PYTHON, "-c", "import pysupercluster"], capture_output=True)
    if probe.returncode != 0:
        subprocess.check_call(pip + ["-r", os.path.join(HERE, "cluster_requirements.txt")])
        # setup.py sets __builtins__.__NUMPY_SETUP__, which fails when a PEP 517 backend
        # exec()s it (AttributeError: 'dict' object has no attribute '__NUMPY_SETUP__');
        # the legacy setup.py path runs it as a script, where it works.
        subprocess.check_call(pip + ["--no-build-isolation", "--no-use-pep517", PEER])
    os.execv(VENV_PYTHON, [VENV_PYTHON] + sys.argv)


def random_points(count, seed):
    """Uniform longitude −180…180 and latitude −85…85 (pysupercluster does not clamp
    latitudes beyond the Mercator map, supercluster does; staying inside avoids that gap)."""
    rng = random.Random(seed)
    return [(rng.uniform(-85, 85), rng.uniform(-180, 180)) for _ in range(count)]


def geonews_binary(path):
    if path:
        return path
    scratch = os.path.join(ROOT, ".build-cluster")
    subprocess.check_call(["swift", "build", "-c", "release", "--scratch-path", scratch, "--product", "geonews"], cwd=ROOT)
    return os.path.join(scratch, "release", "geonews")


def run_peer(points, min_zoom, max_zoom, radius, extent):
    import numpy
    import pysupercluster

    array = numpy.array([(lon, lat) for lat, lon in points], dtype=numpy.float64)
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    index = pysupercluster.SuperCluster(array, min_zoom=min_zoom, max_zoom=max_zoom, radius=radius, extent=extent)
    build = time.perf_counter() - start
    rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    levels = {}
    query_zoom5 = None
    for zoom in range(min_zoom, max_zoom + 1):
        start = time.perf_counter()
        found = index.getClusters(top_left=(-180, 90), bottom_right=(180, -90), zoom=zoom)
        if zoom == 5:
            query_zoom5 = time.perf_counter() - start
        levels[zoom] = [(c["count"], c["latitude"], c["longitude"]) for c in found]
    return build, (rss_after - rss_before) // 1024, query_zoom5, levels


def run_geonews(binary, csv_path, dump_path, min_zoom, max_zoom, radius, extent):
    command = [binary, "bench", "cluster", "--input", csv_path, "--dump", dump_path, "--repeats", "5",
               "--altitudes", "15000km,5000km", "--min-zoom", str(min_zoom), "--max-zoom", str(max_zoom),
               "--radius", str(radius), "--extent", str(extent)]
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    print("".join("    " + line + "\n" for line in output.splitlines() if not line.startswith("json ")), end="")
    summary = json.loads(next(line for line in output.splitlines() if line.startswith("json "))[5:])
    levels = {}
    with open(dump_path) as dump:
        for line in dump:
            zoom, _kind, count, lat, lon = line.rstrip("\n").split("\t")
            levels.setdefault(int(zoom), []).append((int(count), float(lat), float(lon)))
    return summary, levels


def compare(peer, ours):
    """Same number of items, and each of ours matched one-to-one to a peer item with the same
    count within 1e-9 degrees. Returns (same, largest coordinate difference matched)."""
    if len(peer) != len(ours):
        return False, float("nan")
    cell = 1e-6  # buckets much wider than the tolerance: a match is in its own or a next bucket
    buckets = {}
    for i, (count, lat, lon) in enumerate(peer):
        buckets.setdefault((round(lat / cell), round(lon / cell)), []).append(i)
    used = [False] * len(peer)
    worst = 0.0
    for count, lat, lon in ours:
        match = None
        ky, kx = round(lat / cell), round(lon / cell)
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                for i in buckets.get((ky + dy, kx + dx), ()):
                    c, plat, plon = peer[i]
                    d = max(abs(plat - lat), abs(plon - lon))
                    if not used[i] and c == count and d <= TOLERANCE_DEGREES:
                        match = (i, d)
                        break
                if match:
                    break
            if match:
                break
        if not match:
            return False, worst
        used[match[0]] = True
        worst = max(worst, match[1])
    return True, worst


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--points", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--min-zoom", type=int, default=0)
    parser.add_argument("--max-zoom", type=int, default=16)
    parser.add_argument("--radius", type=float, default=40)
    parser.add_argument("--extent", type=float, default=512)
    parser.add_argument("--geonews", help="geonews binary (default: build one in release mode)")
    args = parser.parse_args()
    ensure_venv()

    binary = geonews_binary(args.geonews)
    points = random_points(args.points, args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        csv_path = os.path.join(tmp, "points.csv")
        with open(csv_path, "w") as f:
            f.write("lat,lon\n")
            f.writelines(f"{lat!r},{lon!r}\n" for lat, lon in points)
        print(f"{args.points} uniform random points (seed {args.seed}), zooms {args.min_zoom}-{args.max_zoom}, "
              f"radius {args.radius:g}, extent {args.extent:g}")
        print("geonews:")
        summary, ours = run_geonews(binary, csv_path, os.path.join(tmp, "levels.tsv"),
                                    args.min_zoom, args.max_zoom, args.radius, args.extent)
    peer_build, peer_rss, peer_query5, peer = run_peer(points, args.min_zoom, args.max_zoom, args.radius, args.extent)

    print()
    print(f"{'':24}{'build s':>9}{'peak RSS MB':>13}")
    print(f"{'pysupercluster 0.7.7':24}{peer_build:9.3f}{peer_rss:>13}  (RSS growth of the Python process)")
    print(f"{'geonews':24}{summary['build_seconds']:9.3f}{summary['peak_rss_mb']:>13}  (peak of the whole process)")
    print(f"build ratio pysupercluster / geonews: {peer_build / summary['build_seconds']:.1f}x")
    if peer_query5 is not None:
        print(f"pysupercluster whole-world query at zoom 5: {peer_query5 * 1000:.2f} ms (including Python dicts)")
    print()
    print(f"{'zoom':>4}{'peer items':>12}{'our items':>12}{'max |d| deg':>14}  result")
    failures = 0
    for zoom in range(args.min_zoom, args.max_zoom + 1):
        same, worst = compare(peer.get(zoom, []), ours.get(zoom, []))
        failures += 0 if same else 1
        print(f"{zoom:>4}{len(peer.get(zoom, [])):>12}{len(ours.get(zoom, [])):>12}{worst:>14.2e}  {'same' if same else 'DIFFERENT'}")
    levels = args.max_zoom - args.min_zoom + 1
    if failures:
        print(f"comparison: {failures} of {levels} zooms differ")
        sys.exit(1)
    print(f"comparison: same cluster counts and positions (within {TOLERANCE_DEGREES:g} deg) at all {levels} zooms")


if __name__ == "__main__":
    main()
