import GeoNewsGeodesy

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Two answers about Natural Earth's land for every cell of 1/16° (about 7 km), read from
/// ``CountryIndex``'s tree, so that most positions at sea near a coast need no nearest-land
/// search:
/// - ``mayBeNearShore(_:)``: false only where no land lies within the index's near-shore
///   distance (25 km) of any point of the cell. The root grid's flag says this per 1° cell,
///   and a 1° cell beside a coast is near the shore at one end and 100 km out at the other.
/// - ``certainlyNearLand(_:)``: true only where land lies within 20 km (less than the
///   territorial sea's 22.224 km) of every point of the cell.
///
/// Both are conservative: a cell the tree cannot settle answers as if it were near the shore
/// and not certainly near land, and the search decides. An answer never depends on the grid,
/// only its cost. Building it reads every vertex of the index's border leaves (about 20 ms).
public final class CoastGrid: @unchecked Sendable {
    // Sendable: `words` is written in init and only read after.
    /// Cells per degree.
    static let cellsPerDegree = 16
    static let columns = CountryIndexFormat.rootColumns * cellsPerDegree
    static let rows = CountryIndexFormat.rootRows * cellsPerDegree
    static let wordsPerRow = columns / 64
    /// Beyond this latitude a cell always may be near the shore: the columns within reach
    /// widen fast towards the poles, and Antarctica's coast is near anyway.
    static let polarLatitude = 80.0

    /// Per row of cells, per 64 columns: the word of ``mayBeNearShore(_:)``'s bits, then the
    /// word of ``certainlyNearLand(_:)``'s, side by side so that one cache line holds both.
    private let words: UnsafeMutablePointer<UInt64>

    /// Builds the grid from `index`'s tree for its near-shore distance.
    public init(_ index: CountryIndex) {
        let cellKm = GreatCircle.meanEarthRadiusKm * .pi / 180 / Double(Self.cellsPerDegree)
        // A diagonal neighbour's far corner is at most two cells away on both axes.
        precondition(2 * 2.squareRoot() * cellKm < 20, "cells too coarse for the certain-land test")
        let count = 2 * Self.rows * Self.wordsPerRow
        words = .allocate(capacity: count)
        words.initialize(repeating: 0, count: count)
        var marks = LandMarks(index)
        for row in 0..<CountryIndexFormat.rootRows {
            for col in 0..<CountryIndexFormat.rootColumns {
                let slot = CellSlot(index.root[row * CountryIndexFormat.rootColumns + col])
                let size = 1 << CountryIndexFormat.finestDepth
                marks.mark(slot, lx: col * size, ly: row * size, size: size)
            }
        }
        var scratch = RowScratch()
        dilate(marks.mayHoldLand, byKm: index.nearShoreKm, word: 0, &scratch)
        dilateByOne(marks.holdsLand, word: 1, &scratch)
        marks.deallocate()
    }

    deinit { words.deallocate() }

    /// False only when no land lies within the near-shore distance of `p`.
    @inline(__always)
    public func mayBeNearShore(_ p: Coordinate) -> Bool { Self.mayBeNearShore(p, in: words) }

    /// True only when land lies within 20 km of `p`.
    @inline(__always)
    public func certainlyNearLand(_ p: Coordinate) -> Bool { Self.certainlyNearLand(p, in: words) }

    /// The grid's words, for ``CoastGridBuild`` to hand out once they are complete.
    var bits: UnsafePointer<UInt64> { UnsafePointer(words) }

    @inline(__always)
    static func mayBeNearShore(_ p: Coordinate, in words: UnsafePointer<UInt64>) -> Bool { bit(p, word: 0, in: words) ?? true }

    @inline(__always)
    static func certainlyNearLand(_ p: Coordinate, in words: UnsafePointer<UInt64>) -> Bool {
        bit(p, word: 1, in: words) ?? false
    }

    /// The address of the words that answer for `p`, for a batch to ask the caches for early.
    @inline(__always)
    static func address(of p: Coordinate, in words: UnsafePointer<UInt64>) -> UnsafeRawPointer? {
        locate(p).map { UnsafeRawPointer(words + $0.offset) }
    }

    @inline(__always)
    private static func bit(_ p: Coordinate, word: Int, in words: UnsafePointer<UInt64>) -> Bool? {
        guard let (offset, shift) = locate(p) else { return nil }
        return words[offset &+ word] &>> shift & 1 != 0
    }

    /// Where `p`'s cell is: the offset of its pair of words and its bit; `nil` off the grid
    /// (NaN, or a latitude or longitude out of range).
    @inline(__always)
    private static func locate(_ p: Coordinate) -> (offset: Int, shift: UInt64)? {
        let x = (p.longitude + 180) * Double(cellsPerDegree), y = (p.latitude + 90) * Double(cellsPerDegree)
        // Both comparisons are false for NaN, and the casts below are then in range.
        guard x >= 0 && x < Double(columns) && y >= 0 && y < Double(rows) else { return nil }
        let col = Int(x), row = Int(y)
        return (2 &* (row &* wordsPerRow &+ col &>> 6), UInt64(col & 63))
    }

