import Foundation
import XCTest

/// Past `--max-concurrent-dataset-builds`, an upload waits for its turn without holding up
/// other requests, and past `--dataset-build-wait` it gets 503 with `Retry-After`.
final class DatasetBuildWaitTests: XCTestCase {
    /// `count` points spread over the world, as CSV: 200,000 take a debug build about 3 s to
    /// cluster, long enough for the requests the tests make meanwhile (milliseconds each).
    static func csv(points count: Int) -> Data {
        var generator = SplitMix(seed: 7)
        var text = "lat,lon\n"
        text.reserveCapacity(count * 24)
        // Whole degrees and four decimals as integers: formatting doubles is slow in a debug build.
        for _ in 0..<count {
            let lat = Int(generator.next() % 1_600_000), lon = Int(generator.next() % 3_580_000)
            text += "\(lat / 10_000 - 80).\(lat % 10_000),\(lon / 10_000 - 179).\(lon % 10_000)\n"
        }
        return Data(text.utf8)
    }

    struct SplitMix {
        var seed: UInt64
        mutating func next() -> UInt64 {
            seed &+= 0x9E37_79B9_7F4A_7C15
            var z = seed
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let large = csv(points: 200_000)

    /// The builds running and the uploads waiting, from `/metrics`.
    func builds(_ server: ServerProcess) async throws -> (running: Int, waiting: Int) {
        let text = try await server.get("/metrics").text
        func value(_ state: String) -> Int {
            let line = text.split(separator: "\n").first { $0.hasPrefix("geonews_dataset_builds{") && $0.contains("state=\"\(state)\"") }
            return line.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }.flatMap { Int(exactly: $0) } ?? -1
        }
        return (value("running"), value("waiting"))
    }

    /// Starts an upload of ``large`` and returns once its build runs.
    func startLargeUpload(_ server: ServerProcess, token: String) async throws -> Task<HTTPCall, any Error> {
        let body = Self.large
        let task = Task { [server, token, body] in
            try await server.send("POST", "/v1/datasets?name=large", token: token, body: body, contentType: "text/csv")
        }
        var now = try await builds(server)
        for _ in 0..<500 where now.running == 0 {
            try await Task.sleep(for: .milliseconds(20))
            now = try await builds(server)
        }
        XCTAssertEqual(now.running, 1, "the large upload's build has begun")
        return task
    }

    func testAnUploadPastTheBuildsAtOnceWaitsItsTurnAndOthersAreAnsweredMeanwhile() async throws {
        let server = try ServerProcess(arguments: ["--max-concurrent-dataset-builds", "1", "--dataset-build-wait", "60"])
        let token = try await server.newUser()
        let large = try await startLargeUpload(server, token: token)
        let small = Task { [server, token] in
            try await server.send(
                "POST", "/v1/datasets?name=small", token: token, body: Data(DatasetTests.csv.utf8), contentType: "text/csv")
        }
        var now = try await builds(server)
        for _ in 0..<500 where now.waiting == 0 {
            try await Task.sleep(for: .milliseconds(20))
            now = try await builds(server)
        }
        XCTAssertEqual(now.running, 1, "one build at a time")
        XCTAssertEqual(now.waiting, 1, "the small upload waits its turn")
        // The wait parks no thread: other requests are answered meanwhile.
        let resolved = try await server.get("/v1/resolve?lat=48.8566&lon=2.3522")
        XCTAssertEqual(resolved.status, 200)
        let listed = try await server.get("/v1/datasets", token: token)
        XCTAssertEqual(listed.status, 200)

        let largeAnswer = try await large.value, smallAnswer = try await small.value
        XCTAssertEqual(largeAnswer.status, 201, largeAnswer.text)
        XCTAssertEqual(smallAnswer.status, 201, smallAnswer.text)
        XCTAssertEqual(try smallAnswer.object()["points"] as? Int, 2000)
        now = try await builds(server)
        XCTAssertEqual(now.running, 0)
        XCTAssertEqual(now.waiting, 0)
    }

    /// A client killed while its upload waits resets the connection; the upload leaves the
    /// queue then, and is not built. (A client that only shuts down its sending side may still
    /// read the answer, as HTTP/1.1 allows: that keeps its place.)
    func testAnUploadWhoseConnectionIsResetWhileItWaitsLeavesTheQueueAndIsNotBuilt() async throws {
        let server = try ServerProcess(arguments: ["--max-concurrent-dataset-builds", "1", "--dataset-build-wait", "60"])
        let token = try await server.newUser()
        let large = try await startLargeUpload(server, token: token)
        // A whole upload, sent by hand so that its connection can be dropped while it waits.
        let body = Data(DatasetTests.csv.utf8)
        let connection = try LoopbackConnection(port: server.port)
        try connection.send(
            "POST /v1/datasets?name=gone HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
                + "Content-Type: text/csv\r\nContent-Length: \(body.count)\r\n\r\n")
        try connection.send(body)
        var now = try await builds(server)
        for _ in 0..<500 where now.waiting == 0 {
            try await Task.sleep(for: .milliseconds(20))
            now = try await builds(server)
        }
        XCTAssertEqual(now.waiting, 1, "the upload waits its turn")
        connection.abort(reset: true)
        // It leaves the queue when the connection goes, not when the 60 s wait is over.
        let hungUp = ContinuousClock.now
        for _ in 0..<500 where now.waiting != 0 {
            try await Task.sleep(for: .milliseconds(20))
            now = try await builds(server)
        }
        XCTAssertEqual(now.waiting, 0, "the upload left the queue")
        XCTAssertLessThan(ContinuousClock.now - hungUp, .seconds(10))
        let largeAnswer = try await large.value
        XCTAssertEqual(largeAnswer.status, 201, largeAnswer.text)
        // Nothing of it was built or kept: the large upload's points and archive only.
        now = try await builds(server)
        XCTAssertEqual(now.running, 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: server.stateDirectory.appendingPathComponent("datasets").path)
        XCTAssertEqual(files.count, 2, files.joined(separator: " "))
        let listed = try await server.get("/v1/datasets", token: token)
        XCTAssertFalse(listed.text.contains("\"gone\""), listed.text)
        XCTAssert(listed.text.contains("\"large\""), listed.text)
    }

    func testAnUploadThatCannotHaveATurnWithinTheWaitIs503WithRetryAfter() async throws {
        let server = try ServerProcess(arguments: ["--max-concurrent-dataset-builds", "1", "--dataset-build-wait", "0"])
        let token = try await server.newUser()
        let large = try await startLargeUpload(server, token: token)
        let refused = try await server.send(
            "POST", "/v1/datasets?name=small", token: token, body: Data(DatasetTests.csv.utf8), contentType: "text/csv")
        try assertProblem(refused, 503, mentions: ["--max-concurrent-dataset-builds", "--dataset-build-wait"])
        XCTAssertEqual(refused.header("Retry-After"), "5")
        let largeAnswer = try await large.value
        XCTAssertEqual(largeAnswer.status, 201, largeAnswer.text)
        // The refused upload left no file, and once the build is over the same upload goes in.
        let files = try FileManager.default.contentsOfDirectory(atPath: server.stateDirectory.appendingPathComponent("datasets").path)
        XCTAssertEqual(files.count, 2, files.joined(separator: " "))
        let again = try await server.send(
            "POST", "/v1/datasets?name=small", token: token, body: Data(DatasetTests.csv.utf8), contentType: "text/csv")
        XCTAssertEqual(again.status, 201, again.text)
    }
}
