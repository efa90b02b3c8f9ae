import Foundation
import GeoNewsVersion

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Timeouts in seconds.
public struct HTTPTimeouts: Sendable, Equatable {
    /// Longest silence before the first byte arrives (connecting included), and between bytes.
    public var connect: Double
    /// Deadline for the whole exchange, from sending the request to the last body byte.
    public var request: Double

    public init(connect: Double = 5, request: Double = 10) {
        self.connect = connect
        self.request = request
    }
}

/// When to try a request a second time.
public struct RetryPolicy: Sendable, Equatable {
    /// Pause before the single retry after a 5xx answer or a network failure, in seconds.
    public var backoff: Double
    /// The longest `Retry-After` (seconds) a 429 answer may ask us to wait; longer fails fast.
    public var longestRetryAfter: Double

    public init(backoff: Double = 0.5, longestRetryAfter: Double = 5) {
        self.backoff = backoff
        self.longestRetryAfter = longestRetryAfter
    }
}

/// GET requests for the providers, with our timeouts and one retry.
///
/// Built on `URLSession` from FoundationNetworking rather than AsyncHTTPClient: it ships with
/// the toolchain, so the package pulls in no SwiftNIO graph for a handful of small GETs, and on
/// Linux it runs on libcurl, which already negotiates and decodes gzip, follows redirects (the
/// final `response.url` shows where Google sent us) and speaks TLS through the system's
/// certificates. The tests check each of those behaviours against a real local server.
///
/// libcurl-backed URLSession has no separate connect timeout: `timeouts.connect` becomes the
/// request's idle timeout (no byte for that long, connecting included). That timer counts whole
/// seconds (0.3 would become 0 and fire at once), so the value is rounded up to whole seconds.
/// The whole-request deadline is enforced here, to the millisecond, by cancelling the task.
struct HTTPTransport: Sendable {
    let timeouts: HTTPTimeouts
    let retry: RetryPolicy
    private let session: URLSession

    init(timeouts: HTTPTimeouts, retry: RetryPolicy) {
        self.timeouts = timeouts
        self.retry = retry
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = Self.idleTimeout(timeouts)
        // Our own deadline fires first; this is only a backstop.
        configuration.timeoutIntervalForResource = timeouts.request + 5
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        session = URLSession(configuration: configuration)
    }

    /// Sends `request`, retrying once after `retry.backoff` on a 5xx answer or a network
    /// failure, and once after a 429 whose `Retry-After` is at most `retry.longestRetryAfter`.
    /// Returns any HTTP answer (errors included) for the provider to interpret; throws
    /// `HeadlineError.network` or `.timedOut` when no answer came. `pace` runs before every
    /// exchange and waits for the provider's turn; a retry after a first attempt that never
    /// reached the provider (``neverReached(_:)``) goes in that attempt's turn, which it did not
    /// use. When the last attempt never reached it either, its turn goes to `unused`.
    func send<Turn: Sendable>(
        _ request: ProviderRequest, pace: @Sendable () async throws -> Turn, unused: @Sendable (Turn) async -> Void
    ) async throws -> HTTPResponse {
        var retried = false, paced = false
        var turn: Turn?
        while true {
            let outcome: Result<HTTPResponse, HeadlineError>
            if !paced { turn = try await pace() }
            do {
                outcome = .success(try await exchange(request))
            } catch let error as HeadlineError {
                outcome = .failure(error)
            }
            guard !retried, let pause = retryPause(after: outcome) else {
                if case .failure(let error) = outcome, Self.neverReached(error), let turn { await unused(turn) }
                return try outcome.get()
            }
            retried = true
            if case .failure(let error) = outcome { paced = Self.neverReached(error) }
            try await Task.sleep(nanoseconds: UInt64(pause * 1_000_000_000))
        }
    }

    /// ``send(_:pace:unused:)`` with turns that need no giving back.
    func send(_ request: ProviderRequest, pace: @Sendable () async throws -> Void = {}) async throws -> HTTPResponse {
        try await send(request, pace: pace, unused: { _ in })
    }

    private func retryPause(after outcome: Result<HTTPResponse, HeadlineError>) -> Double? {
        switch outcome {
        case .success(let response) where response.status >= 500:
            return retry.backoff
        case .success(let response) where response.status == 429:
            guard let wait = response.retryAfter(), wait <= retry.longestRetryAfter else { return nil }
            return wait
        case .success:
            return nil
        case .failure:
            return retry.backoff
        }
    }

