/// Whole answers by the query string that asked for them, for a plain route whose answer to a
/// query stays the same while what it was made from (a dataset's version, the half hour of a
/// resolution) does: a map asks the same few queries again and again (its start view, a tile it
/// pans back to), and a repeated one then skips parsing the query, working out its tag, and
/// building the header fields, which cost as much as writing the answer out.
///
/// An entry records the source it was made from and the answer's plain tag, and a lookup names
/// the current source, so an entry from an older one is never used; a request whose
/// `If-None-Match` names the tag (or its gzip form) is told so, for the route's 304. When the
/// memo is full it is emptied and refills with what is asked for next (``BoundedAnswerStore``).
final class QueryAnswerMemo<Source: Equatable & Sendable>: Sendable {
    /// What one answer is kept by: the query string and whether the client accepts gzip
    /// (the body and headers differ).
    struct Key: Hashable, Sendable {
        let query: Substring
        let gzip: Bool
    }

    /// What a lookup found: the kept answer, or the tag that the request's `If-None-Match`
    /// named (the route sends its 304).
    enum Found {
        case answer(PlainAnswer)
        case notModified(tag: String)
    }

    private struct Entry: Sendable {
        let source: Source
        /// The plain answer's strong ETag, which a gzip form's tag is made from.
        let tag: String
        let answer: PlainAnswer
    }

    private let store: BoundedAnswerStore<Key, Entry>
    /// At most this many answers and this many bytes of bodies (``BoundedAnswerStore``); keys
    /// are bounded by the request line's limit.
    var maximumCount: Int { store.maximumCount }
    var maximumBytes: Int { store.maximumBytes }

    init(maximumCount: Int = 1024, maximumBytes: Int = 16 << 20) {
        store = BoundedAnswerStore(maximumCount: maximumCount, maximumBytes: maximumBytes)
    }

    /// The answer kept for `key` when it was made from `source`; `.notModified` when
    /// `ifNoneMatch` names its tag.
    func answer(_ key: Key, source: Source, ifNoneMatch: String? = nil) -> Found? {
        guard let entry = store.value(key), entry.source == source else { return nil }
        if let matched = EntityTag.matching(ifNoneMatch, tag: entry.tag) { return .notModified(tag: matched) }
        return .answer(entry.answer)
    }

    /// Keeps `answer`, whose plain tag is `tag`, made from `source`, for `key`, when it is a
    /// 200 small enough.
    func store(_ answer: PlainAnswer, tag: String, for key: Key, source: Source) {
        guard answer.status == .ok else { return }
        store.store(Entry(source: source, tag: tag, answer: answer), bytes: answer.body.readableBytes + key.query.utf8.count, for: key)
    }

    /// Answers kept now.
    var count: Int { store.count }
}
