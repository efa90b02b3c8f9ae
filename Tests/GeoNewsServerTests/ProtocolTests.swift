import Foundation
import XCTest

/// Health, metrics and the error statuses every route shares, against a running server.
final class ProtocolTests: XCTestCase {
    func testHealthAndReadinessAnswer() async throws {
        let server = try ServerProcess()
        let health = try await server.get("/healthz")
        XCTAssertEqual(health.status, 200)
        XCTAssertEqual(try health.object()["status"] as? String, "ok")
        let ready = try await server.get("/readyz")
        XCTAssertEqual(ready.status, 200)
        XCTAssertEqual(try ready.object()["countries"] as? Int, 258, ready.text)
    }

    func testMetricsCountRequestsInPrometheusFormat() async throws {
        let server = try ServerProcess()
        _ = try await server.get("/v1/countries/fr")
        let metrics = try await server.get("/metrics")
        XCTAssertEqual(metrics.status, 200)
        XCTAssertTrue(metrics.header("Content-Type")?.hasPrefix("text/plain") ?? false)
        XCTAssertTrue(metrics.text.contains("http_server_requests_total"), metrics.text)
        XCTAssertTrue(metrics.text.contains("/v1/countries/{iso2}"), metrics.text)
    }

    func testUnknownRouteIsProblem404() async throws {
        let server = try ServerProcess()
        try assertProblem(try await server.get("/v1/nowhere"), 404, mentions: ["/v1/nowhere"])
    }

    func testWrongMethodIsProblem405WithAllow() async throws {
        let server = try ServerProcess()
        let call = try await server.send("DELETE", "/v1/countries")
        try assertProblem(call, 405, mentions: ["DELETE", "/v1/countries"])
        XCTAssertEqual(call.header("Allow"), "GET, HEAD")
    }

    func testBodyPastTheLimitIsProblem413() async throws {
        let server = try ServerProcess(arguments: ["--max-body-bytes", "1000"])
        let token = try await server.newUser()
        let big = try JSONSerialization.data(withJSONObject: ["url": "https://example.org/a", "title": String(repeating: "x", count: 5000)])
        let call = try await server.send("POST", "/v1/favourites", token: token, body: big, contentType: "application/json")
        try assertProblem(call, 413, mentions: ["\(big.count) bytes", "1000"])
    }

    func testExpect100ContinueIsAnsweredBeforeTheBodyUnlessItIsTooLarge() async throws {
        let server = try ServerProcess(arguments: ["--max-body-bytes", "1000"])
        let body = Data("lat,lon\n48.8566,2.3522\n".utf8)
        func head(length: Int) -> Data {
            Data(
                "POST /v1/resolve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/csv\r\nContent-Length: \(length)\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n"
                    .utf8)
        }
        let connection = try LoopbackConnection(port: server.port)
        try connection.send(head(length: body.count))
        // The interim answer comes while the body is still unsent.
        XCTAssertEqual(connection.receiveHead(), "HTTP/1.1 100 Continue\r\n\r\n")
        try connection.send(body)
        let answer = connection.receiveAll()
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 200"), answer)
        XCTAssertTrue(answer.contains("lat,lon,country_iso2") && answer.contains("48.8566,2.3522,FR,FR,inside,"), answer)

        let refused = try LoopbackConnection(port: server.port)
        try refused.send(head(length: 5000))
        let final = refused.receiveHead()
        XCTAssertTrue(final.hasPrefix("HTTP/1.1 413"), final)
    }

    func testWrongContentTypeIsProblem415() async throws {
        let server = try ServerProcess()
        let token = try await server.newUser()
        let call = try await server.send("POST", "/v1/favourites", token: token, body: Data("url=x".utf8), contentType: "text/plain")
        try assertProblem(call, 415, mentions: ["text/plain", "application/json"])
    }

    func testNoCORSHeadersUnlessAnOriginIsConfigured() async throws {
        let plain = try ServerProcess()
        let without = try await plain.get("/v1/countries/fr", headers: ["Origin": "https://map.example.org"])
        XCTAssertNil(without.header("Access-Control-Allow-Origin"))
        let configured = try ServerProcess(arguments: ["--cors-origin", "https://map.example.org"])
        let with = try await configured.get("/v1/countries/fr", headers: ["Origin": "https://map.example.org"])
        XCTAssertEqual(with.header("Access-Control-Allow-Origin"), "https://map.example.org")
    }

    func testBadOptionsExitWithUsageStatus() throws {
        let server = try? ServerProcess(arguments: ["--port", "70000"])
        XCTAssertNil(server)
    }

    func testPageFolderIsServedAtTheRootWithETags() async throws {
        let page = ServerProcess.newStateDirectory()
        try FileManager.default.createDirectory(at: page, withIntermediateDirectories: true)
        try Data("<!doctype html><title>GeoNews map</title>".utf8).write(to: page.appendingPathComponent("index.html"))
        let server = try ServerProcess(arguments: ["--page-dir", page.path])
        let index = try await server.get("/")
        XCTAssertEqual(index.status, 200)
        XCTAssertTrue(index.text.contains("GeoNews map"))
        let tag = try XCTUnwrap(index.header("ETag"))
        let unchanged = try await server.get("/index.html", headers: ["If-None-Match": tag])
        XCTAssertEqual(unchanged.status, 304)
        try assertProblem(try await server.get("/missing.js"), 404, mentions: ["/missing.js"])
    }

    func testOpenAPIDescriptionIsServedAndListsEveryRoute() async throws {
        let server = try ServerProcess()
        let call = try await server.get("/openapi.yaml")
        XCTAssertEqual(call.status, 200)
        XCTAssertEqual(call.header("Content-Type"), "application/yaml")
        XCTAssertTrue(call.text.hasPrefix("openapi: 3.1.0"))
        for path in [
            "/v1/resolve:", "/v1/clusters:", "/v1/clusters/{id}/leaves:", "/v1/countries/{iso2}:", "/v1/headlines:",
            "/v1/search:", "/v1/users:", "/v1/favourites:", "/v1/favourites/{id}:", "/v1/settings:", "/healthz:",
        ] {
            XCTAssertTrue(call.text.contains("\n  \(path)\n"), path)
        }
    }
}
