/// The edges of every part of a ``RegionIndex``, indexed two ways so that a position reads a
/// few dozen edges instead of a part's every edge:
///
/// - **bands**: each part's height cut into horizontal bands, each listing the edges whose
///   vertical span crosses it. The even-odd test of a position counts only edges that straddle
///   its latitude, and all of those are in its band: the same parity as the whole ring's.
/// - **cells**: each part's box cut into a grid, each cell listing the edges whose box meets
///   it, and each ring's first vertex (the plain search measures it too). The nearest edge is
///   sought ring of cells by ring of cells from the position's, and the search stops when the
///   next ring lies farther than the best edge: the same minimum as a scan of every edge.
///
/// The distances are computed by the same expression as ``RegionIndex``'s plain search, so
/// that both give the same answers to the bit (``RegionIndexTests`` compares them). Built from
/// the mapped vertices in about a tenth of a second, and kept in a file for the next run
/// (`RegionEdgeIndex+File.swift`); immutable afterwards.
final class RegionEdgeIndex: Sendable {
    struct Part: Sendable {
        /// The vertices' own box (not the file's), so that every edge lies inside the grid.
        let west: Int64, south: Int64, east: Int64, north: Int64
        let bandHeight: Int64
        let bands: Int
        /// Where this part's `bands + 1` band offsets start in `bandOffsets`.
        let bandStart: Int
        let cellWidth: Int64, cellHeight: Int64
        let columns: Int, rows: Int
        /// Where this part's `columns × rows + 1` cell offsets start in `cellOffsets`.
        let cellStart: Int
    }

    let parts: [Part]
    let bandOffsets: [Int32]
    /// An edge is the index of its first vertex (the second is the next).
    let bandEdges: [Int32]
    let cellOffsets: [Int32]
    /// An edge as in `bandEdges`, or `-(v + 1)` for vertex `v` alone (a ring's first vertex).
    let cellEdges: [Int32]

    /// Per 1/4° cell (row × 1440 + column, from 90° S and 180° W): 1 + the first part of the
    /// file's 1° grid order that holds the whole cell, where no part's edge comes near the cell;
    /// 0 elsewhere.
    let whole: [UInt32]
    static let wholePerDegree: Int64 = 4
    static let wholeColumns = 360 * 4, wholeRows = 180 * 4

    /// Edges per band and per cell aimed at: about 16 and 8.
    static let edgesPerBand = 16
    static let edgesPerCell = 8
    /// The most bands of a part, and the most columns and rows of its grid.
    static let maxBands = 4096, maxSide = 64

    init(parts: [Part], bandOffsets: [Int32], bandEdges: [Int32], cellOffsets: [Int32], cellEdges: [Int32], whole: [UInt32]) {
        self.parts = parts
        self.bandOffsets = bandOffsets
        self.bandEdges = bandEdges
        self.cellOffsets = cellOffsets
        self.cellEdges = cellEdges
        self.whole = whole
    }

