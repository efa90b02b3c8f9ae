import GeoNewsGeodesy

/// Builds the levels of a ``ClusterIndex``, from `maxZoom + 1` (the points) down to `minZoom`.
///
/// Per zoom z, on the items of level z + 1 sorted on a grid with cells at least r wide:
/// 1. a sweep in grid order marks every item that has some neighbour within r (most have
///    none at high zooms), remembering where its rows above and below start;
/// 2. the marked items are visited in supercluster's order (by seed) and greedily clustered;
/// 3. the survivors and the new clusters become level z, re-keyed by a linear merge.
///
/// With `minPoints` 2 (the default) steps 1 and 2 become: list every pair within r, then
/// settle the greedy outcome over those lists in grid order (``clusterPairs(_:zoom:grid:nextGrid:)``),
/// which gives the same clusters, made in another order; crowded levels keep the visits.
struct ClusterBuilder {
    let options: ClusterOptions
    let pointCount: Int

    var nodeX = ContiguousArray<Double>()
    var nodeY = ContiguousArray<Double>()
    var nodeCount = ContiguousArray<UInt32>()
    var nodeSeed = ContiguousArray<UInt32>()
    var clusterZoom = ContiguousArray<UInt8>()
    var childStart = ContiguousArray<UInt32>([0])
    var childNodes = ContiguousArray<UInt32>()
    var levelNodes: [ContiguousArray<UInt32>] = []
    /// x, y pairs in level order for the small levels (see ``LevelBuffer/positions``).
    var levelPositions: [ContiguousArray<Double>] = []
    var levelGrids: [CellGrid] = []

    var current: LevelBuffer
    /// Room for one fine row while ``LevelBuffer/coarsen(from:to:state:consumed:rowScratch:)`` merges.
    var rowScratch = ContiguousArray<LevelItem>()
    /// The clusters made at the current zoom, the next level's new items.
    var fresh: LevelBuffer
    var sorter = RadixSorter()
    /// Seed → marked item, used to put a dense level's marked items in seed order.
    var seedSlots = ContiguousArray<UInt32>()
    /// Per item of the current level: unvisited, visited, or consumed into a cluster.
    var state: ContiguousArray<UInt8>
    /// Items found to have a neighbour, with where their rows above and below start.
    var marked: ContiguousArray<MarkedItem>
    var markedCount = 0
    /// The neighbours gathered for one cluster (up to a whole level).
    var neighbours: ContiguousArray<UInt32>
    /// The grid of the top levels when the points are spread thinly enough to share one (see
    /// ``chooseSparseGrid(keys:count:)``), else `nil`.
    var sparseGrid: CellGrid?
    /// Per point node, the squared distance to its nearest neighbour on ``sparseGrid`` (see
    /// ``measureNearestNeighbours(grid:)``); empty when unused.
    var nearestSquared = ContiguousArray<Float>()
    /// Per item, whether it has a neighbour within r, while marking by nearest distance.
    var nearFlags = ContiguousArray<UInt8>()
    /// The positions the next marking by nearest distance must look at, listed while the
    /// level's nodes were copied out (see ``nodesListingNearItems(radius:)``), and the radius
    /// they were listed for; `nil` when not listed.
    var nearItems = ContiguousArray<UInt32>()
    var nearItemsRadius: Double?

    struct MarkedItem {
        var position: UInt32
        var up: UInt32
        var down: UInt32
    }

    static let unvisited: UInt8 = 0, visited: UInt8 = 1, consumed: UInt8 = 2

    init(points: [Coordinate], options: ClusterOptions) {
        self.options = options
        let n = points.count
        pointCount = n
        current = LevelBuffer(capacity: n)
        fresh = LevelBuffer(capacity: n / 2 + 1)
        state = ContiguousArray(repeating: 0, count: n)
        marked = ContiguousArray(unsafeUninitializedCapacity: n) { _, initialized in initialized = n }
        neighbours = ContiguousArray(unsafeUninitializedCapacity: n) { _, initialized in initialized = n }
        // Every cluster absorbs at least one item, so there are fewer clusters than points
        // and fewer children than nodes. Reserved, not touched: unused pages cost nothing.
        // (nodeX and nodeY are reserved where loadPoints fills them.)
        nodeCount.reserveCapacity(2 * n)
        nodeSeed.reserveCapacity(2 * n)
        clusterZoom.reserveCapacity(n)
        childStart.reserveCapacity(n + 1)
        childNodes.reserveCapacity(2 * n)
        loadPoints(points)
    }

