"""Decodes geonews-serve's vector tiles with an independent decoder (PyPI mapbox-vector-tile,
pinned in Tests/API/requirements.txt) and checks them against the server's own GeoJSON:
the same features, at the pixel Web Mercator puts them, with the same properties; and that
an uploaded dataset's tiles add up to every point it holds.

    python3 Tests/API/check_tiles.py .build/debug/geonews-serve

Prints one line per check and exits 1 on the first failure."""
import json
import math
import sys

import mapbox_vector_tile

from live_server import LiveServer

EXTENT = 4096
BUFFER = 40 / 512  # ClusterOptions.radius / ClusterOptions.extent, as a share of the tile


def pixel(lon, lat, z, x, y):
    """Web Mercator pixel of a position in tile (z, x, y) of EXTENT units, as the spec draws it."""
    n = 2 ** z
    s = math.sin(math.radians(lat))
    my = min(max(0.5 - 0.25 * math.log((1 + s) / (1 - s)) / math.pi, 0), 1)
    return (EXTENT * ((lon / 360 + 0.5) * n - x), EXTENT * (my * n - y))


def vector_tile(server, z, x, y, query=""):
    status, headers, body = server.get(f"/v1/tiles/{z}/{x}/{y}.mvt{query}")
    if status == 204:
        assert body == b"", body
        return []
    assert status == 200, (status, body)
    assert headers["Content-Type"] == "application/vnd.mapbox-vector-tile", headers
    assert headers.get("ETag"), headers
    decoded = mapbox_vector_tile.decode(body, default_options={"y_coord_down": True})
    if not body:
        return []
    layer = decoded["clusters"]
    assert layer["extent"] == EXTENT and layer["version"] == 2, (layer["extent"], layer["version"])
    return layer["features"]


def geojson_tile(server, z, x, y, query=""):
    status, headers, body = server.get(f"/v1/tiles/{z}/{x}/{y}.geojson{query}")
    assert status == 200, (status, body)
    assert headers["Content-Type"] == "application/geo+json", headers
    return json.loads(body)["features"]


def inside(feature):
    px, py = feature["geometry"]["coordinates"]
    return 0 <= px < EXTENT and 0 <= py < EXTENT


def key(properties):
    return ("c", properties["cluster_id"]) if properties.get("cluster") else ("p", properties["id"])


def check_against_geojson(server, z, x, y, query=""):
    """Every GeoJSON feature of the tile is in the vector tile at its Mercator pixel (±1 unit
    of rounding) with the same properties; the vector tile's others lie in the buffer."""
    vector = vector_tile(server, z, x, y, query)
    plain = geojson_tile(server, z, x, y, query)
    copies = {}
    for f in vector:
        copies.setdefault(key(f["properties"]), []).append(f)
    matched = set()
    for f in plain:
        p = f["properties"]
        ex, ey = pixel(*f["geometry"]["coordinates"], z, x, y)
        # Near the antimeridian a feature may also come again, wrapped, in the buffer.
        near = [v for v in copies.get(key(p), [])
                if abs(v["geometry"]["coordinates"][0] - ex) <= 1 and abs(v["geometry"]["coordinates"][1] - ey) <= 1]
        assert len(near) == 1, f"{z}/{x}/{y}: {key(p)} at Web Mercator {ex:.1f},{ey:.1f}: vector tile has {copies.get(key(p))}"
        v = near[0]
        matched.add(id(v))
        expected = dict(p)
        if "members" in expected:
            expected["members"] = json.dumps(expected["members"], separators=(",", ":"))
        if p.get("cluster"):
            assert v["id"] == p["cluster_id"] == f["id"], (v["id"], p["cluster_id"], f.get("id"))
        assert v["properties"] == expected, f"{key(p)}: {v['properties']} != {expected}"
    margin = BUFFER * EXTENT + 1
    for v in vector:
        if id(v) not in matched:
            px, py = v["geometry"]["coordinates"]
            assert not inside(v) or min(px, py, EXTENT - px, EXTENT - py) <= 1, f"{key(v['properties'])} at {px},{py} only in the vector tile"
            assert -margin <= px <= EXTENT + margin and -margin <= py <= EXTENT + margin, (px, py)
    return vector, plain


