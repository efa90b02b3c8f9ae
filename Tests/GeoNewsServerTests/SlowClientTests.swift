import Foundation
import XCTest

/// Clients that send their heads or bodies a byte at a time hold no thread the other requests
/// need, and a body slower than its deadline is cut.
///
/// The bounds are for liveness, not speed: a probe the server answers at all comes back in
/// milliseconds; a frozen server answers none within the bound (before bodies were read
/// without parking threads, 25 slow bodies stalled every route for over a minute).
final class SlowClientTests: XCTestCase {
    /// The routes that read a body, with a body's first bytes.
    static let bodyRoutes: [(method: String, path: String, type: String, opening: String)] = [
        ("POST", "/v1/resolve", "text/csv", "lat,lon\n48.8566,2.3522\n"),
        ("POST", "/v1/resolve?outputFormat=geojson", "application/x-ndjson", #"{"lat":48.8566,"lon":2.3522}"# + "\n"),
        ("POST", "/v1/datasets", "text/csv", "lat,lon\n48.8566,2.3522\n"),
        ("POST", "/v1/favourites", "application/json", #"{"url":"https://example.org/a","title":""#),
        ("PUT", "/v1/settings", "application/json", #"{"newsCountry":""#),
        ("POST", "/v1/users", "application/json", "{"),
    ]

    /// A connection that has sent a request's head and the start of a body of
    /// `length` bytes.
    static func startBody(
        _ route: (method: String, path: String, type: String, opening: String), port: Int, token: String,
        length: Int = 1_000_000
    ) throws -> LoopbackConnection {
        let connection = try LoopbackConnection(port: port)
        try connection.send(
            """
            \(route.method) \(route.path) HTTP/1.1\r
            Host: 127.0.0.1\r
            Authorization: Bearer \(token)\r
            Content-Type: \(route.type)\r
            Content-Length: \(length)\r
            \r
            \(route.opening)
            """)
        return connection
    }

    /// One request on a new connection; its answer, or what came within 10 s.
    static func probe(_ request: String, port: Int) throws -> (answer: WireAnswer?, elapsed: Duration) {
        let start = ContinuousClock.now
        let connection = try LoopbackConnection(port: port)
        try connection.send(request)
        let bytes = connection.receiveAllBytes()
        return (WireAnswer(bytes), ContinuousClock.now - start)
    }

    func testThirtySlowClientsOnEveryBodyRouteLeaveOtherRequestsAnswered() async throws {
        let server = try ServerProcess(arguments: ["--header-timeout", "60", "--idle-timeout", "60", "--body-timeout", "60"])
        let token = try await server.newUser()
        var slow: [LoopbackConnection] = []
        for i in 0..<30 {
            switch i % 10 {
            case 0:
                // A head that never ends.
                let connection = try LoopbackConnection(port: server.port)
                try connection.send("POST /v1/resolve HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                slow.append(connection)
            case 1, 2:
                slow.append(try Self.startBody(Self.bodyRoutes[2 + (i / 10 + i) % 4], port: server.port, token: token))
            default:
                // Most on the batch route, whose body feeds threads of its own.
                slow.append(try Self.startBody(Self.bodyRoutes[i % 2], port: server.port, token: token))
            }
        }
        let connections = slow
        let drip = Task.detached {
            while !Task.isCancelled {
                for connection in connections { try? connection.send("7") }
                try? await Task.sleep(for: .milliseconds(250))
            }
        }
        defer { drip.cancel() }
        try await Task.sleep(for: .milliseconds(500))

        let csv = "lat,lon\n48.8566,2.3522\n-33.8688,151.2093\n"
        let probes = [
            "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
            "GET /v1/resolve?lat=48.8566&lon=2.3522 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
            "POST /v1/resolve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/csv\r\nContent-Length: \(csv.utf8.count)\r\nConnection: close\r\n\r\n\(csv)",
        ]
        for round in 0..<5 {
            for request in probes {
                let (answer, elapsed) = try Self.probe(request, port: server.port)
                let line = request.prefix(while: { $0 != "\r" })
                XCTAssertEqual(answer?.status, 200, "\(line), round \(round)")
                XCTAssertLessThan(elapsed, .seconds(5), "\(line), round \(round)")
                guard answer?.status == 200 else { return }
                if request.hasPrefix("POST") {
                    XCTAssertTrue(answer?.text.contains("48.8566,2.3522,FR") ?? false, answer?.text ?? "")
                    XCTAssertTrue(answer?.text.contains("-33.8688,151.2093,AU") ?? false, answer?.text ?? "")
                }
            }
        }
        // The slow clients are still connected: they were not simply dropped.
        XCTAssertEqual(connections.filter(\.isOpen).count, 30)
    }

    func testABodyDrippingPastItsDeadlineIsAnswered408AndClosed() async throws {
        let server = try ServerProcess(arguments: ["--body-timeout", "2", "--body-min-rate", "0", "--idle-timeout", "30"])
        let token = try await server.newUser()
        for route in Self.bodyRoutes.dropLast() {
            let connection = try Self.startBody(route, port: server.port, token: token, length: 10_000)
            let start = ContinuousClock.now
            let drip = Task.detached {
                for _ in 0..<60 {
                    guard (try? connection.send("7")) != nil else { return }
                    try? await Task.sleep(for: .milliseconds(500))
                }
            }
            let answer = try XCTUnwrap(WireAnswer(connection.receiveAllBytes(seconds: 20)), route.path)
            drip.cancel()
            XCTAssertEqual(answer.status, 408, "\(route.path): \(answer.head)")
            XCTAssertEqual(answer.header("Content-Type"), "application/problem+json", route.path)
            XCTAssertTrue(answer.text.contains("--body-timeout"), answer.text)
            XCTAssertEqual(answer.header("Connection"), "close", route.path)
            let elapsed = ContinuousClock.now - start
            XCTAssertGreaterThan(elapsed, .milliseconds(1900), route.path)
            XCTAssertLessThan(elapsed, .seconds(15), "closed by the server, not by the client giving up")
        }
        // A body sent at once is answered as ever.
        let quick = try await server.send("POST", "/v1/resolve", body: Data("lat,lon\n48.8566,2.3522\n".utf8), contentType: "text/csv")
        XCTAssertEqual(quick.status, 200, quick.text)
    }

    /// An answer already streaming when the body stalls cannot become a 408: the connection
    /// is closed, and the answer lacks its last chunk, so the client knows it is cut.
    func testABatchBodyStallingAfterItsFirstRowsIsCutWithoutItsLastChunk() async throws {
        let server = try ServerProcess(arguments: ["--body-timeout", "2", "--body-min-rate", "0"])
        // Past the batch reader's 512 KB chunk, so that rows come before the body stalls.
        let rows = (0..<150_000).map { "\(40 + Double($0 % 100) * 0.1),\(2 + Double($0 % 70) * 0.1)" }.joined(separator: "\n") + "\n"
        let connection = try LoopbackConnection(port: server.port)
        try connection.send(
            "POST /v1/resolve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/csv\r\nContent-Length: \(rows.utf8.count + 1_000)\r\n\r\nlat,lon\n\(rows)"
        )
        let start = ContinuousClock.now
        let answer = try XCTUnwrap(WireAnswer(connection.receiveAllBytes(seconds: 20)))
        XCTAssertEqual(answer.status, 200, answer.head)
        XCTAssertEqual(answer.endedWithLastChunk, false)
        XCTAssertTrue(answer.text.hasPrefix("lat,lon,country_iso2"), String(answer.text.prefix(200)))
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(15), "closed by the server, not by the client giving up")
    }
}
