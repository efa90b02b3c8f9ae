#!/usr/bin/env python3
"""Draw the seeded property-test points around OpenStreetMap's land polygons.

Run by `Scripts/build_land.py --fixtures` (and `--check-fixtures`), which extracts the land
polygons (`.build-data/osm-land.wkb`, pinned by sha256) and runs this file with the numpy and
shapely it pins by version and sha256; it is not meant to be run with other versions, since the
points are only reproducible with the very same random generator and GEOS.

Three CSV files, 20,000 rows each, `lat,lon` in degrees with 6 decimals (the points were
tested as rounded, so each file holds exactly what was tested):
- `osm-land-points.csv` (`lat,lon,polygon`): points on land. A polygon is drawn uniformly among
  all 745,676 (so a rock of a few metres counts as much as Eurasia), then a point uniform by
  area inside it: uniform in its bounding box (longitude uniform, sine of latitude uniform),
  kept when inside the polygon, 8 then 64 tries; a polygon that still has none gives shapely's
  point_on_surface; where even that point leaves the polygon once rounded (polygons a few
  centimetres wide), another polygon is drawn. `polygon` is the polygon's 0-based index in the
  MultiPolygon.
- `osm-near-coast-points.csv` (`lat,lon,km,polygon`): points at sea 1.1 to 20.9 km from the
  nearest land. A polygon is drawn uniformly, a point uniformly along its outer ring's length,
  then a bearing (uniform) and a distance (uniform, 1 to 21 km) on the sphere; the point is kept
  when it is on no polygon and its measured distance to land is within [1.1, 20.9] km. `km` is
  that distance, `polygon` the index of the nearest polygon.
- `osm-far-sea-points.csv` (`lat,lon`): points farther than 23.2 km from every land. The first
  half are uniform on the sphere (between 60°S and 84°N), the second half are drawn as the
  near-coast points but 23.5 to 60 km out, so that the set is not only mid-ocean; each is kept
  when it is on no polygon and no land lies within 23.2 km.

No point lies south of 60°S (Antarctica is decided by a rule of its own) and no far-sea point
north of 84°N; drawn points there are dropped.

Distances are great-circle distances on a sphere of radius 6371.0088 km (the IUGG mean
radius) to the nearest point of any ring, each edge taken as the great-circle arc between its
vertices, computed exactly with unit vectors (no projection). The candidates come from an
STRtree of the rings cut into runs of at most 64 edges: a run's box is its vertices' box widened
in latitude by the most a great-circle edge can bulge (tan φ · L² / 8R for an edge of length L
at latitude φ), and a point's query box holds the whole spherical cap of the reach around it
(longitude half-width asin(sin ρ / cos φ), the whole circle when the cap holds a pole), split
at the antimeridian. A run is measured exactly only when the cap around its vertices may come
within the distance of the nearest run vertex found for that point.

Usage: python Scripts/osm_land_fixtures.py --land .build-data/osm-land.wkb --out DIR
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import shapely

NUMPY_VERSION = "2.4.6"
SHAPELY_VERSION = "2.2.0"
GEOS_VERSION = "3.14.1"  # bundled in the pinned shapely wheel
SEED = 20260745676  # fixed; changing it redraws every point
COUNT = 20_000
EARTH_KM = 6371.0088
SOUTH_LIMIT = -60.0
FAR_SEA_NORTH_LIMIT = 84.0
NEAR_KM = (1.0, 21.0)            # drawn distance from a ring
NEAR_KEEP_KM = (1.1, 20.9)       # measured distance kept
FAR_DRAW_KM = (23.5, 60.0)
FAR_KEEP_KM = 23.2               # every land farther than this
RUN_EDGES = 64                   # edges per indexed run of a ring
BATCH = 8_192                    # candidates drawn per round, whatever was kept before
PAIR_EDGES = 2_000_000           # edges measured at once (memory: about 100 bytes each)


def unit_vectors(lon_deg: np.ndarray, lat_deg: np.ndarray) -> np.ndarray:
    lon, lat = np.radians(lon_deg), np.radians(lat_deg)
    return np.stack([np.cos(lat) * np.cos(lon), np.cos(lat) * np.sin(lon), np.sin(lat)], axis=1)


def lon_lat(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return (np.degrees(np.arctan2(v[:, 1], v[:, 0])),
            np.degrees(np.arctan2(v[:, 2], np.hypot(v[:, 0], v[:, 1]))))


def rounded(values: np.ndarray) -> np.ndarray:
    """6 decimals, as written; + 0.0 turns -0.0 into 0.0."""
    return np.round(values, 6) + 0.0


def chord_angle(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Angle between unit vectors from their chord: accurate for small angles."""
    return 2.0 * np.arcsin(np.minimum(np.linalg.norm(a - b, axis=1) / 2.0, 1.0))


