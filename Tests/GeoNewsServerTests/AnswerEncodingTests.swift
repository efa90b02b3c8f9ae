import Foundation
import XCTest

/// ETags on `/v1/resolve`, gzip for JSON, GeoJSON and vector tiles, on both the event-loop
/// fast path and the router (any `Connection` header sends a request to the router).
final class AnswerEncodingTests: XCTestCase {
    /// One response as bytes: status line, headers by lowercased name, body.
    struct Answer {
        let status: String
        let headers: [String: String]
        let body: Data
    }

    /// Sends one request on a new connection and reads its answer. Any `Connection` header
    /// sends a request to the router, so `Connection: close` goes with it there; on the fast
    /// path a `/healthz` asking to close follows it.
    private func exchange(_ server: ServerProcess, _ request: String, router: Bool = false) throws -> Answer {
        let connection = try LoopbackConnection(port: server.port)
        let text =
            router
            ? request + "\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
            : request + "\r\nHost: 127.0.0.1\r\n\r\nGET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        try connection.send(Data(text.utf8))
        let bytes = connection.receiveAllBytes()
        let separator = Data("\r\n\r\n".utf8)
        let end = try XCTUnwrap(bytes.range(of: separator), String(decoding: bytes, as: UTF8.self))
        let lines = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        let body = bytes[end.upperBound...].prefix(length)
        XCTAssertEqual(body.count, length, lines[0])
        return Answer(status: lines[0], headers: headers, body: Data(body))
    }

