import GeoNewsLoopback
import XCTest

@testable import GeoNewsHeadlines

final class NewsAPITests: XCTestCase {
    func testTopHeadlinesMapToArticlesNewestFirstWithoutRemovedPlaceholders() async throws {
        let server = try LoopbackHTTPServer { request, _ in request.path == "/v2/top-headlines" ? .json("newsapi-top-us.json") : .notFound }
        let service = try TestSupport.service(server, providers: [.newsAPI])
        let result = await service.topHeadlines(country: "us", category: .business, limit: 10)
        XCTAssertNil(result.error)
        XCTAssertEqual(result.provider, .newsAPI)
        XCTAssertEqual(result.articles.map(\.sourceName), ["CNBC", "Associated Press", "ESPN", "The Verge"])
        XCTAssertFalse(result.articles.contains { $0.title == "[Removed]" || $0.url.host == "removed.com" })
        let cnbc = result.articles[0]
        XCTAssertEqual(cnbc.title, "Stocks rise before Fed decision")
        XCTAssertEqual(cnbc.author, "John Roe")
        XCTAssertEqual(cnbc.description, "Markets open higher.")
        XCTAssertEqual(cnbc.url.absoluteString, "https://www.cnbc.com/2024/05/01/stocks.html")
        XCTAssertEqual(cnbc.imageURL?.absoluteString, "https://image.cnbcfm.com/stocks.jpg")
        XCTAssertEqual(cnbc.publishedAt?.timeIntervalSince1970, TestSupport.date("2024-05-01T13:45:12Z").timeIntervalSince1970 + 0.5)
        XCTAssertNil(result.articles[2].description, "an empty description is dropped")
        XCTAssertNil(result.articles[2].imageURL)
        XCTAssertEqual(result.articles[1].title, "Storms sweep across the Midwest", "the \" - Associated Press\" suffix is dropped")

        let request = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(request.query, ["country": "us", "category": "business", "pageSize": "20"])
        XCTAssertEqual(request.headers["x-api-key"], TestSupport.secret)
        XCTAssertFalse(request.target.contains(TestSupport.secret))
        XCTAssertNil(request.query["apiKey"])
    }

    func testEmptyCountryCarriesTheUSOnlyNote() async throws {
        let server = try LoopbackHTTPServer { _, _ in .json("newsapi-top-empty.json") }
        let service = try TestSupport.service(server, providers: [.newsAPI])
        let result = await service.topHeadlines(country: "fr", limit: 5)
        XCTAssertNil(result.provider)
        XCTAssertEqual(
            result.attempts,
            [ProviderAttempt(provider: .newsAPI, outcome: .empty(note: "NewsAPI has returned top headlines only for \"us\" since 2024"))])
        XCTAssertEqual(
            result.error,
            "no provider had headlines for fr (NewsAPI: no articles (NewsAPI has returned top headlines only for \"us\" since 2024))")
        XCTAssertEqual(result.errorKind, .unavailable)
    }

    func testEveryErrorCodeMapsToItsTypedErrorAndStatus() async throws {
        let statuses = try JSONDecoder().decode([String: Int].self, from: Fixture.data("newsapi-error-statuses.json"))
        XCTAssertEqual(statuses.count, 11)
        for (code, status) in statuses.sorted(by: { $0.key < $1.key }) {
            let server = try LoopbackHTTPServer { _, _ in .json("newsapi-error-\(code).json", status: status) }
            let service = try TestSupport.service(server, providers: [.newsAPI])
            let result = await service.topHeadlines(country: "us", limit: 5)
            let expected = try JSONDecoder().decode(NewsAPIWire.Status.self, from: Fixture.data("newsapi-error-\(code).json"))
            let error = HeadlineError.newsAPI(NewsAPIErrorCode(code: code), status: status, message: expected.message!)
            XCTAssertEqual(result.error, "no headlines for us: \(error.message)", code)
            XCTAssertNotEqual(NewsAPIErrorCode(code: code), .other(code), "\(code) is a known code")
            let configurationCodes: Set = ["apiKeyMissing", "apiKeyInvalid", "apiKeyDisabled", "apiKeyExhausted"]
            XCTAssertEqual(result.errorKind, configurationCodes.contains(code) ? .configuration : .unavailable, code)
            XCTAssertEqual(server.requests.count, status >= 500 ? 2 : 1, "\(code): only 5xx is retried")
            server.stop()
        }
    }

