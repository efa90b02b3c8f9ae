/// The neighbours within r of every item of one level, by level position: those of the item
/// at p are `positions[start[p] ..< start[p + 1]]` (compressed rows). Built per level and
/// dropped after it, so that its memory never adds to the build's peak.
struct NeighbourLists {
    let start: WorkBuffer<UInt32>
    let positions: WorkBuffer<UInt32>

    func hasNeighbours(_ p: Int) -> Bool { start.view[p] < start.view[p + 1] }
}

/// Every pair of items within r of each other on one level, as ``NeighbourLists``, for
/// ``ClusterBuilder/clusterPairs(_:zoom:grid:nextGrid:)``.
///
/// The relation is symmetric (``ClusterBuilder/squaredDistance(_:_:_:_:wraps:)`` is, bit for
/// bit), so each pair is found once, from the item that comes first in grid order: it looks
/// only forward, at the rest of its own row's run and at the row below, half of the 3 × 3
/// cells. Pairs are then spread into one list per item.
extension ClusterBuilder {
    /// Average pairs per item beyond which the lists are given up for the greedy visits:
    /// crowded cells (thousands of identical points) make them quadratic, while a visit in
    /// seed order consumes a crowd at once. Scattered points have one to three.
    static let pairsPerItemLimit = 4

    /// The neighbour lists of the current level, or nil when it is too crowded for them (see
    /// ``pairsPerItemLimit``).
    func listNeighbours(grid: CellGrid, radius: Double) -> NeighbourLists? {
        let limit = Self.pairsPerItemLimit * work.current.count
        // Claimed, not touched: a level uses the pages its pairs fill. One slot past the
        // limit takes the candidates written once the pairs have overflowed.
        let pairs = WorkBuffer<UInt64>(uninitializedCount: limit + 1)
        return withExtendedLifetime(pairs) {
            let count =
                options.wrapsAntimeridian
                ? pairAllItems(into: pairs.view, limit: limit, grid: grid, radius: radius, wraps: true)
                : pairAllItems(into: pairs.view, limit: limit, grid: grid, radius: radius, wraps: false)
            guard count <= limit else { return nil }
            return spread(pairs.view, count: count)
        }
    }

    /// Writes `s << 32 | t` into `pairs` for every t after s within `radius` of s, sweeping
    /// the whole level in grid order, and returns how many; stops once there are more than
    /// `limit` (`pairs` holds `limit + 1`).
    ///
    /// Inlined with `wraps` a constant, so that the loop over candidates carries no test of
    /// it. About a third of the candidates are near, which no branch predictor guesses: every
    /// candidate is written at the end of the list, and the count moves on only when it is near.
    @inline(__always)
    private func pairAllItems(
        into list: WorkView<UInt64>, limit: Int, grid: CellGrid, radius: Double, wraps: Bool
    ) -> Int {
        let n = work.current.count
        let r2 = radius * radius
        let items = work.current.items.view
        var wrapped: [Int] = []
        var found = 0
        var rowStarts = RowStarts()
        for s in 0..<n {
            rowStarts.advanceBelow(to: s, items: items, count: n, grid: grid)
            let x = items[s].x, y = items[s].y
            let from = UInt64(truncatingIfNeeded: s) << 32
            Self.forEachLaterCandidate(
                of: s, down: rowStarts.down, items: items, count: n, grid: grid,
                wraps: wraps, wrapped: &wrapped
            ) { t in
                let near = Self.isNear(x, y, items[t].x, items[t].y, r2: r2, wraps: wraps)
                list[found < limit ? found : limit] = from | UInt64(truncatingIfNeeded: t)
                found &+= near ? 1 : 0
            }
            if found > limit { return found }
        }
        return found
    }

    /// Counts each item's pairs, then writes both ends of every pair into the lists, each
    /// list filled from its end so that its start is where the count ends up.
    private func spread(_ pairs: WorkView<UInt64>, count pairCount: Int) -> NeighbourLists {
        let n = work.current.count
        let listed = 2 * pairCount
        let lists = NeighbourLists(
            start: WorkBuffer(repeating: 0, count: n + 1),
            positions: WorkBuffer(uninitializedCount: listed))
        // `lists` is returned, so it outlives the views.
        let start = lists.start.view, positions = lists.positions.view
        for i in 0..<pairCount {
            start[Int(pairs[i] >> 32)] += 1
            start[Int(UInt32(truncatingIfNeeded: pairs[i]))] += 1
        }
        // Running totals: each item's count becomes the end of its list.
        for p in 1..<max(n, 1) { start[p] += start[p - 1] }
        start[n] = UInt32(truncatingIfNeeded: listed)
        for i in 0..<pairCount {
            let s = Int(pairs[i] >> 32), t = Int(UInt32(truncatingIfNeeded: pairs[i]))
            start[s] -= 1
            positions[Int(start[s])] = UInt32(truncatingIfNeeded: t)
            start[t] -= 1
            positions[Int(start[t])] = UInt32(truncatingIfNeeded: s)
        }
        return lists
    }
}
