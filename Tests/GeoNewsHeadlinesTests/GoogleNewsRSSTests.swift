import GeoNewsLoopback
import XCTest

@testable import GeoNewsHeadlines

final class GoogleNewsRSSTests: XCTestCase {
    func testFrenchFrontPageRequestsTheFrenchEditionAndKeepsGooglesRanking() async throws {
        let server = try LoopbackHTTPServer { request, _ in request.path == "/rss" ? .rss("google-news-fr.xml") : .notFound }
        let service = try TestSupport.service(server, providers: [.googleNews])
        let result = await service.topHeadlines(country: "FR", limit: 3)
        XCTAssertNil(result.error)
        XCTAssertEqual(result.provider, .googleNews)
        XCTAssertEqual(result.country, "fr")
        XCTAssertEqual(result.articles.map(\.sourceName), ["Le Monde", "L'Équipe", "France 3 Régions"], "feed order, cut to the limit")
        XCTAssertEqual(server.requests.map(\.query), [["hl": "fr", "gl": "FR", "ceid": "FR:fr"]])
        XCTAssertNil(server.requests[0].headers["x-api-key"], "Google News gets no key")
    }

    func testCategoryUsesTheTopicSectionWithTheSameEdition() async throws {
        let server = try LoopbackHTTPServer { _, _ in .rss("google-news-fr.xml") }
        let service = try TestSupport.service(server, providers: [.googleNews])
        let result = await service.topHeadlines(country: "in", category: .sports, limit: 5)
        XCTAssertEqual(result.articles.count, 4)
        XCTAssertEqual(server.requests.first?.path, "/rss/headlines/section/topic/SPORTS")
        XCTAssertEqual(server.requests.first?.query, ["hl": "en-IN", "gl": "IN", "ceid": "IN:en"])
        _ = await service.topHeadlines(country: "br", category: .general, limit: 5)
        XCTAssertEqual(server.requests.last?.path, "/rss", "general is the front page")
        XCTAssertEqual(server.requests.last?.query["ceid"], "BR:pt-419")
    }

    func testGzipEncodedFeedIsDecoded() async throws {
        let server = try LoopbackHTTPServer { _, _ in
            .fixture("google-news-fr.xml.gz", contentType: "application/rss+xml", headers: [("Content-Encoding", "gzip")])
        }
        let service = try TestSupport.service(server, providers: [.googleNews])
        let result = await service.topHeadlines(country: "fr", limit: 10)
        XCTAssertNil(result.error)
        XCTAssertEqual(result.articles.first?.title, "Réforme des retraites : le Sénat adopte le texte")
        XCTAssertTrue(
            server.requests[0].headers["accept-encoding"]?.contains("gzip") ?? false,
            "libcurl advertises gzip: \(server.requests[0].headers)")
    }

    func testRedirectToUnsupportedMeansTheEditionDoesNotExist() async throws {
        let server = try LoopbackHTTPServer { request, _ in
            request.path == "/rss"
                ? .redirect(to: "/rss/unsupported?hl=cs&gl=CZ&ceid=CZ:cs")
                : .fixture("google-news-unsupported.html", contentType: "text/html")
        }
        let service = try TestSupport.service(server, providers: [.googleNews])
        let result = await service.topHeadlines(country: "cz", limit: 5)
        XCTAssertNil(result.provider)
        XCTAssertEqual(result.error, "no headlines for cz: Google News has no edition CZ:cs for cz (redirected to /rss/unsupported)")
        XCTAssertEqual(result.errorKind, .unavailable)
        XCTAssertEqual(server.requests.map(\.path), ["/rss", "/rss/unsupported"], "the redirect was followed")
    }

    func testMalformedFeedFailsWithTheXMLLine() async throws {
        let server = try LoopbackHTTPServer { _, _ in .rss("google-news-malformed.xml") }
        let service = try TestSupport.service(server, providers: [.googleNews])
        let result = await service.topHeadlines(country: "fr", limit: 5)
        XCTAssertTrue(
            result.error?.contains("Google News sent a response we could not read: XML error at line 2") ?? false,
            result.error ?? "")
    }

    func testSearchUsesTheLanguagesEditionAndDateOperators() async throws {
        let server = try LoopbackHTTPServer { _, _ in .rss("google-news-fr.xml") }
        let service = try TestSupport.service(server, providers: [.googleNews])
        let result = await TestSupport.searchEndOfApril(service, "retraites", language: "fr", sortBy: .published, limit: 4)
        XCTAssertEqual(result.provider, .googleNews)
        XCTAssertEqual(result.query, "retraites")
        XCTAssertEqual(server.requests.first?.path, "/rss/search")
        XCTAssertEqual(server.requests.first?.query["q"], "retraites after:2024-04-28 before:2024-05-01")
        XCTAssertEqual(server.requests.first?.query["ceid"], "FR:fr")
        XCTAssertEqual(result.articles.map(\.sourceName), ["L'Équipe", "Le Monde", "BFM Bourse", "France 3 Régions"], "newest first")
    }

    func testSearchByPopularityIsNotOfferedByGoogleNews() async throws {
        let server = try LoopbackHTTPServer { _, _ in .rss("google-news-fr.xml") }
        let service = try TestSupport.service(server, providers: [.googleNews])
        let result = await service.search("retraites", sortBy: .popularity)
        // A sort no configured provider offers is the caller's mistake, named as such, not an outage.
        XCTAssertEqual(
            result.error,
            "sort \"popularity\": only NewsAPI sorts by popularity and the providers are google-news; "
                + "sort by published or relevance, or add newsapi with a key")
        XCTAssertTrue(server.requests.isEmpty)
    }
}
