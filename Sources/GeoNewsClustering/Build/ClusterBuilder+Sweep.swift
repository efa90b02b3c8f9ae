/// The neighbour search of ``ClusterBuilder``: which items of a level lie within r of another.
///
/// Items are sorted by row-major cell key on a grid whose cells are at least r wide, so the
/// neighbours of an item lie in three runs of the sorted arrays: its own row from the cell on
/// its left to the cell on its right, and the same span in the rows above and below. The runs
/// in the neighbouring rows start at pointers that only move forward as the sweep advances.
extension ClusterBuilder {
    /// Where the candidate runs of one item lie in the sorted arrays.
    struct CandidateRuns {
        /// Own row: `sameStart ..< sameEnd` (contains the item itself).
        var sameStart: Int, sameEnd: Int
        /// Row above and row below: `up ..< upEnd`, `down ..< downEnd` (empty at the edges).
        var up: Int, upEnd: Int, down: Int, downEnd: Int
    }

    /// The three runs around the item at `s`, given where the runs above and below start.
    @inline(__always)
    static func candidateRuns(of s: Int, up: Int, down: Int, items: WorkView<LevelItem>, count n: Int, grid: CellGrid) -> CandidateRuns {
        let shift = UInt64(grid.exponent)
        let key = items[s].key
        let row = Int(truncatingIfNeeded: key >> shift)
        let column = Int(truncatingIfNeeded: key) & grid.lastCell
        let low = UInt64(column > 0 ? column - 1 : 0)
        let high = UInt64(column < grid.lastCell ? column + 1 : grid.lastCell)
        let rowBase = UInt64(row) << shift, rowStride = UInt64(1) << shift
        var runs = CandidateRuns(sameStart: s, sameEnd: s + 1, up: up, upEnd: up, down: down, downEnd: down)
        while runs.sameStart > 0 && items[runs.sameStart - 1].key >= rowBase | low { runs.sameStart -= 1 }
        while runs.sameEnd < n && items[runs.sameEnd].key <= rowBase | high { runs.sameEnd += 1 }
        if row > 0 {
            let end = rowBase - rowStride + high
            while runs.upEnd < n && items[runs.upEnd].key <= end { runs.upEnd += 1 }
        }
        if row < grid.lastCell {
            let end = rowBase + rowStride + high
            while runs.downEnd < n && items[runs.downEnd].key <= end { runs.downEnd += 1 }
        }
        return runs
    }

    /// Calls `body` with every candidate neighbour of the item at `s` (never `s` itself): the
    /// three runs, then, when the level wraps, the items across the antimeridian. `wrapped` is
    /// scratch space the caller keeps between calls so the wrapped search allocates once.
    @inline(__always)
    static func forEachCandidate(
        of s: Int, up: Int, down: Int, items: WorkView<LevelItem>, count n: Int,
        grid: CellGrid, wraps: Bool, wrapped: inout [Int], _ body: (Int) -> Void
    ) {
        let runs = candidateRuns(of: s, up: up, down: down, items: items, count: n, grid: grid)
        for t in runs.sameStart..<runs.sameEnd where t != s { body(t) }
        for t in runs.up..<runs.upEnd { body(t) }
        for t in runs.down..<runs.downEnd { body(t) }
        if wraps {
            wrappedCandidates(of: s, items: items, count: n, grid: grid, into: &wrapped)
            for t in wrapped { body(t) }
        }
    }

