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