def main():
    executable = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/geonews-serve"
    with LiveServer(executable) as server:
        # The 54 markers at zoom 0: one tile holds them all, as /v1/clusters?zoom=0 does.
        vector, plain = check_against_geojson(server, 0, 0, 0)
        world = json.loads(server.get("/v1/clusters?bbox=-180,-90,180,90&zoom=0")[2])["features"]
        assert len(plain) == len(world), (len(plain), len(world))
        assert sum(f["properties"].get("point_count", 1) for f in vector if inside(f)) == 54
        print(f"ok: tile 0/0/0 has {len(vector)} features for the 54 markers, as /v1/clusters at zoom 0")

        # Zoom 3 over Europe and on both sides of the antimeridian (New Zealand), and zoom 5 over
        # France and Japan, where markers stand alone.
        for z, x, y in [(3, 4, 2), (3, 7, 5), (3, 0, 5), (5, 16, 11), (5, 28, 12)]:
            vector, plain = check_against_geojson(server, z, x, y)
            print(f"ok: tile {z}/{x}/{y}: {len(plain)} features inside, {len(vector) - len(plain)} more in the buffer")
        fr = [f for f in vector_tile(server, 5, 16, 11) if f["properties"].get("id") == "FR"]
        assert len(fr) == 1 and fr[0]["properties"]["name"] == "France", fr
        print(f"ok: France's marker in tile 5/16/11 at {fr[0]['geometry']['coordinates']}")

        # Uploads carry a user's bearer token: datasets belong to whoever uploads them.
        status, _, body = server.request("POST", "/v1/users")
        assert status == 201, (status, body)
        upload = {"Content-Type": "text/csv", "Authorization": "Bearer " + json.loads(body)["token"]}

        # An upload of 40 x 25 points: the tiles of zoom 1 add up to all 1000.
        rows = ["lat,lon"] + [f"{-60 + 5 * i},{-170 + 8.5 * j}" for i in range(25) for j in range(40)]
        status, _, body = server.request("POST", "/v1/datasets?name=grid", "\n".join(rows).encode(),
                                         upload)
        assert status == 201, (status, body)
        dataset = json.loads(body)["id"]
        total = 0
        for x in range(2):
            for y in range(2):
                vector, _ = check_against_geojson(server, 1, x, y, f"?dataset={dataset}")
                total += sum(f["properties"].get("point_count", 1) for f in vector if inside(f))
        assert total == 1000, total
        print("ok: an uploaded grid of 1000 points: the four tiles of zoom 1 count 1000")

        # An empty tile is 204 with no body, which decodes to no layers.
        status, _, body = server.get("/v1/tiles/6/0/0.mvt")
        assert status == 204 and body == b"" and mapbox_vector_tile.decode(body) == {}, (status, body)
        print("ok: an empty tile is 204, zero bytes")

        # A dense upload: 100,000 points over 100 m. Zoom 0 is one cluster without members; at
        # zoom 17, where they stand alone, the tile stops at 500,000 bytes and still decodes.
        rows = ["lat,lon,id"] + [f"{48.8505 + (i % 400) / 400000},{2.349 + (i // 400) / 250000},p{i:07d}" for i in range(100_000)]
        status, _, body = server.request("POST", "/v1/datasets?name=dense", "\n".join(rows).encode(),
                                         upload)
        assert status == 201, (status, body)
        dense = json.loads(body)["id"]
        vector, plain = check_against_geojson(server, 0, 0, 0, f"?dataset={dense}")
        assert len(plain) == 1 and "members" not in plain[0]["properties"], plain
        status, _, body = server.get(f"/v1/tiles/17/66391/45095.mvt?dataset={dense}")
        assert status == 200 and 400_000 < len(body) <= 500_000, (status, len(body))
        features = mapbox_vector_tile.decode(body, default_options={"y_coord_down": True})["clusters"]["features"]
        print(f"ok: a dense tile of 100,000 lone points is {len(body)} bytes, {len(features)} features")
    print("tiles: all checks passed")


if __name__ == "__main__":
    main()
