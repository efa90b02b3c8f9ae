import GeoNewsLoopback
import GeoNewsVersion
import XCTest

@testable import GeoNewsHeadlines

/// Single flight and per-provider spacing, observed from the fixture server's side.
final class PoliteFetchingTests: XCTestCase {
    /// Asks `first` for Austria and `second` for Germany at once (two requests that neither single
    /// flight nor the cache can merge) and returns the seconds between their arrivals at `server`.
    private func arrivalGap(_ server: LoopbackHTTPServer, asking first: HeadlineService, and second: HeadlineService) async throws -> Double
    {
        async let austria = first.topHeadlines(country: "at", limit: 2)
        async let germany = second.topHeadlines(country: "de", limit: 2)
        let answers = await [austria, germany]
        XCTAssertTrue(answers.allSatisfy { $0.provider == .gdelt })
        let times = server.requests.map(\.receivedAt).sorted()
        XCTAssertEqual(times.count, 2)
        return try XCTUnwrap(times.last) - times[0]
    }

    func testFiftyConcurrentCallersOfTheSameRequestMakeOneUpstreamRequest() async throws {
        let server = try LoopbackHTTPServer { _, _ in
            var answer = ScriptedResponse.rss("google-news-fr.xml")
            answer.delay = 0.5
            return answer
        }
        // No cache: only single flight can keep the 49 others from the network.
        let service = try TestSupport.service(server, providers: [.googleNews])
        let results = await withTaskGroup(of: HeadlineResult.self) { group in
            for _ in 0..<50 { group.addTask { await service.topHeadlines(country: "fr", limit: 4) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        XCTAssertEqual(server.requests.count, 1)
        XCTAssertEqual(results.count, 50)
        XCTAssertTrue(results.allSatisfy { $0.provider == .googleNews && $0.articles.count == 4 })
    }

    func testFiftyConcurrentGDELTCallersMakeOneRequestUnderItsDefaultLimit() async throws {
        let server = try LoopbackHTTPServer { _, _ in
            var answer = ScriptedResponse.json("gdelt-at.json")
            answer.delay = 0.5
            return answer
        }
        let service = try TestSupport.service(server, providers: [.gdelt], rateLimits: HeadlineConfiguration.defaultRateLimits)
        let counts = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<50 { group.addTask { await service.topHeadlines(country: "at", limit: 5).articles.count } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        XCTAssertEqual(server.count(path: "/api/v2/doc/doc"), 1)
        XCTAssertEqual(counts, Array(repeating: 5, count: 50))
    }

    func testGDELTRequestsAreFiveSecondsApartOnTheServersClock() async throws {
        let server = try LoopbackHTTPServer { _, _ in .json("gdelt-at.json") }
        let service = try TestSupport.service(server, providers: [.gdelt], rateLimits: HeadlineConfiguration.defaultRateLimits)
        let gap = try await arrivalGap(server, asking: service, and: service)
        XCTAssertGreaterThanOrEqual(gap, 5.0, "GDELT asks for one request per 5 s")
    }

    func testAConfiguredIntervalSpacesEveryRequestOfTheProvider() async throws {
        let server = try LoopbackHTTPServer { _, _ in .json("gdelt-at.json") }
        let service = try TestSupport.service(
            server, providers: [.gdelt],
            rateLimits: [.gdelt: RateLimit(requests: 1, intervalSeconds: 1)])
        for country in ["at", "de", "fr"] { _ = await service.topHeadlines(country: country, limit: 2) }
        let times = server.requests.map(\.receivedAt)
        XCTAssertEqual(times.count, 3)
        for (earlier, later) in zip(times, times.dropFirst()) { XCTAssertGreaterThanOrEqual(later - earlier, 1.0) }
    }

    func testTwoServicesSharingACacheFolderSpaceTheirRequestsAsOneClient() async throws {
        let server = try LoopbackHTTPServer { _, _ in .json("gdelt-at.json") }
        let cache = TestSupport.scratchDirectory()
        let limits = [NewsProvider.gdelt: RateLimit(requests: 1, intervalSeconds: 1)]
        // Two services share no memory, as two `geonews` processes would not: only the ledger file.
        let first = try TestSupport.service(server, providers: [.gdelt], cacheDirectory: cache, rateLimits: limits)
        let second = try TestSupport.service(server, providers: [.gdelt], cacheDirectory: cache, rateLimits: limits)
        let gap = try await arrivalGap(server, asking: first, and: second)
        XCTAssertGreaterThanOrEqual(gap, 1.0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: cache.appendingPathComponent("pace-gdelt").path))
    }

    func testACallerThatWouldWaitItsTurnGetsTheOlderCacheEntryInstead() async throws {
        let server = try LoopbackHTTPServer { _, _ in .json("gdelt-at.json") }
        let cache = TestSupport.scratchDirectory()
        let service = try TestSupport.service(
            server, providers: [.gdelt], cacheDirectory: cache, timeToLive: 0,
            rateLimits: [.gdelt: RateLimit(requests: 1, intervalSeconds: 60)])
        let first = await service.topHeadlines(country: "at", limit: 3)
        XCTAssertEqual(first.freshness, .network)
        let second = await service.topHeadlines(country: "at", limit: 3)
        XCTAssertEqual(server.requests.count, 1, "the provider is not asked again within its interval")
        XCTAssertEqual(second.articles, first.articles)
        XCTAssertTrue(
            second.warning?.hasPrefix("GDELT is held to its rate limit; the next request may be sent in ") ?? false, second.warning ?? "")
    }

    func testAfterA429TheProviderIsLeftAloneAndCallersMoveOnInsteadOfWaiting() async throws {
        let server = try LoopbackHTTPServer { request, _ in
            request.path == "/api/v2/doc/doc"
                ? .fixture("gdelt-rate-limit.txt", status: 429, contentType: "text/plain", headers: [("Retry-After", "3600")])
                : .rss("google-news-fr.xml")
        }
        let service = try TestSupport.service(
            server, providers: [.gdelt, .googleNews],
            rateLimits: HeadlineConfiguration.defaultRateLimits)
        let first = await service.topHeadlines(country: "fr", limit: 1)
        XCTAssertEqual(first.provider, .googleNews)
        let second = await service.topHeadlines(country: "de", limit: 1)
        XCTAssertEqual(second.provider, .googleNews)
        XCTAssertEqual(server.count(path: "/api/v2/doc/doc"), 1, "no request to GDELT within its Retry-After")
        let paced = try XCTUnwrap(second.attempts.first?.summary)
        XCTAssertTrue(paced.hasPrefix("GDELT is held to its rate limit; the next request may be sent in 3"), paced)
    }

    func testEveryProviderIsSentTheGeoNewsUserAgent() async throws {
        let server = try LoopbackHTTPServer { request, _ in
            switch request.path {
            case "/rss": return .rss("google-news-empty.xml")
            case "/api/v2/doc/doc": return .json("gdelt-empty.json")
            case "/v2/top-headlines": return .json("newsapi-top-empty.json")
            default: return .json("gnews-top-fr.json")
            }
        }
        let service = try TestSupport.service(server, providers: [.googleNews, .gdelt, .newsAPI, .gnews])
        _ = await service.topHeadlines(country: "fr", limit: 2)
        XCTAssertEqual(server.requests.map(\.path), ["/rss", "/api/v2/doc/doc", "/v2/top-headlines", "/api/v4/top-headlines"])
        XCTAssertEqual(Set(server.requests.compactMap { $0.headers["user-agent"] }), ["GeoNews/\(GeoNewsRelease.version)"])
    }
}
