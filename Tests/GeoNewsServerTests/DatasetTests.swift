import Foundation
import XCTest

final class DatasetTests: XCTestCase {
    /// 2,000 points on a 40 × 50 grid over Europe, as CSV.
    static let csv = "lat,lon,name\n" + (0..<2000).map { i in
        "\(40 + Double(i / 50) * 0.5),\(-5 + Double(i % 50) * 0.5),p\(i)"
    }.joined(separator: "\n") + "\n"

    func testAnUploadIsClusteredListedAndSurvivesARestartUntilDeleted() async throws {
        let directory = ServerProcess.newStateDirectory()
        var server = try ServerProcess(stateDirectory: directory)
        let created = try await server.send("POST", "/v1/datasets?name=grid", body: Data(Self.csv.utf8), contentType: "text/csv")
        XCTAssertEqual(created.status, 201, created.text)
        let object = try created.object()
        let id = try XCTUnwrap(object["id"] as? String)
        XCTAssertEqual(object["name"] as? String, "grid")
        XCTAssertEqual(object["points"] as? Int, 2000)
        let version = try XCTUnwrap(object["version"] as? String)

        let clusters = try await server.get("/v1/clusters?dataset=\(id)&altitude=15000km")
        XCTAssertEqual(clusters.status, 200, clusters.text)
        let features = try XCTUnwrap(try clusters.object()["features"] as? [[String: Any]])
        let total = features.reduce(0) { $0 + (((($1["properties"] as? [String: Any])?["point_count"]) as? Int) ?? 1) }
        XCTAssertEqual(total, 2000)
        let listed = try await server.get("/v1/datasets").array()
        XCTAssertEqual(listed.map { $0["id"] as? String }, ["markers", id])

        server.stop()
        server = try ServerProcess(stateDirectory: directory)
        let again = try await server.get("/v1/datasets").array()
        XCTAssertEqual(again.last?["points"] as? Int, 2000)
        XCTAssertEqual(again.last?["version"] as? String, version)
        let rebuilt = try await server.get("/v1/clusters?dataset=\(id)&altitude=15000km")
        XCTAssertEqual(rebuilt.text, clusters.text)

        let deleted = try await server.send("DELETE", "/v1/datasets/\(id)")
        XCTAssertEqual(deleted.status, 204, deleted.text)
        try assertProblem(try await server.get("/v1/clusters?dataset=\(id)&altitude=15000km"), 404, mentions: [id])
        try assertProblem(try await server.send("DELETE", "/v1/datasets/\(id)"), 404, mentions: [id])
        let remaining = try await server.get("/v1/datasets").array()
        XCTAssertEqual(remaining.count, 1)
    }

    func testGeoJSONUploadsAndRefusals() async throws {
        let server = try ServerProcess(arguments: ["--max-body-bytes", "20000"])
        let geojson = #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[2.35,48.85]},"properties":{"name":"Paris"}},{"type":"Feature","id":"b","geometry":{"type":"Point","coordinates":[13.4,52.5]},"properties":{}}]}"#
        let created = try await server.send("POST", "/v1/datasets", body: Data(geojson.utf8), contentType: "application/geo+json")
        XCTAssertEqual(created.status, 201, created.text)
        XCTAssertEqual(try created.object()["points"] as? Int, 2)
        try assertProblem(try await server.send("POST", "/v1/datasets", body: Data(Self.csv.utf8), contentType: "text/csv"),
                          413, mentions: ["20000"])
        try assertProblem(try await server.send("POST", "/v1/datasets", body: Data("x".utf8), contentType: "text/plain"),
                          415, mentions: ["text/plain"])
        try assertProblem(try await server.send("POST", "/v1/datasets", body: Data("lat,lon\n95,2\n".utf8), contentType: "text/csv"),
                          400, mentions: ["95"])
        try assertProblem(try await server.get("/v1/clusters?dataset=nope&zoom=2&bbox=-10,30,20,60"), 404, mentions: ["nope"])
        let listed = try await server.get("/v1/datasets").array()
        XCTAssertEqual(listed.count, 2)
    }
}
