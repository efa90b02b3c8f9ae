import NIOConcurrencyHelpers

/// Whole answers by the query string that asked for them, for a plain route whose answer to a
/// query stays the same while what it was made from (a dataset's version) does: a map asks
/// the same few queries again and again (its start view, a tile it pans back to), and a
/// repeated one then skips parsing the query, working out its tag, and building the header
/// fields, which cost as much as writing the answer out.
///
/// An entry records the source it was made from, and a lookup names the current one, so an
/// entry from an older source is never used. Answers to a request with `If-None-Match` are
/// neither kept nor looked up (they may be 304s). When the memo is full it is emptied and
/// refills with what is asked for next.
final class QueryAnswerMemo<Source: Equatable & Sendable>: Sendable {
    /// What one answer is kept by: the query string and whether the client accepts gzip
    /// (the body and headers differ).
    struct Key: Hashable, Sendable {
        let query: Substring
        let gzip: Bool
    }

    private let entries = NIOLockedValueBox<(answers: [Key: (source: Source, answer: PlainAnswer)], bytes: Int)>(([:], 0))
    /// At most this many answers and this many bytes of bodies; one larger than a sixteenth of
    /// the bytes is not kept. Keys are bounded by the request line's limit.
    let maximumCount: Int
    let maximumBytes: Int

    init(maximumCount: Int = 1024, maximumBytes: Int = 16 << 20) {
        self.maximumCount = maximumCount
        self.maximumBytes = maximumBytes
    }

    /// The answer kept for `key` when it was made from `source`.
    func answer(_ key: Key, source: Source) -> PlainAnswer? {
        entries.withLockedValue { memo in
            guard let entry = memo.answers[key], entry.source == source else { return nil }
            return entry.answer
        }
    }

    /// Keeps `answer`, made from `source`, for `key`, when it is a 200 small enough.
    func store(_ answer: PlainAnswer, for key: Key, source: Source) {
        let bytes = answer.body.readableBytes + key.query.utf8.count
        guard answer.status == .ok, bytes <= maximumBytes / 16 else { return }
        entries.withLockedValue { memo in
            if memo.answers.count >= maximumCount || memo.bytes + bytes > maximumBytes { memo = ([:], 0) }
            if let old = memo.answers.updateValue((source, answer), forKey: key) {
                memo.bytes -= old.answer.body.readableBytes + key.query.utf8.count
            }
            memo.bytes += bytes
        }
    }

    /// Answers kept now.
    var count: Int { entries.withLockedValue { $0.answers.count } }
}
