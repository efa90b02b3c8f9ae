import GeoNewsLoopback
import XCTest

@testable import GeoNewsHeadlines

final class GNewsTests: XCTestCase {
    func testTopHeadlinesMapAndSendTheKeyOnlyAsHeader() async throws {
        let server = try LoopbackHTTPServer { request, _ in request.path == "/api/v4/top-headlines" ? .json("gnews-top-fr.json") : .notFound
        }
        let service = try TestSupport.service(server, providers: [.gnews])
        let result = await service.topHeadlines(country: "fr", category: .technology, language: "fr", limit: 7)
        XCTAssertEqual(result.provider, .gnews)
        XCTAssertEqual(
            result.articles.map(\.title), ["Le gouvernement présente son budget", "Grève SNCF : le trafic perturbé"],
            "GNews ranks its top headlines; order kept")
        XCTAssertEqual(result.articles[0].imageURL?.absoluteString, "https://www.lefigaro.fr/budget.jpg")
        XCTAssertEqual(result.articles[0].sourceName, "Le Figaro")
        XCTAssertEqual(result.articles[1].publishedAt, TestSupport.date("2024-05-01T09:00:00Z"))
        let request = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(request.query, ["country": "fr", "category": "technology", "lang": "fr", "max": "7"])
        XCTAssertEqual(request.headers["x-api-key"], TestSupport.secret)
        XCTAssertNil(request.query["apikey"])
    }

    func testErrorBodiesOfBothShapesBecomeMessages() async throws {
        let cases: [(String, Int, String, HeadlineError.Kind)] = [
            ("gnews-error-401.json", 401, "GNews answered HTTP 401: You did not provide an API key.", .configuration),
            ("gnews-error-400.json", 400, "GNews answered HTTP 400: country: The selected country is invalid.", .unavailable),
            ("gnews-error-403.json", 403, "GNews answered HTTP 403: You have reached your request limit for today", .configuration),
        ]
        for (fixture, status, prefix, kind) in cases {
            let server = try LoopbackHTTPServer { _, _ in .json(fixture, status: status) }
            let service = try TestSupport.service(server, providers: [.gnews])
            let result = await service.topHeadlines(country: "fr", limit: 5)
            XCTAssertTrue(result.error?.hasPrefix("no headlines for fr: " + prefix) ?? false, result.error ?? "")
            XCTAssertEqual(result.errorKind, kind, fixture)
            server.stop()
        }
    }
}
