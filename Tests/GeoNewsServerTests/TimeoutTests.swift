import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Slow and silent clients cannot hold a connection: `--header-timeout` bounds the wait for
/// the first request's head, `--idle-timeout` a silent keep-alive connection. The bounds
/// checked are loose (the server's timeouts are 1 s, the client waits up to 10 s): they show
/// which side closed the connection, not how fast.
final class TimeoutTests: XCTestCase {
    func testHeadersSentAByteAtATimeAreCutOffAtTheHeaderTimeout() async throws {
        let server = try ServerProcess(arguments: ["--header-timeout", "1", "--idle-timeout", "30"])
        let connection = try LoopbackConnection(port: server.port)
        let request = Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: \(String(repeating: "a", count: 200))\r\n\r\n".utf8)
        let start = ContinuousClock.now
        var sent = 0
        // One byte every 100 ms would take 25 s for the whole head; the server must close first.
        while sent < request.count, connection.isOpen {
            try? connection.send(Data([request[sent]]))
            sent += 1
            try await Task.sleep(for: .milliseconds(100))
        }
        let elapsed = ContinuousClock.now - start
        XCTAssertLessThan(sent, request.count, "the whole head went through")
        XCTAssertGreaterThanOrEqual(elapsed, .milliseconds(900))
        XCTAssertLessThan(elapsed, .seconds(8))
        XCTAssertEqual(connection.receiveAll(), "", "nothing is answered to a head that never ends")
    }

    func testASilentConnectionIsClosed() async throws {
        let server = try ServerProcess(arguments: ["--header-timeout", "1"])
        let connection = try LoopbackConnection(port: server.port)
        let start = ContinuousClock.now
        XCTAssertEqual(connection.receiveAll(), "")
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(8), "closed by the server, not by the client's 10 s wait")
    }

    func testAnIdleKeepAliveConnectionIsClosedAfterTheIdleTimeout() async throws {
        let server = try ServerProcess(arguments: ["--idle-timeout", "1", "--header-timeout", "30"])
        let connection = try LoopbackConnection(port: server.port)
        try connection.send(Data("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        let start = ContinuousClock.now
        // The answer, then the server closes the kept-alive connection once it has been idle 1 s.
        let answer = connection.receiveAll()
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 200"), answer)
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(8), "closed by the server, not by the client's 10 s wait")
    }

    func testTimeoutsMustBePositive() throws {
        for option in ["--header-timeout", "--idle-timeout"] {
            XCTAssertEqual(try ServerProcess.runOnce([option, "0"]).status, 64, option)
        }
    }
}
