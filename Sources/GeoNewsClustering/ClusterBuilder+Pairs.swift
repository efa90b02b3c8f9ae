/// Step 2 of ``ClusterBuilder`` for `minPoints` 2: the greedy rule's outcome, settled in grid
/// order.
///
/// With `minPoints` 2, a visit that finds any unvisited neighbour always makes a cluster, so
/// the greedy rule comes down to two facts about a level's "within r" graph:
/// - an item seeds a cluster or stays alone (it is *chosen*) exactly when none of its
///   neighbours with a lower seed is chosen: the chosen items are the maximal independent set
///   taken in seed order;
/// - every other item with a neighbour joins its chosen neighbour with the lowest seed, the
///   first one that would have visited it.
///
/// Whether an item is chosen depends only on its neighbours with lower seeds, so it can be
/// settled as soon as they are, in any order. Here sweeps in grid order over the neighbour
/// lists (``listNeighbours(grid:radius:)``) settle the items; visits in seed order jumped
/// about the level at random, which for scattered points was most of the build's time. A
/// chain of seeds running against the grid order (a GPS trace heading north or west) would
/// settle one link per sweep, so once a sweep settles less than half of what is left, the
/// rest is finished in seed order.
///
/// Clusters are then made in grid order, each with its members in the order a visit would
/// have found them, so that centres round exactly as in ``cluster(zoom:grid:nextGrid:radius:)``.
/// Items with an empty list have no neighbour and are never looked at.
extension ClusterBuilder {
    mutating func clusterPairs(_ neighbours: NeighbourLists, zoom: Int, grid: CellGrid, nextGrid: CellGrid) {
        let n = current.count
        // Per consumed item, the seed of the chosen item it joins; read only where `state`
        // says consumed, which this level writes first.
        var joinedSeed = ContiguousArray<UInt32>(unsafeUninitializedCapacity: n) { _, initialized in initialized = n }
        let seeds = seedsOfItemsWithNeighbours(neighbours)
        settleChosenItems(neighbours, seeds: seeds, joinedSeed: &joinedSeed)
        makeClustersOfChosenItems(neighbours, seeds: seeds, joinedSeed: joinedSeed, zoom: zoom, grid: grid, nextGrid: nextGrid)
    }

    /// Per level position, the seed of the item there, written only where the item has
    /// neighbours (no other is read). Settling reads the seeds of an item's neighbours again
    /// and again; read through the node table each costs two loads from far apart (the
    /// 32-byte item, then its node's seed), here one from a compact array.
    private func seedsOfItemsWithNeighbours(_ neighbours: NeighbourLists) -> ContiguousArray<UInt32> {
        let n = current.count
        return ContiguousArray(unsafeUninitializedCapacity: n) { seeds, initialized in
            current.items.withUnsafeBufferPointer { items in
            neighbours.start.withUnsafeBufferPointer { starts in
            nodeSeed.withUnsafeBufferPointer { nodeSeed in
                for s in 0..<n where starts[s] < starts[s + 1] { seeds[s] = nodeSeed[Int(items[s].node)] }
            }}}
            initialized = n
        }
    }

    /// Sets the `state` of every item with neighbours to `visited` (chosen) or `consumed`
    /// (joins a chosen neighbour), and the `joinedSeed` of each consumed one to the seed of
    /// the chosen neighbour it joins.
    private mutating func settleChosenItems(
        _ neighbours: NeighbourLists, seeds: ContiguousArray<UInt32>, joinedSeed: inout ContiguousArray<UInt32>
    ) {
        let n = current.count
        // Positions of the items still to settle.
        var unsettled = ContiguousArray<UInt32>(unsafeUninitializedCapacity: n) { _, initialized in initialized = n }
        neighbours.positions.withUnsafeBufferPointer { lists in
        neighbours.start.withUnsafeBufferPointer { starts in
        unsettled.withUnsafeMutableBufferPointer { unsettled in
        state.withUnsafeMutableBufferPointer { state in
        joinedSeed.withUnsafeMutableBufferPointer { joined in
        seeds.withUnsafeBufferPointer { seeds in
            @inline(__always) func seed(_ s: Int) -> UInt32 { seeds[s] }
            // Every neighbour of a chosen item is taken, by the lowest-seed chosen item near it.
            @inline(__always) func choose(_ s: Int) {
                let own = seed(s)
                state[s] = Self.visited
                for e in Int(starts[s])..<Int(starts[s + 1]) {
                    let t = Int(lists[e])
                    if state[t] != Self.consumed {
                        state[t] = Self.consumed
                        joined[t] = own
                    } else if own < joined[t] {
                        joined[t] = own
                    }
                }
            }
            // Unsettled while a neighbour with a lower seed is: that one may yet be chosen.
            @inline(__always) func waits(_ s: Int) -> Bool {
                let own = seed(s)
                for e in Int(starts[s])..<Int(starts[s + 1]) {
                    let t = Int(lists[e])
                    if state[t] == Self.unvisited && seed(t) < own { return true }
                }
                return false
            }
            @inline(__always) func settle(_ s: Int, keepingIn kept: inout Int) {
                guard state[s] == Self.unvisited else { return }
                if waits(s) {
                    unsettled[kept] = UInt32(truncatingIfNeeded: s)
                    kept += 1
                } else {
                    choose(s)
                }
            }

            var left = 0
            for s in 0..<n where starts[s] < starts[s + 1] { settle(s, keepingIn: &left) }
            while left > 0 {
                var kept = 0
                for i in 0..<left { settle(Int(unsettled[i]), keepingIn: &kept) }
                let settled = left - kept
                left = kept
                if settled < kept { break }  // less than half settled: a chain against the grid
            }
            guard left > 0 else { return }
            // In seed order every lower seed is settled by the time an item comes up.
            var bySeed = ContiguousArray<UInt64>()
            bySeed.reserveCapacity(left)
            for i in 0..<left { bySeed.append(UInt64(seed(Int(unsettled[i]))) << 32 | UInt64(unsettled[i])) }
            bySeed.sort()
            for pair in bySeed {
                let s = Int(UInt32(truncatingIfNeeded: pair))
                if state[s] == Self.unvisited { choose(s) }
            }
        }}}}}}
    }

