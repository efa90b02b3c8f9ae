import Foundation
import GeoNewsLoopback
import XCTest

@testable import GeoNewsHeadlines

/// Local headlines: the town's search, then the region's, then the country's front page, each
/// article marked with its level, against providers' wire formats on 127.0.0.1.
final class LocalHeadlinesTests: XCTestCase {
    /// Google News: the town's search answers `google-news-search-lyon.xml`, the region's
    /// `region`, the front page `google-news-fr.xml`.
    private func googleServer(region: String = "google-news-empty.xml") throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request, _ in
            switch (request.path, request.query["q"] ?? "") {
            case ("/rss/search", let q) where q.hasPrefix("\"Lyon\""): return .rss("google-news-search-lyon.xml")
            case ("/rss/search", _): return .rss(region)
            case ("/rss", _): return .rss("google-news-fr.xml")
            default: return .notFound
            }
        }
    }

    private let lyon = LocalArea(country: "FR", region: "Auvergne-Rhône-Alpes", town: "Lyon")

    func testTownFirstThenTheCountryFillsTheListEachArticleMarked() async throws {
        let server = try googleServer()
        let service = try TestSupport.service(server, providers: [.googleNews])
        let result = await service.localHeadlines(area: lyon, limit: 5)
        XCTAssertNil(result.error)
        XCTAssertEqual(result.country, "fr")
        XCTAssertEqual(
            server.requests.map(\.path), ["/rss/search", "/rss/search", "/rss"], "town, then region, then the front page")
        XCTAssertEqual(server.requests[0].query, ["q": "\"Lyon\" when:7d", "hl": "fr", "gl": "FR", "ceid": "FR:fr"])
        XCTAssertEqual(server.requests[1].query["q"], "\"Auvergne-Rhône-Alpes\" when:7d")
        XCTAssertEqual(
            result.articles.map(\.scope), [.town, .town, .town, .country, .country],
            "the town's three, then the front page's first two that are not already listed")
        XCTAssertEqual(
            result.articles.map(\.article.sourceName), ["Le Monde", "Le Progrès", "Lyon Capitale", "L'Équipe", "France 3 Régions"],
            "each level newest first except the front page, which keeps Google's ranking; Le Monde's story is not repeated")
        XCTAssertEqual(result.scopes.map(\.scope), [.town, .region, .country])
        XCTAssertEqual(result.scopes.map(\.articles), [3, 0, 2])
        XCTAssertEqual(result.scopes[1].note, "Google News: no articles")
        XCTAssertEqual(result.scopes[2].name, "fr")
        XCTAssertEqual(
            result.fallbackNote, "no articles about Auvergne-Rhône-Alpes (Google News: no articles); the town's and the country's follow")
    }

    func testATownWithEnoughArticlesAsksNothingElse() async throws {
        let server = try googleServer()
        let service = try TestSupport.service(server, providers: [.googleNews])
        let result = await service.localHeadlines(area: lyon, limit: 2)
        XCTAssertEqual(server.requests.count, 1)
        XCTAssertEqual(result.articles.map(\.scope), [.town, .town])
        XCTAssertEqual(result.scopes.map(\.provider), [.googleNews])
        XCTAssertNil(result.fallbackNote)
    }

    func testATownWithNoNewsFallsBackToTheRegionAndSaysSo() async throws {
        let server = try LoopbackHTTPServer { request, _ in
            guard request.path == "/rss/search" else { return .rss("google-news-empty.xml") }
            return request.query["q"]?.hasPrefix("\"Auvergne") == true ? .rss("google-news-search-lyon.xml") : .rss("google-news-empty.xml")
        }
        let service = try TestSupport.service(server, providers: [.googleNews])
        let result = await service.localHeadlines(area: lyon, limit: 3)
        XCTAssertNil(result.error)
        XCTAssertEqual(result.articles.map(\.scope), [.region, .region, .region])
        XCTAssertEqual(result.scopes.map(\.articles), [0, 3])
        XCTAssertEqual(result.fallbackNote, "no articles about Lyon (Google News: no articles); the region's follows")
    }

    func testNothingAtAnyLevelIsAFailureNotAnEmptySuccess() async throws {
        let server = try LoopbackHTTPServer { _, _ in .rss("google-news-empty.xml") }
        let service = try TestSupport.service(server, providers: [.googleNews])
        let result = await service.localHeadlines(area: lyon, limit: 5)
        XCTAssertTrue(result.articles.isEmpty)
        XCTAssertEqual(result.error, "no local or national headlines for fr: Google News: no articles")
        XCTAssertEqual(result.errorKind, .unavailable)
        XCTAssertEqual(server.requests.count, 3)
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(result)) as? [String: Any]
        XCTAssertEqual(json?["error"] as? String, result.error)
        XCTAssertEqual((json?["articles"] as? [Any])?.count, 0)
    }

    func testNamesWithAccentsApostrophesAndNonLatinScriptAreSentEncoded() async throws {
        let server = try LoopbackHTTPServer { _, _ in .rss("google-news-search-lyon.xml") }
        let service = try TestSupport.service(server, providers: [.googleNews])
        for (country, name, edition) in [("fr", "Saint-Étienne", "FR:fr"), ("cn", "Xi'an", "CN:zh-Hans"), ("jp", "東京都", "JP:ja")] {
            _ = await service.localHeadlines(area: LocalArea(country: country, town: name), limit: 1)
            let request = try XCTUnwrap(server.requests.last)
            XCTAssertEqual(request.query["q"], "\"\(name)\" when:7d", "decoded, the name comes back whole")
            XCTAssertEqual(request.query["ceid"], edition)
            XCTAssertTrue(request.target.allSatisfy { $0.isASCII && $0 != " " && $0 != "\"" }, "encoded on the wire: \(request.target)")
        }
        XCTAssertTrue(server.requests[0].target.contains("%22Saint-%C3%89tienne%22"), server.requests[0].target)
        XCTAssertTrue(server.requests[2].target.contains("%E6%9D%B1%E4%BA%AC%E9%83%BD"), server.requests[2].target)
    }

    func testGDELTSearchesTheQuotedNameInTheCountrysSources() async throws {
        let server = try LoopbackHTTPServer { request, _ in request.path == "/api/v2/doc/doc" ? .json("gdelt-at.json") : .notFound }
        let service = try TestSupport.service(server, providers: [.gdelt])
        let result = await service.localHeadlines(area: LocalArea(country: "at", region: "Wien", town: "Wien"), limit: 3)
        XCTAssertNil(result.error)
        XCTAssertEqual(
            server.requests.first?.query,
            [
                "query": "\"Wien\" sourcecountry:AU", "mode": "artlist", "format": "json", "maxrecords": "3", "timespan": "7d",
                "sort": "datedesc",
            ])
        XCTAssertEqual(result.articles.count, 3)
        XCTAssertEqual(result.articles.map(\.scope), [.town, .town, .town])
        XCTAssertEqual(result.scopes.first?.provider, .gdelt)
    }

    func testAProviderThatFailsForTheTownHandsOverToTheNext() async throws {
        let server = try LoopbackHTTPServer { request, _ in
            switch request.path {
            case "/rss/search": return ScriptedResponse(status: 503, body: Data("busy".utf8))
            case "/api/v2/doc/doc": return .json("gdelt-at.json")
            default: return .notFound
            }
        }
        let service = try TestSupport.service(
            server, providers: [.googleNews, .gdelt], retry: RetryPolicy(backoff: 0.01, longestRetryAfter: 0.1))
        let result = await service.localHeadlines(area: LocalArea(country: "at", town: "Wien"), limit: 2)
        XCTAssertEqual(result.scopes.first?.provider, .gdelt)
        XCTAssertEqual(result.articles.map(\.article.provider), [.gdelt, .gdelt])
    }

    func testBadCountryAndLimitAreRejectedBeforeAnyRequest() async throws {
        let server = try LoopbackHTTPServer { _, _ in .rss("google-news-fr.xml") }
        let service = try TestSupport.service(server, providers: [.googleNews])
        let unknown = await service.localHeadlines(area: LocalArea(country: "zz", town: "Nowhere"))
        XCTAssertEqual(unknown.errorKind, .badInput)
        XCTAssertEqual(unknown.error, "country \"zz\" is not one of the 54 news countries (two letters, e.g. fr, us, jp)")
        let limit = await service.localHeadlines(area: lyon, limit: 0)
        XCTAssertEqual(limit.error, "limit \"0\": must be 1…100")
        XCTAssertTrue(server.requests.isEmpty)
    }

    func testTheQueryIsOnePhraseWithoutInnerQuotesAndOfBoundedLength() {
        XCTAssertEqual(LocalQuery.phrase("  Saint-Étienne "), "\"Saint-Étienne\"")
        XCTAssertEqual(LocalQuery.phrase("Le \"Grand\"\tLyon"), "\"Le Grand Lyon\"")
        let long = String(repeating: "Llanfair ", count: 30)
        let cleaned = LocalQuery.cleaned(long)
        XCTAssertLessThanOrEqual(cleaned.count, LocalQuery.longestName)
        XCTAssertTrue(cleaned.hasSuffix("Llanfair"), "cut at a word: \(cleaned)")
        XCTAssertEqual(LocalArea(country: "fr", region: "  ", town: "\"\"").searches.count, 0, "blank names are not searched")
    }

    func testAScopedArticleIsTheArticlesJSONWithItsScope() throws {
        let article = Article(
            title: "Lyon : la Part-Dieu rouvre", sourceName: "Le Progrès", url: URL(string: "https://www.leprogres.fr/a")!,
            publishedAt: TestSupport.date("2024-05-01T08:40:00Z"), provider: .googleNews)
        let data = try JSONEncoder().encode(ScopedArticle(article: article, scope: .town))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(object["scope"] as? String, "town")
        XCTAssertEqual(object["title"] as? String, "Lyon : la Part-Dieu rouvre")
        XCTAssertEqual(object["publishedAt"] as? String, "2024-05-01T08:40:00Z")
        XCTAssertEqual(try JSONDecoder().decode(ScopedArticle.self, from: data), ScopedArticle(article: article, scope: .town))
    }
}

