import GeoNewsLoopback
import GeoNewsVersion
import XCTest

@testable import GeoNewsHeadlines

final class GDELTTests: XCTestCase {
    private func gdeltServer(_ answer: @escaping @Sendable (RecordedRequest, Int) -> ScriptedResponse) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request, hits in
            request.path == "/api/v2/doc/doc" ? answer(request, hits) : .notFound
        }
    }

    func testAustriaAsksForFIPSCodeAUAndMapsTheWireArticles() async throws {
        let server = try gdeltServer { _, _ in .json("gdelt-at.json") }
        let service = try TestSupport.service(server, providers: [.gdelt])
        let result = await service.topHeadlines(country: "AT", limit: 10)
        XCTAssertNil(result.error)
        XCTAssertEqual(result.provider, .gdelt)
        let request = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(
            request.query,
            [
                "query": "sourcecountry:AU", "mode": "artlist", "format": "json", "maxrecords": "10",
                "timespan": "1d", "sort": "datedesc",
            ])
        XCTAssertEqual(request.headers["user-agent"], "GeoNews/\(GeoNewsRelease.version)")
        XCTAssertEqual(
            result.articles.map(\.sourceName), ["derstandard.at", "kurier.at", "diepresse.com", "vienna.at", "orf.at"],
            "Der Standard's second copy of the budget story is dropped; Die Presse's is another publisher's")
        let first = result.articles[0]
        XCTAssertEqual(first.title, "Nationalrat beschließt Budget für 2025")
        XCTAssertEqual(first.url.absoluteString, "https://www.derstandard.at/story/3000000217/nationalrat-beschliesst-budget")
        XCTAssertEqual(first.sourceURL?.absoluteString, "https://derstandard.at")
        XCTAssertEqual(first.imageURL?.absoluteString, "https://i.ds.at/budget.jpg")
        XCTAssertEqual(first.publishedAt, TestSupport.date("2024-05-01T09:30:00Z"))
        XCTAssertEqual(result.articles.map(\.language), ["de", "de", "de", "en", "de"])
        XCTAssertNil(result.articles[1].imageURL, "an empty socialimage is no image")
    }

    func testLanguageAndCategoryBecomeSourcelangAndThemes() async throws {
        let server = try gdeltServer { _, _ in .json("gdelt-at.json") }
        let service = try TestSupport.service(server, providers: [.gdelt])
        _ = await service.topHeadlines(country: "ch", category: .health, language: "fr", limit: 3)
        XCTAssertEqual(server.requests.last?.query["query"], "sourcecountry:SZ sourcelang:french (theme:GENERAL_HEALTH OR theme:MEDICAL)")
        _ = await service.topHeadlines(country: "gb", category: .general, limit: 3)
        XCTAssertEqual(server.requests.last?.query["query"], "sourcecountry:UK", "general is the whole stream")
    }

    func testSearchSendsTermsDatesAndRelevanceOrder() async throws {
        let server = try gdeltServer { _, _ in .json("gdelt-at.json") }
        let service = try TestSupport.service(server, providers: [.gdelt])
        let result = await TestSupport.searchEndOfApril(service, "budget", language: "de", sortBy: .relevance, limit: 2)
        XCTAssertEqual(result.provider, .gdelt)
        XCTAssertEqual(
            server.requests.first?.query,
            [
                "query": "budget sourcelang:german", "mode": "artlist", "format": "json", "maxrecords": "2",
                "startdatetime": "20240428120000", "enddatetime": "20240501000000", "sort": "hybridrel",
            ])
    }

    func testHTMLErrorPageWithStatus200IsAClearProviderError() async throws {
        let server = try gdeltServer { _, _ in .fixture("gdelt-error-page.html", contentType: "text/html; charset=utf-8") }
        let service = try TestSupport.service(server, providers: [.gdelt])
        let result = await service.topHeadlines(country: "fr", limit: 5)
        XCTAssertNil(result.provider)
        XCTAssertEqual(
            result.error,
            "no headlines for fr: GDELT refused the request: GDELT Project Your search contained an invalid "
                + "sourcecountry: value or a keyword that was too short. See the DOC 2.0 API documentation for the query syntax.")
        XCTAssertEqual(result.errorKind, .unavailable)
    }

    func testInvalidEscapesAreRepairedNotFatal() async throws {
        let server = try gdeltServer { _, _ in .json("gdelt-bad-escapes.json") }
        let service = try TestSupport.service(server, providers: [.gdelt])
        let result = await service.topHeadlines(country: "fr", limit: 5)
        XCTAssertNil(result.error)
        XCTAssertEqual(
            result.articles.map(\.title),
            [
                "L'Assemblée vote \"la loi\" d'urgence",
                "Grève : les syndicats: appellent à la é blocage u12",
            ])
        XCTAssertEqual(result.articles.map(\.language), ["fr", "fr"])
    }

    func testJSONBeyondRepairIsRejectedWithoutCrashing() async throws {
        let server = try gdeltServer { _, _ in .json("gdelt-truncated.json") }
        let service = try TestSupport.service(server, providers: [.gdelt])
        let result = await service.topHeadlines(country: "fr", limit: 5)
        XCTAssertEqual(result.error, "no headlines for fr: GDELT sent a response we could not read: invalid JSON")
    }

    func testEmptyObjectMeansNoArticlesAndTheChainMovesOn() async throws {
        let server = try LoopbackHTTPServer { request, _ in
            request.path == "/api/v2/doc/doc" ? .json("gdelt-empty.json") : .rss("google-news-fr.xml")
        }
        let service = try TestSupport.service(server, providers: [.gdelt, .googleNews])
        let result = await service.topHeadlines(country: "fr", limit: 2)
        XCTAssertEqual(result.provider, .googleNews)
        XCTAssertEqual(result.attempts.map(\.summary), ["GDELT: no articles", "Google News: 2 articles"])
    }

    func testA429IsAnsweredFromTheStaleCache() async throws {
        let server = try gdeltServer { _, hits in
            hits == 1
                ? .json("gdelt-at.json")
                : .fixture("gdelt-rate-limit.txt", status: 429, contentType: "text/plain; charset=utf-8")
        }
        let cache = TestSupport.scratchDirectory()
        let service = try TestSupport.service(server, providers: [.gdelt], cacheDirectory: cache, timeToLive: 0)
        let fresh = await service.topHeadlines(country: "at", limit: 3)
        XCTAssertEqual(fresh.freshness, .network)
        let stale = await service.topHeadlines(country: "at", limit: 3)
        XCTAssertEqual(server.requests.count, 2, "the expired entry sent the second request, which got 429")
        XCTAssertEqual(stale.provider, .gdelt)
        XCTAssertEqual(stale.articles, fresh.articles)
        let warning = try XCTUnwrap(stale.warning)
        XCTAssertTrue(warning.hasPrefix("GDELT rate limit reached (HTTP 429): Please limit requests to one every 5 seconds"), warning)
        XCTAssertTrue(warning.contains("showing headlines cached"), warning)
    }

    func testARateLimitNoticeWithStatus200WithoutCacheMovesOnToTheNextProvider() async throws {
        let server = try LoopbackHTTPServer { request, _ in
            request.path == "/api/v2/doc/doc" ? .fixture("gdelt-rate-limit.txt", contentType: "text/plain") : .rss("google-news-fr.xml")
        }
        let service = try TestSupport.service(server, providers: [.gdelt, .googleNews])
        let result = await service.topHeadlines(country: "fr", limit: 1)
        XCTAssertEqual(result.provider, .googleNews)
        XCTAssertEqual(
            result.attempts.first?.outcome,
            .failed(
                message:
                    "GDELT rate limit reached (HTTP 429): Please limit requests to one every 5 seconds or contact us for larger queries."))
    }

    func testSeendateParses() {
        XCTAssertEqual(WireTimestamp.gdelt("20240501T093000Z"), TestSupport.date("2024-05-01T09:30:00Z"))
        XCTAssertNil(WireTimestamp.gdelt("2024-05-01T09:30:00Z"))
        XCTAssertNil(WireTimestamp.gdelt("20240501T0930ZZZ"))
    }
}
