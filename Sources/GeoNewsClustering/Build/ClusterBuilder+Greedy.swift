/// Step 2 of ``ClusterBuilder``: supercluster's greedy rule on the marked items.
extension ClusterBuilder {
    /// Visits the marked items in supercluster's order (ascending seed, which is the order of
    /// its level arrays) and, for each one not yet visited, gathers its unvisited neighbours
    /// within `radius`; if their points plus its own reach `minPoints` and exceed its own, they
    /// become a cluster at their count-weighted mean. Unmarked items have no neighbour, so the
    /// rule would pass them through untouched; they are never looked at.
    mutating func cluster(zoom: Int, grid: CellGrid, nextGrid: CellGrid, radius: Double) {
        let visitOrder = markedInSeedOrder()
        let n = work.current.count
        let r2 = radius * radius
        let wraps = options.wrapsAntimeridian
        let minPoints = options.minPoints
        var wrapped: [Int] = []
        let items = work.current.items.view, state = work.state.view, found = work.found.view
        for mark in visitOrder {
            let s = Int(mark.position)
            guard state[s] == .unvisited else { continue }
            state[s] = .visited
            let x = items[s].x, y = items[s].y
            let own = Int(items[s].count)
            var total = own
            var foundCount = 0
            Self.forEachCandidate(
                of: s, up: Int(mark.up), down: Int(mark.down), items: items, count: n, grid: grid,
                wraps: wraps, wrapped: &wrapped
            ) { t in
                if state[t] == .unvisited && Self.isNear(x, y, items[t].x, items[t].y, r2: r2, wraps: wraps) {
                    found[foundCount] = UInt32(truncatingIfNeeded: t)
                    foundCount += 1
                    total += Int(items[t].count)
                }
            }
            guard total > own else { continue }
            guard total >= minPoints else {
                // Too few to cluster: supercluster still marks them visited at this zoom.
                for i in 0..<foundCount { state[Int(found[i])] = .visited }
                continue
            }
            for i in 0..<foundCount { state[Int(found[i])] = .consumed }
            state[s] = .consumed
            addCluster(seed: s, members: found, count: foundCount, zoom: zoom, grid: nextGrid)
        }
    }

    /// The marked items, ordered by the seed of their items. Seeds are distinct input
    /// indices, so a sparse level is sorted and a dense one is bucketed by seed in one pass.
    /// Copied rather than indexed, so that the greedy pass reads them in sequence: its other
    /// reads jump about the level already.
    private mutating func markedInSeedOrder() -> ContiguousArray<MarkedItem> {
        let m = work.markedCount
        let marked = work.marked.view, items = work.current.items.view
        var order = ContiguousArray<MarkedItem>()
        order.reserveCapacity(m)
        if m < pointCount / 32 {
            var pairs = ContiguousArray<UInt64>()
            pairs.reserveCapacity(m)
            for f in 0..<m {
                let seed = nodes.seeds[Int(items[Int(marked[f].position)].node)]
                pairs.append(UInt64(seed) << 32 | UInt64(f))
            }
            pairs.sort()
            for p in pairs { order.append(marked[Int(UInt32(truncatingIfNeeded: p))]) }
            return order
        }
        if work.seedSlots == nil { work.seedSlots = WorkBuffer(repeating: UInt32.max, count: pointCount) }
        let slots = work.seedSlots!.view
        for f in 0..<m {
            let seed = Int(nodes.seeds[Int(items[Int(marked[f].position)].node)])
            assert(slots[seed] == UInt32.max, "two marked items with seed \(seed)")
            slots[seed] = UInt32(truncatingIfNeeded: f)
        }
        for seed in 0..<pointCount where slots[seed] != UInt32.max {
            order.append(marked[Int(slots[seed])])
            slots[seed] = UInt32.max
        }
        return order
    }

    /// Makes the cluster of the item at `s` and its first `count` `members` (positions in the
    /// level): appends it to the node table, with its children (the seed, then the members),
    /// and to the next level's new items, keyed on `grid`. The centre is the count-weighted
    /// mean summed in member order, so the order in which the members were found fixes its
    /// rounding.
    mutating func addCluster(seed s: Int, members: WorkView<UInt32>, count: Int, zoom: Int, grid: CellGrid) {
        assert(count > 0, "a cluster without members")
        let items = work.current.items.view
        var centre = WeightedCentre(x: items[s].x, y: items[s].y, count: items[s].count, wraps: options.wrapsAntimeridian)
        for i in 0..<count {
            let t = Int(members[i])
            centre.add(x: items[t].x, y: items[t].y, count: items[t].count)
        }
        assert(centre.count >= options.minPoints, "a cluster of \(centre.count) points, under minPoints")
        let (cx, cy) = centre.position
        let node = nodes.appendCluster(
            centre: (cx, cy), count: centre.count, zoom: zoom, seedNode: items[s].node, memberCount: count
        ) { items[Int(members[$0])].node }
        work.fresh.append(
            LevelItem(
                key: grid.key(x: cx, y: cy), x: cx, y: cy, node: node,
                count: UInt32(truncatingIfNeeded: centre.count)))
    }
}
