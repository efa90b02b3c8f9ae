import Foundation
import XCTest

@testable import GeoNewsServer

/// The access log: nginx's combined format, request values escaped so that no request can
/// forge or stretch a line, written by the log's own thread, opened again after logrotate
/// moved the file, and everything buffered written at close.
final class AccessLogTests: XCTestCase {
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("geonews-access-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    private func lines(_ url: URL) throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    func testALineIsNginxCombinedWithTheSecondsTakenAndEveryRequestValueEscaped() async throws {
        let path = try folder().appendingPathComponent("access.log")
        let log = try AccessLog(path: path.path)
        log.record(
            client: "203.0.113.7", method: "GET", target: "/v1/resolve?lat=48.8&lon=2.3", status: 200, bytes: 412, referer: nil,
            userAgent: "curl/8.1", seconds: 0.000231)
        // A request that tries to end its line and write one of its own, with quotes, a
        // backslash, non-ASCII text and a target longer than any line keeps.
        log.record(
            client: "198.51.100.1", method: "POST", target: "/v1/users\n127.0.0.1 - - [x] \"GET / HTTP/1.1\" 200", status: 429,
            bytes: nil, referer: "https://map.example.org/\"q\"", userAgent: "Zürich\\\u{1}", seconds: 12.5)
        log.record(
            client: "::1", method: "GET", target: "/" + String(repeating: "a", count: 10_000), status: 404, bytes: 0, referer: nil,
            userAgent: nil, seconds: 1e300)
        await log.close()
        let written = try lines(path)
        XCTAssertEqual(written.count, 3, "\(written)")
        let first = written[0]
        let stamp = try XCTUnwrap(first.range(of: #"\[\d{2}/[A-Z][a-z]{2}/\d{4}:\d{2}:\d{2}:\d{2} \+0000\]"#, options: .regularExpression))
        XCTAssertEqual(
            first.replacingCharacters(in: stamp, with: "[T]"),
            #"203.0.113.7 - - [T] "GET /v1/resolve?lat=48.8&lon=2.3 HTTP/1.1" 200 412 "-" "curl/8.1" 0.000231"#)
        XCTAssertTrue(
            written[1].hasSuffix(
                #""POST /v1/users\x0A127.0.0.1 - - [x] \x22GET / HTTP/1.1\x22 200 HTTP/1.1" 429 - "https://map.example.org/\x22q\x22" "Z\xC3\xBCrich\x5C\x01" 12.500000"#
            ), written[1])
        XCTAssertTrue(written[1].hasPrefix("198.51.100.1 - - ["), written[1])
        let target = try XCTUnwrap(written[2].components(separatedBy: "\"GET ").last?.components(separatedBy: " HTTP/1.1").first)
        XCTAssertEqual(target, "/" + String(repeating: "a", count: 2_047), "the target is cut to 2048 bytes")
        XCTAssertTrue(written[2].hasSuffix(#" HTTP/1.1" 404 0 "-" "-" 1000000000.000000"#), String(written[2].suffix(80)))
    }

    func testAfterTheFileIsMovedReopenWritesToANewFileAndLosesNothing() async throws {
        let dir = try folder()
        let path = dir.appendingPathComponent("access.log")
        let log = try AccessLog(path: path.path)
        func request(_ n: Int) {
            log.record(client: "::1", method: "GET", target: "/\(n)", status: 200, bytes: 1, referer: nil, userAgent: nil, seconds: 0)
        }
        for n in 0..<100 { request(n) }
        // Written within the flush interval, without a close.
        var waited = 0
        while (try? lines(path).count) != 100 && waited < 100 {
            try await Task.sleep(for: .milliseconds(20))
            waited += 1
        }
        XCTAssertEqual(try lines(path).count, 100)
        let rotated = dir.appendingPathComponent("access.log.1")
        try FileManager.default.moveItem(at: path, to: rotated)
        log.reopen()
        try await Task.sleep(for: .milliseconds(400))
        for n in 100..<150 { request(n) }
        await log.close()
        XCTAssertEqual(try lines(rotated).count, 100)
        let fresh = try lines(path)
        XCTAssertEqual(fresh.count, 50)
        XCTAssertTrue(fresh[0].contains(#""GET /100 HTTP/1.1""#), fresh[0])
        log.record(client: "::1", method: "GET", target: "/late", status: 200, bytes: 1, referer: nil, userAgent: nil, seconds: 0)
        XCTAssertEqual(try lines(path).count, 50, "a line after close is not written")
    }

    func testAFolderThatDoesNotExistIsRefusedNamingThePath() throws {
        let missing = try folder().appendingPathComponent("no/such/access.log").path
        XCTAssertThrowsError(try AccessLog(path: missing)) { error in
            XCTAssertEqual("\(error)", "the access log \(missing) cannot be opened for appending: No such file or directory")
        }
    }

    /// Thousands of writers at once: every line whole, none lost, none interleaved.
    func testConcurrentRequestsEachGetOneWholeLine() async throws {
        let path = try folder().appendingPathComponent("access.log")
        let log = try AccessLog(path: path.path)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for n in 0..<2_000 {
                        log.record(
                            client: "10.0.0.\(task)", method: "GET", target: "/\(task)/\(n)", status: 200, bytes: n, referer: nil,
                            userAgent: nil, seconds: 0)
                    }
                }
            }
        }
        await log.close()
        let written = try lines(path)
        XCTAssertEqual(written.count, 16_000)
        XCTAssertEqual(log.dropped, 0)
        XCTAssertEqual(Set(written.map { $0.split(separator: "\"")[1] }).count, 16_000)
        XCTAssertTrue(written.allSatisfy { $0.hasPrefix("10.0.0.") && $0.hasSuffix(#" "-" "-" 0.000000"#) })
    }
}
