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
    private(set) var items: WorkBuffer<LevelItem>
    var count = 0 {
        didSet { assert(count >= 0 && count <= items.count, "level of \(count) items in a buffer of \(items.count)") }
    }

    init(capacity: Int) {
        items = WorkBuffer(uninitializedCount: capacity)
    }

    /// The same live items in a buffer of their own size.
    func shrunk() -> LevelBuffer {
        var smaller = LevelBuffer(capacity: count)
        smaller.items.copy(from: items, count: count)
        smaller.count = count
        return smaller
    }

    /// Drops the items whose `state` is `consumed` and re-keys the rest for `grid`, which is
    /// `self`'s grid (`sourceGrid`) or the one with cells twice as wide, in place.
    ///
    /// A row-major order on the finer grid becomes the order on the coarser one by merging
    /// each pair of fine rows (2j, 2j + 1) on their halved columns: linear, no sort. The even
    /// row is copied aside into `rowScratch` first; the merge then writes at or before every
    /// position it has yet to read.
    mutating func coarsen(
        from sourceGrid: CellGrid, to grid: CellGrid, state: WorkView<ItemState>, rowScratch: inout WorkBuffer<LevelItem>
    ) {
        let shift = sourceGrid.exponent - grid.exponent
        precondition(shift == 0 || shift == 1, "grids must be equal or one step apart")
        let kept =
            shift == 0 ? droppingConsumed(state: state) : mergingRowPairs(from: sourceGrid, to: grid, state: state, rowScratch: &rowScratch)
        assert(kept <= count, "coarsening made items")
        count = kept
    }

    /// Few items are consumed on a level that keeps its grid: moves the runs between them as
    /// blocks, and returns how many are kept.
    private func droppingConsumed(state: WorkView<ItemState>) -> Int {
        let n = count
        var out = 0, t = 0
        while t < n {
            var end = t
            while end < n && state[end] != .consumed { end += 1 }
            if out != t { items.move(from: t, to: out, count: end - t) }
            out += end - t
            t = end + 1
        }
        return out
    }

    /// Merges each pair of fine rows into one coarse row on the halved columns, dropping
    /// consumed items on the way in, and returns how many are kept.
    private func mergingRowPairs(
        from sourceGrid: CellGrid, to grid: CellGrid, state: WorkView<ItemState>, rowScratch: inout WorkBuffer<LevelItem>
    ) -> Int {
        let n = count
        let sourceShift = UInt64(sourceGrid.exponent), sourceMask = UInt64(sourceGrid.lastCell)
        let targetShift = UInt64(grid.exponent)
        let items = self.items.view
        var out = 0, i = 0
        while i < n {
            // Fine rows 2j and 2j + 1 make coarse row j: two sorted runs to merge.
            let coarseRow = items[i].key >> (sourceShift + 1)
            let evenRow = coarseRow << 1
            var aEnd = i
            while aEnd < n && items[aEnd].key >> sourceShift == evenRow { aEnd += 1 }
            var bEnd = aEnd
            while bEnd < n && items[bEnd].key >> sourceShift == evenRow + 1 { bEnd += 1 }
            if rowScratch.count < aEnd - i {
                rowScratch = WorkBuffer(uninitializedCount: Swift.max(aEnd - i, 2 * rowScratch.count))
            }
            let even = rowScratch.view
            let rowBase = coarseRow << targetShift
            var kept = 0
            for t in i..<aEnd where state[t] != .consumed {
                even[kept] = items[t]
                kept += 1
            }
            var a = 0, b = aEnd
            while b < bEnd && state[b] == .consumed { b += 1 }
            while a < kept || b < bEnd {
                let ca = a < kept ? (even[a].key & sourceMask) >> 1 : UInt64.max
                let cb = b < bEnd ? (items[b].key & sourceMask) >> 1 : UInt64.max
                if ca <= cb {
                    items[out] = even[a]
                    items[out].key = rowBase | ca
                    a += 1
                } else {
                    assert(out <= b, "the merge overtook what it has yet to read")
                    items[out] = items[b]
                    items[out].key = rowBase | cb
                    b += 1
                    while b < bEnd && state[b] == .consumed { b += 1 }
                }
                out += 1
            }
            i = bEnd
        }
        return out
    }

    /// Merges the items of `fresh`, taken in `order` (ascending key, on the same grid), into
    /// the live items, in place: from the back, each new item's place is found by galloping
    /// down from the previous one's (they are near when there are many, and a bisection of
    /// the whole level would miss the cache at every step) and the run of old items after it
    /// moves up in one block.
    mutating func merge(_ fresh: LevelBuffer, order: WorkBuffer<UInt32>) {
        let m = count, f = fresh.count
        guard f > 0 else { return }
        precondition(m + f <= items.count, "level outgrew its buffer")
        let target = items.view, from = fresh.items.view, order = order.view
        var end = m  // old items [0, end) are still in place
        for j in stride(from: f - 1, through: 0, by: -1) {
            let item = from[Int(order[j])]
            assert(j == 0 || from[Int(order[j - 1])].key <= item.key, "new items out of key order")
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
            items.move(from: lo, to: lo + j + 1, count: end - lo)
            target[lo + j] = item
            end = lo
        }
        count = m + f
    }

    /// Appends one item (used for a level's new clusters), growing the storage when full.
    mutating func append(_ item: LevelItem) {
        if count == items.count {
            let larger = WorkBuffer<LevelItem>(uninitializedCount: Swift.max(16, 2 * items.count))
            larger.copy(from: items, count: count)
            items = larger
        }
        items.view[count] = item
        count += 1
    }

    /// Positions of the live items in ascending key order (a radix sort of the keys).
    func orderByKey(bits: Int, sorter: inout RadixSorter) -> WorkBuffer<UInt32> {
        let keys = WorkBuffer<UInt64>(uninitializedCount: count), order = WorkBuffer<UInt32>(uninitializedCount: count)
        let items = self.items.view, k = keys.view, o = order.view
        for i in 0..<count {
            k[i] = items[i].key
            o[i] = UInt32(truncatingIfNeeded: i)
        }
        sorter.sort(keys: keys, payload: order, count: count, bits: bits)
        return order
    }

    /// The nodes of the live items, in order: what a level keeps for its queries.
    var nodes: ContiguousArray<UInt32> { items.mapPrefix(count) { $1.node } }

    /// The live items' x, y pairs in order, when there are at most `limit` of them (else
    /// empty). Queries on the low zooms, whose items are mostly clusters scattered through the
    /// node table, then read positions in sequence; the big levels are mostly points, which
    /// the node table already holds in grid order.
    func positions(ifAtMost limit: Int) -> ContiguousArray<Double> {
        guard count <= limit else { return [] }
        let items = self.items.view
        var xy = ContiguousArray<Double>()
        xy.reserveCapacity(2 * count)
        for i in 0..<count {
            xy.append(items[i].x)
            xy.append(items[i].y)
        }
        return xy
    }
}
