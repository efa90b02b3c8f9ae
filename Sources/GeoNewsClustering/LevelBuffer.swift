/// One item of a level during the build: its cell key, position, node and point count, in
/// one 32-byte record so that a run of neighbours is a run of memory.
struct LevelItem {
    var key: UInt64
    var x: Double
    var y: Double
    var node: UInt32
    var count: UInt32
}

/// One level's items during the build, in cell-key order.
///
/// The storage is allocated once at the input size (no level has more items than the input)
/// and reused for every level; `count` says how many items are live. Memory is claimed
/// without being written, so pages the build never reaches cost nothing.
struct LevelBuffer {
    var items: ContiguousArray<LevelItem>
    var count = 0

    init(capacity: Int) {
        items = ContiguousArray(unsafeUninitializedCapacity: capacity) { _, initialized in initialized = capacity }
    }

    /// Drops the items whose `state` is `consumed` and re-keys the rest for `grid`, which is
    /// `self`'s grid (`sourceGrid`) or the one with cells twice as wide, in place.
    ///
    /// A row-major order on the finer grid becomes the order on the coarser one by merging
    /// each pair of fine rows (2j, 2j + 1) on their halved columns: linear, no sort. The even
    /// row is copied aside into `rowScratch` first; the merge then writes at or before every
    /// position it has yet to read.
    mutating func coarsen(
        from sourceGrid: CellGrid, to grid: CellGrid, state: ContiguousArray<UInt8>, consumed: UInt8,
        rowScratch: inout ContiguousArray<LevelItem>
    ) {
        let shift = sourceGrid.exponent - grid.exponent
        precondition(shift == 0 || shift == 1, "grids must be equal or one step apart")
        let n = count
        var out = 0
        if shift == 0 {
            // Few items are consumed on a level that keeps its grid: move the runs between
            // them as blocks.
            items.withUnsafeMutableBufferPointer { items in
            state.withUnsafeBufferPointer { st in
                let base = items.baseAddress!
                var t = 0
                while t < n {
                    var end = t
                    while end < n && st[end] != consumed { end += 1 }
                    if out != t && end > t {
                        UnsafeMutableRawPointer(base + out).copyMemory(
                            from: base + t, byteCount: (end - t) * MemoryLayout<LevelItem>.stride)
                    }
                    out += end - t
                    t = end + 1
                }
            }}
            count = out
            return
        }
        let sourceShift = UInt64(sourceGrid.exponent), sourceMask = UInt64(sourceGrid.lastCell)
        let targetShift = UInt64(grid.exponent)
        var i = 0
        while i < n {
            // Fine rows 2j and 2j + 1 make coarse row j: two sorted runs to merge.
            let coarseRow = items[i].key >> (sourceShift + 1)
            let evenRow = coarseRow << 1
            var aEnd = i
            while aEnd < n && items[aEnd].key >> sourceShift == evenRow { aEnd += 1 }
            var bEnd = aEnd
            while bEnd < n && items[bEnd].key >> sourceShift == evenRow + 1 { bEnd += 1 }
            let evenCount = aEnd - i
            if rowScratch.count < evenCount {
                rowScratch = ContiguousArray(unsafeUninitializedCapacity: Swift.max(evenCount, 2 * rowScratch.count)) { _, c in
                    c = Swift.max(evenCount, 2 * rowScratch.count)
                }
            }
            let rowBase = coarseRow << targetShift
            items.withUnsafeMutableBufferPointer { items in
            rowScratch.withUnsafeMutableBufferPointer { even in
            state.withUnsafeBufferPointer { st in
                // Consumed items are dropped on the way in.
                var kept = 0
                for t in i..<aEnd where st[t] != consumed {
                    even[kept] = items[t]
                    kept += 1
                }
                var a = 0, b = aEnd
                while b < bEnd && st[b] == consumed { b += 1 }
                while a < kept || b < bEnd {
                    let ca = a < kept ? (even[a].key & sourceMask) >> 1 : UInt64.max
                    let cb = b < bEnd ? (items[b].key & sourceMask) >> 1 : UInt64.max
                    if ca <= cb {
                        items[out] = even[a]
                        items[out].key = rowBase | ca
                        a += 1
                    } else {
                        items[out] = items[b]
                        items[out].key = rowBase | cb
                        b += 1
                        while b < bEnd && st[b] == consumed { b += 1 }
                    }
                    out += 1
                }
            }}}
            i = bEnd
        }
        count = out
    }

