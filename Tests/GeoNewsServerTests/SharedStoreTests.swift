import Foundation
import XCTest

/// Two real `geonews-serve` processes on one PostgreSQL behave as one service; PostgreSQL going
/// away costs only the routes that need it; a bad `--store` is one line. Runs when
/// `GEONEWS_TEST_POSTGRES_URL` is set (Tests/Postgres/start.sh), skips otherwise (which fails
/// Scripts/test).
final class SharedStoreTests: XCTestCase {
    static let psql = "/usr/lib/postgresql/15/bin/psql"

    /// The address of a new, empty database on the test server.
    static func freshDatabase() throws -> String {
        guard let base = ProcessInfo.processInfo.environment["GEONEWS_TEST_POSTGRES_URL"], !base.isEmpty else {
            throw XCTSkip("GEONEWS_TEST_POSTGRES_URL is not set (Tests/Postgres/start.sh starts a PostgreSQL)")
        }
        let name = "geonews_\(UUID().uuidString.prefix(8).lowercased())"
        let status = try run(psql, [base, "-q", "-c", "CREATE DATABASE \(name)"]).status
        XCTAssertEqual(status, 0, "CREATE DATABASE")
        var parts = try XCTUnwrap(URLComponents(string: base))
        parts.path = "/\(name)"
        return try XCTUnwrap(parts.string)
    }

