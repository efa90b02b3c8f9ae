import Foundation
import XCTest

/// How a connection carries its requests: HTTP/1.0, pipelining with `Expect: 100-continue`,
/// and uploads the client abandons.
final class ConnectionTests: XCTestCase {
    func testAnHTTP10ConnectionIsClosedAfterItsAnswerUnlessKeptAlive() throws {
        let server = try ServerProcess(arguments: ["--idle-timeout", "30"])
        for path in ["/healthz", "/v1/resolve?lat=48.8566&lon=2.3522"] {
            let connection = try LoopbackConnection(port: server.port)
            try connection.send("GET \(path) HTTP/1.0\r\n\r\n")
            let start = ContinuousClock.now
            let answer = try XCTUnwrap(WireAnswer(connection.receiveAllBytes()), path)
            XCTAssertLessThan(ContinuousClock.now - start, .seconds(8), "\(path): closed by the server, not by the client's 10 s wait")
            XCTAssertTrue(answer.head.hasPrefix("HTTP/1.0 200"), answer.head)
            XCTAssertEqual(answer.header("Connection"), "close", path)
        }
        // Kept alive when asked for: a second request on the same connection is answered.
        let kept = try LoopbackConnection(port: server.port)
        try kept.send("GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        let first = kept.receiveHead()
        XCTAssertTrue(first.hasPrefix("HTTP/1.0 200"), first)
        XCTAssertTrue(first.lowercased().contains("connection: keep-alive"), first)
        XCTAssertTrue(kept.isOpen)
        _ = kept.receive(through: "}")
        try kept.send("GET /healthz HTTP/1.0\r\n\r\n")
        XCTAssertTrue(kept.receiveAll().hasPrefix("HTTP/1.0 200"))
    }

    /// A streamed answer has no length; HTTP/1.0 has no chunked encoding, so the body ends
    /// where the connection does.
    func testAStreamedAnswerToHTTP10IsNotChunked() throws {
        let server = try ServerProcess()
        let body = "lat,lon\n48.8566,2.3522\n-33.8688,151.2093\n"
        let connection = try LoopbackConnection(port: server.port)
        try connection.send("POST /v1/resolve HTTP/1.0\r\nContent-Type: text/csv\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        let answer = try XCTUnwrap(WireAnswer(connection.receiveAllBytes()))
        XCTAssertTrue(answer.head.hasPrefix("HTTP/1.0 200"), answer.head)
        XCTAssertNil(answer.endedWithLastChunk, answer.head)
        XCTAssertEqual(answer.text.split(separator: "\n").count, 3, answer.text)
        XCTAssertTrue(answer.text.contains("-33.8688,151.2093,AU"), answer.text)
    }

    /// The 100 for a pipelined request comes after the answer before it has ended, never in
    /// the middle of it.
    func testAPipelinedExpectContinueWaitsForTheAnswerBeforeIt() throws {
        let server = try ServerProcess()
        let rows = (0..<20_000).map { "\(40 + Double($0 % 100) * 0.1),\(2 + Double($0 % 70) * 0.1)" }.joined(separator: "\n") + "\n"
        let first = "lat,lon\n" + rows
        let second = "lat,lon\n48.8566,2.3522\n"
        let connection = try LoopbackConnection(port: server.port)
        try connection.send(
            "POST /v1/resolve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/csv\r\nContent-Length: \(first.utf8.count)\r\n\r\n\(first)"
                + "POST /v1/resolve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/csv\r\nContent-Length: \(second.utf8.count)\r\n"
                + "Expect: 100-continue\r\nConnection: close\r\n\r\n")
        let received = connection.receive(through: "HTTP/1.1 100 Continue\r\n\r\n")
        let answer = try XCTUnwrap(WireAnswer(received))
        XCTAssertEqual(answer.status, 200, answer.head)
        XCTAssertEqual(answer.endedWithLastChunk, true, "the first answer is whole before the 100")
        XCTAssertEqual(answer.text.split(separator: "\n").count, 20_001)
        XCTAssertEqual(String(decoding: answer.rest, as: UTF8.self), "HTTP/1.1 100 Continue\r\n\r\n")
        try connection.send(second)
        let last = try XCTUnwrap(WireAnswer(connection.receiveAllBytes()))
        XCTAssertEqual(last.status, 200, last.head)
        XCTAssertTrue(last.text.contains("48.8566,2.3522,FR"), last.text)
    }

    /// A client that goes away in the middle of its body is not the server's failure: no
    /// error is logged, and metrics count it under 499, not 500.
    func testAnAbortedUploadIsCountedAsAClientAbortNotA500() async throws {
        let server = try ServerProcess()
        let token = try await server.newUser()
        for route in SlowClientTests.bodyRoutes.prefix(4) {
            for reset in [false, true] {
                let connection = try SlowClientTests.startBody(route, port: server.port, token: token, length: 10_000)
                try await Task.sleep(for: .milliseconds(100))
                connection.abort(reset: reset)
            }
        }
        try await Task.sleep(for: .milliseconds(500))
        let metrics = try await server.get("/metrics")
        let lines = metrics.text.split(separator: "\n").filter { $0.contains("status_code=") && !$0.hasPrefix("#") }
        XCTAssertFalse(lines.contains { $0.contains("\"500\"") }, lines.joined(separator: "\n"))
        for path in ["/v1/resolve", "/v1/datasets", "/v1/favourites"] {
            XCTAssertTrue(
                lines.contains { $0.contains("\"\(path)\"") && $0.contains("\"499\"") }, "\(path): \(lines.joined(separator: "\n"))")
        }
        // Nothing half-written was kept: no dataset came of the aborted uploads.
        let datasets = try await server.get("/v1/datasets", token: token).array().compactMap { $0["id"] as? String }
        XCTAssertEqual(datasets.filter { $0 != "markers" }, [])
        XCTAssertEqual(server.stop(), 0)
        XCTAssertFalse(server.standardError.contains("request failed"), server.standardError)
    }
}