    /// Levels shrink fast below zoom 9 or so; once a level fills less than half of the working
    /// buffers, trade them for ones its own size (no level outgrows the one above it: each
    /// cluster replaces two items or more), so that peak memory is set by the big levels at the
    /// top, not by all of them at once. (Sooner would cost more than it saves: old and new
    /// buffers are both held while the level is copied.)
    private mutating func releaseSpareCapacity() {
        let n = current.count
        guard n < current.items.count / 2 else { return }
        var smaller = LevelBuffer(capacity: n)
        smaller.items.withUnsafeMutableBufferPointer { target in
            current.items.withUnsafeBufferPointer { from in
                for i in 0..<n { target[i] = from[i] }
            }
        }
        smaller.count = n
        current = smaller
        fresh = LevelBuffer(capacity: n / 2 + 1)
        seedSlots = []
        state = ContiguousArray(repeating: 0, count: n)
        marked = ContiguousArray(unsafeUninitializedCapacity: n) { _, initialized in initialized = n }
        neighbours = ContiguousArray(unsafeUninitializedCapacity: n) { _, initialized in initialized = n }
    }

    /// The grid whose cells are at least as wide as the radius at zoom `level − 1`, where level
    /// `level` is clustered; on the top levels, ``sparseGrid`` when it is coarser.
    private func grid(forLevel level: Int) -> CellGrid {
        let covering = CellGrid.covering(radius: options.mercatorRadius(atZoom: level - 1))
        if let sparseGrid, sparseGrid.exponent < covering.exponent { return sparseGrid }
        return covering
    }

    /// A coarser grid than the top level needs is still correct (a neighbour within r lies in
    /// the 3 × 3 cells around an item as long as cells are at least r wide), and when it holds
    /// all the top levels they need no re-keying between zooms and can be marked by nearest
    /// distance. Cells cost candidates, and the greedy pass scans every candidate of a marked
    /// item, so take the coarsest grid with at least eight cells per point (a 3 × 3 block then
    /// holds about one other point), and keep it only if the points are in fact spread over
    /// it: on average a point shares its cell with at most one other. Clumped input (a city's
    /// GPS fixes) keeps the fine grids of the top zooms.
    private static func sparseGrid(forPoints n: Int) -> CellGrid {
        var k = 0
        while k < 30 && (1 << (2 * k)) < 8 * n { k += 1 }
        return CellGrid(exponent: k)
    }

    /// Whether `keys` (sorted, on one grid) put on average at most one other point in a
    /// point's cell: Σ (points per cell)² / n ≤ 2.
    private static func isSparse(keys: ContiguousArray<UInt64>) -> Bool {
        let n = keys.count
        var sumOfSquares = 0, run = 0
        for i in 0..<n {
            if i > 0 && keys[i] != keys[i - 1] {
                sumOfSquares += run * run
                run = 0
            }
            run += 1
        }
        sumOfSquares += run * run
        return sumOfSquares <= 2 * n
    }

    /// Projects the points, sorts them into the top level's grid order and numbers point nodes
    /// in that order, so that nodes near on the map are near in memory.
    private mutating func loadPoints(_ points: [Coordinate]) {
        let n = points.count
        // x and y side by side: the copy into grid order below reads them at random.
        let xy = ContiguousArray<Double>(unsafeUninitializedCapacity: 2 * n) { xy, initialized in
            points.withUnsafeBufferPointer { p in
                for i in 0..<n {
                    xy[2 * i] = WebMercator.x(longitude: p[i].longitude)
                    xy[2 * i + 1] = WebMercator.y(latitude: p[i].latitude)
                }
            }
            initialized = 2 * n
        }
        let covering = grid(forLevel: options.maxZoom + 1)
        let sparse = Self.sparseGrid(forPoints: n)
        var grid = covering
        var (keys, order) = (ContiguousArray<UInt64>(), ContiguousArray<UInt32>())
        if sparse.exponent < covering.exponent {
            (keys, order) = Self.gridOrder(xy, on: sparse, sorter: &sorter)
            if Self.isSparse(keys: keys) {
                sparseGrid = sparse
                grid = sparse
            } else {
                (keys, order) = Self.gridOrder(xy, on: covering, sorter: &sorter)
            }
        } else {
            (keys, order) = Self.gridOrder(xy, on: covering, sorter: &sorter)
        }
        sorter = RadixSorter()  // let the input-sized scratch go
        // Room for the clusters too (see init).
        nodeX = ContiguousArray(unsafeUninitializedCapacity: 2 * n) { _, initialized in initialized = n }
        nodeY = ContiguousArray(unsafeUninitializedCapacity: 2 * n) { _, initialized in initialized = n }
        current.items.withUnsafeMutableBufferPointer { sorted in
        nodeX.withUnsafeMutableBufferPointer { nodeX in
        nodeY.withUnsafeMutableBufferPointer { nodeY in
        xy.withUnsafeBufferPointer { xy in
        keys.withUnsafeBufferPointer { keys in
        order.withUnsafeBufferPointer { order in
            for s in 0..<n {
                let i = Int(order[s])
                let x = xy[2 * i], y = xy[2 * i + 1]
                sorted[s] = LevelItem(key: keys[s], x: x, y: y, node: UInt32(truncatingIfNeeded: s), count: 1)
                nodeX[s] = x
                nodeY[s] = y
            }
        }}}}}}
        current.count = n
        nodeSeed.append(contentsOf: order)
        nodeCount.append(contentsOf: repeatElement(1, count: n))
        levelNodes = [current.nodes]
        levelPositions = [current.positions(ifAtMost: pointCount / 4)]
        levelGrids = [grid]
        if sparseGrid != nil { measureNearestNeighbours(grid: grid) }
    }

