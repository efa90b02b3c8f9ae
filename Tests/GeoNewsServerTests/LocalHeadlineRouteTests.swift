import Foundation
import GeoNewsLoopback
import XCTest

/// `GET /v1/headlines?lat=&lon=` and `?region=`: local headlines through a real server, with
/// Google News' wire format on 127.0.0.1.
final class LocalHeadlineRouteTests: XCTestCase {
    /// A config.json that asks Google News alone, so that GDELT's absence is not in the notes.
    private static let googleOnly: String = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("geonews-google-only-\(UUID().uuidString).json")
        try? Data(#"{"providers": ["google-news"]}"#.utf8).write(to: url)
        return url.path
    }()

    /// Searches whose query starts with `found` get the Lyon search feed, other searches an
    /// empty feed, the front page France's.
    private func googleNews(found: String, delay: Double = 0) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request, _ in
            var answer: ScriptedResponse
            switch request.path {
            case "/rss/search":
                answer = HeadlineRouteTests.rss(
                    request.query["q"]?.hasPrefix(found) == true ? "google-news-search-lyon.xml" : "google-news-empty.xml")
            case "/rss": answer = HeadlineRouteTests.rss("google-news-fr.xml")
            default: return .notFound
            }
            answer.delay = delay
            return answer
        }
    }

    func testAPositionGetsItsTownsNewsThenTheCountrysEachMarked() async throws {
        let google = try googleNews(found: "\"Lyon\"")
        let server = try ServerProcess(environment: [
            "GEONEWS_GOOGLE_NEWS_URL": google.baseURL.absoluteString, "GEONEWS_CONFIG": Self.googleOnly,
        ])
        let call = try await server.get("/v1/headlines?lat=45.764&lon=4.8357&limit=5")
        XCTAssertEqual(call.status, 200, call.text)
        let result = try call.object()
        XCTAssertEqual(result["town"] as? String, "Lyon")
        XCTAssertEqual(result["region"] as? String, "Auvergne-Rhône-Alpes")
        XCTAssertEqual(result["country"] as? String, "fr")
        let articles = try XCTUnwrap(result["articles"] as? [[String: Any]])
        XCTAssertEqual(articles.map { $0["scope"] as? String }, ["town", "town", "town", "country", "country"])
        let scopes = try XCTUnwrap(result["scopes"] as? [[String: Any]])
        XCTAssertEqual(scopes.map { $0["articles"] as? Int }, [3, 0, 2])
        XCTAssertEqual(scopes[1]["note"] as? String, "Google News: no articles")
        XCTAssertEqual(call.header("Cache-Control"), "public, max-age=300, stale-if-error=86400")
        XCTAssertEqual(google.requests.map { $0.query["q"] ?? $0.path }, ["\"Lyon\" when:7d", "\"Auvergne-Rhône-Alpes\" when:7d", "/rss"])
    }

    func testARegionIsSearchedByItsNameInTheEditionsLanguage() async throws {
        let google = try googleNews(found: "\"東京都\"")
        let server = try ServerProcess(environment: [
            "GEONEWS_GOOGLE_NEWS_URL": google.baseURL.absoluteString, "GEONEWS_CONFIG": Self.googleOnly,
        ])
        let call = try await server.get("/v1/headlines?region=jp-13&limit=2")
        XCTAssertEqual(call.status, 200, call.text)
        XCTAssertEqual(try call.object()["region"] as? String, "東京都")
        XCTAssertEqual(google.requests.first?.query["ceid"], "JP:ja")
        XCTAssertTrue(
            google.requests.first?.target.contains("q=%22%E6%9D%B1%E4%BA%AC%E9%83%BD%22") ?? false, google.requests.first?.target ?? "")
    }

    func testSimultaneousRequestsForOnePlaceMakeOneRequestPerLevel() async throws {
        let google = try googleNews(found: "\"Lyon\"", delay: 0.3)
        let server = try ServerProcess(environment: [
            "GEONEWS_GOOGLE_NEWS_URL": google.baseURL.absoluteString, "GEONEWS_CONFIG": Self.googleOnly,
        ])
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<40 { group.addTask { try await server.get("/v1/headlines?lat=45.764&lon=4.8357&limit=2").status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        XCTAssertEqual(statuses, Array(repeating: 200, count: 40))
        XCTAssertEqual(google.requests.count, 1, "the town's search, single-flighted or cached: \(google.requests.map(\.target))")
    }

    func testBadLocalInputIs400NamingTheParameter() async throws {
        let google = try googleNews(found: "\"Lyon\"")
        let server = try ServerProcess(environment: ["GEONEWS_GOOGLE_NEWS_URL": google.baseURL.absoluteString])
        let cases: [(String, String)] = [
            ("region=XX-99", "region: 'XX-99' is not an ISO 3166-2 or GeoNames admin1 code of a known region"),
            ("lat=91&lon=0", "lat: latitude 91 is outside -90…90"),
            ("lat=1", "the query parameter 'lon' is required; degrees, -180…180"),
            ("lat=1&lon=2&country=fr", "country: give one of country, lat and lon, or region"),
            ("region=FR-ARA&lat=1&lon=2", "region: give one of country, lat and lon, or region"),
            ("lat=1&lon=2&category=sports", "category: applies to country only (local headlines are searched by name)"),
            (
                "region=" + String(repeating: "A", count: 5000),
                "region: '\(String(repeating: "A", count: 40))' is not an ISO 3166-2 or GeoNames admin1 code of a known region"
            ),
        ]
        for (query, detail) in cases {
            let call = try await server.get("/v1/headlines?" + query)
            XCTAssertEqual(call.status, 400, query)
            XCTAssertEqual(call.header("Content-Type"), "application/problem+json", query)
            XCTAssertEqual(try call.object()["detail"] as? String, detail, query)
        }
        XCTAssertTrue(google.requests.isEmpty, "no provider was asked for a bad request")
    }

    func testProvidersDownAtEveryLevelIs503AndNoNewsAnywhereIs200WithTheReason() async throws {
        let down = try ServerProcess(environment: ["GEONEWS_GOOGLE_NEWS_URL": "http://127.0.0.1:9", "GEONEWS_CONFIG": Self.googleOnly])
        let outage = try await down.get("/v1/headlines?lat=45.764&lon=4.8357")
        XCTAssertEqual(outage.status, 503, outage.text)
        XCTAssertEqual(outage.header("Retry-After"), "60")
        XCTAssertTrue((try outage.object()["detail"] as? String)?.contains("Google News could not be reached") ?? false, outage.text)
        let empty = try LoopbackHTTPServer { _, _ in HeadlineRouteTests.rss("google-news-empty.xml") }
        let quiet = try ServerProcess(environment: [
            "GEONEWS_GOOGLE_NEWS_URL": empty.baseURL.absoluteString, "GEONEWS_CONFIG": Self.googleOnly,
        ])
        let none = try await quiet.get("/v1/headlines?lat=45.764&lon=4.8357")
        XCTAssertEqual(none.status, 200, none.text)
        XCTAssertEqual(try none.object()["error"] as? String, "no local or national headlines for fr: Google News: no articles")
        XCTAssertEqual(none.header("Cache-Control"), "no-store")
    }
}
