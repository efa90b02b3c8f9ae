import Foundation
import XCTest

/// Datasets belong to the user who uploaded them: a token to upload, list and delete, a quota
/// of points and bytes, and reading open to whoever has the id.
final class DatasetOwnershipTests: XCTestCase {
    private static func csv(points: Int) -> Data {
        let rows: [String] = (0..<points).map { i in
            String(format: "%.2f,%.2f", 40 + Double(i / 50) * 0.1, Double(i % 50) * 0.1)
        }
        return Data(("lat,lon\n" + rows.joined(separator: "\n") + "\n").utf8)
    }

    func testADatasetIsListedAndDeletedByItsOwnerOnlyAndReadByAnyone() async throws {
        let server = try ServerProcess()
        try assertProblem(
            try await server.send("POST", "/v1/datasets", body: Self.csv(points: 10), contentType: "text/csv"), 401,
            mentions: ["Authorization"])
        try assertProblem(try await server.get("/v1/datasets"), 401)
        let alice = try await server.newUser(), bob = try await server.newUser()
        let created = try await server.send(
            "POST", "/v1/datasets?name=alice", token: alice, body: Self.csv(points: 10), contentType: "text/csv")
        XCTAssertEqual(created.status, 201, created.text)
        let id = try XCTUnwrap(try created.object()["id"] as? String)

        let bobs = try await server.get("/v1/datasets", token: bob).array()
        XCTAssertEqual(bobs.map { $0["id"] as? String }, ["markers"])
        try assertProblem(try await server.send("DELETE", "/v1/datasets/\(id)"), 401)
        // Bob is told no more than for an id that does not exist.
        let refused = try await server.send("DELETE", "/v1/datasets/\(id)", token: bob)
        try assertProblem(refused, 404, mentions: [id])
        let unknown = try await server.send("DELETE", "/v1/datasets/0123456789abcdef", token: bob)
        XCTAssertEqual(try refused.object()["title"] as? String, try unknown.object()["title"] as? String)

        let shared = try await server.get("/v1/clusters?dataset=\(id)&altitude=15000km")
        XCTAssertEqual(shared.status, 200, shared.text)
        let alices = try await server.get("/v1/datasets", token: alice).array()
        XCTAssertEqual(alices.map { $0["id"] as? String }, ["markers", id])
        XCTAssertEqual(alices.last?["points"] as? Int, 10)
        let deleted = try await server.send("DELETE", "/v1/datasets/\(id)", token: alice)
        XCTAssertEqual(deleted.status, 204, deleted.text)
    }

    func testUploadsPastTheQuotaOfPointsOrBytesAre413() async throws {
        let server = try ServerProcess(arguments: ["--quota-points", "3000", "--quota-bytes", "60000"])
        let alice = try await server.newUser(), bob = try await server.newUser()
        let first = try await server.send("POST", "/v1/datasets", token: alice, body: Self.csv(points: 2000), contentType: "text/csv")
        XCTAssertEqual(first.status, 201, first.text)
        let bytes = Self.csv(points: 2000).count
        // 2,000 + 2,000 points is past 3,000.
        let second = try await server.send("POST", "/v1/datasets", token: alice, body: Self.csv(points: 2000), contentType: "text/csv")
        try assertProblem(second, 413, mentions: ["2000 of 3000 points", "\(bytes) of 60000 bytes"])
        XCTAssertEqual(try second.object()["title"] as? String, "Quota exceeded")
        // Bob's quota is his own.
        let bobs = try await server.send("POST", "/v1/datasets", token: bob, body: Self.csv(points: 2000), contentType: "text/csv")
        XCTAssertEqual(bobs.status, 201, bobs.text)
        // Few points but too many bytes: 80 kB of comments.
        let padded = Data(("# " + String(repeating: "x", count: 80_000) + "\nlat,lon\n1,2\n").utf8)
        try assertProblem(
            try await server.send("POST", "/v1/datasets", token: bob, body: padded, contentType: "text/csv"), 413, mentions: ["60000 bytes"]
        )
        let listed = try await server.get("/v1/datasets", token: alice).array()
        XCTAssertEqual(listed.count, 2, "the refused upload is not kept")
        let files = try FileManager.default.contentsOfDirectory(atPath: server.stateDirectory.appendingPathComponent("datasets").path)
        // Each kept upload: its points and its cluster archive.
        XCTAssertEqual(files.count, 4, "\(files)")
        XCTAssertEqual(files.filter { $0.hasSuffix(".cluster") }.count, 2, "\(files)")
    }

    func testUnusableUploadsAre400NamingWhatIsWrongWithoutTheStatePath() async throws {
        let server = try ServerProcess()
        let token = try await server.newUser()
        let state = server.stateDirectory.path
        for (body, type, words) in [
            ("hello, not JSON", "application/geo+json", ["not GeoJSON"]),
            ("lat,lon\n1,2\n95,2\n", "text/csv", ["line 3", "95"]),
            (#"{"type":"FeatureCollection","features":[]}"#, "application/geo+json", ["no points"]),
            (
                #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}]}"#,
                "application/json", ["feature"]
            ),
        ] {
            let call = try await server.send("POST", "/v1/datasets", token: token, body: Data(body.utf8), contentType: type)
            try assertProblem(call, 400, mentions: words)
            XCTAssertFalse(call.text.contains(state), call.text)
            XCTAssertFalse(call.text.contains("/datasets/"), call.text)
        }
        try assertProblem(
            try await server.send("POST", "/v1/datasets?name=a%00b", token: token, body: Self.csv(points: 1), contentType: "text/csv"),
            400, mentions: ["name"])
        let listed = try await server.get("/v1/datasets", token: token).array()
        XCTAssertEqual(listed.count, 1)
    }
}
