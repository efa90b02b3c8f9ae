import Foundation
import GeoNewsDatasets
import XCTest

/// An upload is served from its memory-mapped cluster archive: rebuilt from its points when the
/// archive is missing or damaged, unmapped (never deleted) past the mapped budget, and refused
/// with 413 past the points and storage limits.
final class DatasetArchiveTests: XCTestCase {
    func upload(_ server: ServerProcess, token: String, name: String = "grid") async throws -> String {
        let created = try await server.send(
            "POST", "/v1/datasets?name=\(name)", token: token, body: Data(DatasetTests.csv.utf8), contentType: "text/csv")
        XCTAssertEqual(created.status, 201, created.text)
        return try XCTUnwrap(try created.object()["id"] as? String)
    }

    /// The archives the server process has mapped now, by dataset id.
    func mappedArchives(_ server: ServerProcess) throws -> Set<String> {
        // Read to the end: /proc files report a size of 0, and a read of that size stops short.
        let handle = try XCTUnwrap(FileHandle(forReadingAtPath: "/proc/\(server.process.processIdentifier)/maps"))
        defer { try? handle.close() }
        let maps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        return Set(
            maps.split(separator: "\n").compactMap { line in
                guard line.hasSuffix(".cluster"), let name = line.split(separator: "/").last else { return nil }
                return String(name.dropLast(".cluster".count))
            })
    }

    func testAMissingOrDamagedArchiveIsRebuiltFromThePoints() async throws {
        let directory = ServerProcess.newStateDirectory()
        var server = try ServerProcess(stateDirectory: directory)
        let token = try await server.newUser()
        let id = try await upload(server, token: token)
        let query = "/v1/clusters?dataset=\(id)&zoom=4&bbox=-10,35,25,65"
        let original = try await server.get(query)
        XCTAssertEqual(original.status, 200, original.text)
        server.stop()
        let archive = directory.appendingPathComponent("datasets/\(id).cluster")

        try FileManager.default.removeItem(at: archive)
        server = try ServerProcess(stateDirectory: directory)
        let rebuilt = try await server.get(query)
        XCTAssertEqual(rebuilt.text, original.text)
        XCTAssertTrue(FileManager.default.fileExists(atPath: archive.path))
        server.stop()

        var bytes = try Data(contentsOf: archive)
        bytes[bytes.count / 2] ^= 0x5A
        try bytes.write(to: archive)
        server = try ServerProcess(stateDirectory: directory)
        let repaired = try await server.get(query)
        XCTAssertEqual(repaired.text, original.text)
        XCTAssertNotEqual(try Data(contentsOf: archive), bytes)
        server.stop()

        // Damaged, with no points to rebuild it from: 500 naming the file and the problem.
        try bytes.write(to: archive)
        try FileManager.default.removeItem(at: directory.appendingPathComponent("datasets/\(id).csv"))
        server = try ServerProcess(stateDirectory: directory)
        let refused = try await server.get(query)
        try assertProblem(refused, 500, mentions: [id, "missing"])
        XCTAssertFalse(refused.text.contains(directory.path), refused.text)
        let markers = try await server.get("/v1/clusters?zoom=2&bbox=-10,30,20,60")
        XCTAssertEqual(markers.status, 200)
    }

    func testPastTheBudgetTheLeastRecentlyUsedAreUnmappedNotDeleted() async throws {
        let server = try ServerProcess(arguments: ["--mapped-dataset-budget", "1"])
        let token = try await server.newUser()
        var ids: [String] = []
        for name in ["a", "b", "c"] { ids.append(try await upload(server, token: token, name: name)) }
        XCTAssertEqual(try mappedArchives(server), [], "uploads are mapped on first use, not before")
        var answers: [String: String] = [:]
        for id in ids {
            let answer = try await server.get("/v1/clusters?dataset=\(id)&zoom=3&bbox=-10,35,25,65")
            XCTAssertEqual(answer.status, 200, answer.text)
            answers[id] = answer.text
            XCTAssertEqual(try mappedArchives(server), [id], "a budget of 1 byte keeps only the dataset in use")
        }
        // Unmapped, still there: mapped again on use, with the same answer.
        let again = try await server.get("/v1/clusters?dataset=\(ids[0])&zoom=3&bbox=-10,35,25,65.0")
        XCTAssertEqual(again.text, answers[ids[0]])
        XCTAssertEqual(try mappedArchives(server), [ids[0]])
        for id in ids {
            XCTAssertTrue(
                FileManager.default.fileExists(atPath: server.stateDirectory.appendingPathComponent("datasets/\(id).cluster").path))
        }
    }

    func testABudgetThatHoldsThemAllKeepsThemMapped() async throws {
        let server = try ServerProcess()
        let token = try await server.newUser()
        var ids: [String] = []
        for name in ["a", "b"] { ids.append(try await upload(server, token: token, name: name)) }
        for id in ids {
            let tile = try await server.get("/v1/tiles/3/4/2.mvt?dataset=\(id)")
            XCTAssertEqual(tile.status, 200)
        }
        XCTAssertEqual(try mappedArchives(server), Set(ids))
    }

    func testUploadsPastThePointAndStorageLimitsAre413() async throws {
        let server = try ServerProcess(arguments: ["--max-upload-points", "1500"])
        let token = try await server.newUser()
        try assertProblem(
            try await server.send("POST", "/v1/datasets", token: token, body: Data(DatasetTests.csv.utf8), contentType: "text/csv"),
            413, mentions: ["2000 points", "1500", "--max-upload-points"])
        let small = try await server.send(
            "POST", "/v1/datasets", token: token, body: Data("lat,lon\n1,2\n3,4\n".utf8), contentType: "text/csv")
        XCTAssertEqual(small.status, 201, small.text)
        server.stop()

        let full = try ServerProcess(arguments: ["--max-dataset-bytes", "20000"])
        let other = try await full.newUser()
        try assertProblem(
            try await full.send("POST", "/v1/datasets", token: other, body: Data(DatasetTests.csv.utf8), contentType: "text/csv"),
            413, mentions: ["20000", "--max-dataset-bytes"])
        let files = try FileManager.default.contentsOfDirectory(atPath: full.stateDirectory.appendingPathComponent("datasets").path)
        XCTAssertEqual(files, [], "a refused upload leaves no file")
    }
}
