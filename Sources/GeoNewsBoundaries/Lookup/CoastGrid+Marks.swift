import GeoNewsGeodesy

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Building a ``CoastGrid``: the land marks read off the index's tree, and the dilations that
// turn them into the near-shore and certain words.

extension CoastGrid {
    /// Sets, in the `word`s, every cell that may lie within `km` of a marked one, and every
    /// cell beyond ``polarLatitude``.
    ///
    /// A marked cell `dy` rows away is at least `g = (|dy| − 1)` rows of latitude away, so by
    /// the haversine formula a point of it within `km` is at most Δλ of longitude away, with
    /// sin²(Δλ/2) = (sin²(km/2R) − sin²(g/2)) / cos²φ (φ the most poleward latitude of both
    /// rows): the reach is a disc, not the box of its widest row.
    static func dilate(
        _ marked: UnsafeMutablePointer<UInt64>, byKm km: Double, into words: UnsafeMutableBufferPointer<UInt64>, word: Int,
        _ s: RowScratch
    ) {
        // A little beyond `km`, so that rounding never leaves out a cell the search would reach.
        let reachKm = km * (1 + 1e-9) + 1e-6
        let dLat = reachKm / GreatCircle.meanEarthRadiusKm / Self.radians
        let rowReach = Int((dLat * Self.perDegree + 1e-6).rounded(.up))
        let sinHalf = sin(reachKm / (2 * GreatCircle.meanEarthRadiusKm))
        spread(marked, into: words, word: word, rowReach: rowReach, s) { south, north, dy in
            let poleward = max(abs(south - Double(dy) / Self.perDegree), abs(north + Double(dy) / Self.perDegree))
            guard poleward < Self.polarLatitude else { return nil }
            let gap = sin(Double(max(0, dy - 1)) / Self.perDegree * Self.radians / 2)
            let c = cos(poleward * Self.radians)
            let sine = (max(0, sinHalf * sinHalf - gap * gap) / (c * c)).squareRoot()
            guard sine < 1 else { return nil }
            return Int((2 * asin(sine) / Self.radians * Self.perDegree + 1e-6).rounded(.up))
        }
    }

    /// Sets, in the `word`s, every cell whose every point lies within `km` of every point of a
    /// marked cell: `dy` rows and `dx` columns away, two points are at most `dy + 1` rows and
    /// `dx + 1` columns apart, and by the haversine formula at most
    /// hav⁻¹(hav(Δφ) + cos²φ · hav(Δλ)) apart (φ the most equatorward latitude of both rows).
    static func dilateWithin(
        _ marked: UnsafeMutablePointer<UInt64>, km: Double, into words: UnsafeMutableBufferPointer<UInt64>, word: Int,
        _ s: RowScratch
    ) {
        let sinHalf = sin(km / (2 * GreatCircle.meanEarthRadiusKm))
        let rowReach = Int(2 * asin(sinHalf) / Self.radians * Self.perDegree) - 1
        spread(marked, into: words, word: word, rowReach: rowReach, s) { south, north, dy in
            let d = Double(dy) / Self.perDegree
            let equatorward = south - d <= 0 && north + d >= 0 ? 0 : min(abs(south - d), abs(north + d))
            let rise = sin(Double(dy + 1) / Self.perDegree * Self.radians / 2)
            let c = cos(equatorward * Self.radians)
            let sine = (max(0, sinHalf * sinHalf - rise * rise) / (c * c)).squareRoot()
            let columns = min(Double(Self.columns / 2), 2 * asin(min(1, sine)) / Self.radians * Self.perDegree)
            // The farthest column whose far side is within reach; -1 when not even the same one.
            return max(-1, Int((columns * (1 - 1e-9)).rounded(.down)) - 1)
        }
    }

    /// Sets each row of `word` to the marked cells of the rows up to `rowReach` away, each
    /// widened by `reach(south, north, dy)` columns (`nil`: the whole row is set; -1: that row
    /// adds nothing). The rows are widened from the nearest outwards, each by the difference of
    /// two reaches: widening by a, then by b, widens by a + b.
    private static func spread(
        _ marked: UnsafeMutablePointer<UInt64>, into words: UnsafeMutableBufferPointer<UInt64>, word: Int, rowReach: Int, _ s: RowScratch,
        reach reachOf: (_ south: Double, _ north: Double, _ dy: Int) -> Int?
    ) {
        var reach = [Int](repeating: 0, count: rowReach + 1)
        rows: for row in 0..<Self.rows {
            let south = Double(row) / Self.perDegree - 90, north = south + 1 / Self.perDegree
            var last = rowReach
            for dy in 0...rowReach {
                guard let r = reachOf(south, north, dy) else {
                    for w in 0..<Self.wordsPerRow { words[2 * (row * Self.wordsPerRow + w) + word] = ~0 }
                    continue rows
                }
                reach[dy] = r
            }
            // Made non-increasing outwards, so that each row widens by a difference ≥ 0.
            for dy in stride(from: rowReach - 1, through: 0, by: -1) { reach[dy] = max(reach[dy], reach[dy + 1]) }
            while last >= 0 && reach[last] < 0 { last -= 1 }
            s.clear()
            for dy in 0..<(last + 1) {
                if row - dy >= 0 { s.add(marked, row: row - dy) }
                if dy > 0 && row + dy < Self.rows { s.add(marked, row: row + dy) }
                s.widen(by: reach[dy] - (dy < last ? reach[dy + 1] : 0))
            }
            for w in 0..<Self.wordsPerRow { words[2 * (row * Self.wordsPerRow + w) + word] = s.band[w] }
        }
    }

}