    /// Merges the items of `fresh`, taken in `order` (ascending key, on the same grid), into
    /// the live items, in place: from the back, each new item's place is found by galloping
    /// down from the previous one's (they are near when there are many, and a bisection of
    /// the whole level would miss the cache at every step) and the run of old items after it
    /// moves up in one block.
    mutating func merge(_ fresh: LevelBuffer, order: ContiguousArray<UInt32>) {
        let m = count, f = fresh.count
        guard f > 0 else { return }
        precondition(m + f <= items.count, "level outgrew its buffer")
        items.withUnsafeMutableBufferPointer { target in
        fresh.items.withUnsafeBufferPointer { from in
            let base = target.baseAddress!
            var end = m  // old items [0, end) are still in place
            for j in stride(from: f - 1, through: 0, by: -1) {
                let item = from[Int(order[j])]
                // target[upper] (or the end) is above the key; target[lower] is not, or lower is −1.
                var upper = end, lower = end - 1, step = 1
                while lower >= 0 && target[lower].key > item.key {
                    upper = lower
                    lower -= step
                    step <<= 1
                }
                var lo = Swift.max(lower + 1, 0), hi = upper
                while lo < hi {
                    let mid = (lo + hi) >> 1
                    if target[mid].key > item.key { hi = mid } else { lo = mid + 1 }
                }
                if lo < end {
                    UnsafeMutableRawPointer(base + lo + j + 1).copyMemory(
                        from: base + lo, byteCount: (end - lo) * MemoryLayout<LevelItem>.stride)
                }
                target[lo + j] = item
                end = lo
            }
        }}
        count = m + f
    }

    /// Appends one item (used for a level's new clusters), growing the storage when full.
    mutating func append(_ item: LevelItem) {
        if count == items.count {
            items.append(contentsOf: repeatElement(item, count: Swift.max(16, items.count)))
        }
        items[count] = item
        count += 1
    }

    /// Positions of the live items in ascending key order (a radix sort of the keys).
    func orderByKey(bits: Int, sorter: inout RadixSorter) -> ContiguousArray<UInt32> {
        var order = ContiguousArray<UInt32>(0..<UInt32(truncatingIfNeeded: count))
        var keys = ContiguousArray(items[0..<count].lazy.map(\.key))
        sorter.sort(keys: &keys, payload: &order, count: count, bits: bits)
        return order
    }

    /// The nodes of the live items, in order: what a level keeps for its queries.
    var nodes: ContiguousArray<UInt32> {
        ContiguousArray(unsafeUninitializedCapacity: count) { buffer, initialized in
            items.withUnsafeBufferPointer { from in
                for i in 0..<count { buffer[i] = from[i].node }
            }
            initialized = count
        }
    }

    /// The live items' x, y pairs in order, when there are at most `limit` of them (else
    /// empty). Queries on the low zooms, whose items are mostly clusters scattered through the
    /// node table, then read positions in sequence; the big levels are mostly points, which
    /// the node table already holds in grid order.
    func positions(ifAtMost limit: Int) -> ContiguousArray<Double> {
        guard count <= limit else { return [] }
        var xy = ContiguousArray<Double>()
        xy.reserveCapacity(2 * count)
        for i in 0..<count {
            xy.append(items[i].x)
            xy.append(items[i].y)
        }
        return xy
    }
}