    func testMaximumResultsReachedSaysWhatToDo() {
        let error = HeadlineError.newsAPI(.maximumResultsReached, status: 426, message: "You have requested too many results.")
        XCTAssertEqual(
            error.message,
            "NewsAPI maximumResultsReached (HTTP 426): You have requested too many results. — developer plans stop at 100 results; narrow the search or ask for an earlier page"
        )
    }

    func testKeyEchoedByTheServerIsRedactedFromTheMessage() async throws {
        let body = #"{"status":"error","code":"apiKeyInvalid","message":"Your API key \#(TestSupport.secret) is invalid."}"#
        let server = try LoopbackHTTPServer { _, _ in ScriptedResponse(status: 401, body: Data(body.utf8)) }
        let service = try TestSupport.service(server, providers: [.newsAPI])
        let result = await service.topHeadlines(country: "us", limit: 5)
        XCTAssertTrue(result.error?.contains("Your API key [redacted] is invalid.") ?? false, result.error ?? "")
        XCTAssertFalse(result.error?.contains(TestSupport.secret) ?? true)
    }

    func testHTTPStatusWithoutErrorBodyIsStillTyped() async throws {
        let server = try LoopbackHTTPServer { _, _ in ScriptedResponse(status: 401, body: Data("Unauthorized".utf8)) }
        let service = try TestSupport.service(server, providers: [.newsAPI])
        let result = await service.topHeadlines(country: "us", limit: 5)
        XCTAssertEqual(result.error, "no headlines for us: NewsAPI answered HTTP 401: Unauthorized")
        XCTAssertEqual(result.errorKind, .configuration)
    }

    func testMalformedJSONNamesTheProblem() async throws {
        let server = try LoopbackHTTPServer { _, _ in .json("newsapi-malformed.json") }
        let service = try TestSupport.service(server, providers: [.newsAPI])
        let result = await service.topHeadlines(country: "us", limit: 5)
        XCTAssertEqual(result.error, "no headlines for us: NewsAPI sent a response we could not read: invalid JSON")
    }

    func testSearchSendsEverythingParametersAndKeepsRelevanceOrder() async throws {
        let server = try LoopbackHTTPServer { _, _ in .json("newsapi-everything-climat.json") }
        let service = try TestSupport.service(server, providers: [.newsAPI])
        let result = await service.search(
            "climat", language: "fr", from: TestSupport.date("2024-04-01T00:00:00Z"), sortBy: .relevance, limit: 5)
        XCTAssertEqual(result.articles.map(\.sourceName), ["Le Monde", "Libération"], "provider ranking kept")
        XCTAssertEqual(server.requests.first?.path, "/v2/everything")
        XCTAssertEqual(
            server.requests.first?.query,
            ["q": "climat", "language": "fr", "from": "2024-04-01T00:00:00Z", "sortBy": "relevancy", "pageSize": "15"])
    }

    func testSourcesListNewsAPIPublishers() async throws {
        let server = try LoopbackHTTPServer { _, _ in .json("newsapi-sources-fr.json") }
        let service = try TestSupport.service(server, providers: [.googleNews])
        let sources = try await service.sources(country: "fr", category: .sports)
        XCTAssertEqual(sources.map(\.id), ["le-monde", "lequipe"])
        XCTAssertEqual(sources[1].category, "sports")
        XCTAssertEqual(server.requests.first?.path, "/v2/top-headlines/sources")
        XCTAssertEqual(server.requests.first?.query, ["country": "fr", "category": "sports"])
    }

    func testSourcesWithoutKeyIsAMissingKeyError() async throws {
        let server = try LoopbackHTTPServer { _, _ in .json("newsapi-sources-fr.json") }
        let service = try TestSupport.service(server, providers: [.googleNews], newsAPIKey: nil)
        do {
            _ = try await service.sources()
            XCTFail("expected missingKey")
        } catch {
            XCTAssertEqual(error as? HeadlineError, .missingKey(.newsAPI))
        }
        XCTAssertTrue(server.requests.isEmpty)
    }
}
