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
        let settlement = Settlement(
            neighbours: neighbours, seeds: seedsOfItemsWithNeighbours(neighbours), state: work.state.view,
            count: work.current.count)
        makeClustersOfChosenItems(settlement, zoom: zoom, grid: grid, nextGrid: nextGrid)
    }

    /// Per level position, the seed of the item there, written only where the item has
    /// neighbours (no other is read). Settling reads the seeds of an item's neighbours again
    /// and again; read through the node table each costs two loads from far apart (the
    /// 32-byte item, then its node's seed), here one from a compact array.
    private func seedsOfItemsWithNeighbours(_ neighbours: NeighbourLists) -> WorkBuffer<UInt32> {
        let n = work.current.count
        let seeds = WorkBuffer<UInt32>(uninitializedCount: n)
        let items = work.current.items.view, starts = neighbours.start.view, out = seeds.view
        for s in 0..<n where starts[s] < starts[s + 1] { out[s] = nodes.seeds[Int(items[s].node)] }
        return seeds
    }

    /// Makes a cluster of each chosen item that some neighbour joined, in grid order, with its
    /// members in the order a greedy visit finds them (see ``visitRank(of:from:items:grid:)``).
    private mutating func makeClustersOfChosenItems(_ settled: Settlement, zoom: Int, grid: CellGrid, nextGrid: CellGrid) {
        let items = work.current.items.view, state = settled.state, found = work.found.view
        let starts = settled.starts, lists = settled.lists
        for s in 0..<settled.count where starts[s] < starts[s + 1] && state[s] == .visited {
            let own = settled.seeds[s]
            var foundCount = 0
            for e in Int(starts[s])..<Int(starts[s + 1]) {
                let t = lists[e]
                guard state[Int(t)] == .consumed && settled.joinedSeed[Int(t)] == own else { continue }
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
            state[s] = .consumed
            addCluster(seed: s, members: found, count: foundCount, zoom: zoom, grid: nextGrid)
        }
    }

    /// Where a visit of the item at `s` meets its neighbour at `t`
    /// (``forEachCandidate(of:up:down:items:count:grid:wraps:wrapped:_:)``): its own row, the
    /// row above, the row below, then across the antimeridian (the only candidates more than
    /// a column away), each run in level order.
    @inline(__always)
    static func visitRank(of t: Int, from s: Int, items: WorkView<LevelItem>, grid: CellGrid) -> UInt64 {
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
    func orderTiesBySeed(_ order: WorkBuffer<UInt32>) {
        let fresh = work.fresh.items.view, order = order.view
        var i = 1
        while i < work.fresh.count {
            var j = i
            let item = order[i]
            let key = fresh[Int(item)].key, seed = nodes.seeds[Int(fresh[Int(item)].node)]
            while j > 0 {
                let before = fresh[Int(order[j - 1])]
                guard before.key == key && nodes.seeds[Int(before.node)] > seed else { break }
                order[j] = order[j - 1]
                j -= 1
            }
            order[j] = item
            i += 1
        }
    }
}