    /// Builds the index from the mapped vertices of `index`.
    init(_ index: RegionIndex) {
        var parts: [Part] = []
        parts.reserveCapacity(index.parts)
        var bandOffsets: [Int32] = [], bandEdges: [Int32] = []
        var cellOffsets: [Int32] = [], cellEdges: [Int32] = []
        var edges: [Int32] = [], firsts: [Int32] = []
        // The 1/4° cells that an edge's box meets (with a microdegree's margin).
        var touched = [Bool](repeating: false, count: Self.wholeColumns * Self.wholeRows)
        func touch(_ a: (x: Int64, y: Int64), _ b: (x: Int64, y: Int64)) {
            let c0 = Self.wholeColumn(min(a.x, b.x) - 1), c1 = Self.wholeColumn(max(a.x, b.x) + 1)
            let r0 = Self.wholeRow(min(a.y, b.y) - 1), r1 = Self.wholeRow(max(a.y, b.y) + 1)
            for r in r0...r1 { for c in c0...c1 { touched[r * Self.wholeColumns + c] = true } }
        }
        for p in 0..<index.parts {
            edges.removeAll(keepingCapacity: true)
            firsts.removeAll(keepingCapacity: true)
            var west = Int64.max, south = Int64.max, east = Int64.min, north = Int64.min
            for r in index.part(p).rings {
                let vs = index.vertices(ofRing: r)
                guard !vs.isEmpty else { continue }
                firsts.append(Int32(vs.lowerBound))
                for v in vs {
                    let (x, y) = index.vertex(v)
                    west = min(west, x)
                    east = max(east, x)
                    south = min(south, y)
                    north = max(north, y)
                    if v + 1 < vs.upperBound {
                        edges.append(Int32(v))
                        touch((x, y), index.vertex(v + 1))
                    } else {
                        touch((x, y), (x, y))
                    }
                }
            }
            if west > east { (west, south, east, north) = (0, 0, 0, 0) }
            let bands = max(1, min(Self.maxBands, edges.count / Self.edgesPerBand))
            let bandHeight = max(1, (north - south + 1 + Int64(bands) - 1) / Int64(bands))
            let side = max(1, min(Self.maxSide, Int(Double(edges.count / Self.edgesPerCell).squareRoot())))
            let cellWidth = max(1, (east - west + 1 + Int64(side) - 1) / Int64(side))
            let cellHeight = max(1, (north - south + 1 + Int64(side) - 1) / Int64(side))
            let part = Part(
                west: west, south: south, east: east, north: north, bandHeight: bandHeight,
                bands: Int((north - south) / bandHeight) + 1, bandStart: bandOffsets.count,
                cellWidth: cellWidth, cellHeight: cellHeight, columns: Int((east - west) / cellWidth) + 1,
                rows: Int((north - south) / cellHeight) + 1, cellStart: cellOffsets.count)
            parts.append(part)
            // Bands: an edge straddles latitude y when min ≤ y < max, so it goes to the bands
            // from min's to (max - 1)'s; a horizontal edge straddles none.
            Self.fill(count: part.bands, offsets: &bandOffsets, entries: &bandEdges, items: edges) { e, visit in
                let (a, b) = (index.vertex(Int(e)), index.vertex(Int(e) + 1))
                let low = min(a.y, b.y), high = max(a.y, b.y)
                guard high > low else { return }
                for band in part.band(of: low)...part.band(of: high - 1) { visit(band, e) }
            }
            // Cells: every cell the edge's box meets; a ring's first vertex in its own cell.
            Self.fill(count: part.columns * part.rows, offsets: &cellOffsets, entries: &cellEdges, items: edges + firsts.map { -($0 + 1) })
            {
                e, visit in
                let (a, b) =
                    e >= 0 ? (index.vertex(Int(e)), index.vertex(Int(e) + 1)) : (index.vertex(Int(-e - 1)), index.vertex(Int(-e - 1)))
                for row in part.row(of: min(a.y, b.y))...part.row(of: max(a.y, b.y)) {
                    for column in part.column(of: min(a.x, b.x))...part.column(of: max(a.x, b.x)) {
                        visit(row * part.columns + column, e)
                    }
                }
            }
        }
        // A cell no edge comes near lies wholly inside a part or wholly outside it: the part that
        // holds its centre holds all of it.
        var whole = [UInt32](repeating: 0, count: Self.wholeColumns * Self.wholeRows)
        for row in 0..<RegionIndex.rows {
            for column in 0..<RegionIndex.columns {
                let entries = index.gridEntries(row * RegionIndex.columns + column)
                guard !entries.isEmpty else { continue }
                for fr in (row * 4)..<(row * 4 + 4) {
                    for fc in (column * 4)..<(column * 4 + 4) where !touched[fr * Self.wholeColumns + fc] {
                        // Two untouched cells side by side in one 1° cell: no edge comes between
                        // their centres, so every part holds both or neither, and the first of
                        // the same entries that holds one holds the other.
                        if fc > column * 4, !touched[fr * Self.wholeColumns + fc - 1] {
                            whole[fr * Self.wholeColumns + fc] = whole[fr * Self.wholeColumns + fc - 1]
                            continue
                        }
                        if fr > row * 4, !touched[(fr - 1) * Self.wholeColumns + fc] {
                            whole[fr * Self.wholeColumns + fc] = whole[(fr - 1) * Self.wholeColumns + fc]
                            continue
                        }
                        let cx = Int64(fc) * 250_000 - 180_000_000 + 125_000, cy = Int64(fr) * 250_000 - 90_000_000 + 125_000
                        for e in entries {
                            let p = index.gridPart(e)
                            guard index.part(p).box.contains(cx, cy),
                                Self.contains(parts[p], cx, cy, bandOffsets: bandOffsets, bandEdges: bandEdges, in: index)
                            else { continue }
                            whole[fr * Self.wholeColumns + fc] = UInt32(p + 1)
                            break
                        }
                    }
                }
            }
        }
        self.whole = whole
        self.parts = parts
        self.bandOffsets = bandOffsets
        self.bandEdges = bandEdges
        self.cellOffsets = cellOffsets
        self.cellEdges = cellEdges
    }

    /// The 1/4° cell column and row of a longitude and latitude in microdegrees, clamped.
    static func wholeColumn(_ x: Int64) -> Int {
        Int(min(max(RegionIndex.floorDivide(x + 180_000_000, 250_000), 0), Int64(wholeColumns - 1)))
    }
    static func wholeRow(_ y: Int64) -> Int { Int(min(max(RegionIndex.floorDivide(y + 90_000_000, 250_000), 0), Int64(wholeRows - 1))) }

    /// The part that holds the whole 1/4° cell of (x, y), if one does.
    @inline(__always)
    func wholePart(_ x: Int64, _ y: Int64) -> Int? {
        let k = whole[Self.wholeRow(y) * Self.wholeColumns + Self.wholeColumn(x)]
        return k == 0 ? nil : Int(k) - 1
    }

