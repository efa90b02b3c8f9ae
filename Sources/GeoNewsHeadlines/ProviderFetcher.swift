import Foundation

/// Where an answer came from.
public enum Freshness: Sendable, Equatable {
    /// Fetched just now.
    case network
    /// A cache entry younger than the TTL; age in seconds.
    case cached(age: Double)
    /// An entry older than the TTL, served because the provider could not be reached.
    /// `reason` is that failure's one-line message.
    case stale(age: Double, reason: String)

    /// The warning to show with a stale answer, e.g. "Google News could not be reached:
    /// connection refused; showing headlines cached 42 min ago".
    public var warning: String? {
        guard case .stale(let age, let reason) = self else { return nil }
        return "\(reason); showing headlines cached \(Self.describe(age: age)) ago"
    }

    static func describe(age seconds: Double) -> String {
        let minutes = Int(seconds / 60)
        switch minutes {
        case ..<1: return "\(Int(seconds)) s"
        case ..<60: return "\(minutes) min"
        case ..<(48 * 60): return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
        default: return "\(minutes / 1440) days"
        }
    }
}

/// A provider's decoded answer and where it came from.
struct Fetched<Value: Sendable>: Sendable {
    var value: Value
    var freshness: Freshness
}

/// Sends provider requests politely and through the cache.
///
/// - A fresh cache entry answers without the network.
/// - Identical requests on their way at once share one upstream fetch (`RequestFlights`).
/// - Each provider's requests are spaced by its `RateLimit` (`RequestPacer`); a caller that
///   would have to wait for its turn while an older cache entry exists is served that entry,
///   marked stale, instead.
/// - A successful answer is stored; when the provider cannot answer (no answer, a timeout,
///   5xx, 429 or a rate-limit notice) an entry up to `staleLimit` old is served, marked stale.
/// - A provider that the latest request could not reach at all (`UnreachableProviders`) is
///   not tried again for the request timeout: its error, or a stale entry, comes at once.
struct ProviderFetcher: Sendable {
    let transport: HTTPTransport
    /// `nil` when caching is off (`--no-cache`): nothing is read or written.
    let cache: ResponseCache?
    let pacer: RequestPacer
    let flights: RequestFlights
    let unreachable: UnreachableProviders

    init(transport: HTTPTransport, cache: ResponseCache?, rateLimits: [NewsProvider: RateLimit] = [:]) {
        self.transport = transport
        self.cache = cache
        pacer = RequestPacer(
            limits: rateLimits, ledger: cache.map { PaceLedger(directory: $0.directory) },
            patience: transport.timeouts.request)
        flights = RequestFlights()
        unreachable = UnreachableProviders(seconds: transport.timeouts.request)
    }

    /// Fetches `request` and turns the answer into a value with `interpret`, which sees every
    /// HTTP answer (errors included) and throws `HeadlineError` for those it rejects. Only
    /// answers that are 2xx *and* interpreted without error are cached. With `waits` false, a
    /// request whose provider is not free now (its rate limit) is not queued: it fails with
    /// `HeadlineError.paced` (or is served from a stale cache entry) so that the caller moves on.
    func fetch<Value: Sendable>(
        _ request: ProviderRequest, waits: Bool = true, interpret: (HTTPResponse) throws -> Value
    ) async throws -> Fetched<Value> {
        let identity = request.cacheIdentity
        let entry = cache?.entry(for: identity)
        if let cache, let entry, entry.age() < cache.timeToLive,
            let value = try? interpret(HTTPResponse(status: 200, headers: [:], body: entry.body, url: entry.url))
        {
            return Fetched(value: value, freshness: .cached(age: entry.age()))
        }
        let provider = request.provider
        if let failure = await unreachable.error(for: provider) { return try stale(entry, instead: failure, interpret: interpret) }
        let wait = await pacer.wait(for: provider)
        if wait > 0, entry != nil, await !flights.isRunning(identity) {
            let busy = HeadlineError.paced(provider, seconds: wait)
            if let stale = try? stale(entry, instead: busy, interpret: interpret) { return stale }
        }
        if wait > 0, !waits { return try stale(entry, instead: HeadlineError.paced(provider, seconds: wait), interpret: interpret) }
        do {
            let response = try await flights.response(for: identity) { [transport, pacer, unreachable] in
                do {
                    let response = try await transport.send(
                        request, pace: { try await pacer.turn(provider) },
                        unused: { ticket in if let ticket { await pacer.release(ticket) } })
                    await unreachable.record(.success(()), for: provider)
                    return response
                } catch let error as HeadlineError {
                    await unreachable.record(.failure(error), for: provider)
                    throw error
                }
            }
            do {
                let value = try interpret(response)
                if response.isSuccess { cache?.store(response.body, url: response.url, for: identity) }
                return Fetched(value: value, freshness: .network)
            } catch let error as HeadlineError where error.isTransient || response.status >= 500 {
                if case .rateLimited(_, let retryAfter, _) = error { await pacer.backOff(provider, seconds: retryAfter) }
                return try stale(entry, instead: error, interpret: interpret)
            }
        } catch let error as HeadlineError where error.isTransient {
            return try stale(entry, instead: error, interpret: interpret)
        }
    }

    private func stale<Value: Sendable>(
        _ entry: ResponseCache.Entry?, instead error: HeadlineError, interpret: (HTTPResponse) throws -> Value
    ) throws -> Fetched<Value> {
        guard let cache, let entry, entry.age() <= cache.staleLimit,
            let value = try? interpret(HTTPResponse(status: 200, headers: [:], body: entry.body, url: entry.url))
        else { throw error }
        return Fetched(value: value, freshness: .stale(age: entry.age(), reason: error.message))
    }
}
