import Foundation
import GeoNewsLoopback
import XCTest

/// Headlines and search through the provider chain, with Google News served from the fixtures
/// on a loopback server.
final class HeadlineRouteTests: XCTestCase {
    static let fixtures = ServerProcess.packageRoot.appendingPathComponent("Tests/GeoNewsHeadlinesTests/Fixtures")

    static func rss(_ name: String) -> ScriptedResponse {
        ScriptedResponse(
            status: 200, headers: [("Content-Type", "application/rss+xml; charset=utf-8")],
            body: (try? Data(contentsOf: fixtures.appendingPathComponent(name))) ?? Data())
    }

    private func googleNews() throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request, _ in
            request.path.hasPrefix("/rss") ? Self.rss("google-news-fr.xml") : .notFound
        }
    }

    func testHeadlinesComeFromTheProviderWithCacheControl() async throws {
        let google = try googleNews()
        let server = try ServerProcess(environment: ["GEONEWS_GOOGLE_NEWS_URL": google.baseURL.absoluteString])
        let call = try await server.get("/v1/headlines?country=fr&limit=2")
        XCTAssertEqual(call.status, 200, call.text)
        let result = try call.object()
        XCTAssertEqual(result["provider"] as? String, "google-news")
        let articles = try XCTUnwrap(result["articles"] as? [[String: Any]])
        XCTAssertEqual(articles.count, 2)
        XCTAssertEqual(articles.first?["title"] as? String, "Réforme des retraites : le Sénat adopte le texte")
        XCTAssertEqual(call.header("Cache-Control"), "public, max-age=300, stale-if-error=86400")
        XCTAssertEqual(google.requests.first?.query["gl"], "FR")
    }

    func testAHundredSimultaneousRequestsMakeOneProviderRequest() async throws {
        // The slow answer keeps the first fetch in flight while the others arrive; whether they
        // join it (single flight) or find it cached, the provider must see one request.
        let google = try LoopbackHTTPServer { request, _ in
            guard request.path.hasPrefix("/rss") else { return .notFound }
            var answer = Self.rss("google-news-fr.xml")
            answer.delay = 0.5
            return answer
        }
        let server = try ServerProcess(environment: ["GEONEWS_GOOGLE_NEWS_URL": google.baseURL.absoluteString])
        let statuses = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for _ in 0..<100 {
                group.addTask {
                    let call = try await server.get("/v1/headlines?country=fr")
                    return (call.status, (try? call.object()["articles"] as? [Any])?.count ?? 0)
                }
            }
            return try await group.reduce(into: [(Int, Int)]()) { $0.append($1) }
        }
        XCTAssertEqual(statuses.count, 100)
        XCTAssertTrue(statuses.allSatisfy { $0.0 == 200 && $0.1 > 0 }, "\(statuses.filter { $0.0 != 200 })")
        XCTAssertEqual(google.count(path: "/rss"), 1)
        XCTAssertEqual(google.requests.count, 1, google.requests.map(\.target).joined(separator: "\n"))
    }

    func testResolveWithHeadlinesEmbedsThemLikeTheCLI() async throws {
        let google = try googleNews()
        let server = try ServerProcess(environment: ["GEONEWS_GOOGLE_NEWS_URL": google.baseURL.absoluteString])
        let report = try await server.get("/v1/resolve?lat=48.8566&lon=2.3522&headlines=3").object()
        let headlines = try XCTUnwrap(report["headlines"] as? [String: Any])
        XCTAssertEqual(headlines["provider"] as? String, "google-news")
        XCTAssertEqual((headlines["articles"] as? [Any])?.count, 3)
    }

    func testProvidersDownAndNothingCachedIs503() async throws {
        let server = try ServerProcess()
        let call = try await server.get("/v1/headlines?country=fr")
        try assertProblem(call, 503, mentions: ["nothing is cached"])
        XCTAssertEqual(call.header("Retry-After"), "60")
    }

    /// A server whose provider cache keeps answers for `ttl` seconds, with Google News from the fixtures.
    private func serverWithCache(ttl: Int, google: LoopbackHTTPServer) throws -> ServerProcess {
        let state = ServerProcess.newStateDirectory()
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let config = state.appendingPathComponent("config.json")
        try Data(#"{"cacheTTLSeconds": \#(ttl), "providers": ["google-news"]}"#.utf8).write(to: config)
        return try ServerProcess(
            stateDirectory: state,
            environment: [
                "GEONEWS_GOOGLE_NEWS_URL": google.baseURL.absoluteString, "GEONEWS_CONFIG": config.path,
            ])
    }

    func testStaleAnswerIsServedWithItsAgeAndNotKeptWhenTheProviderFails() async throws {
        let google = try googleNews()
        let server = try serverWithCache(ttl: 0, google: google)
        let fresh = try await server.get("/v1/headlines?country=fr&limit=2")
        XCTAssertEqual(fresh.status, 200, fresh.text)
        XCTAssertNil(try fresh.object()["stale"], "a network answer is not marked: \(fresh.text)")
        XCTAssertNil(try fresh.object()["cacheAgeSeconds"])
        google.stop()
        let stale = try await server.get("/v1/headlines?country=fr&limit=2")
        XCTAssertEqual(stale.status, 200, stale.text)
        let body = try stale.object()
        XCTAssertEqual(body["stale"] as? Bool, true)
        let age = try XCTUnwrap(body["cacheAgeSeconds"] as? Int, stale.text)
        XCTAssertTrue((0...60).contains(age), "cacheAgeSeconds \(age)")
        let reason = try XCTUnwrap(body["staleReason"] as? String, stale.text)
        XCTAssertTrue(reason.contains("Google News"), reason)
        let warning = try XCTUnwrap(body["warning"] as? String)
        XCTAssertTrue(warning.contains("showing headlines cached") && warning.hasSuffix(" ago"), warning)
        XCTAssertEqual(stale.header("Cache-Control"), "no-store")
        XCTAssertEqual(
            (body["articles"] as? [[String: Any]])?.first?["title"] as? String,
            "Réforme des retraites : le Sénat adopte le texte")
    }

    func testACachedAnswerMayBeKeptOnlyForWhatIsLeftOfItsServerLifetime() async throws {
        let google = try googleNews()
        let server = try serverWithCache(ttl: 120, google: google)
        let fresh = try await server.get("/v1/headlines?country=fr&limit=2")
        XCTAssertEqual(fresh.status, 200, fresh.text)
        XCTAssertEqual(fresh.header("Cache-Control"), "public, max-age=120, stale-if-error=86400")
        google.stop()  // the second answer can only come from the cache
        let cached = try await server.get("/v1/headlines?country=fr&limit=2")
        XCTAssertEqual(cached.status, 200, cached.text)
        let body = try cached.object()
        XCTAssertEqual(body["stale"] as? Bool, false)
        let age = try XCTUnwrap(body["cacheAgeSeconds"] as? Int, cached.text)
        let control = try XCTUnwrap(cached.header("Cache-Control"))
        XCTAssertTrue(control.hasPrefix("public, max-age="), control)
        let maxAge = try XCTUnwrap(
            control.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .first { $0.hasPrefix("max-age=") }.flatMap { Int($0.dropFirst("max-age=".count)) }, control)
        XCTAssertTrue(maxAge <= 120 - age && maxAge >= 120 - age - 1, "max-age \(maxAge) for an answer \(age) s old")
        XCTAssertNil(body["staleReason"])
        XCTAssertEqual(google.requests.count, 1)
    }

    func testProvidersWithNoArticlesAnswer200WithAnEmptyListNotAnOutage() async throws {
        let google = try LoopbackHTTPServer { request, _ in
            request.path.hasPrefix("/rss") ? Self.rss("google-news-empty.xml") : .notFound
        }
        let server = try serverWithCache(ttl: 900, google: google)
        let call = try await server.get("/v1/headlines?country=se&category=science")
        XCTAssertEqual(call.status, 200, call.text)
        let body = try call.object()
        XCTAssertEqual((body["articles"] as? [Any])?.count, 0)
        let error = try XCTUnwrap(body["error"] as? String, call.text)
        XCTAssertTrue(error.contains("no articles") && !error.contains("nothing is cached"), error)
        XCTAssertEqual(call.header("Cache-Control"), "no-store")
    }

    func testBadHeadlineValuesAreNamed() async throws {
        let server = try ServerProcess()
        try assertProblem(try await server.get("/v1/headlines"), 400, mentions: ["country"])
        try assertProblem(try await server.get("/v1/headlines?country=zz"), 400, mentions: ["country", "zz"])
        try assertProblem(try await server.get("/v1/headlines?country=fr&category=gossip"), 400, mentions: ["category", "gossip"])
        try assertProblem(try await server.get("/v1/headlines?country=fr&limit=0"), 400, mentions: ["limit", "0"])
        try assertProblem(try await server.get("/v1/search?q=x&sort=newest"), 400, mentions: ["sort", "newest"])
        try assertProblem(try await server.get("/v1/search?q=x&from=yesterday"), 400, mentions: ["from", "yesterday"])
    }

    /// Only NewsAPI sorts by popularity: without it the request cannot be met, whatever the
    /// providers' health, so it is a 400 naming `sort`, not an outage's 503; and the chain is
    /// never asked.
    func testPopularityWithoutNewsAPIIsABadSortNotAnOutage() async throws {
        let google = try googleNews()
        let server = try ServerProcess(environment: ["GEONEWS_GOOGLE_NEWS_URL": google.baseURL.absoluteString])
        let call = try await server.get("/v1/search?q=retraites&sort=popularity")
        try assertProblem(call, 400, mentions: ["sort", "popularity", "NewsAPI"])
        XCTAssertTrue(google.requests.isEmpty, "\(google.requests)")
        let relevance = try await server.get("/v1/search?q=retraites&language=fr&sort=relevance&limit=2")
        XCTAssertEqual(relevance.status, 200, relevance.text)
    }

    func testSearchGoesThroughTheChain() async throws {
        let google = try googleNews()
        let server = try ServerProcess(environment: ["GEONEWS_GOOGLE_NEWS_URL": google.baseURL.absoluteString])
        let call = try await server.get("/v1/search?q=retraites&language=fr&limit=2")
        XCTAssertEqual(call.status, 200, call.text)
        XCTAssertEqual((try call.object()["articles"] as? [Any])?.count, 2)
        XCTAssertEqual(google.requests.first?.path, "/rss/search")
    }
}