    /// The cell keys of the points `xy` (x, y pairs) on `grid`, ascending, and the point
    /// indices in that order.
    private static func gridOrder(
        _ xy: ContiguousArray<Double>, on grid: CellGrid, sorter: inout RadixSorter
    ) -> (keys: ContiguousArray<UInt64>, order: ContiguousArray<UInt32>) {
        let n = xy.count / 2
        var keys = ContiguousArray<UInt64>(unsafeUninitializedCapacity: n) { keys, initialized in
            xy.withUnsafeBufferPointer { xy in
                for i in 0..<n { keys[i] = grid.key(x: xy[2 * i], y: xy[2 * i + 1]) }
            }
            initialized = n
        }
        var order = ContiguousArray<UInt32>(0..<UInt32(truncatingIfNeeded: n))
        sorter.sort(keys: &keys, payload: &order, count: n, bits: grid.keyBits)
        return (keys, order)
    }

    mutating func build() {
        var levelGrid = levelGrids[0]
        for zoom in stride(from: options.maxZoom, through: options.minZoom, by: -1) {
            let r = options.mercatorRadius(atZoom: zoom)
            let nextGrid = grid(forLevel: zoom)
            fresh.count = 0
            state.withUnsafeMutableBufferPointer { $0.update(repeating: Self.unvisited) }
            // On the sparse grid few items are marked and their visits are cheap; a level swept
            // whole is settled in grid order when minPoints allows (see ClusterBuilder+Pairs).
            if levelGrid == sparseGrid {
                markItemsWithNeighboursByNearestDistance(grid: levelGrid, radius: r)
                if markedCount > 0 { cluster(zoom: zoom, grid: levelGrid, nextGrid: nextGrid, radius: r) }
            } else if options.minPoints == 2, let neighbours = listNeighbours(grid: levelGrid, radius: r) {
                clusterPairs(neighbours, zoom: zoom, grid: levelGrid, nextGrid: nextGrid)
            } else {
                markItemsWithNeighbours(grid: levelGrid, radius: r)
                if markedCount > 0 { cluster(zoom: zoom, grid: levelGrid, nextGrid: nextGrid, radius: r) }
            }
            if fresh.count == 0 && nextGrid == levelGrid {
                levelNodes.append(levelNodes[levelNodes.count - 1])
                levelPositions.append(levelPositions[levelPositions.count - 1])
            } else {
                var freshOrder = fresh.orderByKey(bits: nextGrid.keyBits, sorter: &sorter)
                orderTiesBySeed(&freshOrder)
                current.coarsen(from: levelGrid, to: nextGrid, state: state, consumed: Self.consumed, rowScratch: &rowScratch)
                current.merge(fresh, order: freshOrder)
                // The next level is marked by nearest distance: list what it must look at
                // while this level's nodes are read anyway.
                if nextGrid == sparseGrid && zoom > options.minZoom && grid(forLevel: zoom - 1) == nextGrid {
                    levelNodes.append(nodesListingNearItems(radius: options.mercatorRadius(atZoom: zoom - 1)))
                } else {
                    levelNodes.append(current.nodes)
                }
                levelPositions.append(current.positions(ifAtMost: pointCount / 4))
                releaseSpareCapacity()
            }
            levelGrids.append(nextGrid)
            if levelGrid == sparseGrid && nextGrid != levelGrid {
                nearestSquared = []
                nearFlags = []
                nearItems = []
            }
            levelGrid = nextGrid
        }
        current = LevelBuffer(capacity: 0)
        fresh = LevelBuffer(capacity: 0)
        seedSlots = []
        // Built from the top down; queries index from minZoom up.
        levelNodes.reverse()
        levelPositions.reverse()
        levelGrids.reverse()
    }
}
