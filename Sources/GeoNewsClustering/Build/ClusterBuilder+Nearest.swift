/// Marking by nearest-neighbour distance, for the top levels of a build.
///
/// Between `maxZoom` and about zoom 9, a level of a million scattered points barely changes:
/// at zoom 16 a dozen points have a neighbour within r, at zoom 12 about a thousand. Sweeping
/// every item's neighbourhood at each of those zooms costs most of what the build spends there.
/// Instead, while the levels share one grid (``NearestSearch/grid``), one sweep records
/// each point's squared distance to its nearest other point in its 3 × 3 cells; anything
/// farther lies outside them and so beyond one cell width, which is at least r on these
/// levels. A later level then looks closely only at
/// - points whose nearest neighbour is within r (the points left are a subset of the points
///   measured, so no other point can be nearer), and
/// - clusters, with whatever lies within r of them (clusters are new positions the sweep did
///   not see).
/// Every other item has no neighbour within r, exactly.
extension ClusterBuilder {
    /// Squared distance from each point of the current level (all points, on `grid`) to the
    /// nearest other point in its 3 × 3 cells, rounded down to a Float (so that a comparison
    /// against r² can only err towards looking closer); +∞ when there is none. Each pair is
    /// measured once, from its first item, and counts for both (rounding down keeps the
    /// order of distances, so the minimum of rounded values is the rounded minimum).
    mutating func measureNearestNeighbours(grid: CellGrid) {
        nearest.nearestSquared =
            options.wrapsAntimeridian
            ? nearestNeighbourDistances(grid: grid, wraps: true)
            : nearestNeighbourDistances(grid: grid, wraps: false)
    }

    /// Inlined with `wraps` a constant, so that the loop over candidates carries no test of
    /// it; the minima are taken without branches (whether a candidate is nearer is a guess).
    @inline(__always)
    private func nearestNeighbourDistances(grid: CellGrid, wraps: Bool) -> WorkBuffer<Float> {
        let n = work.current.count
        let distances = WorkBuffer<Float>(repeating: .infinity, count: pointCount)
        let items = work.current.items.view, nearest = distances.view
        var wrapped: [Int] = []
        var rowStarts = RowStarts()
        for s in 0..<n {
            rowStarts.advanceBelow(to: s, items: items, count: n, grid: grid)
            let x = items[s].x, y = items[s].y, node = Int(items[s].node)
            Self.forEachLaterCandidate(
                of: s, down: rowStarts.down, items: items, count: n, grid: grid,
                wraps: wraps, wrapped: &wrapped
            ) { t in
                let d2 = Self.squaredDistance(x, y, items[t].x, items[t].y, wraps: wraps)
                let rounded = Float(d2)
                let down = Double(rounded) > d2 ? rounded.nextDown : rounded
                nearest[node] = Swift.min(nearest[node], down)
                let other = Int(items[t].node)
                nearest[other] = Swift.min(nearest[other], down)
            }
        }
        return distances
    }

    /// Step 1 on a level of the sparse grid, with the same outcome as
    /// ``markItemsWithNeighbours(grid:radius:)``: flags the items that have a neighbour within
    /// `radius`, looking only at near points and at clusters (see the type's note), then
    /// records the flagged ones in grid order.
    mutating func markItemsWithNeighboursByNearestDistance(grid: CellGrid, radius: Double) {
        let n = work.current.count
        let r2 = radius * radius
        let wraps = options.wrapsAntimeridian
        let pointCount = self.pointCount
        if nearest.flags.count < n { nearest.flags = WorkBuffer(repeating: 0, count: n) }
        let listed = nearest.nearItemsRadius == radius
        nearest.nearItemsRadius = nil
        let items = work.current.items.view, flags = nearest.flags.view, marked = work.marked.view
        var rowStarts = RowStarts()
        var wrapped: [Int] = []
        // Flags both ends of every pair found: the relation is symmetric, and a point near a
        // new cluster may have been passed over already.
        @inline(__always) func look(at s: Int) {
            let x = items[s].x, y = items[s].y
            var found = false
            rowStarts.leap(to: s, items: items, count: n, grid: grid)
            Self.forEachCandidate(
                of: s, up: rowStarts.up, down: rowStarts.down, items: items, count: n, grid: grid,
                wraps: wraps, wrapped: &wrapped
            ) { t in
                if Self.squaredDistance(x, y, items[t].x, items[t].y, wraps: wraps) <= r2 {
                    flags[t] = 1
                    found = true
                }
            }
            if found { flags[s] = 1 }
        }
        if listed {
            for s in nearest.nearItems { look(at: Int(s)) }
        } else {
            let distances = nearest.nearestSquared.view
            for s in 0..<n {
                let node = Int(items[s].node)
                if node >= pointCount || Double(distances[node]) <= r2 { look(at: s) }
            }
        }
        var markedCount = 0
        rowStarts = RowStarts()
        for s in 0..<n where flags[s] != 0 {
            flags[s] = 0
            rowStarts.leap(to: s, items: items, count: n, grid: grid)
            marked[markedCount] = MarkedItem(
                position: UInt32(truncatingIfNeeded: s),
                up: UInt32(truncatingIfNeeded: rowStarts.up), down: UInt32(truncatingIfNeeded: rowStarts.down))
            markedCount += 1
        }
        work.markedCount = markedCount
    }

    /// The nodes of the current level's items (``LevelBuffer/nodes``), listing on the way in
    /// ``NearestSearch/nearItems`` the positions that marking by nearest distance at `radius`
    /// must look at: clusters, and points whose nearest neighbour is within `radius`. The
    /// level is then read once instead of twice.
    mutating func nodesListingNearItems(radius: Double) -> ContiguousArray<UInt32> {
        let n = work.current.count
        let r2 = radius * radius
        let pointCount = self.pointCount
        var listed = nearest.nearItems
        nearest.nearItems = []
        listed.removeAll(keepingCapacity: true)
        let distances = nearest.nearestSquared.view
        let levelNodes = work.current.items.mapPrefix(n) { s, item in
            if Int(item.node) >= pointCount || Double(distances[Int(item.node)]) <= r2 {
                listed.append(UInt32(truncatingIfNeeded: s))
            }
            return item.node
        }
        nearest.nearItems = listed
        nearest.nearItemsRadius = radius
        return levelNodes
    }
}
