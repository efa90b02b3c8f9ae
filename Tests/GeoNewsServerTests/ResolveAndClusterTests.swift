import Foundation
import XCTest

final class ResolveAndClusterTests: XCTestCase {
    func testResolveAnswersWhatTheCLIPrints() async throws {
        let server = try ServerProcess()
        let call = try await server.get("/v1/resolve?lat=49.6116&lon=6.1319")
        XCTAssertEqual(call.status, 200, call.text)
        let report = try call.object()
        XCTAssertEqual((report["country"] as? [String: Any])?["iso2"] as? String, "LU")
        let suggestion = try XCTUnwrap(report["suggestion"] as? [String: Any])
        XCTAssertEqual(suggestion["iso2"] as? String, "BE")
        XCTAssertEqual(suggestion["reason"] as? String, "nearest-marker")
        XCTAssertNil(report["headlines"])
        XCTAssertEqual((report["place"] as? [String: Any])?["name"] as? String, "Luxembourg", call.text)
        let region = try XCTUnwrap(report["region"] as? [String: Any], call.text)
        XCTAssertEqual(region["iso3166_2"] as? String, "LU-LU")
        XCTAssertEqual(region["inside"] as? Bool, true)
        for key in ["timeZone", "utcOffset", "utcOffsetSeconds", "borderDistanceKm", "place", "region"] {
            XCTAssertTrue(report.keys.contains(key), "\(key) is written, null when unknown")
        }
        // Byte for byte the CLI's object.
        let printed = try ServerProcess.runCLI(["--lat", "49.6116", "--lon", "6.1319", "--json", "--no-headlines"])
        XCTAssertEqual(call.text, printed.trimmingCharacters(in: .newlines))
    }

    /// The answer carries the current UTC offset, so it is cached only up to the next whole or
    /// half hour UTC, where offsets change.
    func testResolveIsCachedUntilTheNextWholeOrHalfHour() async throws {
        let server = try ServerProcess()
        let before = Int(Date().timeIntervalSince1970.rounded(.down))
        let call = try await server.get("/v1/resolve?lat=48.8566&lon=2.3522")
        let after = Int(Date().timeIntervalSince1970.rounded(.down))
        XCTAssertEqual(call.status, 200, call.text)
        let control = try XCTUnwrap(call.header("Cache-Control"))
        XCTAssertTrue(control.hasPrefix("public, max-age="), control)
        let age = try XCTUnwrap(Int(control.dropFirst("public, max-age=".count)), control)
        XCTAssertTrue((1...1800).contains(age), control)
        let expires = (before...after).map { $0 + age }
        XCTAssertTrue(expires.contains { $0 % 1800 == 0 }, "\(control) at \(before)…\(after) ends on a whole or half hour")
    }

