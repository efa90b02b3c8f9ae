import NIOConcurrencyHelpers

/// The policy of the answer cache (``AnswerCache``: encoded bodies by tag, and whole answers
/// by query through ``QueryAnswerMemo``): at most `maximumCount` values and
/// `maximumBytes` of them, a value larger than a sixteenth of the bytes never kept, and, when
/// a value would pass either bound, everything dropped and refilled with what is asked for
/// next. An entry never goes stale here: its key names everything it was made from.
final class BoundedAnswerStore<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let entries = NIOLockedValueBox<(values: [Key: (value: Value, bytes: Int)], bytes: Int)>(([:], 0))
    let maximumCount: Int
    let maximumBytes: Int

    init(maximumCount: Int, maximumBytes: Int) {
        self.maximumCount = maximumCount
        self.maximumBytes = maximumBytes
    }

    /// The value kept under `key`.
    func value(_ key: Key) -> Value? { entries.withLockedValue { $0.values[key]?.value } }

    /// Keeps `value`, which counts `bytes`, under `key`, when it is small enough.
    func store(_ value: Value, bytes: Int, for key: Key) {
        guard bytes <= maximumBytes / 16 else { return }
        entries.withLockedValue { store in
            if store.values.count >= maximumCount || store.bytes + bytes > maximumBytes { store = ([:], 0) }
            if let old = store.values.updateValue((value, bytes), forKey: key) { store.bytes -= old.bytes }
            store.bytes += bytes
        }
    }

    /// Values kept now.
    var count: Int { entries.withLockedValue { $0.values.count } }
}
