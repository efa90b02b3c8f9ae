/// Every pair of items within r of each other on one level, as per-item neighbour lists, for
/// ``ClusterBuilder/clusterPairs(zoom:grid:nextGrid:)``.
///
/// The relation is symmetric (``ClusterBuilder/squaredDistance(_:_:_:_:wraps:)`` is, bit for
/// bit), so each pair is found once, from the item that comes first in grid order: it looks
/// only forward, at the rest of its own row's run and at the row below, half of the 3 × 3
/// cells. Pairs are then spread into one list per item (compressed rows: `neighbourListStart`
/// by level position).
extension ClusterBuilder {
    /// Average pairs per item beyond which the lists are given up for the greedy visits:
    /// crowded cells (thousands of identical points) make them quadratic, while a visit in
    /// seed order consumes a crowd at once. Scattered points have one to three.
    static let pairsPerItemLimit = 4

    /// Fills the neighbour lists of the current level; on ``sparseGrid`` it first marks the
    /// items with a neighbour by nearest distance and pairs only those. False, with the lists
    /// unusable, when the level is too crowded for them (see ``pairsPerItemLimit``).
    mutating func listNeighbours(onSparseGrid: Bool, grid: CellGrid, radius: Double) -> Bool {
        let limit = Self.pairsPerItemLimit * current.count
        // Claimed, not touched: a level uses the pages its pairs fill.
        if pairs.count < limit {
            pairs = ContiguousArray(unsafeUninitializedCapacity: limit) { _, initialized in initialized = limit }
        }
        if onSparseGrid {
            markItemsWithNeighboursByNearestDistance(grid: grid, radius: radius)
            pairCount = pairMarkedItems(grid: grid, radius: radius, limit: limit)
        } else {
            pairCount = pairAllItems(grid: grid, radius: radius, limit: limit)
        }
        guard pairCount <= limit else { return false }
        spreadPairsIntoLists()
        return true
    }

    /// Writes `s << 32 | t` into ``pairs`` for every t after s within `radius` of s, sweeping
    /// the whole level in grid order, and returns how many; stops once there are more than
    /// `limit` (only the first `limit` are written).
    private mutating func pairAllItems(grid: CellGrid, radius: Double, limit: Int) -> Int {
        let n = current.count
        let r2 = radius * radius
        let wraps = options.wrapsAntimeridian
        let shift = UInt64(grid.exponent), rowStride = UInt64(1) << shift, lastCell = grid.lastCell
        var wrapped: [Int] = []
        var found = 0
        current.items.withUnsafeBufferPointer { itemsBuffer in
        pairs.withUnsafeMutableBufferPointer { pairs in
            guard n > 0 else { return }
            let items = itemsBuffer.baseAddress!
            var rowStarts = RowStarts()
            for s in 0..<n {
                rowStarts.advanceBelow(to: s, items: items, count: n, grid: grid)
                let key = items[s].key
                let row = Int(truncatingIfNeeded: key >> shift)
                let column = Int(truncatingIfNeeded: key) & lastCell
                let high = UInt64(column < lastCell ? column + 1 : lastCell)
                let rowBase = UInt64(row) << shift
                let x = items[s].x, y = items[s].y
                let from = UInt64(truncatingIfNeeded: s) << 32
                @inline(__always) func pair(_ t: Int) {
                    if Self.isNear(x, y, items[t].x, items[t].y, r2: r2, wraps: wraps) {
                        if found < limit { pairs[found] = from | UInt64(truncatingIfNeeded: t) }
                        found += 1
                    }
                }
                var t = s + 1
                while t < n && items[t].key <= rowBase | high {
                    pair(t)
                    t += 1
                }
                if row < lastCell {
                    t = rowStarts.down
                    let end = rowBase + rowStride + high
                    while t < n && items[t].key <= end {
                        pair(t)
                        t += 1
                    }
                }
                if wraps {
                    Self.wrappedCandidates(of: s, items: items, count: n, grid: grid, into: &wrapped)
                    for t in wrapped where t > s { pair(t) }
                }
                if found > limit { return }
            }
        }}
        return found
    }

    /// As ``pairAllItems(grid:radius:limit:)`` for the marked items only: every item within r
    /// of another is marked, so no pair is missed.
    private mutating func pairMarkedItems(grid: CellGrid, radius: Double, limit: Int) -> Int {
        let n = current.count
        let r2 = radius * radius
        let wraps = options.wrapsAntimeridian
        var wrapped: [Int] = []
        var found = 0
        current.items.withUnsafeBufferPointer { itemsBuffer in
        marked.withUnsafeBufferPointer { marked in
        pairs.withUnsafeMutableBufferPointer { pairs in
            let items = itemsBuffer.baseAddress!
            for mark in marked[0..<markedCount] {
                let s = Int(mark.position), x = items[s].x, y = items[s].y
                let from = UInt64(mark.position) << 32
                Self.forEachCandidate(of: s, up: Int(mark.up), down: Int(mark.down), items: items, count: n, grid: grid,
                                      wraps: wraps, wrapped: &wrapped) { t in
                    if t > s && Self.isNear(x, y, items[t].x, items[t].y, r2: r2, wraps: wraps) {
                        if found < limit { pairs[found] = from | UInt64(truncatingIfNeeded: t) }
                        found += 1
                    }
                }
                if found > limit { return }
            }
        }}}
        return found
    }

    /// Counts each item's pairs, then writes both ends of every pair into the lists.
    private mutating func spreadPairsIntoLists() {
        let n = current.count
        if neighbourListStart.count < n + 1 {
            neighbourListStart = ContiguousArray(repeating: 0, count: n + 1)
        }
        let listed = 2 * pairCount
        if neighbourLists.count < listed {
            neighbourLists = ContiguousArray(unsafeUninitializedCapacity: listed) { _, initialized in initialized = listed }
        }
        // `joinedSeed` is not needed until the items are settled: until then it is the cursor
        // where each item's next neighbour goes.
        if joinedSeed.count < n {
            joinedSeed = ContiguousArray(unsafeUninitializedCapacity: n) { _, initialized in initialized = n }
        }
        pairs.withUnsafeBufferPointer { allPairs in
        let pairs = allPairs[0..<pairCount]
        neighbourListStart.withUnsafeMutableBufferPointer { starts in
        neighbourLists.withUnsafeMutableBufferPointer { lists in
        joinedSeed.withUnsafeMutableBufferPointer { cursor in
            for p in 0...n { starts[p] = 0 }
            for pair in pairs {
                starts[Int(pair >> 32) + 1] += 1
                starts[Int(UInt32(truncatingIfNeeded: pair)) + 1] += 1
            }
            for p in 0..<n {
                starts[p + 1] += starts[p]
                cursor[p] = starts[p]
            }
            for pair in pairs {
                let s = Int(pair >> 32), t = Int(UInt32(truncatingIfNeeded: pair))
                lists[Int(cursor[s])] = UInt32(truncatingIfNeeded: t)
                cursor[s] += 1
                lists[Int(cursor[t])] = UInt32(truncatingIfNeeded: s)
                cursor[t] += 1
            }
        }}}}
    }
}
