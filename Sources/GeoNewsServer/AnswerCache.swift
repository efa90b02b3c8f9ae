import NIOCore

/// Encoded answers by their strong ETag, so that a repeated cluster or tile query is sent from
/// memory instead of being encoded again (most of its cost: a FeatureCollection at 15,000 km
/// is 6.8 KB of text built number by number). A tag names the dataset version and the query,
/// so an entry never goes stale; the bounds and what happens when full are
/// ``BoundedAnswerStore``'s.
final class AnswerCache: Sendable {
    private let store: BoundedAnswerStore<String, ByteBuffer>
    /// At most this many answers, and this many bytes of them; larger answers are not kept.
    var maximumCount: Int { store.maximumCount }
    var maximumBytes: Int { store.maximumBytes }

    init(maximumCount: Int = 4096, maximumBytes: Int = 32 << 20) {
        store = BoundedAnswerStore(maximumCount: maximumCount, maximumBytes: maximumBytes)
    }

    /// The answer stored under `tag`, else `encode()`'s, stored when it fits.
    func answer(_ tag: String, encode: () throws -> ByteBuffer) rethrows -> ByteBuffer {
        if let body = store.value(tag) { return body }
        let body = try encode()
        store.store(body, bytes: body.readableBytes, for: tag)
        return body
    }

    /// Answers kept now.
    var count: Int { store.count }
}
