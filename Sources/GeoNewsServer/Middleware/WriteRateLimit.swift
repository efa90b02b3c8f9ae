import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Metrics
import NIOConcurrencyHelpers

/// Limits the writes each client address makes (POST, PUT, PATCH, DELETE under the paths of
/// users, favourites, settings and datasets) with a token bucket per address: `burst` at once,
/// then `rate` per second; and, as well, those of each bearer token, so that the users behind
/// one address (an office, a carrier's NAT) and one user behind many are limited alike. Past
/// either the answer is 429 problem JSON with `Retry-After`. The address is the client's as
/// ``ClientAddressMiddleware`` names it: behind a trusted proxy, the forwarded one. Each 429 is
/// counted in `/metrics` (`geonews_write_limited_total`, by address or user), beside the number
/// of buckets kept (`geonews_write_limit_buckets`).
///
/// At most `trackedAddresses` buckets are kept: a new address past that makes the fullest
/// tenth be forgotten (a bucket that has refilled is as good as new, and an address being
/// limited has the emptiest), so that memory stays bounded whatever the number of clients.
struct WriteRateLimit<Context: ClientAddressRequestContext>: RouterMiddleware {
    let buckets: WriteBuckets
    static var limitedMetric: String { "geonews.write_limited" }
    static var bucketsMetric: String { "geonews.write_limit.buckets" }
    private let limitedByAddress = Counter(label: Self.limitedMetric, dimensions: [("by", "address")])
    private let limitedByUser = Counter(label: Self.limitedMetric, dimensions: [("by", "user")])

    init(buckets: WriteBuckets) {
        self.buckets = buckets
    }

    static var limitedPaths: [String] { ["/v1/users", "/v1/favourites", "/v1/settings", "/v1/datasets"] }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard [.post, .put, .patch, .delete].contains(request.method),
            Self.limitedPaths.contains(where: { request.uri.path == $0 || request.uri.path.hasPrefix($0 + "/") })
        else {
            return try await next(request, context)
        }
        let address = context.client
        if let wait = buckets.take("address " + address) {
            limitedByAddress.increment()
            throw limited("this address (\(address))", wait)
        }
        if let token = Self.bearer(request.headers), let wait = buckets.take("token \(Self.digest(token))") {
            limitedByUser.increment()
            throw limited("this user", wait)
        }
        return try await next(request, context)
    }

    private func limited(_ who: String, _ wait: Int) -> Problem {
        Problem(
            .tooManyRequests, title: "Too many writes",
            detail: "\(who) made more than \(buckets.burst) writes at once or \(buckets.rate) per second; retry after \(wait) s",
            type: "https://geonews.invalid/problems/rate-limited", headers: [.retryAfter: "\(wait)"])
    }

    /// The bearer token of the request, if it sends one (not checked here: the routes do).
    static func bearer(_ headers: HTTPFields) -> Substring? {
        guard let value = headers[.authorization], value.utf8.count <= 512, value.hasPrefix("Bearer ") else { return nil }
        return value.dropFirst(7)
    }

    /// The token as a bucket's key: its digest, so that no token is held in the table.
    static func digest(_ token: Substring) -> String {
        SHA256.hash(data: Array(token.utf8)).prefix(12).map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }
}

/// The token buckets of ``WriteRateLimit``, shared by every connection: one per client
/// address (keys `address …`) and one per user (keys `token …`).
final class WriteBuckets: Sendable {
    /// Writes per second an address regains.
    let rate: Double
    /// Writes an address may make at once.
    let burst: Int
    let capacity: Int
    private let table = NIOLockedValueBox(Table())
    private let addressGauge = Gauge(label: WriteRateLimit<ClientRequestContext>.bucketsMetric, dimensions: [("kind", "address")])
    private let userGauge = Gauge(label: WriteRateLimit<ClientRequestContext>.bucketsMetric, dimensions: [("kind", "user")])

    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    private struct Table {
        var buckets: [String: Bucket] = [:]
        /// How many keys are users' (`token …`); the others are addresses'.
        var users = 0
    }

    init(rate: Double, burst: Int, trackedAddresses: Int) {
        self.rate = rate
        self.burst = burst
        capacity = max(1, trackedAddresses)
    }

    /// The number of buckets kept now.
    var count: Int { table.withLockedValue { $0.buckets.count } }

    /// Takes one write from `key`'s bucket: `nil` when allowed, else the whole seconds to
    /// wait before one is.
    func take(_ key: String, now: ContinuousClock.Instant = .now) -> Int? {
        let (wait, addresses, users) = table.withLockedValue { table -> (Int?, Int, Int) in
            var bucket: Bucket
            if let known = table.buckets[key] {
                bucket = known
                bucket.tokens = tokens(of: known, at: now)
            } else {
                if table.buckets.count >= capacity { makeRoom(&table, now: now) }
                bucket = Bucket(tokens: Double(burst), updated: now)
                if Self.isUser(key) { table.users += 1 }
            }
            bucket.updated = now
            let wait: Int?
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                wait = nil
            } else {
                wait = max(1, Int(((1 - bucket.tokens) / rate).rounded(.up).clamped(to: 1...86_400)))
            }
            table.buckets[key] = bucket
            return (wait, table.buckets.count - table.users, table.users)
        }
        addressGauge.record(addresses)
        userGauge.record(users)
        return wait
    }

    private static func isUser(_ key: String) -> Bool { key.hasPrefix("token ") }

    private func tokens(of bucket: Bucket, at now: ContinuousClock.Instant) -> Double {
        let elapsed = now - bucket.updated
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        return min(Double(burst), bucket.tokens + seconds * rate)
    }

    /// Forgets the fullest tenth of the buckets (those refilled first, the quietest
    /// addresses), so that the sort this takes is paid once per that many new addresses.
    private func makeRoom(_ table: inout Table, now: ContinuousClock.Instant) {
        let target = capacity - max(1, capacity / 10)
        let fullest = table.buckets.map { (key: $0.key, tokens: tokens(of: $0.value, at: now)) }.sorted { $0.tokens > $1.tokens }
        for entry in fullest.prefix(max(0, table.buckets.count - target)) {
            table.buckets[entry.key] = nil
            if Self.isUser(entry.key) { table.users -= 1 }
        }
    }
}

extension Double {
    fileprivate func clamped(to range: ClosedRange<Double>) -> Double { Swift.min(Swift.max(self, range.lowerBound), range.upperBound) }
}
