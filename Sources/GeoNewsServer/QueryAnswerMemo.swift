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
///
/// A view of the server's one ``AnswerCache``, whose entries it keeps under its route's name.
struct QueryAnswerMemo<Source: Hashable & Sendable>: Sendable {
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

    private let cache: AnswerCache
    private let route: String

    /// The answers of `route` in `cache`.
    init(route: String, in cache: AnswerCache) {
        self.cache = cache
        self.route = route
    }

    /// A memo with a cache of its own, of these bounds.
    init(maximumCount: Int = 1024, maximumBytes: Int = 16 << 20) {
        self.init(route: "", in: AnswerCache(maximumCount: maximumCount, maximumBytes: maximumBytes))
    }

    /// The answer kept for `key` when it was made from `source`; `.notModified` when
    /// `ifNoneMatch` names its tag.
    func answer(_ key: Key, source: Source, ifNoneMatch: String? = nil) -> Found? {
        guard case .answer(let answer, let tag, let made)? = cache.value(cacheKey(key)), made as? Source == source else { return nil }
        if let matched = EntityTag.matching(ifNoneMatch, tag: tag) { return .notModified(tag: matched) }
        return .answer(answer)
    }

    /// Keeps `answer`, whose plain tag is `tag`, made from `source`, for `key`, when it is a
    /// 200 small enough.
    func store(_ answer: PlainAnswer, tag: String, for key: Key, source: Source) {
        guard answer.status == .ok else { return }
        cache.store(
            .answer(answer, tag: tag, source: source), bytes: answer.body.readableBytes + key.query.utf8.count,
            for: cacheKey(key))
    }

    @inline(__always)
    private func cacheKey(_ key: Key) -> AnswerCache.Key { .query(route: route, query: key.query, gzip: key.gzip) }

    /// Entries kept now in the cache it views (of every route and kind).
    var count: Int { cache.count }
}
