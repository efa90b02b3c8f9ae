import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers

/// Limits the writes each client address makes (POST, PUT, PATCH, DELETE under the paths of
/// users, favourites, settings and datasets) with a token bucket per address: `burst` at once,
/// then `rate` per second; and, as well, those of each bearer token, so that the users behind
/// one address (an office, a carrier's NAT) and one user behind many are limited alike. Past
/// either the answer is 429 problem JSON with `Retry-After`. The address is the client's as
/// ``TrustedProxies`` names it: behind a trusted proxy, the forwarded one.
///
/// At most `trackedAddresses` buckets are kept: a new address past that makes the fullest
/// tenth be forgotten (a bucket that has refilled is as good as new, and an address being
/// limited has the emptiest), so that memory stays bounded whatever the number of clients.
struct WriteRateLimit<Context: RemoteAddressRequestContext>: RouterMiddleware {
    let proxies: TrustedProxies
    let buckets: WriteBuckets

    static var limitedPaths: [String] { ["/v1/users", "/v1/favourites", "/v1/settings", "/v1/datasets"] }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard [.post, .put, .patch, .delete].contains(request.method),
            Self.limitedPaths.contains(where: { request.uri.path == $0 || request.uri.path.hasPrefix($0 + "/") })
        else {
            return try await next(request, context)
        }
        let peer = context.remoteAddress?.ipAddress ?? "unknown"
        let address = proxies.client(
            peer: peer, forwarded: Self.joined(request.headers, forwardedName),
            forwardedFor: Self.joined(request.headers, xForwardedForName))
        if let wait = buckets.take("address " + address) {
            throw limited("this address", wait)
        }
        if let token = Self.bearer(request.headers), let wait = buckets.take("token \(Self.digest(token))") {
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

    /// A field's values joined as HTTP joins repeated fields; `nil` when absent or past 4 KB.
    static func joined(_ headers: HTTPFields, _ name: HTTPField.Name) -> String? {
        let values = headers[values: name]
        guard !values.isEmpty else { return nil }
        let text = values.joined(separator: ",")
        return text.utf8.count <= 4_096 ? text : nil
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

/// `Forwarded` (RFC 7239) and `X-Forwarded-For`, read from a trusted proxy's requests.
private let forwardedName = HTTPField.Name("Forwarded")!
private let xForwardedForName = HTTPField.Name("X-Forwarded-For")!

/// The token buckets of ``WriteRateLimit``, shared by every connection.
final class WriteBuckets: Sendable {
    /// Writes per second an address regains.
    let rate: Double
    /// Writes an address may make at once.
    let burst: Int
    let capacity: Int
    private let table = NIOLockedValueBox([String: Bucket]())

    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    init(rate: Double, burst: Int, trackedAddresses: Int) {
        self.rate = rate
        self.burst = burst
        capacity = max(1, trackedAddresses)
    }

    /// The number of addresses tracked now.
    var count: Int { table.withLockedValue { $0.count } }

    /// Takes one write from `address`'s bucket: `nil` when allowed, else the whole seconds to
    /// wait before one is.
    func take(_ address: String, now: ContinuousClock.Instant = .now) -> Int? {
        table.withLockedValue { table in
            var bucket: Bucket
            if let known = table[address] {
                bucket = known
                bucket.tokens = tokens(of: known, at: now)
            } else {
                if table.count >= capacity { makeRoom(&table, now: now) }
                bucket = Bucket(tokens: Double(burst), updated: now)
            }
            bucket.updated = now
            guard bucket.tokens >= 1 else {
                table[address] = bucket
                return max(1, Int(((1 - bucket.tokens) / rate).rounded(.up).clamped(to: 1...86_400)))
            }
            bucket.tokens -= 1
            table[address] = bucket
            return nil
        }
    }

    private func tokens(of bucket: Bucket, at now: ContinuousClock.Instant) -> Double {
        let elapsed = now - bucket.updated
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        return min(Double(burst), bucket.tokens + seconds * rate)
    }

    /// Forgets the fullest tenth of the buckets (those refilled first, the quietest
    /// addresses), so that the sort this takes is paid once per that many new addresses.
    private func makeRoom(_ table: inout [String: Bucket], now: ContinuousClock.Instant) {
        let target = capacity - max(1, capacity / 10)
        let fullest = table.map { (key: $0.key, tokens: tokens(of: $0.value, at: now)) }.sorted { $0.tokens > $1.tokens }
        for entry in fullest.prefix(max(0, table.count - target)) { table[entry.key] = nil }
    }
}

extension Double {
    fileprivate func clamped(to range: ClosedRange<Double>) -> Double { Swift.min(Swift.max(self, range.lowerBound), range.upperBound) }
}