    /// `gzip -dc` of `data`.
    private func gunzip(_ data: Data) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dc"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(data)
        try input.fileHandleForWriting.close()
        let plain = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "not gzip")
        return plain
    }

    func testResolveHasAnETagAndA304OnBothPaths() throws {
        let server = try ServerProcess()
        let path = "/v1/resolve?lat=48.8566&lon=2.3522"
        let fast = try exchange(server, "GET \(path) HTTP/1.1")
        let tag = try XCTUnwrap(fast.headers["etag"], "\(fast.headers)")
        XCTAssertTrue(tag.hasPrefix("\"") && tag.hasSuffix("\"") && tag.count == 18, tag)
        let router = try exchange(server, "GET \(path) HTTP/1.1", router: true)
        XCTAssertEqual(router.headers["etag"], tag)
        for router in [false, true] {
            let again = try exchange(server, "GET \(path) HTTP/1.1\r\nIf-None-Match: \(tag)", router: router)
            XCTAssertEqual(again.status, "HTTP/1.1 304 Not Modified", "router: \(router)")
            XCTAssertEqual(again.headers["etag"], tag, "router: \(router)")
            XCTAssertNil(again.headers["content-length"], "router: \(router)")
            XCTAssertTrue(again.body.isEmpty, "router: \(router)")
            let other = try exchange(server, "GET \(path) HTTP/1.1\r\nIf-None-Match: \"0000000000000000\"", router: router)
            XCTAssertEqual(other.status, "HTTP/1.1 200 OK", "router: \(router)")
        }
        // Another place, another tag.
        let berlin = try exchange(server, "GET /v1/resolve?lat=52.52&lon=13.405 HTTP/1.1")
        XCTAssertNotEqual(berlin.headers["etag"], tag)
    }

    /// The cluster answer at 15,000 km (6.8 KB) is gzipped on both paths, and decompresses to
    /// the plain answer; its tag names the gzip form, and a 304 answers it.
    func testClusterAnswersAreGzippedWhenAcceptedOnBothPaths() throws {
        let server = try ServerProcess()
        let path = "/v1/clusters?altitude=15000km"
        let plain = try exchange(server, "GET \(path) HTTP/1.1")
        XCTAssertNil(plain.headers["content-encoding"])
        XCTAssertEqual(plain.headers["vary"], "Accept-Encoding")
        let tag = try XCTUnwrap(plain.headers["etag"])
        for router in [false, true] {
            let extra = "router: \(router)"
            let gzipped = try exchange(server, "GET \(path) HTTP/1.1\r\nAccept-Encoding: gzip, deflate, br", router: router)
            XCTAssertEqual(gzipped.status, "HTTP/1.1 200 OK", extra)
            XCTAssertEqual(gzipped.headers["content-encoding"], "gzip", extra)
            XCTAssertEqual(gzipped.headers["vary"], "Accept-Encoding", extra)
            XCTAssertEqual(gzipped.headers["etag"], String(tag.dropLast()) + "-gzip\"", extra)
            XCTAssertEqual(gzipped.headers["content-length"], String(gzipped.body.count), extra)
            XCTAssertLessThan(gzipped.body.count, plain.body.count / 2, extra)
            XCTAssertEqual(try gunzip(gzipped.body), plain.body, extra)
            let cached = try exchange(
                server, "GET \(path) HTTP/1.1\r\nAccept-Encoding: gzip\r\nIf-None-Match: \(gzipped.headers["etag"] ?? "")",
                router: router)
            XCTAssertEqual(cached.status, "HTTP/1.1 304 Not Modified", extra)
        }
        // q=0 refuses gzip.
        let refused = try exchange(server, "GET \(path) HTTP/1.1\r\nAccept-Encoding: gzip;q=0")
        XCTAssertNil(refused.headers["content-encoding"])
    }

    func testVectorTilesAndJSONAreGzippedButSmallAnswersStayPlain() async throws {
        let server = try ServerProcess()
        // 2,000 points on a world grid: the world tile's clusters list their members' ids.
        let rows = ["lat,lon,id"] + (0..<2000).map { "\(-60 + Double($0 / 50) * 3),\(-170 + Double($0 % 50) * 6.8),station-\($0)" }
        let created = try await server.send(
            "POST", "/v1/datasets?name=grid", token: try await server.newUser(),
            body: Data(rows.joined(separator: "\n").utf8), contentType: "text/csv")
        let dataset = try XCTUnwrap(try created.object()["id"] as? String, created.text)
        let tile = try exchange(server, "GET /v1/tiles/0/0/0.mvt?dataset=\(dataset) HTTP/1.1")
        XCTAssertGreaterThan(tile.body.count, 1400)
        let gzippedTile = try exchange(server, "GET /v1/tiles/0/0/0.mvt?dataset=\(dataset) HTTP/1.1\r\nAccept-Encoding: gzip")
        XCTAssertEqual(gzippedTile.headers["content-encoding"], "gzip")
        XCTAssertEqual(gzippedTile.headers["content-type"], "application/vnd.mapbox-vector-tile")
        XCTAssertEqual(try gunzip(gzippedTile.body), tile.body)
        // The catalogue (JSON, through the router's middleware).
        let countries = try exchange(server, "GET /v1/countries HTTP/1.1")
        let gzippedCountries = try exchange(server, "GET /v1/countries HTTP/1.1\r\nAccept-Encoding: gzip")
        XCTAssertEqual(gzippedCountries.headers["content-encoding"], "gzip")
        XCTAssertEqual(gzippedCountries.headers["vary"], "Accept-Encoding")
        XCTAssertEqual(try gunzip(gzippedCountries.body), countries.body)
        // A resolution is a few hundred bytes: plain, though gzip is accepted.
        let small = try exchange(server, "GET /v1/resolve?lat=48.8566&lon=2.3522 HTTP/1.1\r\nAccept-Encoding: gzip")
        XCTAssertNil(small.headers["content-encoding"])
        XCTAssertEqual(small.headers["vary"], "Accept-Encoding")
        XCTAssertTrue(String(decoding: small.body, as: UTF8.self).contains(#""iso2":"FR""#))
    }

    func testMetricsFollowPrometheusNaming() throws {
        let server = try ServerProcess()
        _ = try exchange(server, "GET /v1/resolve?lat=48.8566&lon=2.3522 HTTP/1.1")
        _ = try exchange(server, "GET /v1/countries/fr HTTP/1.1")
        let text = String(decoding: try exchange(server, "GET /metrics HTTP/1.1").body, as: UTF8.self)
        let lines = text.split(separator: "\n")
        var families: [String: String] = [:]
        for line in lines where line.hasPrefix("# TYPE ") {
            let parts = line.split(separator: " ")
            families[String(parts[2])] = String(parts[3])
        }
        XCTAssertEqual(families["http_server_requests_total"], "counter", text)
        XCTAssertEqual(families["http_server_request_duration_seconds"], "histogram", text)
        for name in ["process_resident_memory_bytes", "process_open_fds", "process_start_time_seconds"] {
            XCTAssertEqual(families[name], "gauge", "\(name): \(text)")
        }
        XCTAssertEqual(families["process_cpu_seconds_total"], "counter", text)
        for (name, type) in families {
            if type == "counter" { XCTAssertTrue(name.hasSuffix("_total"), name) }
            XCTAssertTrue(lines.contains { $0.hasPrefix("# HELP \(name) ") }, "no HELP for \(name)")
        }
        XCTAssertFalse(text.contains("hb_"), text)
        XCTAssertTrue(
            text.contains(
                #"http_server_request_duration_seconds_bucket{http_route="/v1/resolve",http_request_method="GET",http_response_status_code="200",le="0.0005"}"#
            ), text)
        XCTAssertTrue(
            text.contains(
                #"http_server_requests_total{http_route="/v1/countries/{iso2}",http_request_method="GET",http_response_status_code="200"} 1"#
            ), text)
        let rss = try XCTUnwrap(
            lines.first { $0.hasPrefix("process_resident_memory_bytes ") }.flatMap { Double($0.split(separator: " ")[1]) })
        XCTAssertGreaterThan(rss, 1_000_000)
    }
}
