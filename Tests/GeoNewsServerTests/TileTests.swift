import Foundation
import XCTest

/// `/v1/tiles/{z}/{x}/{y}.geojson | .mvt`. The vector tiles' contents are checked with an
/// independent decoder by Tests/API/check_tiles.py; here the routes, headers and refusals.
final class TileTests: XCTestCase {
    func testGeoJSONTileHoldsTheClustersOfItsBox() async throws {
        let server = try ServerProcess()
        // Zoom 0's one tile is the world: what /v1/clusters answers at zoom 0.
        let tile = try await server.get("/v1/tiles/0/0/0.geojson")
        XCTAssertEqual(tile.status, 200, tile.text)
        XCTAssertEqual(tile.header("Content-Type"), "application/geo+json")
        let world = try await server.get("/v1/clusters?bbox=-180,-90,180,90&zoom=0")
        XCTAssertEqual(tile.text, world.text)
        // Tile 5/16/11 spans 0…11.25° E, 40.98…48.92° N: the markers of France, Switzerland and
        // Italy (44.73° N, 11.08° E), not Spain's or Germany's.
        let france = try await server.get("/v1/tiles/5/16/11.geojson")
        let features = try XCTUnwrap(try france.object()["features"] as? [[String: Any]])
        let ids = features.compactMap { ($0["properties"] as? [String: Any])?["id"] as? String }
        XCTAssertEqual(ids.sorted(), ["CH", "FR", "IT"])
        for feature in features {
            let c = try XCTUnwrap((feature["geometry"] as? [String: Any])?["coordinates"] as? [Double])
            XCTAssertTrue((0...11.25).contains(c[0]) && (40.97...48.93).contains(c[1]), "\(c)")
        }
    }

    func testVectorTileHasItsTypeAnETagAnd304() async throws {
        let server = try ServerProcess()
        let tile = try await server.get("/v1/tiles/2/2/1.mvt")
        XCTAssertEqual(tile.status, 200)
        XCTAssertEqual(tile.header("Content-Type"), "application/vnd.mapbox-vector-tile")
        // A Tile message starts with field 3 (layers), length-delimited: the key byte 0x1a.
        XCTAssertEqual(tile.body.first, 0x1a)
        XCTAssertTrue(tile.text.contains("clusters") && tile.text.contains("point_count_abbreviated"))
        let tag = try XCTUnwrap(tile.header("ETag"))
        let geoJSON = try await server.get("/v1/tiles/2/2/1.geojson")
        XCTAssertNotEqual(geoJSON.header("ETag"), tag)
        let cached = try await server.get("/v1/tiles/2/2/1.mvt", headers: ["If-None-Match": tag])
        XCTAssertEqual(cached.status, 304)
        // Nothing on the open Pacific at zoom 6: an empty tile is 204, with no body or type.
        let empty = try await server.get("/v1/tiles/6/0/30.mvt")
        XCTAssertEqual(empty.status, 204)
        XCTAssertTrue(empty.body.isEmpty)
        XCTAssertNil(empty.header("Content-Type"))
        XCTAssertNotNil(empty.header("ETag"))
    }

    func testBadTileCoordinatesAreProblems() async throws {
        let server = try ServerProcess()
        try assertProblem(try await server.get("/v1/tiles/a/0/0.mvt"), 400, mentions: ["z", "'a'"])
        try assertProblem(try await server.get("/v1/tiles/33/0/0.mvt"), 400, mentions: ["z", "33", "0…32"])
        try assertProblem(try await server.get("/v1/tiles/3/-1/0.geojson"), 400, mentions: ["x", "-1"])
        try assertProblem(try await server.get("/v1/tiles/3/0/1.5.mvt"), 400, mentions: ["y", "1.5"])
        try assertProblem(try await server.get("/v1/tiles/3/8/0.mvt"), 404, mentions: ["3/8/0", "0…7"])
        try assertProblem(try await server.get("/v1/tiles/3/0/0.png"), 404, mentions: ["0.png"])
        try assertProblem(try await server.get("/v1/tiles/3/0/0.mvt?dataset=nope"), 404, mentions: ["nope"])
        try assertProblem(try await server.send("POST", "/v1/tiles/3/0/0.mvt"), 405)
    }
}
