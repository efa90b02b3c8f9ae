import Foundation
import XCTest

/// The anonymous GETs that once killed `geonews-serve` (exit 132, a trapped `Int(Double)`),
/// and their neighbours at the limits: each gets a 400 problem naming its value, and the
/// server answers `/healthz` afterwards. The same texts seed the query fuzz target
/// (Tests/Fuzz/corpus/query).
final class CrashInputTests: XCTestCase {
    static let refused: [(query: String, parameter: String, value: String)] = [
        ("altitude=1e308km", "altitude", "1e308km"),
        ("altitude=1e22m", "altitude", "1e22m"),
        ("altitude=15000km&viewport=1e19x844", "viewport", "1e19x844"),
        ("altitude=15000km&viewport=390x1e300", "viewport", "390x1e300"),
        ("altitude=0.001m", "altitude", "0.001m"),
        ("zoom=1e300&center=0,0", "zoom", "1e300"),
        ("zoom=-1e300&center=0,0&viewport=100000x100000", "zoom", "-1e300"),
        ("zoom=3&bbox=-1e300,0,1,1", "bbox", "-1e300,0,1,1"),
        ("zoom=3&bbox=0,-91,1,0", "bbox", "0,-91,1,0"),
    ]

    func testCrashInputsGetAProblemAndTheServerStaysUp() async throws {
        let server = try ServerProcess()
        for (query, parameter, value) in Self.refused {
            // Both ways in: answered on the event loop, and through the router (If-None-Match).
            for headers in [[:], ["If-None-Match": "\"x\""]] {
                let answer = try await server.get("/v1/clusters?\(query)", headers: headers)
                try assertProblem(answer, 400, mentions: ["\(parameter):", "'\(value)'"])
            }
            let health = try await server.get("/healthz")
            XCTAssertEqual(health.status, 200, "after \(query)")
        }
        // The limits themselves are answered.
        for query in [
            "altitude=1m&center=85,0&viewport=100000x100000&tileSize=256", "altitude=1000000km&viewport=1x1",
            "zoom=-32&center=0,0&viewport=100000x100000", "zoom=255", "zoom=6&bbox=520,-50,550,-30",
        ] {
            let answer = try await server.get("/v1/clusters?\(query)")
            XCTAssertEqual(answer.status, 200, "\(query): \(answer.text)")
            XCTAssertEqual(try answer.object()["type"] as? String, "FeatureCollection", query)
        }
        XCTAssertTrue(server.process.isRunning, "still serving after every one of them")
    }

    /// A column position is bounded before any row is written: rows without a header are as
    /// wide as the furthest column named, so `latCol=2^63-1` asked for rows of 2^63 fields.
    func testAColumnPositionBeyondTheLimitIsRefused() async throws {
        let server = try ServerProcess()
        let answer = try await server.send(
            "POST", "/v1/resolve?noHeader=true&latCol=9223372036854775807",
            body: Data("48.85,2.35\n".utf8), contentType: "text/csv")
        try assertProblem(answer, 400, mentions: ["9223372036854775807", "10000"])
        let ok = try await server.send(
            "POST", "/v1/resolve?noHeader=true&latCol=1&lonCol=2",
            body: Data("48.85,2.35\n".utf8), contentType: "text/csv")
        XCTAssertEqual(ok.status, 200, ok.text)
        let health = try await server.get("/healthz")
        XCTAssertEqual(health.status, 200)
    }
}
