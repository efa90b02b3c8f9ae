import GeoNewsLoopback
import XCTest

@testable import GeoNewsHeadlines

/// A provider that no request reached (the connection refused, its host not found, no network)
/// costs neither a second rate-limit turn nor, for the request timeout, another try: offline,
/// `geonews --lat --lon` used to wait 16–18 s for GDELT's turns before it said it had no
/// headlines.
final class UnreachableProviderTests: XCTestCase {
    private func request(_ base: URL, provider: NewsProvider = .gdelt) -> ProviderRequest {
        ProviderRequest(
            provider: provider, baseURL: base, path: "/api/v2/doc/doc", query: [URLQueryItem(name: "query", value: "Lyon")],
            apiKey: nil)
    }

    private func transport(request: Double = 5) -> HTTPTransport {
        HTTPTransport(timeouts: HTTPTimeouts(connect: 1, request: request), retry: RetryPolicy(backoff: 0.01, longestRetryAfter: 1))
    }

    /// Counts the turns a request takes.
    private final class Turns: @unchecked Sendable {
        private let lock = NSLock()
        private var taken = 0
        var count: Int { lock.withLock { taken } }
        func take() { lock.withLock { taken += 1 } }
    }

    func testTheRetryAfterARefusedConnectionGoesInTheSameTurn() async throws {
        let server = try LoopbackHTTPServer { _, _ in .notFound }
        server.stop()
        let turns = Turns()
        do {
            _ = try await transport().send(request(server.baseURL), pace: { turns.take() })
            XCTFail("expected a network error")
        } catch {
            XCTAssertEqual(error as? HeadlineError, .network(.gdelt, reason: "connection refused"))
        }
        XCTAssertEqual(turns.count, 1, "the refused attempt reached no one: its retry takes no second turn")
    }

    func testTheRetryAfterAServerErrorTakesItsOwnTurn() async throws {
        let server = try LoopbackHTTPServer { _, n in n == 1 ? ScriptedResponse(status: 503) : ScriptedResponse(status: 200) }
        defer { server.stop() }
        let turns = Turns()
        let response = try await transport().send(request(server.baseURL), pace: { turns.take() })
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(server.requests.count, 2)
        XCTAssertEqual(turns.count, 2, "the 503 reached the provider: the retry counts against its limit")
    }

    /// Within the request timeout after a refusal, the provider is not tried again (a live
    /// server for it sees nothing) while another provider is; after it, it is tried again.
    func testAProviderNoRequestReachedIsNotTriedAgainForTheRequestTimeout() async throws {
        let fetcher = ProviderFetcher(transport: transport(request: 1), cache: nil)
        let down = try LoopbackHTTPServer { _, _ in .notFound }
        down.stop()
        let live = try LoopbackHTTPServer { _, _ in ScriptedResponse(status: 200, body: Data("{}".utf8)) }
        defer { live.stop() }
        func status(_ base: URL, _ provider: NewsProvider = .gdelt) async throws -> Int {
            try await fetcher.fetch(request(base, provider: provider)) { $0.status }.value
        }
        for base in [down.baseURL, live.baseURL] {
            do {
                _ = try await status(base)
                XCTFail("expected the refusal")
            } catch {
                XCTAssertEqual(error as? HeadlineError, .network(.gdelt, reason: "connection refused"))
            }
        }
        XCTAssertEqual(live.requests.count, 0, "GDELT was not tried again")
        let other = try await status(live.baseURL, .googleNews)
        XCTAssertEqual(other, 200, "another provider is asked as before")
        XCTAssertEqual(live.requests.count, 1)
        try await Task.sleep(nanoseconds: 1_100_000_000)
        let again = try await status(live.baseURL)
        XCTAssertEqual(again, 200, "tried again once the request timeout has passed")
        XCTAssertEqual(live.requests.count, 2)
    }
}
