import NIOCore

/// The server's one answer cache, under one bound (``BoundedAnswerStore``'s policy: at most
/// ``maximumCount`` answers and ``maximumBytes`` of them, emptied when full). It keeps two
/// kinds of entry side by side:
/// - encoded bodies by their strong ETag, so that a repeated cluster or tile query is sent
///   from memory instead of being encoded again (most of its cost: a FeatureCollection at
///   15,000 km is 6.8 KB of text built number by number). A tag names the dataset version and
///   the query, so such an entry never goes stale;
/// - whole answers by route and query string (``QueryAnswerMemo``, a view of this cache), each
///   with the source it was made from, which a lookup names.
final class AnswerCache: Sendable {
    /// What an entry is kept by.
    enum Key: Hashable, Sendable {
        /// An encoded body, by its strong ETag (the gzip form's own tag for that form).
        case tag(String)
        /// A route's whole answer, by its query string and whether the client accepts gzip
        /// (the body and headers differ).
        case query(route: String, query: Substring, gzip: Bool)
    }

    /// What an entry holds.
    enum Value: Sendable {
        case body(ByteBuffer)
        /// A whole answer, its plain tag (which a gzip form's tag is made from) and the source
        /// it was made from (a dataset's version, a resolution's half hour).
        case answer(PlainAnswer, tag: String, source: any Hashable & Sendable)
    }

    private let store: BoundedAnswerStore<Key, Value>
    /// At most this many answers, and this many bytes of them; larger answers are not kept.
    var maximumCount: Int { store.maximumCount }
    var maximumBytes: Int { store.maximumBytes }

    init(maximumCount: Int = 8192, maximumBytes: Int = 64 << 20) {
        store = BoundedAnswerStore(maximumCount: maximumCount, maximumBytes: maximumBytes)
    }

    /// The body stored under `tag`, else `encode()`'s, stored when it fits.
    func answer(_ tag: String, encode: () throws -> ByteBuffer) rethrows -> ByteBuffer {
        if case .body(let body)? = store.value(.tag(tag)) { return body }
        let body = try encode()
        store.store(.body(body), bytes: body.readableBytes, for: .tag(tag))
        return body
    }

    /// The entry kept under `key`.
    func value(_ key: Key) -> Value? { store.value(key) }

    /// Keeps `value`, which counts `bytes`, under `key`, when it fits.
    func store(_ value: Value, bytes: Int, for key: Key) { store.store(value, bytes: bytes, for: key) }

    /// Entries kept now, of both kinds.
    var count: Int { store.count }
}
