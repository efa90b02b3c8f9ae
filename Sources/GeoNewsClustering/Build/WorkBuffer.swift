/// Fixed-size storage for the build's working arrays of plain values (level items, per-item
/// states, neighbour lists), and the one place in the build that allocates and addresses raw
/// memory, after the storage of swift-nio's `ByteBuffer`.
///
/// Elements are claimed without being written: pages the build never reaches cost nothing,
/// which matters for the buffers sized for a whole level of a million points. Reading an
/// element before writing it is the caller's error, as with any scratch memory.
///
/// A class, so that a build step can read and write several buffers through their ``view``s
/// while it appends to others, without borrowing them out of the builder.
final class WorkBuffer<Element: BitwiseCopyable> {
    private let base: UnsafeMutablePointer<Element>
    /// Number of elements, fixed at creation.
    let count: Int

    /// Room for `count` elements, none of them written.
    init(uninitializedCount count: Int) {
        precondition(count >= 0, "negative buffer size")
        self.count = count
        base = .allocate(capacity: Swift.max(count, 1))
    }

    /// `count` elements, each `value`.
    convenience init(repeating value: Element, count: Int) {
        self.init(uninitializedCount: count)
        base.initialize(repeating: value, count: count)
    }

    deinit {
        base.deallocate()
    }

    /// The elements through a pointer that checks its bounds in debug builds. The view is
    /// valid while the buffer is held: by the builder, or by a value or local that outlives
    /// every use of the view. (A view that kept the buffer alive itself would cost a reference
    /// count at each capture in the inner loops.)
    @inline(__always)
    var view: WorkView<Element> { WorkView(base: base, count: count) }

    /// Sets `count` elements from 0 to `value`.
    func fill(_ value: Element, count: Int) {
        assert(count <= self.count, "fill past the end")
        base.update(repeating: value, count: count)
    }

    /// Copies `count` elements from `source`, starting at 0 in both.
    func copy(from source: WorkBuffer<Element>, count: Int) {
        assert(count <= self.count && count <= source.count, "copy past the end")
        base.update(from: source.base, count: count)
    }

    /// Moves `count` elements from `from` to `to` within the buffer; the ranges may overlap.
    @inline(__always)
    func move(from: Int, to: Int, count: Int) {
        assert(
            from >= 0 && to >= 0 && count >= 0 && from + count <= self.count && to + count <= self.count,
            "move of \(count) from \(from) to \(to) past the end of \(self.count)")
        guard count > 0 else { return }
        UnsafeMutableRawPointer(base + to).copyMemory(from: base + from, byteCount: count * MemoryLayout<Element>.stride)
    }

    /// The first `count` elements, transformed in order (with their positions) into an array
    /// with room for `capacity`.
    @inline(__always)
    func mapPrefix<T>(_ count: Int, capacity: Int = 0, _ transform: (Int, Element) -> T) -> ContiguousArray<T> {
        assert(count <= self.count, "map past the end")
        return ContiguousArray(unsafeUninitializedCapacity: Swift.max(count, capacity)) { out, initialized in
            for i in 0..<count { out.initializeElement(at: i, to: transform(i, base[i])) }
            initialized = count
        }
    }
}

/// Elements of a ``WorkBuffer`` addressed by position, with their bounds asserted in debug
/// builds and unchecked in release ones, where the build's inner loops run.
struct WorkView<Element: BitwiseCopyable> {
    fileprivate let base: UnsafeMutablePointer<Element>
    let count: Int

    @inline(__always)
    subscript(_ i: Int) -> Element {
        get {
            assert(i >= 0 && i < count, "position \(i) outside 0..<\(count)")
            return base[i]
        }
        nonmutating set {
            assert(i >= 0 && i < count, "position \(i) outside 0..<\(count)")
            base[i] = newValue
        }
    }
}