/// One row of cells being widened, and the room to turn it, made once for the whole grid.
struct RowScratch {
    let band = zeroedWords(3 * CoastGrid.wordsPerRow)
    private var west: UnsafeMutablePointer<UInt64> { band + CoastGrid.wordsPerRow }
    private var east: UnsafeMutablePointer<UInt64> { band + 2 * CoastGrid.wordsPerRow }

    func deallocate() { free(band) }

    /// `band` becomes empty.
    func clear() { band.update(repeating: 0, count: CoastGrid.wordsPerRow) }

    /// Adds a marked row to `band`.
    func add(_ marked: UnsafeMutablePointer<UInt64>, row r: Int) {
        let n = CoastGrid.wordsPerRow
        let m = marked + r * n
        for w in 0..<n { band[w] |= m[w] }
    }

    /// Every set cell of `band` widened by `reach` columns each way, around the world: by
    /// 1, 2, 4… columns in turn (widening by a, then by b, widens by a + b).
    func widen(by reach: Int) {
        var done = 0, step = 1
        while done < reach {
            let k = min(step, reach - done)
            Self.rotate(band, by: k, into: west)
            Self.rotate(band, by: CoastGrid.columns - k, into: east)
            for w in 0..<CoastGrid.wordsPerRow { band[w] |= west[w] | east[w] }
            done += k
            step *= 2
        }
    }

    /// `row` turned east by `shift` columns (0 < shift < columns), wrapping around.
    private static func rotate(_ row: UnsafePointer<UInt64>, by shift: Int, into out: UnsafeMutablePointer<UInt64>) {
        let n = CoastGrid.wordsPerRow
        let wordShift = shift >> 6, bitShift = UInt64(shift & 63)
        // Word w takes its low bits from word w − wordShift and its high ones from the word
        // before that, both around the row.
        var i = wordShift == 0 ? 0 : n - wordShift
        var j = i == 0 ? n - 1 : i - 1
        for w in 0..<n {
            let lo = row[i], hi = row[j]
            out[w] = bitShift == 0 ? lo : lo &<< bitShift | hi &>> (64 &- bitShift)
            j = i
            i = i == n - 1 ? 0 : i + 1
        }
    }
}

/// `count` words of zeros from `calloc`: fresh pages are zero already, so a large table is
/// not written twice.
func zeroedWords(_ count: Int) -> UnsafeMutablePointer<UInt64> {
    guard let raw = calloc(count, MemoryLayout<UInt64>.size) else { fatalError("out of memory for \(count) words") }
    return raw.assumingMemoryBound(to: UInt64.self)
}

/// The cells of 1/16° that may hold land and those that certainly do, from the tree: a
/// whole-country slot's cells hold land; each vertex of a border leaf is a point of land, and
/// the leaf's coast runs along its edges.
struct LandMarks {
    let index: CountryIndex
    let mayHoldLand: UnsafeMutablePointer<UInt64>
    let holdsLand: UnsafeMutablePointer<UInt64>
    /// The leaf marked last: a merged node repeats a coarser leaf over the children it spans.
    private var lastLeaf = -1

    /// Lattice units (2^-10°) per cell.
    static let cellSize = (1 << CountryIndexFormat.finestDepth) / CoastGrid.cellsPerDegree
    static let words = CoastGrid.rows * CoastGrid.wordsPerRow

    init(_ index: CountryIndex) {
        self.index = index
        mayHoldLand = zeroedWords(Self.words)
        holdsLand = zeroedWords(Self.words)
    }

    func deallocate() {
        free(mayHoldLand)
        free(holdsLand)
    }

    /// Marks the cells under every root slot of the tree.
    mutating func markTree() {
        for row in 0..<CountryIndexFormat.rootRows {
            for col in 0..<CountryIndexFormat.rootColumns {
                let slot = CellSlot(index.root[row * CountryIndexFormat.rootColumns + col])
                let size = 1 << CountryIndexFormat.finestDepth
                mark(slot, lx: col * size, ly: row * size, size: size)
            }
        }
    }

