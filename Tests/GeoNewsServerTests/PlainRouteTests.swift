import Foundation
import XCTest

/// The routes of one table answered by two doors: a bad query gets the same problem JSON and
/// the same metrics from the event loop as from the router, and the benchmark's constant route
/// exists only when asked for, going the way `/v1/resolve` goes.
final class PlainRouteTests: XCTestCase {
    /// Sends `requests` in one write on one connection, the last asking to close.
    private func exchange(_ server: ServerProcess, _ requests: [String]) throws -> [EventLoopAnswerTests.RawResponse] {
        let connection = try LoopbackConnection(port: server.port)
        var text = ""
        for (i, request) in requests.enumerated() {
            text += request + "\r\nHost: 127.0.0.1\r\n" + (i == requests.count - 1 ? "Connection: close\r\n" : "") + "\r\n"
        }
        try connection.send(Data(text.utf8))
        return EventLoopAnswerTests.responses(connection.receiveAllBytes())
    }

    func testABadQueryGetsTheSameProblemAndMetricsFromEitherDoor() async throws {
        let server = try ServerProcess()
        for (path, parameter) in [("/v1/resolve?lat=abc&lon=2", "lat"), ("/v1/clusters?zoom=2&bbox=1,2,3", "bbox")] {
            // The first on the event loop, the second (Connection: keep-alive) through the router.
            let answers = try exchange(
                server,
                [
                    "GET \(path) HTTP/1.1", "GET \(path) HTTP/1.1\r\nConnection: keep-alive",
                    "GET /healthz HTTP/1.1",
                ])
            XCTAssertEqual(answers.count, 3, path)
            guard answers.count == 3 else { continue }
            let (fast, router) = (answers[0], answers[1])
            XCTAssertEqual(fast.status, "HTTP/1.1 400 Bad Request", path)
            XCTAssertEqual(router.status, fast.status, path)
            XCTAssertEqual(fast.body, router.body, path)
            XCTAssertTrue(fast.body.contains(#""detail":"\#(parameter): "#), fast.body)
            XCTAssertEqual(fast.headers["content-type"], "application/problem+json", path)
            XCTAssertEqual(fast.headers["cache-control"], "no-store", path)
            XCTAssertEqual(fast.headers.keys.sorted(), router.headers.keys.sorted(), path)
            for name in ["content-type", "content-length", "cache-control", "server"] {
                XCTAssertEqual(fast.headers[name], router.headers[name], "\(path): \(name)")
            }
        }
        let metrics = try await server.get("/metrics").text
        for route in ["/v1/resolve", "/v1/clusters"] {
            XCTAssertTrue(
                metrics.contains(
                    #"http_server_requests_total{http_route="\#(route)",http_request_method="GET",http_response_status_code="400"} 2"#),
                metrics)
            XCTAssertTrue(
                metrics.contains(#"http_server_request_errors_total{http_route="\#(route)",http_request_method="GET",error_type="400"} 2"#),
                metrics)
        }
    }

    #if BenchmarkRoutes
    func testTheConstantRouteAnswersOnlyWhenABenchmarkAsks() async throws {
        let plain = try ServerProcess()
        let refused = try await plain.get("/v1/benchmark/constant")
        XCTAssertEqual(refused.status, 404, "the constant route must not exist in normal operation")

        let server = try ServerProcess(arguments: ["--benchmark-constant-route"])
        let paris = try await server.get("/v1/resolve?lat=48.8566&lon=2.3522")
        // Event loop, event loop, router.
        let answers = try exchange(
            server,
            [
                "GET /v1/benchmark/constant HTTP/1.1", "GET /v1/benchmark/constant?x=1 HTTP/1.1",
                "GET /v1/benchmark/constant HTTP/1.1\r\nConnection: keep-alive", "GET /healthz HTTP/1.1",
            ])
        XCTAssertEqual(answers.count, 4)
        guard answers.count == 4 else { return }
        for answer in answers.prefix(3) {
            XCTAssertEqual(answer.status, "HTTP/1.1 200 OK")
            XCTAssertEqual(answer.body, paris.text, "the Paris answer, worked out once")
            XCTAssertEqual(answer.headers["content-length"], "\(paris.body.count)")
            XCTAssertEqual(answer.headers["content-type"], "application/json")
            XCTAssertEqual(answer.headers.keys.sorted(), answers[0].headers.keys.sorted())
        }
        let metrics = try await server.get("/metrics").text
        XCTAssertTrue(
            metrics.contains(
                #"http_server_requests_total{http_route="/v1/benchmark/constant",http_request_method="GET",http_response_status_code="200"} 3"#
            ), metrics)
        // The clusters' constant: the 15,000 km answer, bytes and header fields (raw requests,
        // so that neither is compressed).
        let pair = try exchange(
            server, ["GET /v1/clusters?altitude=15000km HTTP/1.1", "GET /v1/benchmark/constant-clusters HTTP/1.1"])
        XCTAssertEqual(pair.count, 2)
        guard pair.count == 2 else { return }
        XCTAssertEqual(pair[1].status, "HTTP/1.1 200 OK")
        XCTAssertEqual(pair[1].body, pair[0].body)
        XCTAssertGreaterThan(pair[1].body.utf8.count, 5000, "as large as the 54 markers' collection")
        XCTAssertEqual(pair[1].headers["content-type"], "application/geo+json")
        XCTAssertEqual(pair[1].headers["etag"], pair[0].headers["etag"])
        let refusedClusters = try await plain.get("/v1/benchmark/constant-clusters")
        XCTAssertEqual(refusedClusters.status, 404)
    }
    #else
    /// The load test's constant routes are built only with the `BenchmarkRoutes` trait
    /// (`Benchmarks/run-serve.sh`, which checks their bytes against the real routes'): this
    /// build neither answers them nor knows their option.
    func testTheConstantRoutesAreNotInThisBuild() async throws {
        let server = try ServerProcess()
        for path in ["/v1/benchmark/constant", "/v1/benchmark/constant-clusters"] {
            let refused = try await server.get(path)
            XCTAssertEqual(refused.status, 404, path)
        }
        let refused = try ServerProcess.runOnce(["--benchmark-constant-route"])
        XCTAssertEqual(refused.status, 64, refused.errors)
        XCTAssertTrue(refused.errors.contains("--benchmark-constant-route"), refused.errors)
    }
    #endif

}