final class LocalHeadlinesPacingTests: XCTestCase {
    /// GDELT allows one request per 5 s (2 s here): the region's search does not wait for it
    /// after the town's, it says GDELT is held to its limit and the next level is asked at once.
    /// The country's front page, the last resort, waits its turn as headlines always have.
    func testASearchDoesNotWaitForGDELTsTurn() async throws {
        let server = try LoopbackHTTPServer { request, _ in request.path == "/api/v2/doc/doc" ? .json("gdelt-empty.json") : .notFound }
        let service = try TestSupport.service(server, providers: [.gdelt], rateLimits: [.gdelt: RateLimit(requests: 1, intervalSeconds: 2)])
        let started = Date()
        let result = await service.localHeadlines(area: LocalArea(country: "at", region: "Wien", town: "Favoriten"), limit: 3)
        XCTAssertLessThan(Date().timeIntervalSince(started), 4.5, "one wait of about 2 s, for the front page")
        XCTAssertEqual(
            server.requests.map { $0.query["query"] }, ["\"Favoriten\" sourcecountry:AU", "sourcecountry:AU"],
            "the region's search was not sent")
        XCTAssertEqual(result.scopes.map(\.scope), [.town, .region, .country])
        XCTAssertTrue(result.scopes[1].note?.hasPrefix("GDELT is held to its rate limit") ?? false, result.scopes[1].note ?? "")
    }
}
