import Foundation
import XCTest

/// An upload of 200,000 points: cluster answers and tiles stay bounded (they were 1.89 MB for
/// one feature), clusters carry supercluster's `id`, and leaves come a bounded page at a time.
final class LargeDatasetTests: XCTestCase {
    /// 200,000 points over 0.001° (about 100 m) by the Seine, inside tile 17/66,391/45,095,
    /// each with a 24-character id: as CSV.
    static let csv: String = {
        var rows = ["lat,lon,id"]
        rows.reserveCapacity(200_001)
        for i in 0..<200_000 {
            let lat = 48.8505 + Double(i % 400) / 400_000, lon = 2.349 + Double(i / 400) / 500_000
            rows.append("\(lat),\(lon),sensor-\(String(repeating: "0", count: 17 - String(i).count))\(i)")
        }
        return rows.joined(separator: "\n")
    }()

    func testAnswersStayBoundedForTwoHundredThousandPoints() async throws {
        let server = try ServerProcess()
        let token = try await server.newUser()
        let created = try await server.send(
            "POST", "/v1/datasets?name=dense", token: token, body: Data(Self.csv.utf8), contentType: "text/csv")
        XCTAssertEqual(created.status, 201, created.text)
        let dataset = try XCTUnwrap(try created.object()["id"] as? String)

        let world = try await server.get("/v1/clusters?zoom=0&bbox=-180,-90,180,90&dataset=\(dataset)")
        XCTAssertEqual(world.status, 200)
        XCTAssertLessThan(world.body.count, 1000, world.text)
        let feature = try XCTUnwrap((try world.object()["features"] as? [[String: Any]])?.first)
        let properties = try XCTUnwrap(feature["properties"] as? [String: Any])
        XCTAssertEqual(properties["point_count"] as? Int, 200_000)
        XCTAssertNil(properties["members"])
        let id = try XCTUnwrap(properties["cluster_id"] as? Int)
        XCTAssertEqual(feature["id"] as? Int, id)

        for tile in ["0/0/0", "17/66391/45095", "20/531130/360764"] {
            let answer = try await server.get("/v1/tiles/\(tile).mvt?dataset=\(dataset)")
            XCTAssertEqual(answer.status, 200, tile)
            XCTAssertLessThanOrEqual(answer.body.count, 500_000, tile)
            XCTAssertGreaterThan(answer.body.count, 0, tile)
        }

        // GeoJSON past zoom 16, where the points stand alone: the first that fit, and a count
        // of the others (the tile was 27.5 MB).
        for path in [
            "/v1/tiles/17/66391/45095.geojson?dataset=\(dataset)", "/v1/clusters?zoom=18&bbox=2.34,48.84,2.36,48.86&dataset=\(dataset)",
        ] {
            let answer = try await server.get(path)
            XCTAssertEqual(answer.status, 200, path)
            XCTAssertLessThanOrEqual(answer.body.count, 500_000, path)
            let object = try answer.object()
            let kept = try XCTUnwrap(object["features"] as? [[String: Any]]).count
            XCTAssertGreaterThan(kept, 1000, path)
            XCTAssertEqual(kept + (object["omitted"] as? Int ?? 0), 200_000, path)
        }

        // Leaves: pages of at most 1000, which follow on from each other.
        let first = try await server.get("/v1/clusters/\(id)/leaves?limit=1000&dataset=\(dataset)")
        let second = try await server.get("/v1/clusters/\(id)/leaves?limit=1000&offset=1000&dataset=\(dataset)")
        let both = try await server.get("/v1/clusters/\(id)/leaves?limit=1000&offset=500&dataset=\(dataset)")
        func ids(_ call: HTTPCall) throws -> [String] {
            try XCTUnwrap(try call.object()["features"] as? [[String: Any]]).compactMap {
                ($0["properties"] as? [String: Any])?["id"] as? String
            }
        }
        let (a, b, middle) = (try ids(first), try ids(second), try ids(both))
        XCTAssertEqual(a.count, 1000)
        XCTAssertEqual(b.count, 1000)
        XCTAssertTrue(Set(a).isDisjoint(with: b))
        XCTAssertEqual(middle, Array(a[500...] + b[..<500]))
        let last = try await server.get("/v1/clusters/\(id)/leaves?limit=1000&offset=199990&dataset=\(dataset)")
        XCTAssertEqual(try ids(last).count, 10)
        try assertProblem(
            try await server.get("/v1/clusters/\(id)/leaves?limit=1001&dataset=\(dataset)"), 400, mentions: ["limit", "1001", "1000"])
    }
}
