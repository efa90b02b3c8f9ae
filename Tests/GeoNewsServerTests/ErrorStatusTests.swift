import Foundation
import XCTest

/// Every error keeps its status, as problem JSON, whatever the request's origin, method or
/// body.
final class ErrorStatusTests: XCTestCase {
    static let origin = "https://map.example.org"

    func testErrorsToAnotherOriginKeepTheirStatusAndCORSHeaders() async throws {
        let server = try ServerProcess(arguments: ["--cors-origin", Self.origin])
        let headers = ["Origin": Self.origin]
        let calls: [(HTTPCall, Int, [String])] = [
            (try await server.get("/v1/resolve?lat=91&lon=0", headers: headers), 400, ["91"]),
            (try await server.get("/v1/favourites", headers: headers), 401, []),
            (try await server.get("/v1/nowhere", headers: headers), 404, ["/v1/nowhere"]),
            (
                try await HTTPCall.send("DELETE", URL(string: "/v1/countries", relativeTo: server.baseURL)!, headers: headers), 405,
                ["DELETE"]
            ),
        ]
        for (call, status, mentions) in calls {
            try assertProblem(call, status, mentions: mentions)
            XCTAssertEqual(call.header("Access-Control-Allow-Origin"), Self.origin, "\(status)")
        }
        XCTAssertEqual(calls[3].0.header("Allow"), "GET, HEAD")
    }

    func testACrossOriginAnswerLetsThePageReadItsETag() async throws {
        let server = try ServerProcess(arguments: ["--cors-origin", Self.origin])
        let call = try await server.get("/v1/clusters?zoom=0", headers: ["Origin": Self.origin])
        XCTAssertEqual(call.status, 200, call.text)
        XCTAssertNotNil(call.header("ETag"))
        XCTAssertEqual(call.header("Access-Control-Allow-Origin"), Self.origin)
        let exposed = try XCTUnwrap(call.header("Access-Control-Expose-Headers")).split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        XCTAssertTrue(exposed.contains("ETag"), "\(exposed)")

        let preflight = try await HTTPCall.send(
            "OPTIONS", URL(string: "/v1/favourites", relativeTo: server.baseURL)!,
            headers: [
                "Origin": Self.origin, "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "authorization, content-type",
            ])
        XCTAssertEqual(preflight.status, 204)
        XCTAssertEqual(preflight.header("Access-Control-Allow-Origin"), Self.origin)
        XCTAssertTrue(preflight.header("Access-Control-Allow-Methods")?.contains("POST") ?? false)
        XCTAssertTrue(preflight.header("Access-Control-Allow-Headers")?.contains("Authorization") ?? false)
    }

    func testTraceAndOptionsWithoutCORSAre405WithAllow() throws {
        let server = try ServerProcess()
        for (method, path, allow) in [
            ("TRACE", "/v1/countries", "GET, HEAD"), ("OPTIONS", "/v1/resolve", "GET, POST, HEAD"),
            ("OPTIONS", "/v1/users", "POST"), ("HEAD", "/v1/users", "POST"),
        ] {
            let connection = try LoopbackConnection(port: server.port)
            try connection.send("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            let answer = try XCTUnwrap(WireAnswer(connection.receiveAllBytes()), "\(method) \(path)")
            XCTAssertEqual(answer.status, 405, "\(method) \(path): \(answer.head)")
            XCTAssertEqual(answer.header("Allow"), allow, "\(method) \(path)")
        }
    }

    func testAFavouriteOrSettingsPastTheirLimitIs413() async throws {
        let server = try ServerProcess()
        let token = try await server.newUser()
        let favourite = try JSONSerialization.data(withJSONObject: [
            "url": "https://example.org/a", "title": String(repeating: "x", count: 70_000),
        ])
        try assertProblem(
            try await server.send("POST", "/v1/favourites", token: token, body: favourite, contentType: "application/json"),
            413, mentions: ["65536"])
        let settings = try JSONSerialization.data(withJSONObject: ["categories": Array(repeating: "world", count: 3_000)])
        try assertProblem(
            try await server.send("PUT", "/v1/settings", token: token, body: settings, contentType: "application/json"),
            413, mentions: ["16384"])
        // Without a declared length, the limit holds as the body arrives.
        let connection = try LoopbackConnection(port: server.port)
        try connection.send(
            "POST /v1/favourites HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
                + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                + String(favourite.count, radix: 16) + "\r\n" + String(decoding: favourite, as: UTF8.self) + "\r\n0\r\n\r\n")
        let answer = try XCTUnwrap(WireAnswer(connection.receiveAllBytes()))
        XCTAssertEqual(answer.status, 413, answer.head)
        XCTAssertTrue(answer.text.contains("65536"), answer.text)
    }

    /// A body that cannot be resolved is a 400 in every output format: the GeoJSON answer's
    /// opening, written before the body is read, is not sent ahead of the refusal.
    func testAnUnresolvableBatchBodyIs400InEveryOutputFormat() async throws {
        let server = try ServerProcess()
        for format in ["csv", "ndjson", "geojson"] {
            let call = try await server.send(
                "POST", "/v1/resolve?outputFormat=\(format)", body: Data("name,value\nx,1\n".utf8), contentType: "text/csv")
            try assertProblem(call, 400, mentions: ["latCol"])
        }
        let call = try await server.send(
            "POST", "/v1/resolve?outputFormat=geojson", body: Data("lat,lon\n48.8566,2.3522\n".utf8), contentType: "text/csv")
        XCTAssertEqual(call.status, 200, call.text)
        let features = try XCTUnwrap(try call.object()["features"] as? [[String: Any]])
        XCTAssertEqual(features.count, 1)
    }
}