    /// Runs `executable` to its end; its exit status and what it wrote on both outputs.
    @discardableResult
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil
    ) throws -> (
        status: Int32, output: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    func testTwoInstancesOnOneDatabaseActAsOne() async throws {
        let store = try Self.freshDatabase()
        let a = try ServerProcess(arguments: ["--store", store])
        let b = try ServerProcess(environment: ["GEONEWS_STORE": store])
        let token = try await a.newUser()

        let saved = try await a.send("POST", "/v1/favourites", json: ["url": "https://example.org/a", "title": "A"], token: token)
        XCTAssertEqual(saved.status, 201, saved.text)
        let again = try await b.send("POST", "/v1/favourites", json: ["url": "https://example.org/a", "title": "A"], token: token)
        XCTAssertEqual(again.status, 200, "a duplicate through the other instance is the same favourite: \(again.text)")
        let listed = try await b.get("/v1/favourites", token: token).array()
        XCTAssertEqual(listed.map { $0["url"] as? String }, ["https://example.org/a"])

        let put = try await b.send("PUT", "/v1/settings", json: ["newsCountry": "fr", "categories": ["science"]], token: token)
        XCTAssertEqual(put.status, 200, put.text)
        let settings = try await a.get("/v1/settings", token: token).object()
        XCTAssertEqual(settings["newsCountry"] as? String, "fr")

        let created = try await a.send(
            "POST", "/v1/datasets?name=grid", token: token, body: Data(DatasetTests.csv.utf8), contentType: "text/csv")
        XCTAssertEqual(created.status, 201, created.text)
        let id = try XCTUnwrap(try created.object()["id"] as? String)
        let onA = try await a.get("/v1/clusters?dataset=\(id)&altitude=15000km")
        let onB = try await b.get("/v1/clusters?dataset=\(id)&altitude=15000km")
        XCTAssertEqual(onB.status, 200, onB.text)
        XCTAssertEqual(onB.text, onA.text, "the other instance clusters the upload the same")
        XCTAssertEqual(onB.header("ETag"), onA.header("ETag"))
        let tile = try await b.get("/v1/tiles/0/0/0.geojson?dataset=\(id)")
        XCTAssertEqual(tile.status, 200, tile.text)
        let datasets = try await b.get("/v1/datasets", token: token).array()
        XCTAssertEqual(datasets.map { $0["id"] as? String }, ["markers", id])
        XCTAssertEqual(datasets.last?["points"] as? Int, 2000)
        let unknown = try await b.get("/v1/clusters?dataset=0123456789abcdef&zoom=1")
        try assertProblem(unknown, 404, mentions: ["0123456789abcdef"])

        // Deleted through A: B forgets it at its next check (every 10 s, in the background).
        let deleted = try await a.send("DELETE", "/v1/datasets/\(id)", token: token)
        XCTAssertEqual(deleted.status, 204)
        var status = 200
        for _ in 0..<30 where status == 200 {
            try await Task.sleep(for: .seconds(1))
            status = try await b.get("/v1/clusters?dataset=\(id)&altitude=15000km").status
        }
        XCTAssertEqual(status, 404, "the other instance still serves a deleted dataset")
    }

    /// A dataset deleted through one instance leaves the other within a round of its
    /// reconciliation (10 s), files and mapping included, though no one asks the other for it:
    /// before, each instance kept the files of every upload it had served and another deleted,
    /// and the soak test (Benchmarks/soak.sh) found thousands after ten minutes.
    func testAnInstanceForgetsWhatAnotherDeletedWithoutBeingAsked() async throws {
        let store = try Self.freshDatabase()
        let a = try ServerProcess(arguments: ["--store", store])
        let b = try ServerProcess(arguments: ["--store", store])
        let token = try await a.newUser()
        let created = try await a.send(
            "POST", "/v1/datasets?name=grid", token: token, body: Data(DatasetTests.csv.utf8), contentType: "text/csv")
        XCTAssertEqual(created.status, 201, created.text)
        let id = try XCTUnwrap(try created.object()["id"] as? String)
        let served = try await b.get("/v1/clusters?dataset=\(id)&altitude=15000km")
        XCTAssertEqual(served.status, 200, served.text)
        let folder = b.stateDirectory.appendingPathComponent("datasets")
        func filesOfTheUpload() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(id) }.sorted()
        }
        let fetched = try filesOfTheUpload()
        XCTAssertEqual(fetched.count, 2, "B fetched the points and built the archive: \(fetched)")

        let deleted = try await a.send("DELETE", "/v1/datasets/\(id)", token: token)
        XCTAssertEqual(deleted.status, 204)
        var left = try filesOfTheUpload()
        for _ in 0..<50 where !left.isEmpty {
            try await Task.sleep(for: .milliseconds(500))
            left = try filesOfTheUpload()
        }
        XCTAssertEqual(left, [], "B still holds the files of a dataset A deleted")
        let gone = try await b.get("/v1/clusters?dataset=\(id)&altitude=15000km")
        try assertProblem(gone, 404, mentions: [id])
    }

    func testABadStoreIsOneLineWithoutThePassword() throws {
        let serve = ServerProcess.executable.path
        guard FileManager.default.isExecutableFile(atPath: serve) else { throw XCTSkip("geonews-serve is not built") }
        let state = ServerProcess.newStateDirectory().path
        var environment = ProcessInfo.processInfo.environment
        environment["GEONEWS_DATA"] = ServerProcess.packageRoot.appendingPathComponent("Data").path
        let malformed = try Self.run(
            serve, ["--port", "0", "--state-dir", state, "--store", "postgres://u:hunter2@host/db?sslmode=sometimes"],
            environment: environment)
        XCTAssertEqual(malformed.status, 64, malformed.output)
        XCTAssertEqual(malformed.output.split(separator: "\n").count, 1, malformed.output)
        XCTAssertTrue(malformed.output.contains("sslmode 'sometimes'"), malformed.output)
        XCTAssertFalse(malformed.output.contains("hunter2"), malformed.output)

        let unreachable = try Self.run(
            serve, ["--port", "0", "--state-dir", state, "--store", "postgres://u:hunter2@127.0.0.1:1/db"], environment: environment)
        XCTAssertEqual(unreachable.status, 74, unreachable.output)
        XCTAssertEqual(unreachable.output.split(separator: "\n").count, 1, unreachable.output)
        XCTAssertTrue(unreachable.output.contains("cannot connect to PostgreSQL at 127.0.0.1:1"), unreachable.output)
        XCTAssertFalse(unreachable.output.contains("hunter2"), unreachable.output)

        let store = try Self.freshDatabase()
        var parts = try XCTUnwrap(URLComponents(string: store))
        parts.password = "wrong-\(UUID().uuidString.prefix(8))"
        let refused = try Self.run(
            serve, ["--port", "0", "--state-dir", state, "--store", try XCTUnwrap(parts.string)], environment: environment)
        XCTAssertEqual(refused.status, 74, refused.output)
        XCTAssertEqual(refused.output.split(separator: "\n").count, 1, refused.output)
        XCTAssertTrue(refused.output.contains("refused the password of user"), refused.output)
        XCTAssertFalse(refused.output.contains(parts.password ?? ""), refused.output)
    }
}
