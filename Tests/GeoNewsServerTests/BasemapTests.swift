import Foundation
import XCTest

final class BasemapTests: XCTestCase {
    func testBasemapIsGzippedForClientsThatAcceptItWithAStrongETagAnd304() async throws {
        let server = try ServerProcess()
        let file = try Data(contentsOf: ServerProcess.packageRoot.appendingPathComponent("Data/basemap.geojson"))
        // URLSession sends Accept-Encoding: gzip and inflates the body itself.
        let zipped = try await server.get("/basemap.geojson", headers: ["Accept-Encoding": "gzip"])
        XCTAssertEqual(zipped.status, 200, zipped.text)
        XCTAssertEqual(zipped.header("Content-Type"), "application/geo+json")
        XCTAssertEqual(zipped.header("Content-Encoding"), "gzip")
        XCTAssertEqual(zipped.body, file)
        let tag = try XCTUnwrap(zipped.header("ETag"))
        XCTAssertTrue(tag.hasPrefix("\"") && tag.hasSuffix("-gzip\""), tag)
        XCTAssertEqual(try (zipped.object()["type"] as? String), "FeatureCollection")

        let plain = try await server.get("/basemap.geojson", headers: ["Accept-Encoding": "identity"])
        XCTAssertEqual(plain.status, 200)
        XCTAssertNil(plain.header("Content-Encoding"))
        XCTAssertEqual(plain.body, file)
        let plainTag = try XCTUnwrap(plain.header("ETag"))
        XCTAssertNotEqual(plainTag, tag)

        let again = try await server.get("/basemap.geojson", headers: ["Accept-Encoding": "gzip", "If-None-Match": tag])
        XCTAssertEqual(again.status, 304)
        XCTAssertTrue(again.body.isEmpty)
        let stale = try await server.get("/basemap.geojson", headers: ["Accept-Encoding": "gzip", "If-None-Match": "\"0\""])
        XCTAssertEqual(stale.status, 200)
        // As for every answer (EntityTag): either form's tag, weak or among others, is still
        // fresh, and the 304 names the one the client holds.
        for (held, named) in [(plainTag, plainTag), ("W/" + tag, tag), ("\"0\", " + plainTag, plainTag), ("*", plainTag)] {
            let fresh = try await server.get("/basemap.geojson", headers: ["Accept-Encoding": "gzip", "If-None-Match": held])
            XCTAssertEqual(fresh.status, 304, held)
            XCTAssertEqual(fresh.header("ETag"), named, held)
        }
    }

    func testGzipOnTheWireIsSmallerThanTheFile() async throws {
        let server = try ServerProcess()
        let file = try Data(contentsOf: ServerProcess.packageRoot.appendingPathComponent("Data/basemap.geojson"))
        // A raw socket read, so that nothing inflates the body before it is measured.
        let connection = try LoopbackConnection(port: server.port)
        try connection.send(Data("GET /basemap.geojson HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n".utf8))
        let answer = connection.receiveAllBytes()
        let split = try XCTUnwrap(answer.range(of: Data("\r\n\r\n".utf8)))
        let head = String(decoding: answer[..<split.lowerBound], as: UTF8.self)
        let body = answer[split.upperBound...]
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 200"), head)
        XCTAssertTrue(head.lowercased().contains("content-encoding: gzip"), head)
        XCTAssertEqual(Array(body.prefix(2)), [0x1F, 0x8B])
        XCTAssertLessThan(body.count, file.count / 2)
    }

    func testThePageAndLeafletGoOutGzippedWithStrongETags() async throws {
        let server = try ServerProcess()
        let leaflet = "/usr/share/javascript/leaflet/leaflet.js"
        for (path, file) in [("/", "WebMap/index.html"), ("/js/api.js", "WebMap/js/api.js"), ("/vendor/leaflet.js", leaflet)] {
            let url = file.hasPrefix("/") ? URL(fileURLWithPath: file) : ServerProcess.packageRoot.appendingPathComponent(file)
            let expected = try XCTUnwrap(FileManager.default.contents(atPath: url.path), url.path)
            let call = try await server.get(path, headers: ["Accept-Encoding": "gzip"])
            XCTAssertEqual(call.status, 200, path)
            XCTAssertEqual(call.body, expected, path)
            XCTAssertEqual(call.header("Content-Encoding"), "gzip", path)
            let tag = try XCTUnwrap(call.header("ETag"), path)
            XCTAssertFalse(tag.hasPrefix("W/"), path)
            let again = try await server.get(path, headers: ["Accept-Encoding": "gzip", "If-None-Match": tag])
            XCTAssertEqual(again.status, 304, path)
        }
    }
}