    private func exchange(_ request: ProviderRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url, timeoutInterval: Self.idleTimeout(timeouts))
        urlRequest.setValue(
            "application/json, application/rss+xml, application/xml;q=0.9, */*;q=0.5",
            forHTTPHeaderField: "Accept")
        urlRequest.setValue(Self.userAgent, forHTTPHeaderField: "User-Agent")
        if let key = request.apiKey { urlRequest.setValue(key.secret, forHTTPHeaderField: "X-Api-Key") }

        let exchange = DataExchange()
        let deadline = timeouts.request
        let (data, response, error): (Data?, URLResponse?, (any Error)?) = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    continuation.resume(returning: (data, response, error))
                }
                exchange.start(task, deadline: deadline)
            }
        } onCancel: {
            exchange.cancel()
        }
        try Task.checkCancellation()
        if exchange.expired { throw HeadlineError.timedOut(request.provider, seconds: deadline) }
        if let error { throw Self.headlineError(error, provider: request.provider, idleTimeout: Self.idleTimeout(timeouts)) }
        guard let http = response as? HTTPURLResponse else {
            throw HeadlineError.network(request.provider, reason: "the answer was not HTTP")
        }
        var headers: [String: String] = [:]
        for case (let name as String, let value as String) in http.allHeaderFields { headers[name.lowercased()] = value }
        return HTTPResponse(
            status: http.statusCode, headers: headers, body: data ?? Data(),
            url: http.url ?? request.url)
    }

    /// Sent with every request, so providers can tell who is asking: `GeoNews/<version>`.
    static let userAgent = "GeoNews/\(GeoNewsRelease.version)"

    /// The reasons of a `HeadlineError.network` for a request that never reached the provider.
    static let refused = "connection refused", hostNotFound = "host name not found", offline = "no network connection"

    /// Whether `error` says the request never reached the provider: no request was sent, so
    /// none of its rate limit was used.
    static func neverReached(_ error: HeadlineError) -> Bool {
        guard case .network(_, let reason) = error else { return false }
        return reason == refused || reason == hostNotFound || reason == offline
    }

    /// `timeouts.connect` rounded up to whole seconds, at least 1.
    static func idleTimeout(_ timeouts: HTTPTimeouts) -> Double { max(1, timeouts.connect.rounded(.up)) }

    private static func headlineError(_ error: any Error, provider: NewsProvider, idleTimeout: Double) -> HeadlineError {
        guard let urlError = error as? URLError else {
            return .network(provider, reason: String(describing: type(of: error)))
        }
        switch urlError.code {
        case .timedOut: return .timedOut(provider, seconds: idleTimeout)
        case .cannotConnectToHost: return .network(provider, reason: refused)
        case .cannotFindHost, .dnsLookupFailed: return .network(provider, reason: hostNotFound)
        case .notConnectedToInternet: return .network(provider, reason: offline)
        case .networkConnectionLost: return .network(provider, reason: "connection lost mid-answer")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate:
            return .network(provider, reason: "TLS handshake failed")
        case .httpTooManyRedirects: return .network(provider, reason: "too many redirects")
        default: return .network(provider, reason: "URL error \(urlError.code.rawValue)")
        }
    }
}

/// One data task with a deadline, cancellable from any thread.
private final class DataExchange: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var cancelled = false
    private var didExpire = false

    var expired: Bool { lock.withLock { didExpire } }

    func start(_ task: URLSessionDataTask, deadline: Double) {
        let startNow = lock.withLock { () -> Bool in
            self.task = task
            return !cancelled
        }
        guard startNow else {
            task.cancel()
            return
        }
        task.resume()
        DispatchQueue.global().asyncAfter(deadline: .now() + deadline) { [weak self] in
            guard let self else { return }
            let running = lock.withLock { () -> URLSessionDataTask? in
                guard let task = self.task, task.state == .running else { return nil }
                didExpire = true
                return task
            }
            running?.cancel()
        }
    }

    func cancel() {
        let running = lock.withLock { () -> URLSessionDataTask? in
            cancelled = true
            return task
        }
        running?.cancel()
    }
}
