import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// Encoded answers by their strong ETag, so that a repeated cluster or tile query is sent from
/// memory instead of being encoded again (most of its cost: a FeatureCollection at 15,000 km
/// is 6.8 KB of text built number by number). A tag names the dataset version and the query,
/// so an entry never goes stale; when the cache is full it is emptied and refills with what is
/// asked for next.
final class AnswerCache: Sendable {
    private let entries = NIOLockedValueBox<(bodies: [String: ByteBuffer], bytes: Int)>(([:], 0))
    /// At most this many answers, and this many bytes of them; larger answers are not kept.
    let maximumCount: Int
    let maximumBytes: Int

    init(maximumCount: Int = 4096, maximumBytes: Int = 32 << 20) {
        self.maximumCount = maximumCount
        self.maximumBytes = maximumBytes
    }

    /// The answer stored under `tag`, else `encode()`'s, stored when it fits.
    func answer(_ tag: String, encode: () throws -> ByteBuffer) rethrows -> ByteBuffer {
        if let body = entries.withLockedValue({ $0.bodies[tag] }) { return body }
        let body = try encode()
        guard body.readableBytes <= maximumBytes / 16 else { return body }
        entries.withLockedValue { cache in
            if cache.bodies.count >= maximumCount || cache.bytes + body.readableBytes > maximumBytes { cache = ([:], 0) }
            if cache.bodies.updateValue(body, forKey: tag) == nil { cache.bytes += body.readableBytes }
        }
        return body
    }

    /// Answers kept now.
    var count: Int { entries.withLockedValue { $0.bodies.count } }
}

/// The `GET /v1/resolve` answers of the current half hour by query string, so that a position
/// asked again (a map's centre, a city) is not resolved and written out again.
///
/// A resolution's bytes depend on the position, the name language and the hour (through the
/// UTC offset, which changes only on a whole or half hour: see
/// `ResolutionReport.secondsValid(after:)`), so an entry holds for the half hour it was made
/// in, and the whole cache is emptied when the next one begins, or when it is full.
final class ResolveAnswerCache: Sendable {
    /// What an answer is kept by: the query string as sent, and whether gzip is accepted.
    typealias Key = QueryAnswerMemo<Int64>.Key

    /// An answer's body, its strong ETag, and the 200 made of them for a request without
    /// `If-None-Match` (its `Cache-Control` is set per request).
    struct Entry: Sendable {
        let body: ByteBuffer
        let tag: String
        let answer: PlainAnswer
    }

    private let entries = NIOLockedValueBox<(halfHour: Int64, answers: [Key: Entry])>((-1, [:]))
    /// At most this many answers (of about 400 bytes each).
    let maximumCount: Int

    init(maximumCount: Int = 4096) {
        self.maximumCount = maximumCount
    }

    /// The half hour since 1970 that `date` falls in.
    static func halfHour(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down)).quotientAndRemainder(dividingBy: 1800).quotient
    }

    /// `Cache-Control` for an answer valid `secondsValid` more seconds (1…1800), written once
    /// at first use rather than per request.
    static func cacheControl(secondsValid: Int) -> String {
        cacheControls[min(max(secondsValid, 0), cacheControls.count - 1)]
    }

    private static let cacheControls = (0...1800).map { "public, max-age=\($0)" }

    /// The answer kept for `key` in `halfHour`, if any.
    func entry(_ key: Key, halfHour: Int64) -> Entry? {
        entries.withLockedValue { $0.halfHour == halfHour ? $0.answers[key] : nil }
    }

    /// Keeps `entry` for `key` in `halfHour`.
    func store(_ entry: Entry, for key: Key, halfHour: Int64) {
        entries.withLockedValue { cache in
            if cache.halfHour != halfHour || cache.answers.count >= maximumCount { cache = (halfHour, [:]) }
            cache.answers[key] = entry
        }
    }
}
