import Foundation
import GeoNewsLoopback
import XCTest

/// `geonews headlines --near` and `--region`, and the local headlines of `geonews --lat --lon`:
/// the real executables against Google News' wire format on 127.0.0.1.
final class LocalHeadlinesCommandTests: XCTestCase {
    private static let fixtures = CommandRunner.packageRoot.appendingPathComponent("Tests/GeoNewsHeadlinesTests/Fixtures")

    /// Searches for `found` answer the Lyon search feed, other searches an empty feed, the front
    /// page France's.
    private func server(found: String) throws -> LoopbackHTTPServer {
        let search = try Data(contentsOf: Self.fixtures.appendingPathComponent("google-news-search-lyon.xml"))
        let empty = try Data(contentsOf: Self.fixtures.appendingPathComponent("google-news-empty.xml"))
        let front = try Data(contentsOf: Self.fixtures.appendingPathComponent("google-news-fr.xml"))
        return try LoopbackHTTPServer { request, _ in
            let rss = [("Content-Type", "application/rss+xml; charset=utf-8")]
            switch request.path {
            case "/rss/search":
                return ScriptedResponse(status: 200, headers: rss, body: request.query["q"]?.hasPrefix(found) == true ? search : empty)
            case "/rss": return ScriptedResponse(status: 200, headers: rss, body: front)
            default: return .notFound
            }
        }
    }

    func testNearAsksForTheTownAndTheRegionByNameInTheCountrysEdition() throws {
        let server = try server(found: "\"Lyon\"")
        let r = try CommandRunner.geonews(
            ["headlines", "--near", "45.764,4.8357", "--limit", "5", "--json"],
            environment: ["GEONEWS_GOOGLE_NEWS_URL": server.baseURL.absoluteString])
        XCTAssertEqual(r.status, 0, r.stderr)
        let json = try CommandRunner.json(r.stdout)
        XCTAssertEqual(json["country"] as? String, "fr")
        XCTAssertEqual(json["town"] as? String, "Lyon", "the most populous place within 15 km, not the nearest (Lyon 01)")
        XCTAssertEqual(json["region"] as? String, "Auvergne-Rhône-Alpes")
        let articles = try XCTUnwrap(json["articles"] as? [[String: Any]])
        XCTAssertEqual(articles.map { $0["scope"] as? String }, ["town", "town", "town", "country", "country"])
        XCTAssertEqual(articles.first?["source"] as? String, "Le Monde")
        XCTAssertEqual(
            server.requests.map { $0.query["q"] ?? $0.path }, ["\"Lyon\" when:7d", "\"Auvergne-Rhône-Alpes\" when:7d", "/rss"])
        XCTAssertEqual(server.requests.first?.query["ceid"], "FR:fr")
    }

    func testRegionSearchesItsNameInTheEditionsLanguageAndMarksEachArticle() throws {
        let server = try server(found: "\"Bayern\"")
        let r = try CommandRunner.geonews(
            ["headlines", "--region", "de-by", "--limit", "4"], environment: ["GEONEWS_GOOGLE_NEWS_URL": server.baseURL.absoluteString])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(server.requests.first?.query["q"], "\"Bayern\" when:7d", "Bavaria as the German edition writes it")
        XCTAssertEqual(server.requests.first?.query["ceid"], "DE:de")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "Local headlines for Bayern — 3 about Bayern (Google News), 1 national (Google News)")
        XCTAssertEqual(lines.filter { $0.contains(". [Bayern] ") }.count, 3, r.stdout)
        XCTAssertEqual(lines.filter { $0.contains(". [national] ") }.count, 1, r.stdout)
    }

    func testLocateShowsLocalHeadlinesFirstAndSaysWhatItFellBackFrom() throws {
        let server = try server(found: "\"Nowhere\"")
        let r = try CommandRunner.geonews(
            ["--lat", "45.764", "--lon", "4.8357", "--limit", "2", "--provider", "google-news"],
            environment: ["GEONEWS_GOOGLE_NEWS_URL": server.baseURL.absoluteString])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("Headlines for Lyon, Auvergne-Rhône-Alpes — 2 national (Google News)"), r.stdout)
        XCTAssertTrue(
            r.stdout.contains(
                "No articles about Lyon (Google News: no articles) or Auvergne-Rhône-Alpes (Google News: no articles); the country's follows."
            ),
            r.stdout)
        let country = try CommandRunner.geonews(
            ["--lat", "45.764", "--lon", "4.8357", "--limit", "2", "--scope", "country"],
            environment: ["GEONEWS_GOOGLE_NEWS_URL": server.baseURL.absoluteString])
        XCTAssertTrue(country.stdout.contains("Headlines — Google News, 2 articles"), country.stdout)
        XCTAssertEqual(server.requests.map(\.path), ["/rss/search", "/rss/search", "/rss", "/rss"], "--scope country searches nothing")
    }

    func testBadLocalInputIsOneLineNamingTheValueWithExit64() throws {
        let cases: [([String], String)] = [
            (
                ["headlines", "--region", "XX-99"],
                "geonews: region 'XX-99' is not an ISO 3166-2 or GeoNames admin1 code of a known region (see geonews regions)\n"
            ),
            (["headlines", "--near", "95,3"], "geonews: near: '95,3': latitude 95 is outside -90…90\n"),
            (["headlines", "--near", "48.8"], "geonews: near: '48.8' is not LAT,LON\n"),
            (["headlines", "--near", "1,2", "--country", "fr"], "geonews: give only one of --country, --near\n"),
            (["headlines"], "geonews: give --country, --near or --region\n"),
            (
                ["headlines", "--near", "1,2", "--category", "sports"],
                "geonews: --category applies to --country only (local headlines are searched by name)\n"
            ),
            (["--lat", "1", "--lon", "2", "--scope", "street"], "geonews: scope 'street' is not one of town region country\n"),
        ]
        for (arguments, message) in cases {
            let r = try CommandRunner.geonews(arguments)
            XCTAssertEqual(r.status, 64, "\(arguments): \(r.stderr)")
            XCTAssertEqual(r.stderr, message, "\(arguments)")
            XCTAssertEqual(r.stdout, "", "\(arguments)")
        }
    }
}