    /// Makes a cluster of each chosen item that some neighbour joined, in grid order, with its
    /// members in the order a greedy visit finds them (see ``visitRank(of:from:items:grid:)``).
    private mutating func makeClustersOfChosenItems(
        _ neighbours: NeighbourLists, seeds: ContiguousArray<UInt32>, joinedSeed joined: ContiguousArray<UInt32>,
        zoom: Int, grid: CellGrid, nextGrid: CellGrid
    ) {
        let n = current.count
        // Borrowed out of `self` so that adding clusters (which mutates `self`) can run while
        // they are read through pointers.
        var level = current, state = self.state, members = self.neighbours
        current = LevelBuffer(capacity: 0)
        self.state = []
        self.neighbours = []
        defer { current = level; self.state = state; self.neighbours = members }
        level.items.withUnsafeBufferPointer { itemsBuffer in
        neighbours.positions.withUnsafeBufferPointer { lists in
        neighbours.start.withUnsafeBufferPointer { starts in
        joined.withUnsafeBufferPointer { joined in
        state.withUnsafeMutableBufferPointer { state in
        members.withUnsafeMutableBufferPointer { found in
        seeds.withUnsafeBufferPointer { seeds in
            let items = itemsBuffer.baseAddress!
            for s in 0..<n where starts[s] < starts[s + 1] && state[s] == Self.visited {
                let own = seeds[s]
                var foundCount = 0
                for e in Int(starts[s])..<Int(starts[s + 1]) {
                    let t = lists[e]
                    guard state[Int(t)] == Self.consumed && joined[Int(t)] == own else { continue }
                    // Insertion by visit rank: a cluster has a handful of members.
                    let rank = Self.visitRank(of: Int(t), from: s, items: items, grid: grid)
                    var i = foundCount
                    while i > 0 && Self.visitRank(of: Int(found[i - 1]), from: s, items: items, grid: grid) > rank {
                        found[i] = found[i - 1]
                        i -= 1
                    }
                    found[i] = t
                    foundCount += 1
                }
                guard foundCount > 0 else { continue }
                state[s] = Self.consumed
                addCluster(seed: s, members: UnsafeBufferPointer(rebasing: found[0..<foundCount]), items: items,
                           zoom: zoom, grid: nextGrid)
            }
        }}}}}}}
    }

    /// Where a visit of the item at `s` meets its neighbour at `t`
    /// (``forEachCandidate(of:up:down:items:count:grid:wraps:wrapped:_:)``): its own row, the
    /// row above, the row below, then across the antimeridian (the only candidates more than
    /// a column away), each run in level order.
    @inline(__always)
    static func visitRank(of t: Int, from s: Int, items: UnsafePointer<LevelItem>, grid: CellGrid) -> UInt64 {
        let rowS = grid.row(of: items[s].key), rowT = grid.row(of: items[t].key)
        let run: UInt64
        if abs(grid.column(of: items[t].key) - grid.column(of: items[s].key)) > 1 {
            run = 3
        } else {
            run = rowT == rowS ? 0 : (rowT < rowS ? 1 : 2)
        }
        return run << 32 | UInt64(truncatingIfNeeded: t)
    }

    /// Puts the new clusters that share a cell in seed order, the order a seed-ordered build
    /// makes them in: `order` is stable by key, and clusters are made in grid order of their
    /// seeds. Members are found in level order, so this keeps every later centre's rounding
    /// the same whichever way a level was clustered.
    func orderTiesBySeed(_ order: inout ContiguousArray<UInt32>) {
        var i = 1
        while i < fresh.count {
            var j = i
            let item = order[i]
            let key = fresh.items[Int(item)].key, seed = nodeSeed[Int(fresh.items[Int(item)].node)]
            while j > 0 {
                let before = fresh.items[Int(order[j - 1])]
                guard before.key == key && nodeSeed[Int(before.node)] > seed else { break }
                order[j] = order[j - 1]
                j -= 1
            }
            order[j] = item
            i += 1
        }
    }
}
