#!/usr/bin/env python3
"""Writes a deterministic CSV of real-world-like GPS fixes for `geonews resolve` benchmarks.

Columns: trace_id,time,lat,lon,accuracy_m. Traces of 500 fixes each, of three kinds:
  - city (50 %): a phone wandering around one of 80 large cities (about 5 km of jitter);
  - road (30 %): a vehicle driving between two cities of neighbouring countries, across a border;
  - sea  (20 %): a ship on a great-circle-ish straight line over open ocean.
Times are epoch seconds, 10 s apart. Same seed, same bytes.

With --uniform, positions uniform over the sphere's area instead (latitude is the inverse sine
of a uniform variate, so each square kilometre is as likely as any other: about 70 % fall at
sea), as `id,lat,lon`.

usage: generate_positions.py ROWS OUT.csv [--seed N] [--uniform]
"""
import argparse
import math
import random

CITIES = [
    ("Paris", 48.8566, 2.3522), ("Lyon", 45.764, 4.8357), ("Strasbourg", 48.5734, 7.7521),
    ("Geneva", 46.2044, 6.1432), ("Zurich", 47.3769, 8.5417), ("Milan", 45.4642, 9.19),
    ("Turin", 45.0703, 7.6869), ("Rome", 41.9028, 12.4964), ("Munich", 48.1351, 11.582),
    ("Berlin", 52.52, 13.405), ("Hamburg", 53.5511, 9.9937), ("Vienna", 48.2082, 16.3738),
    ("Prague", 50.0755, 14.4378), ("Warsaw", 52.2297, 21.0122), ("Brussels", 50.8503, 4.3517),
    ("Amsterdam", 52.3676, 4.9041), ("Luxembourg", 49.6116, 6.1319), ("Madrid", 40.4168, -3.7038),
    ("Barcelona", 41.3874, 2.1686), ("Lisbon", 38.7223, -9.1393), ("London", 51.5072, -0.1276),
    ("Dublin", 53.3498, -6.2603), ("Copenhagen", 55.6761, 12.5683), ("Stockholm", 59.3293, 18.0686),
    ("Oslo", 59.9139, 10.7522), ("Helsinki", 60.1699, 24.9384), ("Budapest", 47.4979, 19.0402),
    ("Bucharest", 44.4268, 26.1025), ("Athens", 37.9838, 23.7275), ("Istanbul", 41.0082, 28.9784),
    ("Kyiv", 50.4501, 30.5234), ("Moscow", 55.7558, 37.6173), ("Cairo", 30.0444, 31.2357),
    ("Lagos", 6.5244, 3.3792), ("Nairobi", -1.2921, 36.8219), ("Johannesburg", -26.2041, 28.0473),
    ("Casablanca", 33.5731, -7.5898), ("Tunis", 36.8065, 10.1815), ("Dubai", 25.2048, 55.2708),
    ("Riyadh", 24.7136, 46.6753), ("Tehran", 35.6892, 51.389), ("Karachi", 24.8607, 67.0011),
    ("Delhi", 28.7041, 77.1025), ("Mumbai", 19.076, 72.8777), ("Dhaka", 23.8103, 90.4125),
    ("Bangkok", 13.7563, 100.5018), ("Singapore", 1.3521, 103.8198), ("Jakarta", -6.2088, 106.8456),
    ("Manila", 14.5995, 120.9842), ("Hong Kong", 22.3193, 114.1694), ("Shanghai", 31.2304, 121.4737),
    ("Beijing", 39.9042, 116.4074), ("Seoul", 37.5665, 126.978), ("Tokyo", 35.6762, 139.6503),
    ("Osaka", 34.6937, 135.5023), ("Sydney", -33.8688, 151.2093), ("Melbourne", -37.8136, 144.9631),
    ("Auckland", -36.8485, 174.7633), ("Suva", -18.1248, 178.4501), ("Honolulu", 21.3069, -157.8583),
    ("Los Angeles", 34.0522, -118.2437), ("San Francisco", 37.7749, -122.4194), ("Seattle", 47.6062, -122.3321),
    ("Vancouver", 49.2827, -123.1207), ("Chicago", 41.8781, -87.6298), ("Toronto", 43.6532, -79.3832),
    ("Montreal", 45.5019, -73.5674), ("New York", 40.7128, -74.006), ("Miami", 25.7617, -80.1918),
    ("Mexico City", 19.4326, -99.1332), ("Bogota", 4.711, -74.0721), ("Lima", -12.0464, -77.0428),
    ("Santiago", -33.4489, -70.6693), ("Buenos Aires", -34.6037, -58.3816), ("Sao Paulo", -23.5505, -46.6333),
    ("Rio de Janeiro", -22.9068, -43.1729), ("Caracas", 10.4806, -66.9036), ("Anchorage", 61.2181, -149.9003),
    ("Reykjavik", 64.1466, -21.9426), ("Tijuana", 32.5149, -117.0382),
]