    /// Appends `count + 1` offsets and the entries of `count` lists, each item placed by
    /// `place` (which calls its `visit` with a list number and the entry): a count, then a fill.
    private static func fill(
        count: Int, offsets: inout [Int32], entries: inout [Int32], items: [Int32],
        place: (Int32, (Int, Int32) -> Void) -> Void
    ) {
        var sizes = [Int32](repeating: 0, count: count)
        for item in items { place(item) { list, _ in sizes[list] += 1 } }
        var next = [Int32](repeating: 0, count: count)
        var at = Int32(entries.count)
        for list in 0..<count {
            offsets.append(at)
            next[list] = at
            at += sizes[list]
        }
        offsets.append(at)
        entries.append(contentsOf: repeatElement(0, count: Int(at) - entries.count))
        for item in items {
            place(item) { list, entry in
                entries[Int(next[list])] = entry
                next[list] += 1
            }
        }
    }

    /// The even-odd test of part `p` at (x, y), over the edges of y's band only.
    func contains(_ p: Int, _ x: Int64, _ y: Int64, in index: RegionIndex) -> Bool {
        Self.contains(parts[p], x, y, bandOffsets: bandOffsets, bandEdges: bandEdges, in: index)
    }

    @inline(__always)
    private static func contains(
        _ part: Part, _ x: Int64, _ y: Int64, bandOffsets: [Int32], bandEdges: [Int32], in index: RegionIndex
    ) -> Bool {
        guard y >= part.south, y <= part.north else { return false }
        let band = part.bandStart + part.band(of: y)
        var inside = false
        for i in Int(bandOffsets[band])..<Int(bandOffsets[band + 1]) {
            let v = Int(bandEdges[i])
            let (x1, y1) = index.vertex(v), (x2, y2) = index.vertex(v + 1)
            if (y1 > y) != (y2 > y) {
                let lhs = (x2 - x1) * (y - y1), rhs = (x - x1) * (y2 - y1)
                if y2 > y1 ? rhs < lhs : rhs > lhs { inside.toggle() }
            }
        }
        return inside
    }

    /// Whether an edge of part `p` lies nearer to (px, y) than `best` (squared, on the plane
    /// whose longitudes are scaled by `k`), lowering `best` to it when one does.
    func nearer(_ p: Int, px: Int64, y: Int64, k: Double, than best: inout Double, in index: RegionIndex) -> Bool {
        let part = parts[p]
        // The position's nearest point of the box: every point of a cell r rings away lies at
        // least r - 1 cells from it, and no nearer to the position.
        let column = part.column(of: min(max(px, part.west), part.east)), row = part.row(of: min(max(y, part.south), part.north))
        let step = min(Double(part.cellWidth) * k, Double(part.cellHeight))
        var improved = false
        func scan(_ r: Int, _ c: Int) {
            // A cell that lies no nearer than the best edge holds no nearer edge: an edge listed
            // here that comes nearer does so inside another cell its box meets, and that cell
            // lies nearer. The cell is taken closed (to the next cell's first microdegree, where
            // an edge's nearest point may lie), and the margin keeps the bound below the
            // rounding of the edges' own distances.
            let x0 = part.west + Int64(c) * part.cellWidth, y0 = part.south + Int64(r) * part.cellHeight
            let dx = Double(max(0, x0 - px, px - (x0 + part.cellWidth))) * k
            let dy = Double(max(0, y0 - y, y - (y0 + part.cellHeight)))
            guard (dx * dx + dy * dy) * (1 - 1e-6) < best else { return }
            let cell = part.cellStart + r * part.columns + c
            for i in Int(cellOffsets[cell])..<Int(cellOffsets[cell + 1]) {
                let e = Int(cellEdges[i])
                let a = index.vertex(e >= 0 ? e : -e - 1), b = index.vertex(e >= 0 ? e + 1 : -e - 1)
                let d2 = RegionIndex.segmentDistance2(
                    ax: Double(a.x - px) * k, ay: Double(a.y - y), bx: Double(b.x - px) * k, by: Double(b.y - y))
                if d2 < best {
                    best = d2
                    improved = true
                }
            }
        }
        for ring in 0..<max(part.columns, part.rows) {
            if ring >= 2 {
                let gap = Double(ring - 1) * step
                if gap * gap >= best { break }
            }
            for r in max(0, row - ring)...min(part.rows - 1, row + ring) {
                // A row at the ring's top or bottom is on it whole; the others, at its two ends.
                if abs(r - row) == ring {
                    for c in max(0, column - ring)...min(part.columns - 1, column + ring) { scan(r, c) }
                } else {
                    if column - ring >= 0 { scan(r, column - ring) }
                    if column + ring < part.columns { scan(r, column + ring) }
                }
            }
        }
        return improved
    }
}

extension RegionEdgeIndex.Part {
    @inline(__always) func band(of y: Int64) -> Int { min(bands - 1, max(0, Int((y - south) / bandHeight))) }
    @inline(__always) func row(of y: Int64) -> Int { min(rows - 1, max(0, Int((y - south) / cellHeight))) }
    @inline(__always) func column(of x: Int64) -> Int { min(columns - 1, max(0, Int((x - west) / cellWidth))) }
}
