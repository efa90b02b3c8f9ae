/// Step 2 of ``ClusterBuilder``: supercluster's greedy rule on the marked items.
extension ClusterBuilder {
    /// Visits the marked items in supercluster's order (ascending seed, which is the order of
    /// its level arrays) and, for each one not yet visited, gathers its unvisited neighbours
    /// within `radius`; if their points plus its own reach `minPoints` and exceed its own, they
    /// become a cluster at their count-weighted mean. Unmarked items have no neighbour, so the
    /// rule would pass them through untouched; they are never looked at.
    mutating func cluster(zoom: Int, grid: CellGrid, nextGrid: CellGrid, radius: Double) {
        let visitOrder = markedInSeedOrder()
        let n = current.count
        let r2 = radius * radius
        let wraps = options.wrapsAntimeridian
        let minPoints = options.minPoints
        var wrapped: [Int] = []
        // Borrowed out of `self` so that adding clusters (which mutates `self`) can run while
        // they are read through pointers.
        var level = current, state = self.state, neighbours = self.neighbours
        current = LevelBuffer(capacity: 0)
        self.state = []
        self.neighbours = []
        defer { current = level; self.state = state; self.neighbours = neighbours }
        level.items.withUnsafeBufferPointer { itemsBuffer in
        visitOrder.withUnsafeBufferPointer { visitOrder in
        state.withUnsafeMutableBufferPointer { stateBuffer in
        neighbours.withUnsafeMutableBufferPointer { neighbourBuffer in
            let items = itemsBuffer.baseAddress!, state = stateBuffer.baseAddress!
            let found = neighbourBuffer.baseAddress!
            for mark in visitOrder {
                let s = Int(mark.position)
                guard state[s] == Self.unvisited else { continue }
                state[s] = Self.visited
                let x = items[s].x, y = items[s].y
                let own = Int(items[s].count)
                var total = own
                var foundCount = 0
                @inline(__always) func consider(_ t: Int) {
                    if state[t] == Self.unvisited && Self.isNear(x, y, items[t].x, items[t].y, r2: r2, wraps: wraps) {
                        found[foundCount] = UInt32(truncatingIfNeeded: t)
                        foundCount += 1
                        total += Int(items[t].count)
                    }
                }
                Self.forEachCandidate(of: s, up: Int(mark.up), down: Int(mark.down), items: items, count: n, grid: grid,
                                      wraps: wraps, wrapped: &wrapped, consider)
                guard total > own else { continue }
                guard total >= minPoints else {
                    // Too few to cluster: supercluster still marks them visited at this zoom.
                    for i in 0..<foundCount { state[Int(found[i])] = Self.visited }
                    continue
                }
                for i in 0..<foundCount { state[Int(found[i])] = Self.consumed }
                state[s] = Self.consumed
                addCluster(seed: s, members: UnsafeBufferPointer(start: found, count: foundCount), items: items,
                           zoom: zoom, grid: nextGrid)
            }
        }}}}
    }

    /// The marked items, ordered by the seed of their items. Seeds are distinct input
    /// indices, so a sparse level is sorted and a dense one is bucketed by seed in one pass.
    /// Copied rather than indexed, so that the greedy pass reads them in sequence: its other
    /// reads jump about the level already.
    private mutating func markedInSeedOrder() -> ContiguousArray<MarkedItem> {
        let m = markedCount
        var order = ContiguousArray<MarkedItem>()
        order.reserveCapacity(m)
        if m < pointCount / 32 {
            var pairs = ContiguousArray<UInt64>()
            pairs.reserveCapacity(m)
            for f in 0..<m {
                let seed = nodeSeed[Int(current.items[Int(marked[f].position)].node)]
                pairs.append(UInt64(seed) << 32 | UInt64(f))
            }
            pairs.sort()
            for p in pairs { order.append(marked[Int(UInt32(truncatingIfNeeded: p))]) }
            return order
        }
        if seedSlots.count < pointCount {
            seedSlots = ContiguousArray(repeating: UInt32.max, count: pointCount)
        }
        seedSlots.withUnsafeMutableBufferPointer { slots in
            for f in 0..<m {
                let seed = Int(nodeSeed[Int(current.items[Int(marked[f].position)].node)])
                slots[seed] = UInt32(truncatingIfNeeded: f)
            }
            for seed in 0..<pointCount where slots[seed] != UInt32.max {
                order.append(marked[Int(slots[seed])])
                slots[seed] = UInt32.max
            }
        }
        return order
    }

    /// Makes the cluster of the item at `s` and its `members` (positions in the level): appends
    /// it to the node table, its children (the seed, then the members) to the child table, and
    /// it to the next level's new items. The centre is the count-weighted mean summed in
    /// member order, so the order in which the members were found fixes its rounding.
    mutating func addCluster(
        seed s: Int, members: UnsafeBufferPointer<UInt32>, items: UnsafePointer<LevelItem>, zoom: Int, grid: CellGrid
    ) {
        let wraps = options.wrapsAntimeridian
        let x = items[s].x, y = items[s].y
        let own = Double(items[s].count)
        var total = Int(items[s].count)
        var wx = x * own, wy = y * own
        for member in members {
            let t = Int(member)
            let c = Double(items[t].count)
            var tx = items[t].x
            if wraps { tx = tx - x > 0.5 ? tx - 1 : (x - tx > 0.5 ? tx + 1 : tx) }
            wx += tx * c
            wy += items[t].y * c
            total += Int(items[t].count)
        }
        var cx = wx / Double(total)
        let cy = wy / Double(total)
        if wraps { cx = cx < 0 ? cx + 1 : (cx >= 1 ? cx - 1 : cx) }

        let seedNode = items[s].node
        let node = UInt32(truncatingIfNeeded: nodeX.count)
        nodeX.append(cx)
        nodeY.append(cy)
        nodeCount.append(UInt32(truncatingIfNeeded: total))
        nodeSeed.append(nodeSeed[Int(seedNode)])
        clusterZoom.append(UInt8(truncatingIfNeeded: zoom))
        childNodes.append(seedNode)
        for t in members { childNodes.append(items[Int(t)].node) }
        childStart.append(UInt32(truncatingIfNeeded: childNodes.count))
        fresh.append(LevelItem(key: grid.key(x: cx, y: cy), x: cx, y: cy, node: node, count: UInt32(truncatingIfNeeded: total)))
    }
}