# Pairs of cities on either side of at least one border.
ROADS = [
    ("Paris", "Geneva"), ("Geneva", "Milan"), ("Lyon", "Turin"), ("Strasbourg", "Zurich"),
    ("Munich", "Vienna"), ("Vienna", "Budapest"), ("Berlin", "Prague"), ("Berlin", "Warsaw"),
    ("Brussels", "Amsterdam"), ("Luxembourg", "Strasbourg"), ("Madrid", "Lisbon"), ("Barcelona", "Lyon"),
    ("Hamburg", "Copenhagen"), ("Stockholm", "Oslo"), ("Bucharest", "Istanbul"), ("Kyiv", "Warsaw"),
    ("San Francisco", "Tijuana"), ("Seattle", "Vancouver"), ("Toronto", "Chicago"), ("Montreal", "New York"),
    ("Buenos Aires", "Santiago"), ("Bangkok", "Singapore"), ("Delhi", "Karachi"), ("Dhaka", "Delhi"),
    ("Cairo", "Riyadh"), ("Tunis", "Casablanca"), ("Milan", "Munich"), ("Zurich", "Munich"),
]

SEA_LANES = [  # (lat, lon) endpoints over open water
    ((45.0, -40.0), (35.0, -15.0)), ((10.0, -30.0), (-20.0, -10.0)), ((0.0, 170.0), (10.0, -160.0)),
    ((-30.0, 60.0), (-10.0, 90.0)), ((30.0, 150.0), (20.0, 175.0)), ((-50.0, -120.0), (-40.0, -90.0)),
    ((15.0, 62.0), (5.0, 75.0)), ((-15.0, 179.0), (-20.0, -175.0)),
]

TRACE_FIXES = 500


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("rows", type=int)
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=20240501)
    ap.add_argument("--uniform", action="store_true", help="positions uniform over the sphere")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    if a.uniform:
        return write_uniform(a.rows, a.out, rng)
    city = {name: (lat, lon) for name, lat, lon in CITIES}
    t0 = 1714521600  # 2024-05-01T00:00:00Z
    written = 0
    trace = 0
    with open(a.out, "w", buffering=1 << 20) as f:
        f.write("trace_id,time,lat,lon,accuracy_m\n")
        while written < a.rows:
            trace += 1
            n = min(TRACE_FIXES, a.rows - written)
            kind = rng.random()
            lines = []
            t = t0 + trace * 7
            tid = f"t{trace}"
            if kind < 0.5:
                _, clat, clon = CITIES[rng.randrange(len(CITIES))]
                lat, lon = clat + rng.gauss(0, 0.03), clon + rng.gauss(0, 0.04)
                for i in range(n):
                    lat += rng.gauss(0, 0.0008)
                    lon += rng.gauss(0, 0.001)
                    lines.append(f"{tid},{t + 10 * i},{lat:.6f},{lon:.6f},{rng.randint(3, 30)}\n")
            else:
                if kind < 0.8:
                    a_name, b_name = ROADS[rng.randrange(len(ROADS))]
                    (lat0, lon0), (lat1, lon1) = city[a_name], city[b_name]
                    if rng.random() < 0.5:
                        lat0, lon0, lat1, lon1 = lat1, lon1, lat0, lon0
                    noise = 0.01
                else:
                    (lat0, lon0), (lat1, lon1) = SEA_LANES[rng.randrange(len(SEA_LANES))]
                    noise = 0.05
                dlon = ((lon1 - lon0 + 540) % 360) - 180  # the short way, across the antimeridian too
                for i in range(n):
                    s = i / max(1, n - 1)
                    lat = lat0 + (lat1 - lat0) * s + rng.gauss(0, noise)
                    lon = ((lon0 + dlon * s + rng.gauss(0, noise) + 540) % 360) - 180
                    lines.append(f"{tid},{t + 10 * i},{lat:.6f},{lon:.6f},{rng.randint(3, 30)}\n")
            f.write("".join(lines))
            written += n


def write_uniform(rows, out, rng):
    with open(out, "w", buffering=1 << 20) as f:
        f.write("id,lat,lon\n")
        for i in range(rows):
            lat = math.degrees(math.asin(rng.uniform(-1, 1)))
            f.write(f"{i},{lat:.6f},{rng.uniform(-180, 180):.6f}\n")


if __name__ == "__main__":
    main()
