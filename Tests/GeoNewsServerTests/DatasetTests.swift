import Foundation
import XCTest

final class DatasetTests: XCTestCase {
    /// 2,000 points on a 40 × 50 grid over Europe, as CSV.
    static let csv =
        "lat,lon,name\n"
        + (0..<2000).map { i in
            "\(40 + Double(i / 50) * 0.5),\(-5 + Double(i % 50) * 0.5),p\(i)"
        }.joined(separator: "\n") + "\n"

    func testAnUploadIsClusteredListedAndSurvivesARestartUntilDeleted() async throws {
        let directory = ServerProcess.newStateDirectory()
        var server = try ServerProcess(stateDirectory: directory)
        let token = try await server.newUser()
        let created = try await server.send(
            "POST", "/v1/datasets?name=grid", token: token, body: Data(Self.csv.utf8), contentType: "text/csv")
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
        let listed = try await server.get("/v1/datasets", token: token).array()
        XCTAssertEqual(listed.map { $0["id"] as? String }, ["markers", id])

        server.stop()
        server = try ServerProcess(stateDirectory: directory)
        let again = try await server.get("/v1/datasets", token: token).array()
        XCTAssertEqual(again.last?["points"] as? Int, 2000)
        XCTAssertEqual(again.last?["version"] as? String, version)
        let rebuilt = try await server.get("/v1/clusters?dataset=\(id)&altitude=15000km")
        XCTAssertEqual(rebuilt.text, clusters.text)

        let deleted = try await server.send("DELETE", "/v1/datasets/\(id)", token: token)
        XCTAssertEqual(deleted.status, 204, deleted.text)
        try assertProblem(try await server.get("/v1/clusters?dataset=\(id)&altitude=15000km"), 404, mentions: [id])
        try assertProblem(try await server.send("DELETE", "/v1/datasets/\(id)", token: token), 404, mentions: [id])
        for file in ["\(id).csv", "\(id).cluster"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("datasets/\(file)").path))
        }
        let remaining = try await server.get("/v1/datasets", token: token).array()
        XCTAssertEqual(remaining.count, 1)
    }

    func testGeoJSONUploadsAndRefusals() async throws {
        let server = try ServerProcess(arguments: ["--max-body-bytes", "20000"])
        let token = try await server.newUser()
        let geojson =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[2.35,48.85]},"properties":{"name":"Paris"}},{"type":"Feature","id":"b","geometry":{"type":"Point","coordinates":[13.4,52.5]},"properties":{}}]}"#
        let created = try await server.send(
            "POST", "/v1/datasets", token: token, body: Data(geojson.utf8), contentType: "application/geo+json")
        XCTAssertEqual(created.status, 201, created.text)
        XCTAssertEqual(try created.object()["points"] as? Int, 2)
        try assertProblem(
            try await server.send("POST", "/v1/datasets", token: token, body: Data(Self.csv.utf8), contentType: "text/csv"),
            413, mentions: ["20000"])
        try assertProblem(
            try await server.send("POST", "/v1/datasets", token: token, body: Data("x".utf8), contentType: "text/plain"),
            415, mentions: ["text/plain"])
        try assertProblem(
            try await server.send("POST", "/v1/datasets", token: token, body: Data("lat,lon\n95,2\n".utf8), contentType: "text/csv"),
            400, mentions: ["95"])
        try assertProblem(try await server.get("/v1/clusters?dataset=nope&zoom=2&bbox=-10,30,20,60"), 404, mentions: ["nope"])
        let listed = try await server.get("/v1/datasets", token: token).array()
        XCTAssertEqual(listed.count, 2)
    }

    func testADatasetWhoseFileIsMissingAtStartIsLeftOutAndLogged() async throws {
        let directory = ServerProcess.newStateDirectory()
        var server = try ServerProcess(stateDirectory: directory)
        let token = try await server.newUser()
        var ids: [String] = []
        for name in ["kept", "lost"] {
            let created = try await server.send(
                "POST", "/v1/datasets?name=\(name)", token: token, body: Data(Self.csv.utf8), contentType: "text/csv")
            ids.append(try XCTUnwrap(try created.object()["id"] as? String))
        }
        server.stop()
        for file in ["\(ids[1]).csv", "\(ids[1]).cluster"] {
            try FileManager.default.removeItem(at: directory.appendingPathComponent("datasets/\(file)"))
        }

        server = try ServerProcess(stateDirectory: directory)
        let listed = try await server.get("/v1/datasets", token: token).array()
        XCTAssertEqual(listed.map { $0["name"] as? String }, ["markers", "kept"])
        let kept = try await server.get("/v1/clusters?dataset=\(ids[0])&zoom=3&bbox=-10,30,30,70")
        XCTAssertEqual(kept.status, 200, kept.text)
        try assertProblem(try await server.get("/v1/clusters?dataset=\(ids[1])&zoom=3&bbox=-10,30,30,70"), 404, mentions: [ids[1]])
        // Its record is still there to delete.
        let deleted = try await server.send("DELETE", "/v1/datasets/\(ids[1])", token: token)
        XCTAssertEqual(deleted.status, 204)
        server.stop()
        let log = server.standardError
        XCTAssertTrue(log.contains("dataset \(ids[1])") && log.contains("missing"), log)
    }

    func testOtherRequestsAreAnsweredWhileLargeUploadsAreIndexed() async throws {
        let server = try ServerProcess()
        let token = try await server.newUser()
        // One upload per core, each long enough to index that, were the builds on the request
        // threads, every one of them would be busy and /healthz would wait for the builds.
        let uploads = max(2, ProcessInfo.processInfo.activeProcessorCount)
        let body = Data(
            ("lat,lon\n"
                + (0..<200_000).map { i in
                    "\(-60 + Double(i % 997) * 0.12),\(-170 + Double(i / 997) * 1.6)"
                }.joined(separator: "\n")).utf8)
        let start = ContinuousClock.now
        let finished = LockedSet()
        async let uploaded: [Int] = withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<uploads {
                group.addTask {
                    let call = try await server.send("POST", "/v1/datasets", token: token, body: body, contentType: "text/csv")
                    finished.insert(UUID().uuidString)
                    return call.status
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // /healthz every 20 ms until the uploads are done: the longest wait for an answer.
        var longest = Duration.zero
        var answered = 0
        while finished.count < uploads {
            let asked = ContinuousClock.now
            let health = try await server.get("/healthz")
            XCTAssertEqual(health.status, 200)
            longest = max(longest, ContinuousClock.now - asked)
            answered += 1
            try await Task.sleep(for: .milliseconds(20))
        }
        let statuses = try await uploaded
        let took = ContinuousClock.now - start
        XCTAssertEqual(statuses, Array(repeating: 201, count: uploads))
        XCTAssertGreaterThan(answered, 5)
        XCTAssertLessThan(longest, took / 3, "a /healthz waited \(longest) during uploads that took \(took)")
    }
}
