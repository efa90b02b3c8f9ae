import Foundation

/// At most `requests` requests to a provider in any `intervalSeconds` window.
///
/// GDELT asks for one request per 5 seconds per client: `RateLimit(requests: 1, intervalSeconds: 5)`.
public struct RateLimit: Sendable, Equatable, Codable {
    /// Requests allowed per window, at least 1.
    public var requests: Int
    /// The window, in seconds (> 0).
    public var intervalSeconds: Double

    public init(requests: Int, intervalSeconds: Double) {
        self.requests = requests
        self.intervalSeconds = intervalSeconds
    }

    /// GDELT DOC 2.0's published limit.
    public static let gdelt = RateLimit(requests: 1, intervalSeconds: 5)
}

/// Spaces the requests of one `HeadlineService` to each provider by its `RateLimit`.
///
/// Callers reserve send times in arrival order, so concurrent callers queue up rather than all
/// firing at once, up to a bounded wait; a 429 pushes the provider's next slot back. Times are monotonic seconds
/// (they do not jump with the wall clock). Slots are spaced by the interval plus 5 % (a quarter
/// second for GDELT), so that a slower connection set-up for one request cannot bring two
/// requests closer than the limit on the provider's own clock.
actor RequestPacer {
    private let limits: [NewsProvider: RateLimit]
    /// The latest reserved send times per provider, at most `requests` of them, ascending.
    private var reserved: [NewsProvider: [Double]] = [:]
    private var pausedUntil: [NewsProvider: Double] = [:]
    /// Shares reservations with other processes; `nil` without a cache folder.
    private let ledger: PaceLedger?
    /// Seconds a caller may wait for its turn however short the interval (the request timeout).
    private let patience: Double

    init(limits: [NewsProvider: RateLimit], ledger: PaceLedger? = nil, patience: Double = 10) {
        self.limits = limits
        self.ledger = ledger
        self.patience = patience
    }

    /// Spacing factor over the interval.
    static let margin = 1.05

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// Seconds until `provider` could be sent a request, without reserving it (0 when free now).
    func wait(for provider: NewsProvider) -> Double {
        max(0, nextSlot(provider, now: Self.now()) - Self.now())
    }

    /// A send time ``turn(_:)`` reserved, for ``release(_:)`` when the request sent in it never
    /// reached the provider.
    struct Ticket: Sendable {
        let provider: NewsProvider
        /// The slot on this process's monotonic clock.
        let slot: Double
        /// The slot as the shared ledger holds it (Unix seconds), when there is one.
        let shared: Double?
    }

    /// Reserves the next send time for `provider` (here and in the ledger other processes share)
    /// and sleeps until it comes. Throws `HeadlineError.paced` without reserving when that time
    /// is further away than `longestWait(provider)`: the caller is then served from the cache or
    /// by the next provider rather than kept waiting. Returns the reservation (`nil` for a
    /// provider without a limit).
    @discardableResult
    func turn(_ provider: NewsProvider) async throws -> Ticket? {
        let now = Self.now()
        var slot = nextSlot(provider, now: now)
        let latest = now + longestWait(provider)
        guard slot <= latest else { throw HeadlineError.paced(provider, seconds: slot - now) }
        guard let limit = limits[provider] else {
            if slot > now { try await Task.sleep(nanoseconds: UInt64((slot - now) * 1e9)) }
            return nil
        }
        var shared: Double?
        if let ledger {
            let wallNow = Date().timeIntervalSince1970
            guard
                let taken = ledger.reserve(
                    provider, limit: limit, earliest: wallNow + (slot - now),
                    latest: wallNow + (latest - now), margin: Self.margin)
            else {
                throw HeadlineError.paced(provider, seconds: longestWait(provider))
            }
            shared = taken
            slot = now + taken - wallNow
        }
        reserved[provider] = Array((reserved[provider, default: []] + [slot]).suffix(limit.requests))
        if slot > now { try await Task.sleep(nanoseconds: UInt64((slot - now) * 1e9)) }
        return Ticket(provider: provider, slot: slot, shared: shared)
    }

    /// Gives back a send time whose request never reached the provider (the connection refused,
    /// its host not found, no network): none of the provider's limit was used, so the next
    /// request, here or in another process, need not wait for it. Offline, one
    /// `geonews --lat --lon` after another would otherwise wait five seconds for GDELT's turn.
    func release(_ ticket: Ticket) {
        if var times = reserved[ticket.provider], let at = times.lastIndex(of: ticket.slot) {
            times.remove(at: at)
            reserved[ticket.provider] = times
        }
        if let shared = ticket.shared { ledger?.release(ticket.provider, slot: shared) }
    }

    /// The longest a caller waits for its turn: three intervals, and at least `patience`.
    func longestWait(_ provider: NewsProvider) -> Double {
        max(patience, 3 * (limits[provider]?.intervalSeconds ?? 0))
    }

    /// After a 429: no request to `provider` for `seconds` (at least one window).
    func backOff(_ provider: NewsProvider, seconds: Double?) {
        let window = limits[provider]?.intervalSeconds ?? 0
        let until = Self.now() + max(window, seconds ?? window)
        pausedUntil[provider] = max(pausedUntil[provider] ?? 0, until)
    }

    private func nextSlot(_ provider: NewsProvider, now: Double) -> Double {
        var slot = max(now, pausedUntil[provider] ?? 0)
        if let limit = limits[provider] {
            let times = reserved[provider, default: []]
            if times.count >= limit.requests {
                slot = max(slot, times[times.count - limit.requests] + limit.intervalSeconds * Self.margin)
            }
        }
        return slot
    }
}