    /// A copy of Data/ (links to its files) less `leftOut`, for `--data`.
    private func dataCopy(leaving leftOut: Set<String>) throws -> URL {
        let source = ServerProcess.packageRoot.appendingPathComponent("Data")
        // A data folder with the build folder beside it, as in a checkout (the area index is
        // read from `../.build-data`).
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("geonews-data-\(UUID().uuidString)")
        let copy = root.appendingPathComponent("Data")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent(".build-data"),
            withDestinationURL: ServerProcess.packageRoot.appendingPathComponent(".build-data"))
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path) where !leftOut.contains(name) {
            try FileManager.default.createSymbolicLink(
                at: copy.appendingPathComponent(name), withDestinationURL: source.appendingPathComponent(name))
        }
        addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        return copy
    }

    /// The zone rules come from `--data`, loaded at start, not from the default data folder
    /// (which GEONEWS_DATA names for every test server and still holds them).
    func testZoneRulesAreReadFromTheServersDataDirectory() async throws {
        let whole = try ServerProcess(arguments: ["--data", try dataCopy(leaving: []).path])
        let call = try await whole.get("/v1/resolve?lat=48.8566&lon=2.3522")
        XCTAssertEqual(call.status, 200, call.text)
        let answer = try call.object()
        XCTAssertEqual(answer["timeZone"] as? String, "Europe/Paris")
        XCTAssertTrue(["+01:00", "+02:00"].contains(answer["utcOffset"] as? String ?? ""), call.text)
        whole.stop()
        XCTAssertThrowsError(try ServerProcess(arguments: ["--data", try dataCopy(leaving: ["zoneinfo.bin"]).path])) { error in
            XCTAssertTrue("\(error)".contains("zoneinfo.bin"), "\(error)")
        }
    }

    func testResolveNamesTheBadParameter() async throws {
        let server = try ServerProcess()
        try assertProblem(try await server.get("/v1/resolve?lat=91.2&lon=0"), 400, mentions: ["lat", "91.2"])
        try assertProblem(try await server.get("/v1/resolve?lat=10&lon=abc"), 400, mentions: ["lon", "abc"])
        try assertProblem(try await server.get("/v1/resolve?lat=10"), 400, mentions: ["lon"])
        try assertProblem(try await server.get("/v1/resolve?lat=10&lon=10&headlines=500"), 400, mentions: ["headlines", "500"])
    }

    func testMarkersAt15000kmGiveTheCLIsClustersWithAbbreviatedCounts() async throws {
        let server = try ServerProcess()
        let call = try await server.get("/v1/clusters?altitude=15000km")
        XCTAssertEqual(call.status, 200, call.text)
        XCTAssertEqual(call.header("Content-Type"), "application/geo+json")
        let features = try XCTUnwrap(try call.object()["features"] as? [[String: Any]])
        XCTAssertEqual(features.count, 50)
        let clusters = features.compactMap { $0["properties"] as? [String: Any] }.filter { $0["cluster"] as? Bool == true }
        XCTAssertEqual(clusters.count, 4)
        XCTAssertTrue(clusters.allSatisfy { $0["point_count_abbreviated"] as? Int == 2 && ($0["members"] as? [String])?.count == 2 })
    }

    func testETagIsStableAndEarns304() async throws {
        let server = try ServerProcess()
        let first = try await server.get("/v1/clusters?bbox=-30,30,40,70&zoom=3")
        let tag = try XCTUnwrap(first.header("ETag"))
        let again = try await server.get("/v1/clusters?bbox=-30,30,40,70&zoom=3.7")
        XCTAssertEqual(again.header("ETag"), tag, "the same level and box")
        let other = try await server.get("/v1/clusters?bbox=-30,30,40,70&zoom=5")
        XCTAssertNotEqual(other.header("ETag"), tag)
        let cached = try await server.get("/v1/clusters?bbox=-30,30,40,70&zoom=3", headers: ["If-None-Match": tag])
        XCTAssertEqual(cached.status, 304)
        XCTAssertTrue(cached.body.isEmpty)
    }

    func testAntimeridianBoxAndWorldCopiesAreNormalised() async throws {
        let server = try ServerProcess()
        // New Zealand's marker (about 174° E) seen from a box across the antimeridian, and from
        // Leaflet's next world copy (+360°).
        let across = try await server.get("/v1/clusters?bbox=160,-50,-170,-30&zoom=6").object()
        let copy = try await server.get("/v1/clusters?bbox=520,-50,550,-30&zoom=6").object()
        func ids(_ o: [String: Any]) -> [String] {
            (o["features"] as? [[String: Any]] ?? []).compactMap { ($0["properties"] as? [String: Any])?["id"] as? String }
        }
        XCTAssertEqual(ids(across), ["NZ"])
        XCTAssertEqual(ids(copy), ["NZ"])
    }

    func testClusterChildrenLeavesAndExpansionZoom() async throws {
        let server = try ServerProcess()
        let top = try await server.get("/v1/clusters?zoom=0").object()
        let cluster = try XCTUnwrap(
            (top["features"] as? [[String: Any]])?.compactMap { $0["properties"] as? [String: Any] }
                .first { $0["cluster"] as? Bool == true })
        let id = try XCTUnwrap(cluster["cluster_id"] as? Int)
        let count = try XCTUnwrap(cluster["point_count"] as? Int)
        XCTAssertLessThan(id, 1 << 53)
        let childAnswer = try await server.get("/v1/clusters/\(id)/children").object()
        let children = try XCTUnwrap(childAnswer["features"] as? [[String: Any]])
        let childCount = children.compactMap { ($0["properties"] as? [String: Any])?["point_count"] as? Int ?? 1 }.reduce(0, +)
        XCTAssertEqual(childCount, count)
        let leafAnswer = try await server.get("/v1/clusters/\(id)/leaves?limit=1000").object()
        let leaves = try XCTUnwrap(leafAnswer["features"] as? [[String: Any]])
        XCTAssertEqual(leaves.count, count)
        XCTAssertEqual(
            Set(leaves.compactMap { ($0["properties"] as? [String: Any])?["id"] as? String }), Set(cluster["members"] as? [String] ?? []))
        let expansion = try await server.get("/v1/clusters/\(id)/expansion-zoom").object()
        XCTAssertEqual(expansion["expansion_zoom"] as? Int, cluster["expansion_zoom"] as? Int)
    }

    func testClusterErrorsNameTheParameter() async throws {
        let server = try ServerProcess()
        try assertProblem(try await server.get("/v1/clusters"), 400, mentions: ["altitude", "zoom"])
        try assertProblem(try await server.get("/v1/clusters?zoom=3&altitude=100km"), 400, mentions: ["not both"])
        try assertProblem(try await server.get("/v1/clusters?zoom=3&bbox=1,2,3"), 400, mentions: ["bbox", "1,2,3"])
        try assertProblem(try await server.get("/v1/clusters?altitude=1000km&tileSize=300"), 400, mentions: ["300"])
        try assertProblem(try await server.get("/v1/clusters?zoom=3&dataset=fleet"), 404, mentions: ["fleet"])
        try assertProblem(try await server.get("/v1/clusters/9007199254740993/children"), 400, mentions: ["2^53"])
        try assertProblem(try await server.get("/v1/clusters/2559747/leaves"), 404, mentions: ["2559747"])
        try assertProblem(try await server.get("/v1/clusters/5/leaves?limit=0"), 400, mentions: ["limit", "0"])
    }
}
