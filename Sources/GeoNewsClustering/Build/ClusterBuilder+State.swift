// What ``ClusterBuilder`` holds, in four parts: the node table it hands to the index, the
// levels kept for queries, the per-level work buffers, and the scratch of the marking by
// nearest distance on the sparse top levels.

/// The tree built so far: points first (numbered in the top level's grid order), then
/// clusters in the order they were made, as flat columns (supercluster keeps the same in one
/// array with named offsets). Coordinates are Web Mercator.
struct NodeTable {
    var x = ContiguousArray<Double>()
    var y = ContiguousArray<Double>()
    var pointCounts = ContiguousArray<UInt32>()
    /// For a point its input index; for a cluster the input index of the point that seeded it.
    var seeds = ContiguousArray<UInt32>()
    /// Per cluster (by ordinal, node − point count): the zoom it formed at.
    var clusterZooms = ContiguousArray<UInt8>()
    /// Children of cluster c are `children[childStarts[c] ..< childStarts[c + 1]]`.
    var childStarts = ContiguousArray<UInt32>([0])
    var children = ContiguousArray<UInt32>()

    /// Reserves room for `n` points and the clusters above them. Every cluster absorbs at
    /// least one item, so there are fewer clusters than points and fewer children than nodes.
    /// Reserved, not touched: unused pages cost nothing. (`x` and `y` are made with their room
    /// when the points are loaded; a reservation here would be freed unused, and a freed
    /// block that size moves glibc's threshold for mapping memory, which raised the peak.)
    init(reservingFor n: Int) {
        pointCounts.reserveCapacity(2 * n)
        seeds.reserveCapacity(2 * n)
        clusterZooms.reserveCapacity(n)
        childStarts.reserveCapacity(n + 1)
        children.reserveCapacity(2 * n)
    }

    var nodeCount: Int { x.count }

    /// Appends a cluster at `centre` of `count` points formed at `zoom`, whose children are
    /// `seedNode` and then `memberCount` members, the i-th `memberNode(i)`; returns its node.
    @inline(__always)
    mutating func appendCluster(
        centre: (x: Double, y: Double), count: Int, zoom: Int, seedNode: UInt32, memberCount: Int,
        memberNode: (Int) -> UInt32
    ) -> UInt32 {
        assert(count >= 2 && count <= Int(UInt32.max), "a cluster of \(count) points")
        assert(memberCount >= 1, "a cluster of one child")
        let node = UInt32(truncatingIfNeeded: x.count)
        x.append(centre.x)
        y.append(centre.y)
        pointCounts.append(UInt32(truncatingIfNeeded: count))
        seeds.append(seeds[Int(seedNode)])
        clusterZooms.append(UInt8(truncatingIfNeeded: zoom))
        children.append(seedNode)
        for i in 0..<memberCount { children.append(memberNode(i)) }
        childStarts.append(UInt32(truncatingIfNeeded: children.count))
        return node
    }
}

/// The levels kept for queries, from the points (`maxZoom + 1`) down to `minZoom` while the
/// build runs; ``reverse()`` then puts them in the index's order, from `minZoom` up.
struct LevelTable {
    /// Each level's nodes in grid-key order.
    var nodes: [ContiguousArray<UInt32>] = []
    /// For small levels their nodes' x, y pairs in the same order; empty for the others.
    var positions: [ContiguousArray<Double>] = []
    var grids: [CellGrid] = []

    mutating func reverse() {
        nodes.reverse()
        positions.reverse()
        grids.reverse()
    }
}

/// The state of one item of a level while its zoom is clustered.
enum ItemState: UInt8 {
    case unvisited, visited, consumed
}

/// An item found to have a neighbour, with where its candidate rows above and below start.
struct MarkedItem {
    var position: UInt32
    var up: UInt32
    var down: UInt32
}

/// The per-level work buffers, sized for the largest level and reused down the zooms.
struct LevelWork {
    /// The level being clustered.
    var current: LevelBuffer
    /// The clusters made at the current zoom, the next level's new items.
    var fresh: LevelBuffer
    /// Room for one fine row while ``LevelBuffer/coarsen(from:to:state:rowScratch:)`` merges.
    var rowScratch = WorkBuffer<LevelItem>(uninitializedCount: 0)
    var sorter = RadixSorter()
    /// Seed → marked item, used to put a dense level's marked items in seed order; made on
    /// first use.
    var seedSlots: WorkBuffer<UInt32>?
    /// Per item of the current level.
    var state: WorkBuffer<ItemState>
    /// Items found to have a neighbour; the first `markedCount` are live.
    var marked: WorkBuffer<MarkedItem>
    var markedCount = 0
    /// The neighbours gathered for one cluster (up to a whole level).
    var found: WorkBuffer<UInt32>

    init(capacity n: Int) {
        current = LevelBuffer(capacity: n)
        fresh = LevelBuffer(capacity: n / 2 + 1)
        state = WorkBuffer(repeating: .unvisited, count: n)
        marked = WorkBuffer(uninitializedCount: n)
        found = WorkBuffer(uninitializedCount: n)
    }

    /// Levels shrink fast below zoom 9 or so; once a level fills less than half of the working
    /// buffers, trade them for ones its own size (no level outgrows the one above it: each
    /// cluster replaces two items or more), so that peak memory is set by the big levels at the
    /// top, not by all of them at once. (Sooner would cost more than it saves: old and new
    /// buffers are both held while the level is copied.)
    mutating func releaseSpareCapacity() {
        let n = current.count
        guard n < current.items.count / 2 else { return }
        current = current.shrunk()
        fresh = LevelBuffer(capacity: n / 2 + 1)
        state = WorkBuffer(repeating: .unvisited, count: n)
        marked = WorkBuffer(uninitializedCount: n)
        found = WorkBuffer(uninitializedCount: n)
        seedSlots = nil
    }
}

/// The scratch of the marking by nearest distance (see ClusterBuilder+Nearest), used while
/// the top levels share one sparse grid.
struct NearestSearch {
    /// The grid of the top levels when the points are spread thinly enough to share one (see
    /// ``ClusterBuilder/sparseGrid(forPoints:)``), else `nil`.
    var grid: CellGrid?
    /// Per point node, the squared distance to its nearest neighbour on ``grid``; empty when
    /// unused.
    var nearestSquared = WorkBuffer<Float>(uninitializedCount: 0)
    /// Per item, whether it has a neighbour within r, while marking.
    var flags = WorkBuffer<UInt8>(uninitializedCount: 0)
    /// The positions the next marking must look at, listed while the level's nodes were
    /// copied out (see ``ClusterBuilder/nodesListingNearItems(radius:)``), and the radius they
    /// were listed for; `nil` when not listed.
    var nearItems = ContiguousArray<UInt32>()
    var nearItemsRadius: Double?

    /// Lets the scratch go once the levels leave the sparse grid.
    mutating func release() {
        nearestSquared = WorkBuffer(uninitializedCount: 0)
        flags = WorkBuffer(uninitializedCount: 0)
        nearItems = []
    }
}
