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
    static func candidateRuns(of s: Int, up: Int, down: Int, items: UnsafePointer<LevelItem>, count n: Int, grid: CellGrid) -> CandidateRuns {
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

    /// Positions of the items in the cells across the antimeridian from the item at `s`
    /// (first column ↔ last column, rows above to below), or none when the item is in neither
    /// or the grid has too few columns for that to matter. Rare, so a plain search will do.
    static func wrappedCandidates(of s: Int, items: UnsafePointer<LevelItem>, count n: Int, grid: CellGrid, into out: inout [Int]) {
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

    /// Squared distance test in mercator units, the way kdbush measures (`dx² + dy² ≤ r²`);
    /// across the antimeridian when `wraps`.
    @inline(__always)
    static func isNear(_ x: Double, _ y: Double, _ tx: Double, _ ty: Double, r2: Double, wraps: Bool) -> Bool {
        var dx = tx - x
        if wraps {
            dx = abs(dx)
            if dx > 0.5 { dx = 1 - dx }
        }
        let dy = ty - y
        return dx * dx + dy * dy <= r2
    }

    /// Step 1: in grid order, marks each item that has at least one other item within
    /// `radius`, stopping at the first found. Records where its runs above and below start.
    mutating func markItemsWithNeighbours(grid: CellGrid, radius: Double) {
        let n = current.count
        let r2 = radius * radius
        let wraps = options.wrapsAntimeridian
        let shift = UInt64(grid.exponent), rowStride = UInt64(1) << shift, lastCell = grid.lastCell
        var markedCount = 0
        var wrapped: [Int] = []
        current.items.withUnsafeBufferPointer { itemsBuffer in
        marked.withUnsafeMutableBufferPointer { marked in
            guard n > 0 else { return }
            let items = itemsBuffer.baseAddress!
            var up = 0, down = 0
            for s in 0..<n {
                let key = items[s].key
                let row = Int(truncatingIfNeeded: key >> shift)
                let column = Int(truncatingIfNeeded: key) & lastCell
                let low = UInt64(column > 0 ? column - 1 : 0)
                let high = UInt64(column < lastCell ? column + 1 : lastCell)
                let rowBase = UInt64(row) << shift
                if row > 0 {
                    let target = rowBase - rowStride + low
                    while up < n && items[up].key < target { up += 1 }
                }
                if row < lastCell {
                    let target = rowBase + rowStride + low
                    while down < n && items[down].key < target { down += 1 }
                }
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
        }}
        self.markedCount = markedCount
    }
}