    /// Calls `body` with every candidate neighbour of the item at `s` that comes after it in
    /// the level: the rest of its own row's run, the run below (from `down`), and, when the
    /// level wraps, the later items across the antimeridian. A sweep in grid order then meets
    /// each pair of items once, from its first item, looking at half of the 3 × 3 cells.
    @inline(__always)
    static func forEachLaterCandidate(
        of s: Int, down: Int, items: WorkView<LevelItem>, count n: Int,
        grid: CellGrid, wraps: Bool, wrapped: inout [Int], _ body: (Int) -> Void
    ) {
        let shift = UInt64(grid.exponent)
        let key = items[s].key
        let row = Int(truncatingIfNeeded: key >> shift)
        let column = Int(truncatingIfNeeded: key) & grid.lastCell
        let high = UInt64(column < grid.lastCell ? column + 1 : grid.lastCell)
        let rowBase = UInt64(row) << shift
        var t = s + 1
        while t < n && items[t].key <= rowBase | high {
            body(t)
            t += 1
        }
        if row < grid.lastCell {
            t = down
            let end = rowBase + (UInt64(1) << shift) + high
            while t < n && items[t].key <= end {
                body(t)
                t += 1
            }
        }
        if wraps {
            wrappedCandidates(of: s, items: items, count: n, grid: grid, into: &wrapped)
            for t in wrapped where t > s { body(t) }
        }
    }

    /// Positions of the items in the cells across the antimeridian from the item at `s`
    /// (first column ↔ last column, rows above to below), or none when the item is in neither
    /// or the grid has too few columns for that to matter. Rare, so a plain search will do.
    static func wrappedCandidates(of s: Int, items: WorkView<LevelItem>, count n: Int, grid: CellGrid, into out: inout [Int]) {
        out.removeAll(keepingCapacity: true)
        let key = items[s].key
        let row = grid.row(of: key), column = grid.column(of: key)
        // With two columns or fewer the run of an edge column already reaches the other edge.
        guard grid.lastCell >= 2, column == 0 || column == grid.lastCell else { return }
        let other = column == 0 ? grid.lastCell : 0
        for r in Swift.max(row - 1, 0)...Swift.min(row + 1, grid.lastCell) {
            let cell = grid.key(row: r, column: other)
            var lo = 0, hi = n
            while lo < hi {
                let mid = (lo + hi) >> 1
                if items[mid].key < cell { lo = mid + 1 } else { hi = mid }
            }
            while lo < n && items[lo].key == cell { out.append(lo); lo += 1 }
        }
    }

    /// Squared distance in mercator units, the way kdbush measures (`dx² + dy²`); across the
    /// antimeridian when `wraps`. Symmetric in its two points, bit for bit.
    @inline(__always)
    static func squaredDistance(_ x: Double, _ y: Double, _ tx: Double, _ ty: Double, wraps: Bool) -> Double {
        var dx = tx - x
        if wraps {
            dx = abs(dx)
            if dx > 0.5 { dx = 1 - dx }
        }
        let dy = ty - y
        return dx * dx + dy * dy
    }

    @inline(__always)
    static func isNear(_ x: Double, _ y: Double, _ tx: Double, _ ty: Double, r2: Double, wraps: Bool) -> Bool {
        squaredDistance(x, y, tx, ty, wraps: wraps) <= r2
    }

    /// Step 1: in grid order, marks each item that has at least one other item within
    /// `radius`, stopping at the first found. Records where its runs above and below start.
    mutating func markItemsWithNeighbours(grid: CellGrid, radius: Double) {
        let n = work.current.count
        let r2 = radius * radius
        let wraps = options.wrapsAntimeridian
        let shift = UInt64(grid.exponent), rowStride = UInt64(1) << shift, lastCell = grid.lastCell
        let items = work.current.items.view, marked = work.marked.view
        var markedCount = 0
        var wrapped: [Int] = []
        var rowStarts = RowStarts()
        for s in 0..<n {
            rowStarts.advance(to: s, items: items, count: n, grid: grid)
            let up = rowStarts.up, down = rowStarts.down
            let key = items[s].key
            let row = Int(truncatingIfNeeded: key >> shift)
            let column = Int(truncatingIfNeeded: key) & lastCell
            let low = UInt64(column > 0 ? column - 1 : 0)
            let high = UInt64(column < lastCell ? column + 1 : lastCell)
            let rowBase = UInt64(row) << shift
            let x = items[s].x, y = items[s].y
            @inline(__always) func near(_ t: Int) -> Bool {
                Self.isNear(x, y, items[t].x, items[t].y, r2: r2, wraps: wraps)
            }
            var found = false
            var t = s - 1
            while t >= 0 && items[t].key >= rowBase | low {
                if near(t) { found = true; break }
                t -= 1
            }
            if !found {
                t = s + 1
                while t < n && items[t].key <= rowBase | high {
                    if near(t) { found = true; break }
                    t += 1
                }
            }
            if !found && row > 0 {
                t = up
                let end = rowBase - rowStride + high
                while t < n && items[t].key <= end {
                    if near(t) { found = true; break }
                    t += 1
                }
            }
            if !found && row < lastCell {
                t = down
                let end = rowBase + rowStride + high
                while t < n && items[t].key <= end {
                    if near(t) { found = true; break }
                    t += 1
                }
            }
            if !found && wraps {
                Self.wrappedCandidates(of: s, items: items, count: n, grid: grid, into: &wrapped)
                found = wrapped.contains(where: near)
            }
            if found {
                marked[markedCount] = MarkedItem(
                    position: UInt32(truncatingIfNeeded: s),
                    up: UInt32(truncatingIfNeeded: up), down: UInt32(truncatingIfNeeded: down))
                markedCount += 1
            }
        }
        work.markedCount = markedCount
    }
}

