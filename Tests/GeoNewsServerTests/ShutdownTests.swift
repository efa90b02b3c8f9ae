import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM stops the server gracefully: a request under way is answered, then it exits 0.
final class ShutdownTests: XCTestCase {
    func testSIGTERMLetsARequestInFlightFinish() async throws {
        let server = try ServerProcess()
        let token = try await server.newUser()
        let body = Data(#"{"url":"https://news.example.org/slow","title":"Sent slowly"}"#.utf8)
        let connection = try LoopbackConnection(port: server.port)
        // Headers and half the body, then SIGTERM, then the rest: the request is in flight.
        try connection.send(
            Data(
                """
                POST /v1/favourites HTTP/1.1\r
                Host: 127.0.0.1\r
                Authorization: Bearer \(token)\r
                Content-Type: application/json\r
                Content-Length: \(body.count)\r
                \r

                """.utf8) + body.prefix(10))
        try await Task.sleep(for: .milliseconds(300))
        kill(server.process.processIdentifier, SIGTERM)
        try await Task.sleep(for: .milliseconds(300))
        try connection.send(body.dropFirst(10))
        let answer = connection.receiveAll()
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 201"), answer)
        XCTAssertEqual(server.stop(), 0)
        // New connections are refused once it has stopped.
        XCTAssertThrowsError(try LoopbackConnection(port: server.port))
    }
}

/// SIGTERM drains within `--shutdown-timeout`: what can finish does, whole; what cannot is
/// closed at the deadline; the server then exits 0.
final class ShutdownDrainTests: XCTestCase {
    func testSIGTERMEndsAStreamedAnswerWholeAndCutsATricklingBodyAtTheDeadline() async throws {
        let server = try ServerProcess(arguments: ["--shutdown-timeout", "8", "--body-timeout", "120"])
        let token = try await server.newUser()
        let trickler = try SlowClientTests.startBody(SlowClientTests.bodyRoutes[3], port: server.port, token: token, length: 10_000)
        let drip = Task.detached {
            for _ in 0..<100 {
                guard (try? trickler.send("7")) != nil else { return }
                try? await Task.sleep(for: .milliseconds(300))
            }
        }
        defer { drip.cancel() }

        // A GeoJSON answer of about 7 MB, more than the kernel's buffers hold, read by a
        // client slower than the server: its last part is written while earlier ones still
        // wait in the server's own queue.
        let rows = (0..<30_000).map { "\(40 + Double($0 % 100) * 0.1),\(2 + Double($0 % 70) * 0.1)" }.joined(separator: "\n") + "\n"
        let body = "lat,lon\n" + rows
        let stream = try LoopbackConnection(port: server.port, receiveBufferBytes: 64 << 10)
        Thread.detachNewThread {
            try? stream.send(
                "POST /v1/resolve?outputFormat=geojson HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/csv\r\n"
                    + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        }
        let head = stream.receiveHead()
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 200"), head)
        let stopping = ContinuousClock.now
        kill(server.process.processIdentifier, SIGTERM)
        let rest = stream.receiveAllBytes(seconds: 10, readBytes: 32 << 10, pause: .milliseconds(10))
        let answer = try XCTUnwrap(WireAnswer(Data(head.utf8) + rest))
        XCTAssertEqual(answer.endedWithLastChunk, true, "the streamed answer was cut: \(answer.body.count) bytes")
        let collection = try XCTUnwrap(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
        XCTAssertEqual((collection["features"] as? [Any])?.count, 30_000)

        let refused = try XCTUnwrap(WireAnswer(trickler.receiveAllBytes(seconds: 12)), "nothing answered to the trickling body")
        XCTAssertEqual(refused.status, 503, refused.head)
        XCTAssertTrue(refused.text.contains("--shutdown-timeout"), refused.text)
        XCTAssertGreaterThan(ContinuousClock.now - stopping, .seconds(7), "the trickling body had until the deadline")

        let status = server.waitForExit(within: .seconds(10))
        XCTAssertEqual(status, 0, "the server did not exit 0 within 10 s of the deadline")
    }
}

extension ServerProcess {
    /// The exit status once the process ends, or `nil` (and the process killed) when it has
    /// not ended within `limit`.
    func waitForExit(within limit: Duration) -> Int32? {
        let deadline = ContinuousClock.now + limit
        while process.isRunning, ContinuousClock.now < deadline { usleep(50_000) }
        guard !process.isRunning else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        return process.terminationStatus
    }
}
