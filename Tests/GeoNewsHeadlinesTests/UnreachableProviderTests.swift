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

    /// Two `geonews` runs one after the other, offline: the first one's GDELT turn, which its
    /// refused request never used, is given back to the ledger they share, so the second's
    /// request goes at once instead of five seconds later.
    func testATurnThatReachedNoOneIsGivenBackToTheNextProcess() async throws {
        let folder = TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ledger = folder.appendingPathComponent("pace-gdelt")
        // Two fetchers share no memory, as two processes would not: only the cache folder.
        func fetcher() -> ProviderFetcher {
            ProviderFetcher(
                transport: transport(), cache: ResponseCache(directory: folder), rateLimits: [.gdelt: RateLimit.gdelt])
        }
        let down = try LoopbackHTTPServer { _, _ in .notFound }
        down.stop()
        do {
            _ = try await fetcher().fetch(request(down.baseURL)) { $0.status }
            XCTFail("expected the refusal")
        } catch {
            XCTAssertEqual(error as? HeadlineError, .network(.gdelt, reason: "connection refused"))
        }
        XCTAssertEqual(try String(contentsOf: ledger, encoding: .utf8), "", "the unused turn is no longer reserved")

        let live = try LoopbackHTTPServer { _, _ in ScriptedResponse(status: 200, body: Data("{}".utf8)) }
        defer { live.stop() }
        let started = Date()
        let status = try await fetcher().fetch(request(live.baseURL)) { $0.status }.value
        XCTAssertEqual(status, 200)
        XCTAssertLessThan(Date().timeIntervalSince(started), 2.5, "no wait for a turn nobody used (GDELT's is 5 s)")
        let lines = try String(contentsOf: ledger, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 1, "the request that reached GDELT keeps its turn")
    }

    /// In one process: a given-back turn frees the provider at once; another process's
    /// reservation in the ledger is left as it was.
    func testReleasingATurnFreesOnlyThatTurn() async throws {
        let folder = TestSupport.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let limit = RateLimit(requests: 1, intervalSeconds: 30)
        let pacer = RequestPacer(limits: [.gdelt: limit], ledger: PaceLedger(directory: folder))
        let taken = try await pacer.turn(.gdelt)
        let ticket = try XCTUnwrap(taken)
        let busy = await pacer.wait(for: .gdelt)
        XCTAssertGreaterThan(busy, 29, "the turn holds the provider for its interval")
        await pacer.release(ticket)
        let free = await pacer.wait(for: .gdelt)
        XCTAssertEqual(free, 0, "given back: the provider is free again")

        // Another process's reservation, then ours: giving ours back leaves the other's.
        let other = try XCTUnwrap(
            PaceLedger(directory: folder).reserve(
                .gdelt, limit: RateLimit(requests: 2, intervalSeconds: 30), earliest: 1_000, latest: 2_000, margin: 1))
        let ours = try XCTUnwrap(
            PaceLedger(directory: folder).reserve(
                .gdelt, limit: RateLimit(requests: 2, intervalSeconds: 30), earliest: 1_500.0004, latest: 2_000, margin: 1))
        PaceLedger(directory: folder).release(.gdelt, slot: ours)
        let text = try String(contentsOf: folder.appendingPathComponent("pace-gdelt"), encoding: .utf8)
        XCTAssertEqual(text, String(format: "%.3f\n", other))
    }
}