    /// Marks the cells under `slot`, whose square is (`lx`, `ly`, `size`) in lattice units.
    mutating func mark(_ slot: CellSlot, lx: Int, ly: Int, size: Int) {
        switch slot.kind {
        case .sea:
            return
        case .country:
            // Land throughout, whether the slot is the square's own or repeated over it.
            fill(lx: lx, ly: ly, size: size)
        case .leaf:
            if slot.payload != lastLeaf {
                lastLeaf = slot.payload
                markLeaf(at: slot.payload)
            }
        case .node:
            let k = slot.fanOutBits, side = 1 << k, child = size >> k
            for cy in 0..<side {
                for cx in 0..<side {
                    let s = CellSlot(index.nodes[slot.childBase + cy * side + cx])
                    mark(s, lx: lx + cx * child, ly: ly + cy * child, size: child)
                }
            }
        }
    }

    /// Each vertex's cell holds land. The cells each edge crosses (the box of its two ends'
    /// cells) may: a position off the land is nearest to a point of some edge, so only its
    /// distance to these cells matters, not to the cells inside a group's rings.
    private mutating func markLeaf(at offset: Int) {
        let leaf = Leaf(index.leaves, offset: offset, compact: index.compactLeaves)
        var g = leaf.first
        let n = CoastGrid.wordsPerRow
        for _ in 0..<leaf.groupCount {
            let group = leaf.group(at: g)
            g = group.next
            for r in 0..<group.ringCount {
                let ring = group.ring(r)
                guard !ring.isEmpty else { continue }
                let first = group.vertex(ring.lowerBound)
                var (c0, r0) = Self.cell(longitude: first.x, latitude: first.y)
                holdsLand[r0 &* n &+ c0 &>> 6] |= 1 &<< UInt64(c0 & 63)
                mayHoldLand[r0 &* n &+ c0 &>> 6] |= 1 &<< UInt64(c0 & 63)
                for k in (ring.lowerBound + 1)..<ring.upperBound {
                    let v = group.vertex(k)
                    let (c1, r1) = Self.cell(longitude: v.x, latitude: v.y)
                    // Most edges stay in their cell, already marked.
                    if c1 == c0 && r1 == r0 { continue }
                    holdsLand[r1 &* n &+ c1 &>> 6] |= 1 &<< UInt64(c1 & 63)
                    for row in min(r0, r1)...max(r0, r1) {
                        for c in min(c0, c1)...max(c0, c1) { mayHoldLand[row &* n &+ c &>> 6] |= 1 &<< UInt64(c & 63) }
                    }
                    (c0, r0) = (c1, r1)
                }
            }
        }
    }

    /// The cell holding a vertex, clamped onto the grid (the index's vertices lie within ±180,
    /// ±90; the clamp also keeps the casts in range).
    @inline(__always)
    private static func cell(longitude: Double, latitude: Double) -> (column: Int, row: Int) {
        let scale = Double(CoastGrid.cellsPerDegree)
        let x = min(max((longitude + 180) * scale, 0), Double(CoastGrid.columns - 1))
        let y = min(max((latitude + 90) * scale, 0), Double(CoastGrid.rows - 1))
        return (Int(x), Int(y))
    }

    /// Marks the cells that the lattice square (`lx`, `ly`, `size`) covers, or lies in, as
    /// holding land.
    private mutating func fill(lx: Int, ly: Int, size: Int) {
        let c0 = lx / Self.cellSize, r0 = ly / Self.cellSize
        // A square of the tree is a power of two cells wide at a multiple of its width (at
        // most 16 cells, a root cell's): its cells of one row lie within one word.
        let n = max(1, size / Self.cellSize)
        let mask: UInt64 = ((1 << UInt64(n)) - 1) << UInt64(c0 & 63)
        for r in r0..<(r0 + n) {
            let w = r * CoastGrid.wordsPerRow + c0 >> 6
            mayHoldLand[w] |= mask
            holdsLand[w] |= mask
        }
    }
}

extension CoastGrid {
    /// The number of words of ``landMarks(of:)``.
    package static var landMarkWords: Int { 2 * LandMarks.words }

    /// What a grid is built from, read off `index`'s tree: per 1/16° cell, whether it may hold
    /// land (a coast's edge crosses it), then whether it certainly does, as bits by row. A land
    /// index stores them (``CountryIndex/coastMarks``), so that building a grid reads 4 MB
    /// instead of every vertex.
    package static func landMarks(of index: CountryIndex) -> [UInt64] {
        var marks = LandMarks(index)
        defer { marks.deallocate() }
        marks.markTree()
        return Array(UnsafeBufferPointer(start: marks.mayHoldLand, count: LandMarks.words))
            + Array(UnsafeBufferPointer(start: marks.holdsLand, count: LandMarks.words))
    }
}