/// Where the candidate runs of an item in the rows above and below its own begin: the first
/// position whose key reaches the cell left of the item's column in that row. (A value for a
/// row off the grid is never read.)
struct RowStarts {
    var up = 0
    var down = 0

    init() {}

    /// Moves forward to item `s` by galloping, for a pass that looks at a few items in grid
    /// order: the cost grows with the log of the distance moved, not the distance.
    @inline(__always)
    mutating func leap(to s: Int, items: WorkView<LevelItem>, count n: Int, grid: CellGrid) {
        let (above, below) = Self.targets(of: items[s].key, grid: grid)
        up = Self.firstPosition(withKeyAtLeast: above, from: up, count: n, items)
        down = Self.firstPosition(withKeyAtLeast: below, from: down, count: n, items)
    }

    /// Moves forward to item `s`, for a sweep in grid order: both starts only ever increase.
    @inline(__always)
    mutating func advance(to s: Int, items: WorkView<LevelItem>, count n: Int, grid: CellGrid) {
        let (above, below) = Self.targets(of: items[s].key, grid: grid)
        while up < n && items[up].key < above { up += 1 }
        while down < n && items[down].key < below { down += 1 }
    }

    /// Moves only the start below forward to item `s`, for a sweep that looks forward alone.
    @inline(__always)
    mutating func advanceBelow(to s: Int, items: WorkView<LevelItem>, count n: Int, grid: CellGrid) {
        let below = Self.targets(of: items[s].key, grid: grid).below
        while down < n && items[down].key < below { down += 1 }
    }

    /// The keys of the cell left of (or at, in the first column) `key`'s column in the rows
    /// above and below; 0 above the first row and the largest key below the last, so that a
    /// search for them stays put.
    @inline(__always)
    private static func targets(of key: UInt64, grid: CellGrid) -> (above: UInt64, below: UInt64) {
        let row = grid.row(of: key), column = grid.column(of: key)
        let low = column > 0 ? column - 1 : 0
        let above = row > 0 ? grid.key(row: row - 1, column: low) : 0
        let below = row < grid.lastCell ? grid.key(row: row + 1, column: low) : 0
        return (above, below)
    }

    /// The first position at or after `start` whose key is at least `key`: gallop, then bisect.
    private static func firstPosition(withKeyAtLeast key: UInt64, from start: Int, count n: Int, _ items: WorkView<LevelItem>) -> Int {
        guard start < n, items[start].key < key else { return start }
        var lo = start + 1, hi = start + 1, step = 1
        while hi < n && items[hi].key < key {
            lo = hi + 1
            hi += step
            step <<= 1
        }
        hi = Swift.min(hi, n)
        while lo < hi {
            let mid = (lo + hi) >> 1
            if items[mid].key < key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