def arc_distance(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Angle from each point p to the great-circle arc from a to b (all unit vectors, n × 3)."""
    n = np.cross(a, b - a)  # = a × b, without the cancellation of two nearly equal vectors
    norm = np.linalg.norm(n, axis=1)
    edge = norm > 1e-12      # shorter edges (under 6 µm) count as their end points
    n /= np.where(edge, norm, 1.0)[:, None]
    s = np.einsum("ij,ij->i", p, n)  # sine of the angle to the whole great circle
    foot = p - s[:, None] * n
    # The foot of the perpendicular lies on the arc when it is past a (towards b) and before b.
    on_arc = edge & (np.einsum("ij,ij->i", foot, np.cross(n, a)) >= 0) \
        & (np.einsum("ij,ij->i", foot, np.cross(b, n)) >= 0)
    ends = np.minimum(chord_angle(p, a), chord_angle(p, b))
    return np.where(on_arc, np.arcsin(np.minimum(np.abs(s), 1.0)), ends)


def destination(v: np.ndarray, bearing: np.ndarray, km: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(lon, lat) in degrees reached from unit vectors v along bearings (radians) for km."""
    lon0, lat0 = (np.radians(x) for x in lon_lat(v))
    d = km / EARTH_KM
    lat = np.arcsin(np.clip(np.sin(lat0) * np.cos(d) + np.cos(lat0) * np.sin(d) * np.cos(bearing),
                            -1.0, 1.0))
    lon = lon0 + np.arctan2(np.sin(bearing) * np.sin(d) * np.cos(lat0),
                            np.cos(d) - np.sin(lat0) * np.sin(lat))
    lon = (lon + np.pi) % (2 * np.pi) - np.pi
    return np.degrees(lon), np.degrees(lat)


class Land:
    """The land polygons, an index of their rings and the distance to them."""

    def __init__(self, wkb: bytes):
        started = time.monotonic()
        self.polygons = shapely.get_parts(shapely.from_wkb(wkb))
        self.bounds = shapely.bounds(self.polygons)
        self.polygon_tree = shapely.STRtree(self.polygons)
        rings, ring_polygon = shapely.get_rings(self.polygons, return_index=True)
        coords, vertex_ring = shapely.get_coordinates(rings, return_index=True)
        self.ring_polygon = ring_polygon
        # get_rings gives each polygon's outer ring first.
        self.outer_ring = np.searchsorted(ring_polygon, np.arange(len(self.polygons)))
        self.xyz = unit_vectors(coords[:, 0], coords[:, 1])

        # Edges: a vertex and the next one of the same ring.
        edge_start = np.nonzero(vertex_ring[:-1] == vertex_ring[1:])[0]
        edge_ring = vertex_ring[edge_start]
        self.edge_start = edge_start
        self.edge_length = chord_angle(self.xyz[edge_start], self.xyz[edge_start + 1])
        self.length_sum = np.concatenate([[0.0], np.cumsum(self.edge_length)])
        ring_ids = np.arange(len(rings))
        self.ring_first_edge = np.searchsorted(edge_ring, ring_ids)
        self.ring_end_edge = np.searchsorted(edge_ring, ring_ids, side="right")

        # Runs of at most RUN_EDGES consecutive edges of one ring, boxed for the STRtree.
        position = edge_start - np.searchsorted(vertex_ring, edge_ring)
        new_run = np.ones(len(edge_start), dtype=bool)
        new_run[1:] = (edge_ring[1:] != edge_ring[:-1]) | \
            (position[1:] // RUN_EDGES != position[:-1] // RUN_EDGES)
        self.run_first = np.nonzero(new_run)[0]
        self.run_end = np.append(self.run_first[1:], len(edge_start))
        self.run_ring = edge_ring[self.run_first]
        lon_a, lat_a = coords[edge_start, 0], coords[edge_start, 1]
        lon_b, lat_b = coords[edge_start + 1, 0], coords[edge_start + 1, 1]
        west = np.minimum.reduceat(np.minimum(lon_a, lon_b), self.run_first)
        east = np.maximum.reduceat(np.maximum(lon_a, lon_b), self.run_first)
        south = np.minimum.reduceat(np.minimum(lat_a, lat_b), self.run_first)
        north = np.maximum.reduceat(np.maximum(lat_a, lat_b), self.run_first)
        # A great-circle edge bulges poleward of its ends by at most about tan φ · L² / 8
        # (radians); meridians (equal longitudes) do not bulge.
        steepest = np.radians(np.minimum(np.maximum(np.abs(lat_a), np.abs(lat_b)), 89.9))
        bulge = np.where(lon_a == lon_b, 0.0, np.tan(steepest) * self.edge_length ** 2 / 8 * 1.5)
        bulge = np.degrees(np.maximum.reduceat(bulge, self.run_first)) + 1e-9
        self.run_tree = shapely.STRtree(shapely.box(west, np.maximum(south - bulge, -90.0),
                                                    east, np.minimum(north + bulge, 90.0)))
        # A cap around each run's vertices (caps are convex, so the run's arcs stay inside).
        ends = np.append(self.run_first, len(edge_start))
        first_vertex = edge_start[self.run_first]
        last_vertex = edge_start[ends[1:] - 1] + 1
        count = last_vertex - first_vertex + 1
        run_of_vertex = np.repeat(np.arange(len(self.run_first)), count)
        vertex = np.arange(count.sum()) - np.repeat(np.cumsum(count) - count, count) \
            + np.repeat(first_vertex, count)
        centre = np.add.reduceat(self.xyz[vertex], np.cumsum(count) - count)
        centre /= np.linalg.norm(centre, axis=1)[:, None]
        spread = chord_angle(self.xyz[vertex], centre[run_of_vertex])
        self.run_centre = centre
        self.run_radius = np.maximum.reduceat(spread, np.cumsum(count) - count) * (1 + 1e-9) + 1e-12
        self.prepared = np.zeros(len(self.polygons), dtype=bool)
        print(f"  {len(self.polygons):,} polygons, {len(rings):,} rings, {len(edge_start):,} edges "
              f"in {len(self.run_first):,} runs, indexed in {time.monotonic() - started:.1f} s",
              file=sys.stderr)

    # ------------------------------------------------------------ on land
    def contains(self, polygon: np.ndarray, lon: np.ndarray, lat: np.ndarray) -> np.ndarray:
        """Whether each point is inside the polygon of the same position (GEOS, prepared)."""
        todo = np.unique(polygon[~self.prepared[polygon]])
        if len(todo):
            shapely.prepare(self.polygons[todo])
            self.prepared[todo] = True
        return shapely.contains_xy(self.polygons[polygon], lon, lat)

    def on_land(self, lon: np.ndarray, lat: np.ndarray) -> np.ndarray:
        point, polygon = self.polygon_tree.query(shapely.points(lon, lat))
        inside = self.contains(polygon, lon[point], lat[point])
        result = np.zeros(len(lon), dtype=bool)
        result[point[inside]] = True
        return result

    # ------------------------------------------------------------ distance to land
    def nearest(self, lon: np.ndarray, lat: np.ndarray, reach_km: float) -> tuple[np.ndarray, np.ndarray]:
        """(km, polygon) of the nearest land of each point, exact where it lies within reach_km;
        (inf, -1) where no land lies within reach_km. Meaningful for points not on land."""
        rho = reach_km / EARTH_KM
        half_lat = np.degrees(rho) * 1.001 + 1e-9
        pole = np.abs(lat) + half_lat >= 90.0
        ratio = np.sin(rho) / np.cos(np.radians(np.minimum(np.abs(lat), 89.999)))
        half_lon = np.where(pole | (ratio >= 1.0), 360.0,
                            np.degrees(np.arcsin(np.minimum(ratio, 1.0))) * 1.001 + 1e-9)
        west, east = lon - half_lon, lon + half_lon
        south, north = np.maximum(lat - half_lat, -90.0), np.minimum(lat + half_lat, 90.0)
        whole = half_lon >= 180.0
        owner = [np.arange(len(lon))]
        boxes = [shapely.box(np.where(whole, -180.0, np.maximum(west, -180.0)), south,
                             np.where(whole, 180.0, np.minimum(east, 180.0)), north)]
        wraps_west, wraps_east = ~whole & (west < -180.0), ~whole & (east > 180.0)
        owner += [np.nonzero(wraps_west)[0], np.nonzero(wraps_east)[0]]
        boxes += [shapely.box(west[wraps_west] + 360.0, south[wraps_west], 180.0, north[wraps_west]),
                  shapely.box(-180.0, south[wraps_east], east[wraps_east] - 360.0, north[wraps_east])]
        box_index, run = self.run_tree.query(np.concatenate(boxes))
        point = np.concatenate(owner)[box_index]
        order = np.lexsort((run, point))
        point, run = point[order], run[order]

        p = unit_vectors(lon, lat)
        # Prune with the runs' caps: a run cannot be nearer than its centre minus its radius,
        # nor farther than its first vertex.
        centre_angle = chord_angle(p[point], self.run_centre[run])
        low = centre_angle - self.run_radius[run]
        high = chord_angle(p[point], self.xyz[self.edge_start[self.run_first[run]]])
        bound = np.full(len(lon), rho)
        np.minimum.at(bound, point, high)
        keep = low <= bound[point]
        point, run = point[keep], run[keep]

        edges = self.run_end[run] - self.run_first[run]
        edges_before = np.concatenate([[0], np.cumsum(edges)])
        pair_angle = np.empty(len(run))
        start = 0
        while start < len(run):
            stop = max(start + 1, int(np.searchsorted(edges_before, edges_before[start] + PAIR_EDGES)) - 1)
            n = edges[start:stop]
            offsets = np.cumsum(n) - n
            edge = np.repeat(self.run_first[run[start:stop]] - offsets, n) + np.arange(n.sum())
            a = self.xyz[self.edge_start[edge]]
            b = self.xyz[self.edge_start[edge] + 1]
            angle = arc_distance(np.repeat(p[point[start:stop]], n, axis=0), a, b)
            pair_angle[start:stop] = np.minimum.reduceat(angle, offsets)
            start = stop

        km = np.full(len(lon), np.inf)
        polygon = np.full(len(lon), -1)
        if len(run):
            order = np.lexsort((run, pair_angle, point))
            first = order[np.r_[True, point[order][1:] != point[order][:-1]]]
            found = pair_angle[first] <= rho
            km[point[first[found]]] = pair_angle[first[found]] * EARTH_KM
            polygon[point[first[found]]] = self.ring_polygon[self.run_ring[run[first[found]]]]
        return km, polygon

    # ------------------------------------------------------------ drawing points
    def point_on_outer_ring(self, polygon: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Unit vectors uniform along the length of each polygon's outer ring."""
        ring = self.outer_ring[polygon]
        first, end = self.ring_first_edge[ring], self.ring_end_edge[ring]
        along = self.length_sum[first] + rng.random(len(polygon)) * \
            (self.length_sum[end] - self.length_sum[first])
        edge = np.clip(np.searchsorted(self.length_sum, along, side="right") - 1, first, end - 1)
        length = self.edge_length[edge]
        t = np.where(length > 0, (along - self.length_sum[edge]) / np.where(length > 0, length, 1), 0)
        t = np.clip(t, 0, 1)
        a, b = self.xyz[self.edge_start[edge]], self.xyz[self.edge_start[edge] + 1]
        v = (1 - t)[:, None] * a + t[:, None] * b
        return v / np.linalg.norm(v, axis=1)[:, None]

    def point_inside(self, polygon: np.ndarray,
                     rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(lon, lat, found): a point uniform by area in each polygon, rounded to 6 decimals."""
        west, south, east, north = (self.bounds[polygon, k] for k in range(4))
        lon, lat = np.zeros(len(polygon)), np.zeros(len(polygon))
        found = np.zeros(len(polygon), dtype=bool)
        for tries in (8, 64):
            todo = np.nonzero(~found)[0]
            u, w = rng.random((len(todo), tries)), rng.random((len(todo), tries))
            x = rounded(west[todo, None] + u * (east - west)[todo, None])
            sin_s, sin_n = np.sin(np.radians(south[todo])), np.sin(np.radians(north[todo]))
            y = rounded(np.degrees(np.arcsin(np.clip(sin_s[:, None] + w * (sin_n - sin_s)[:, None], -1, 1))))
            inside = self.contains(np.repeat(polygon[todo], tries), x.ravel(), y.ravel()).reshape(x.shape)
            hit = inside.any(axis=1)
            pick = inside.argmax(axis=1)
            rows = todo[hit]
            lon[rows], lat[rows] = x[hit, pick[hit]], y[hit, pick[hit]]
            found[rows] = True
        todo = np.nonzero(~found)[0]
        if len(todo):
            surface = shapely.point_on_surface(self.polygons[polygon[todo]])
            x, y = rounded(shapely.get_x(surface)), rounded(shapely.get_y(surface))
            ok = self.contains(polygon[todo], x, y)
            lon[todo[ok]], lat[todo[ok]] = x[ok], y[ok]
            found[todo[ok]] = True
        return lon, lat, found


# ---------------------------------------------------------------- the three sets
def land_points(land: Land, rng: np.random.Generator) -> list[str]:
    rows: list[str] = []
    while len(rows) < COUNT:
        polygon = rng.integers(0, len(land.polygons), BATCH)
        lon, lat, found = land.point_inside(polygon, rng)
        keep = found & (lat >= SOUTH_LIMIT)
        rows += [f"{y:.6f},{x:.6f},{p}" for x, y, p in zip(lon[keep], lat[keep], polygon[keep])]
    return rows[:COUNT]


def off_ring_points(land: Land, rng: np.random.Generator, km_range: tuple[float, float]):
    """(lon, lat) rounded: from a uniform polygon's outer ring, a uniform bearing and distance."""
    polygon = rng.integers(0, len(land.polygons), BATCH)
    start = land.point_on_outer_ring(polygon, rng)
    bearing = rng.random(BATCH) * 2 * np.pi
    km = km_range[0] + rng.random(BATCH) * (km_range[1] - km_range[0])
    lon, lat = destination(start, bearing, km)
    return rounded(lon), rounded(lat)


def near_coast_points(land: Land, rng: np.random.Generator) -> list[str]:
    rows: list[str] = []
    while len(rows) < COUNT:
        lon, lat = off_ring_points(land, rng, NEAR_KM)
        keep = np.nonzero((lat >= SOUTH_LIMIT) & ~land.on_land(lon, lat))[0]
        km, polygon = land.nearest(lon[keep], lat[keep], NEAR_KEEP_KM[1])
        ok = (km >= NEAR_KEEP_KM[0]) & (km <= NEAR_KEEP_KM[1])
        rows += [f"{y:.6f},{x:.6f},{d:.3f},{p}"
                 for x, y, d, p in zip(lon[keep][ok], lat[keep][ok], km[ok], polygon[ok])]
    return rows[:COUNT]


def far_sea_points(land: Land, rng: np.random.Generator) -> list[str]:
    def far(lon: np.ndarray, lat: np.ndarray) -> list[str]:
        keep = np.nonzero((lat >= SOUTH_LIMIT) & (lat <= FAR_SEA_NORTH_LIMIT) & ~land.on_land(lon, lat))[0]
        km, _ = land.nearest(lon[keep], lat[keep], FAR_KEEP_KM)
        ok = km > FAR_KEEP_KM
        return [f"{y:.6f},{x:.6f}" for x, y in zip(lon[keep][ok], lat[keep][ok])]

    uniform: list[str] = []
    sin_s, sin_n = np.sin(np.radians(SOUTH_LIMIT)), np.sin(np.radians(FAR_SEA_NORTH_LIMIT))
    while len(uniform) < COUNT // 2:
        lon = rounded(-180.0 + 360.0 * rng.random(BATCH))
        lat = rounded(np.degrees(np.arcsin(sin_s + rng.random(BATCH) * (sin_n - sin_s))))
        uniform += far(np.where(lon == 180.0, -180.0, lon), lat)
    coastal: list[str] = []
    while len(coastal) < COUNT - COUNT // 2:
        coastal += far(*off_ring_points(land, rng, FAR_DRAW_KM))
    return uniform[:COUNT // 2] + coastal[:COUNT - COUNT // 2]


SETS = (("osm-land-points.csv", "lat,lon,polygon", land_points),
        ("osm-near-coast-points.csv", "lat,lon,km,polygon", near_coast_points),
        ("osm-far-sea-points.csv", "lat,lon", far_sea_points))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--land", type=Path, required=True, help="osm-land.wkb")
    parser.add_argument("--out", type=Path, required=True, help="folder for the three CSV files")
    args = parser.parse_args()
    versions = (np.__version__, shapely.__version__, shapely.geos_version_string)
    if versions != (NUMPY_VERSION, SHAPELY_VERSION, GEOS_VERSION):
        print(f"osm_land_fixtures: numpy {versions[0]}, shapely {versions[1]}, GEOS {versions[2]}; "
              f"the fixtures are drawn with numpy {NUMPY_VERSION}, shapely {SHAPELY_VERSION}, "
              f"GEOS {GEOS_VERSION} (run Scripts/build_land.py --fixtures)", file=sys.stderr)
        return 2
    started = time.monotonic()
    land = Land(args.land.read_bytes())
    args.out.mkdir(parents=True, exist_ok=True)
    for number, (name, header, draw) in enumerate(SETS):
        began = time.monotonic()
        # One generator per set, so that each set can be drawn (and changed) on its own.
        rows = draw(land, np.random.Generator(np.random.PCG64([SEED, number])))
        (args.out / name).write_text(header + "\n" + "\n".join(rows) + "\n", encoding="ascii")
        print(f"  {name}: {len(rows):,} points in {time.monotonic() - began:.1f} s", file=sys.stderr)
    print(f"  fixtures drawn in {time.monotonic() - started:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
