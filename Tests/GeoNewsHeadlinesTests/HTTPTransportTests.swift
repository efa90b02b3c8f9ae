import GeoNewsLoopback
import XCTest

@testable import GeoNewsHeadlines

final class HTTPTransportTests: XCTestCase {
    private func request(_ server: LoopbackHTTPServer, path: String = "/v2/top-headlines") -> ProviderRequest {
        ProviderRequest(
            provider: .newsAPI, baseURL: server.baseURL, path: path,
            query: [URLQueryItem(name: "country", value: "us")], apiKey: TestSupport.key)
    }

    private func transport(
        connect: Double = 3, request: Double = 5, backoff: Double = 0.05, longestRetryAfter: Double = 1.5
    ) -> HTTPTransport {
        HTTPTransport(
            timeouts: HTTPTimeouts(connect: connect, request: request),
            retry: RetryPolicy(backoff: backoff, longestRetryAfter: longestRetryAfter))
    }

    private func slowServer(delay: Double) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { _, _ in
            var slow = ScriptedResponse.json("newsapi-top-us.json"); slow.delay = delay; return slow
        }
    }

    private func assertTimesOut(
        _ transport: HTTPTransport, _ server: LoopbackHTTPServer, after seconds: Double,
        file: StaticString = #filePath, line: UInt = #line
    ) async {
        do {
            _ = try await transport.send(request(server))
            XCTFail("expected a timeout", file: file, line: line)
        } catch {
            XCTAssertEqual(error as? HeadlineError, .timedOut(.newsAPI, seconds: seconds), file: file, line: line)
        }
    }

    func testServerErrorIsRetriedOnceThenSucceeds() async throws {
        let server = try LoopbackHTTPServer { _, hits in
            hits == 1 ? .json("newsapi-error-unexpectedError.json", status: 500) : .json("newsapi-top-us.json")
        }
        let service = try TestSupport.service(server, providers: [.newsAPI])
        let result = await service.topHeadlines(country: "us", limit: 5)
        XCTAssertEqual(result.provider, .newsAPI)
        XCTAssertEqual(result.articles.count, 4)
        XCTAssertEqual(server.count(path: "/v2/top-headlines"), 2)
    }

    func testShortRetryAfterIsHonoured() async throws {
        let server = try LoopbackHTTPServer { _, hits in
            hits == 1 ? .json("newsapi-error-rateLimited.json", status: 429, headers: [("Retry-After", "1")]) : .json("newsapi-top-us.json")
        }
        let response = try await transport().send(request(server))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(server.requests.count, 2)
    }

    func testLongRetryAfterFailsFastWithTheProvidersMessage() async throws {
        let server = try LoopbackHTTPServer { _, _ in
            .json("newsapi-error-rateLimited.json", status: 429, headers: [("Retry-After", "3600")])
        }
        let service = try TestSupport.service(server, providers: [.newsAPI])
        let result = await service.topHeadlines(country: "us", limit: 5)
        XCTAssertEqual(server.requests.count, 1, "no waiting an hour")
        XCTAssertTrue(
            result.error?.contains("NewsAPI rateLimited (HTTP 429): You have made too many requests recently.") ?? false, result.error ?? ""
        )
    }

    func testGoogle429WithoutErrorFormatKeepsRetryAfter() async throws {
        let server = try LoopbackHTTPServer { _, _ in
            ScriptedResponse(status: 429, headers: [("Retry-After", "120")], body: Data("slow down".utf8))
        }
        let service = try TestSupport.service(server, providers: [.googleNews])
        let result = await service.topHeadlines(country: "fr")
        XCTAssertEqual(result.error, "no headlines for fr: Google News rate limit reached (HTTP 429); retry after 120 s: slow down")
    }

    func testAnswerSlowerThanTheDeadlineTimesOutAndIsRetriedOnce() async throws {
        let server = try slowServer(delay: 2)
        await assertTimesOut(transport(connect: 5, request: 0.3), server, after: 0.3)
        XCTAssertEqual(server.requests.count, 2, "a timeout is retried once")
    }

    /// libcurl-backed URLSession counts its idle timeout in whole seconds, hence 1 s here.
    func testSilenceLongerThanTheConnectTimeoutTimesOut() async throws {
        let server = try slowServer(delay: 3)
        await assertTimesOut(transport(connect: 1, request: 10), server, after: 1)
        XCTAssertEqual(server.requests.count, 2)
    }

    func testRedirectIsFollowedAndTheFinalURLIsReported() async throws {
        let server = try LoopbackHTTPServer { request, _ in
            request.path == "/rss"
                ? .redirect(to: "/rss/unsupported?hl=xx") : .fixture("google-news-unsupported.html", contentType: "text/html")
        }
        let response = try await transport().send(request(server, path: "/rss"))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.url.path, "/rss/unsupported")
        XCTAssertEqual(response.url.query, "hl=xx")
    }

    func testGzipBodyArrivesDecoded() async throws {
        let server = try LoopbackHTTPServer { _, _ in
            .fixture("google-news-fr.xml.gz", contentType: "application/rss+xml", headers: [("Content-Encoding", "gzip")])
        }
        let response = try await transport().send(request(server, path: "/rss"))
        XCTAssertEqual(response.body, Fixture.data("google-news-fr.xml"))
    }

    func testKeyTravelsOnlyInTheHeader() async throws {
        let server = try LoopbackHTTPServer { _, _ in .json("newsapi-top-us.json") }
        let sent = request(server)
        _ = try await transport().send(sent)
        XCTAssertFalse(sent.url.absoluteString.contains(TestSupport.secret))
        XCTAssertFalse(sent.cacheIdentity.contains(TestSupport.secret))
        XCTAssertEqual(server.requests.first?.headers["x-api-key"], TestSupport.secret)
        XCTAssertEqual(server.requests.first?.target, "/v2/top-headlines?country=us")
    }

    func testRefusedConnectionIsANetworkErrorAfterOneRetry() async throws {
        let server = try LoopbackHTTPServer { _, _ in .notFound }
        server.stop()
        do {
            _ = try await transport().send(request(server))
            XCTFail("expected a network error")
        } catch {
            XCTAssertEqual(error as? HeadlineError, .network(.newsAPI, reason: "connection refused"))
        }
    }

    func testQueryPlusSignIsEncoded() {
        let sent = ProviderRequest(
            provider: .googleNews, baseURL: URL(string: "http://127.0.0.1:1")!, path: "/rss/search",
            query: [URLQueryItem(name: "q", value: "C++ & Swift")], apiKey: nil)
        XCTAssertEqual(sent.url.absoluteString, "http://127.0.0.1:1/rss/search?q=C%2B%2B%20%26%20Swift")
    }
}
