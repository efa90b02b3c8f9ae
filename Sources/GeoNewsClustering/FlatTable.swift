/// One of a ``ClusterIndex``'s flat tables: the index's own array when it was built in this
/// process, or a view of bytes mapped from a cluster archive (see ``ClusterArchive``), which
/// it keeps mapped for as long as it lives. Reading costs the same either way; nothing is
/// copied to the heap when a table views mapped bytes.
///
/// The tables are never written after an index is made; the mutating members exist so that
/// the invariant tests can damage a copy (a view is copied to the heap first).
public struct FlatTable<Element> {
    enum Storage {
        case array(ContiguousArray<Element>)
        /// Elements in memory that `owner` keeps alive (a mapped file).
        case view(UnsafeBufferPointer<Element>, owner: AnyObject)
    }

    var storage: Storage

    init(_ array: ContiguousArray<Element>) { storage = .array(array) }

    init(viewing buffer: UnsafeBufferPointer<Element>, owner: AnyObject) {
        storage = .view(buffer, owner: owner)
    }

    /// Calls `body` with the elements in contiguous memory.
    @inline(__always)
    public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        switch storage {
        case .array(let array): return try array.withUnsafeBufferPointer(body)
        case .view(let buffer, _): return try body(buffer)
        }
    }

    /// Makes the table an array of its own, so that `body` may change it.
    mutating func withArray<R>(_ body: (inout ContiguousArray<Element>) -> R) -> R {
        var array: ContiguousArray<Element>
        switch storage {
        case .array(let a): array = a
        case .view(let buffer, _): array = ContiguousArray(buffer)
        }
        storage = .array([])  // so that `array` is the only reference and changes in place
        defer { storage = .array(array) }
        return body(&array)
    }
}

extension FlatTable: RandomAccessCollection, MutableCollection {
    public var startIndex: Int { 0 }

    public var endIndex: Int {
        switch storage {
        case .array(let array): return array.count
        case .view(let buffer, _): return buffer.count
        }
    }

    public subscript(position: Int) -> Element {
        @inline(__always) get {
            switch storage {
            case .array(let array): return array[position]
            case .view(let buffer, _):
                precondition(position >= 0 && position < buffer.count, "index out of range")
                return buffer[position]
            }
        }
        set { withArray { $0[position] = newValue } }
    }
}

extension FlatTable: RangeReplaceableCollection {
    public init() { storage = .array([]) }

    public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C)
    where C.Element == Element {
        withArray { $0.replaceSubrange(subrange, with: newElements) }
    }
}

// A view's memory is read-only and outlives the table (its owner is kept), so sharing it
// across threads is as safe as sharing an array.
extension FlatTable: @unchecked Sendable where Element: Sendable {}
