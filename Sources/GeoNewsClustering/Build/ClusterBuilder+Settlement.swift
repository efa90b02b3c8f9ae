/// The settling of ``ClusterBuilder/clusterPairs(_:zoom:grid:nextGrid:)``: which items of a
/// level are chosen (seed a cluster or stay alone) and which join a chosen neighbour, from
/// the level's neighbour lists alone.
///
/// Settling sets the `state` of every item with neighbours to `visited` (chosen) or
/// `consumed` (joins a chosen neighbour), and the `joinedSeed` of each consumed one to the
/// seed of the chosen neighbour it joins: the lowest, the first that would have visited it.
struct Settlement {
    let starts: WorkView<UInt32>
    let lists: WorkView<UInt32>
    /// Per position with neighbours, the seed of its item.
    let seeds: WorkView<UInt32>
    let state: WorkView<ItemState>
    /// Per consumed item, the seed of the chosen item it joins; read only where `state` says
    /// consumed, which this level writes first.
    let joinedSeed: WorkView<UInt32>
    /// Items on the level.
    let count: Int
    /// The buffers behind the views, held for as long as the settlement is.
    private let storage: (NeighbourLists, WorkBuffer<UInt32>, WorkBuffer<UInt32>)

    /// Settles the level. `state` is the builder's, which outlives the settlement.
    init(neighbours: NeighbourLists, seeds: WorkBuffer<UInt32>, state: WorkView<ItemState>, count n: Int) {
        let joined = WorkBuffer<UInt32>(uninitializedCount: n)
        storage = (neighbours, seeds, joined)
        starts = neighbours.start.view
        lists = neighbours.positions.view
        self.seeds = seeds.view
        self.state = state
        joinedSeed = joined.view
        count = n
        // Positions of the items still to settle, dropped once all are.
        let unsettled = WorkBuffer<UInt32>(uninitializedCount: n)
        withExtendedLifetime(unsettled) {
            let left = settleInGridOrder(unsettled: unsettled.view)
            settleInSeedOrder(unsettled: unsettled.view, left: left)
        }
    }

    /// Every neighbour of a chosen item is taken, by the lowest-seed chosen item near it.
    @inline(__always)
    private func choose(_ s: Int) {
        let own = seeds[s]
        state[s] = .visited
        for e in Int(starts[s])..<Int(starts[s + 1]) {
            let t = Int(lists[e])
            if state[t] != .consumed {
                state[t] = .consumed
                joinedSeed[t] = own
            } else if own < joinedSeed[t] {
                joinedSeed[t] = own
            }
        }
    }

    /// Unsettled while a neighbour with a lower seed is: that one may yet be chosen.
    @inline(__always)
    private func waits(_ s: Int) -> Bool {
        let own = seeds[s]
        for e in Int(starts[s])..<Int(starts[s + 1]) {
            let t = Int(lists[e])
            if state[t] == .unvisited && seeds[t] < own { return true }
        }
        return false
    }

    @inline(__always)
    private func settle(_ s: Int, unsettled: WorkView<UInt32>, keepingIn kept: inout Int) {
        guard state[s] == .unvisited else { return }
        if waits(s) {
            unsettled[kept] = UInt32(truncatingIfNeeded: s)
            kept += 1
        } else {
            choose(s)
        }
    }

    /// Sweeps in grid order, first over the level, then over what is left, while each sweep
    /// settles at least half of it (a chain against the grid settles one link per sweep), and
    /// returns how many are left, listed first in `unsettled`.
    private func settleInGridOrder(unsettled: WorkView<UInt32>) -> Int {
        var left = 0
        for s in 0..<count where starts[s] < starts[s + 1] { settle(s, unsettled: unsettled, keepingIn: &left) }
        while left > 0 {
            var kept = 0
            for i in 0..<left { settle(Int(unsettled[i]), unsettled: unsettled, keepingIn: &kept) }
            let settled = left - kept
            left = kept
            if settled < kept { break }
        }
        return left
    }

    /// Settles what the sweeps left: in seed order every lower seed is settled by the time
    /// an item comes up.
    private func settleInSeedOrder(unsettled: WorkView<UInt32>, left: Int) {
        guard left > 0 else { return }
        var bySeed = ContiguousArray<UInt64>()
        bySeed.reserveCapacity(left)
        for i in 0..<left { bySeed.append(UInt64(seeds[Int(unsettled[i])]) << 32 | UInt64(unsettled[i])) }
        bySeed.sort()
        for pair in bySeed {
            let s = Int(UInt32(truncatingIfNeeded: pair))
            if state[s] == .unvisited { choose(s) }
        }
    }
}