    /// Sets, in the `word`s, every cell within `km` of a marked one: the rows and columns of
    /// ``SearchWindow`` around the cell, wrapped across the antimeridian; and every cell
    /// beyond ``polarLatitude``.
    private func dilate(_ marked: UnsafeMutablePointer<UInt64>, byKm km: Double, word: Int, _ s: inout RowScratch) {
        let perDegree = Double(Self.cellsPerDegree)
        let dLat = km / GreatCircle.meanEarthRadiusKm * 180 / .pi
        // A point within `km` of the cell lies within dLat of its rows (SearchWindow's bound,
        // with its margin) and within the half-width of its columns.
        let rowReach = Int((dLat * perDegree + 1e-6).rounded(.up))
        for row in 0..<Self.rows {
            let south = Double(row) / perDegree - 90, north = south + 1 / perDegree
            let poleward = max(abs(south - dLat), abs(north + dLat))
            let sine = sin(km / (2 * GreatCircle.meanEarthRadiusKm)) / cos(min(90, poleward) * .pi / 180)
            guard poleward < Self.polarLatitude, sine < 1 else {
                for w in 0..<Self.wordsPerRow { words[2 * (row * Self.wordsPerRow + w) + word] = ~0 }
                continue
            }
            let columnReach = Int((2 * asin(sine) * 180 / .pi * perDegree + 1e-6).rounded(.up))
            s.gather(marked, rows: max(0, row - rowReach)...min(Self.rows - 1, row + rowReach))
            s.widen(by: columnReach)
            for w in 0..<Self.wordsPerRow { words[2 * (row * Self.wordsPerRow + w) + word] = s.band[w] }
        }
    }

    /// Sets, in the `word`s, every cell whose eight neighbours or itself are marked.
    private func dilateByOne(_ marked: UnsafeMutablePointer<UInt64>, word: Int, _ s: inout RowScratch) {
        for row in 0..<Self.rows {
            s.gather(marked, rows: max(0, row - 1)...min(Self.rows - 1, row + 1))
            s.widen(by: 1)
            for w in 0..<Self.wordsPerRow { words[2 * (row * Self.wordsPerRow + w) + word] = s.band[w] }
        }
    }
}

/// One row of cells being widened, and the room to turn it, made once for the whole grid.
private struct RowScratch {
    var band = [UInt64](repeating: 0, count: CoastGrid.wordsPerRow)
    private var west = [UInt64](repeating: 0, count: CoastGrid.wordsPerRow)
    private var east = [UInt64](repeating: 0, count: CoastGrid.wordsPerRow)

    /// `band` becomes the union of the marked rows.
    mutating func gather(_ marked: UnsafeMutablePointer<UInt64>, rows: ClosedRange<Int>) {
        let n = CoastGrid.wordsPerRow
        for w in 0..<n { band[w] = 0 }
        for r in rows {
            for w in 0..<n { band[w] |= marked[r * n + w] }
        }
    }

    /// Every set cell of `band` widened by `reach` columns each way, around the world: by
    /// 1, 2, 4… columns in turn (widening by a, then by b, widens by a + b).
    mutating func widen(by reach: Int) {
        var done = 0, step = 1
        while done < reach {
            let k = min(step, reach - done)
            Self.rotate(band, by: k, into: &west)
            Self.rotate(band, by: CoastGrid.columns - k, into: &east)
            for w in 0..<CoastGrid.wordsPerRow { band[w] |= west[w] | east[w] }
            done += k
            step *= 2
        }
    }

    /// `row` turned east by `shift` columns (0 < shift < columns), wrapping around.
    private static func rotate(_ row: [UInt64], by shift: Int, into out: inout [UInt64]) {
        let n = CoastGrid.wordsPerRow
        let wordShift = shift / 64, bitShift = UInt64(shift % 64)
        for w in 0..<n {
            let lo = row[(w - wordShift + n) % n]
            let hi = row[(w - wordShift - 1 + 2 * n) % n]
            out[w] = bitShift == 0 ? lo : lo << bitShift | hi >> (64 - bitShift)
        }
    }
}

/// The cells of 1/16° that may hold land and those that certainly do, from the tree: a
/// whole-country slot's cells hold land; a border leaf's land lies within the box of each
/// group's vertices, and each vertex is a point of it.
private struct LandMarks {
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
        mayHoldLand = .allocate(capacity: Self.words)
        mayHoldLand.initialize(repeating: 0, count: Self.words)
        holdsLand = .allocate(capacity: Self.words)
        holdsLand.initialize(repeating: 0, count: Self.words)
    }

    func deallocate() {
        mayHoldLand.deallocate()
        holdsLand.deallocate()
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

    /// Each vertex's cell holds land; every cell of each group's box of vertices may.
    private mutating func markLeaf(at offset: Int) {
        var g = index.leaves.baseAddress! + offset
        let groups = Int(g.pointee)
        g += 1
        let n = CoastGrid.wordsPerRow
        for _ in 0..<groups {
            let group = LeafGroup(g)
            g = group.next
            let v = group.vertices
            var c0 = Int.max, c1 = Int.min, r0 = Int.max, r1 = Int.min
            for k in 0..<group.vertexCount {
                let (column, row) = Self.cell(longitude: v[2 &* k], latitude: v[2 &* k &+ 1])
                holdsLand[row &* n &+ column &>> 6] |= 1 &<< UInt64(column & 63)
                c0 = min(c0, column)
                c1 = max(c1, column)
                r0 = min(r0, row)
                r1 = max(r1, row)
            }
            guard c0 <= c1 else { continue }
            for r in r0...r1 {
                for c in c0...c1 { mayHoldLand[r &* n &+ c &>> 6] |= 1 &<< UInt64(c & 63) }
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
