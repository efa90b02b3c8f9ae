import GeoNewsLoopback
import XCTest

@testable import GeoNewsHeadlines

final class ProviderChainTests: XCTestCase {
    /// Google News: empty feed; NewsAPI: empty for fr; GNews: articles.
    private func threeProviderServer() throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request, _ in
            switch request.path {
            case "/rss": return .rss("google-news-empty.xml")
            case "/v2/top-headlines": return .json("newsapi-top-empty.json")
            case "/api/v4/top-headlines": return .json("gnews-top-fr.json")
            default: return .notFound
            }
        }
    }

    func testEmptyAnswersFallThroughInOrderAndTheServingProviderIsNamed() async throws {
        let server = try threeProviderServer()
        let service = try TestSupport.service(server, providers: [.googleNews, .newsAPI, .gnews])
        let result = await service.topHeadlines(country: "fr", limit: 5)
        XCTAssertEqual(result.provider, .gnews)
        XCTAssertEqual(result.articles.count, 2)
        XCTAssertEqual(server.requests.map(\.path), ["/rss", "/v2/top-headlines", "/api/v4/top-headlines"])
        XCTAssertEqual(
            result.attempts.map(\.summary),
            [
                "Google News: no articles",
                "NewsAPI: no articles (NewsAPI has returned top headlines only for \"us\" since 2024)",
                "GNews: 2 articles",
            ])
    }

    func testFailureFallsThroughAndLaterProvidersAreNotAskedOnceOneServes() async throws {
        let server = try LoopbackHTTPServer { request, _ in
            switch request.path {
            case "/rss": return ScriptedResponse(status: 503, body: Data("maintenance".utf8))
            case "/v2/top-headlines": return .json("newsapi-top-us.json")
            default: return .json("gnews-top-fr.json")
            }
        }
        let service = try TestSupport.service(server, providers: [.googleNews, .newsAPI, .gnews])
        let result = await service.topHeadlines(country: "us", limit: 2)
        XCTAssertEqual(result.provider, .newsAPI)
        XCTAssertEqual(result.articles.map(\.sourceName), ["CNBC", "Associated Press"])
        XCTAssertEqual(server.requests.map(\.path), ["/rss", "/rss", "/v2/top-headlines"], "503 retried once, GNews never asked")
        XCTAssertEqual(result.attempts.first?.outcome, .failed(message: "Google News answered HTTP 503: maintenance"))
    }

    func testAllProvidersFailingGivesOneLineNamingEach() async throws {
        let server = try LoopbackHTTPServer { request, _ in
            request.path == "/rss" ? .rss("google-news-malformed.xml") : .json("newsapi-error-apiKeyInvalid.json", status: 401)
        }
        let service = try TestSupport.service(server, providers: [.googleNews, .newsAPI])
        let result = await service.topHeadlines(country: "de", limit: 5)
        let error = try XCTUnwrap(result.error)
        XCTAssertFalse(error.contains("\n"))
        XCTAssertTrue(error.hasPrefix("no headlines for de: Google News sent a response we could not read: XML error"), error)
        XCTAssertTrue(error.contains("; NewsAPI apiKeyInvalid (HTTP 401)"), error)
        XCTAssertEqual(result.errorKind, .unavailable, "one provider failed for a reason other than configuration")
    }

    func testUnknownCountryAndBadLimitAreRejectedBeforeAnyRequest() async throws {
        let server = try threeProviderServer()
        let service = try TestSupport.service(server, providers: [.googleNews])
        let unknown = await service.topHeadlines(country: "xx", limit: 5)
        XCTAssertEqual(unknown.error, "country \"xx\" is not one of the 54 news countries (two letters, e.g. fr, us, jp)")
        XCTAssertEqual(unknown.errorKind, .badInput)
        let tooMany = await service.topHeadlines(country: "fr", limit: 500)
        XCTAssertEqual(tooMany.error, "limit \"500\": must be 1…100")
        let badLanguage = await service.search("x", language: "xx")
        XCTAssertEqual(badLanguage.errorKind, .badInput)
        XCTAssertTrue(server.requests.isEmpty)
    }

    func testResultEncodesToTheHeadlinesJSONShape() async throws {
        let server = try LoopbackHTTPServer { _, _ in .rss("google-news-fr.xml") }
        let service = try TestSupport.service(server, providers: [.googleNews])
        let result = await service.topHeadlines(country: "fr", limit: 1)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = String(decoding: try encoder.encode(result), as: UTF8.self)
        XCTAssertEqual(
            json,
            #"{"articles":[{"provider":"google-news","publishedAt":"2024-05-01T09:30:00Z","source":"Le Monde","sourceUrl":"https://www.lemonde.fr","title":"Réforme des retraites : le Sénat adopte le texte","url":"https://news.google.com/rss/articles/CBMiRmh0dHBzOi8vd3d3LmxlbW9uZGUuZnIvYQ?oc=5"}],"country":"fr","error":null,"provider":"google-news"}"#
        )
        let decoded = try JSONDecoder().decode(HeadlineResult.self, from: Data(json.utf8))
        XCTAssertEqual(decoded.articles, result.articles)

        let failed = await service.topHeadlines(country: "zz")
        let failedJSON = String(decoding: try encoder.encode(failed), as: UTF8.self)
        XCTAssertTrue(failedJSON.hasPrefix(#"{"articles":[],"country":"zz","error":"country \"zz\" is not one"#), failedJSON)
        XCTAssertTrue(failedJSON.hasSuffix(#""provider":null}"#), failedJSON)
    }
}
