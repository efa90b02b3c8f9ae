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
    /// The tree built so far, which the index keeps.
    var nodes: NodeTable
    /// The levels built so far, which the index keeps.
    var levels = LevelTable()
    /// The per-level buffers: the level being clustered, its new clusters, marks and states.
    var work: LevelWork
    /// The marking by nearest distance on the sparse top levels.
    var nearest = NearestSearch()

    init(points: [Coordinate], options: ClusterOptions) {
        self.options = options
        pointCount = points.count
        nodes = NodeTable(reservingFor: points.count)
        work = LevelWork(capacity: points.count)
        loadPoints(points)
    }

    /// The grid whose cells are at least as wide as the radius at zoom `level − 1`, where level
    /// `level` is clustered; on the top levels, the sparse grid when it is coarser.
    private func grid(forLevel level: Int) -> CellGrid {
        let covering = CellGrid.covering(radius: options.mercatorRadius(atZoom: level - 1))
        if let sparseGrid = nearest.grid, sparseGrid.exponent < covering.exponent { return sparseGrid }
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
    private static func isSparse(keys: WorkView<UInt64>) -> Bool {
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
        let xy = WorkBuffer<Double>(uninitializedCount: 2 * n)
        let projected = xy.view
        for (i, p) in points.enumerated() {
            projected[2 * i] = WebMercator.x(longitude: p.longitude)
            projected[2 * i + 1] = WebMercator.y(latitude: p.latitude)
        }
        let covering = grid(forLevel: options.maxZoom + 1)
        let sparse = Self.sparseGrid(forPoints: n)
        var grid = covering
        var sorted = Self.gridOrder(xy, on: sparse.exponent < covering.exponent ? sparse : covering, sorter: &work.sorter)
        if sparse.exponent < covering.exponent {
            if Self.isSparse(keys: sorted.keys.view) {
                nearest.grid = sparse
                grid = sparse
            } else {
                sorted = Self.gridOrder(xy, on: covering, sorter: &work.sorter)
            }
        }
        work.sorter = RadixSorter()  // let the input-sized scratch go
        let items = work.current.items.view, keys = sorted.keys.view, order = sorted.order.view
        for s in 0..<n {
            let i = Int(order[s])
            items[s] = LevelItem(
                key: keys[s], x: projected[2 * i], y: projected[2 * i + 1],
                node: UInt32(truncatingIfNeeded: s), count: 1)
        }
        work.current.count = n
        // Room for the clusters too (see NodeTable).
        nodes.x = work.current.items.mapPrefix(n, capacity: 2 * n) { $1.x }
        nodes.y = work.current.items.mapPrefix(n, capacity: 2 * n) { $1.y }
        nodes.seeds.append(contentsOf: (0..<n).lazy.map { order[$0] })
        withExtendedLifetime((xy, sorted)) {}  // read through views up to here
        nodes.pointCounts.append(contentsOf: repeatElement(1, count: n))
        levels.nodes = [work.current.nodes]
        levels.positions = [work.current.positions(ifAtMost: pointCount / 4)]
        levels.grids = [grid]
        if nearest.grid != nil { measureNearestNeighbours(grid: grid) }
    }

    /// The cell keys of the points `xy` (x, y pairs) on `grid`, ascending, and the point
    /// indices in that order.
    private static func gridOrder(
        _ xy: WorkBuffer<Double>, on grid: CellGrid, sorter: inout RadixSorter
    ) -> (keys: WorkBuffer<UInt64>, order: WorkBuffer<UInt32>) {
        let n = xy.count / 2
        let keys = WorkBuffer<UInt64>(uninitializedCount: n), order = WorkBuffer<UInt32>(uninitializedCount: n)
        let points = xy.view, k = keys.view, o = order.view
        for i in 0..<n {
            k[i] = grid.key(x: points[2 * i], y: points[2 * i + 1])
            o[i] = UInt32(truncatingIfNeeded: i)
        }
        sorter.sort(keys: keys, payload: order, count: n, bits: grid.keyBits)
        return (keys, order)
    }

    /// Clusters each zoom from `maxZoom` down to `minZoom`, as supercluster's `_cluster` loop.
    mutating func build() {
        var levelGrid = levels.grids[0]
        for zoom in stride(from: options.maxZoom, through: options.minZoom, by: -1) {
            let nextGrid = grid(forLevel: zoom)
            clusterLevel(zoom: zoom, grid: levelGrid, nextGrid: nextGrid)
            if work.fresh.count == 0 && nextGrid == levelGrid {
                levels.nodes.append(levels.nodes[levels.nodes.count - 1])
                levels.positions.append(levels.positions[levels.positions.count - 1])
            } else {
                makeNextLevel(zoom: zoom, grid: levelGrid, nextGrid: nextGrid)
            }
            levels.grids.append(nextGrid)
            if levelGrid == nearest.grid && nextGrid != levelGrid { nearest.release() }
            levelGrid = nextGrid
        }
        work = LevelWork(capacity: 0)
        // Built from the top down; queries index from minZoom up.
        levels.reverse()
    }

    /// Steps 1 and 2 at `zoom` on the current level (on `grid`): the clusters it makes go to
    /// the node table and to ``LevelWork/fresh`` (keyed on `nextGrid`), and the items they
    /// take are marked consumed.
    private mutating func clusterLevel(zoom: Int, grid: CellGrid, nextGrid: CellGrid) {
        let r = options.mercatorRadius(atZoom: zoom)
        work.fresh.count = 0
        work.state.fill(.unvisited, count: work.current.count)
        // On the sparse grid few items are marked and their visits are cheap; a level swept
        // whole is settled in grid order when minPoints allows (see ClusterBuilder+Pairs).
        if grid == nearest.grid {
            markItemsWithNeighboursByNearestDistance(grid: grid, radius: r)
            if work.markedCount > 0 { cluster(zoom: zoom, grid: grid, nextGrid: nextGrid, radius: r) }
        } else if options.minPoints == 2, let neighbours = listNeighbours(grid: grid, radius: r) {
            clusterPairs(neighbours, zoom: zoom, grid: grid, nextGrid: nextGrid)
        } else {
            markItemsWithNeighbours(grid: grid, radius: r)
            if work.markedCount > 0 { cluster(zoom: zoom, grid: grid, nextGrid: nextGrid, radius: r) }
        }
    }

    /// Step 3: the survivors of the current level, re-keyed for `nextGrid`, merged with the
    /// new clusters, become the level of `zoom`.
    private mutating func makeNextLevel(zoom: Int, grid: CellGrid, nextGrid: CellGrid) {
        let freshOrder = work.fresh.orderByKey(bits: nextGrid.keyBits, sorter: &work.sorter)
        orderTiesBySeed(freshOrder)
        work.current.coarsen(from: grid, to: nextGrid, state: work.state.view, rowScratch: &work.rowScratch)
        work.current.merge(work.fresh, order: freshOrder)
        // The next level is marked by nearest distance: list what it must look at while this
        // level's nodes are read anyway.
        if nextGrid == nearest.grid && zoom > options.minZoom && self.grid(forLevel: zoom - 1) == nextGrid {
            levels.nodes.append(nodesListingNearItems(radius: options.mercatorRadius(atZoom: zoom - 1)))
        } else {
            levels.nodes.append(work.current.nodes)
        }
        levels.positions.append(work.current.positions(ifAtMost: pointCount / 4))
        work.releaseSpareCapacity()
    }
}
