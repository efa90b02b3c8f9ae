import GeoNewsGeodesy

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Two answers about the land for every cell of 1/16° (about 7 km), read from
/// ``CountryIndex``'s tree (or the marks a land index stores), so that most positions at sea near a coast need no nearest-land
/// search:
/// - ``mayBeNearShore(_:)``: false only where no land lies within the index's near-shore
///   distance (25 km) of any point of the cell that is off the land (the resolver asks only
///   there: inside a large leaf's land it may be false). The root grid's flag says this per
///   1° cell, and a 1° cell beside a coast is near the shore at one end and 100 km out at the
///   other.
/// - ``certainlyNearLand(_:)``: true only where land lies within 22.1 km (less than the
///   territorial sea's 22.224 km) of every point of the cell, or, measured from the position
///   itself, where a cell that holds land has its centre within 17.2 km of it (every point
///   of such a cell is within 4.9 km of its centre).
///
/// Both are conservative: a cell the tree cannot settle answers as if it were near the shore
/// and not certainly near land, and the search decides. An answer never depends on the grid,
/// only its cost. Building it reads every vertex of the index's border leaves (about 30 ms).
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
    /// ``certainlyNearLand(_:)``'s distance: 0.5 % short of the territorial sea's 22.224 km, far
    /// more than the nearest-land search's own error (under 0.1 % at this range), so that
    /// every position it settles the search would find within the territorial sea.
    static let certainKm = 22.1

    /// One block, in five parts:
    /// - per row of cells, per 64 columns: the word of the cells that may be near the shore,
    ///   then the word of ``certainlyNearLand(_:)``'s, side by side so that one cache line
    ///   holds both;
    /// - per 64 columns, per row: the word of the cells that the coast's edges cross, for
    ///   ``mayBeNearShore(_:)`` to measure from the position itself;
    /// - per 64 columns, per row: the word of the cells that certainly hold land (a vertex of
    ///   the coast, or a square the tree gives wholly to a country), for
    ///   ``certainlyNearLand(_:)`` to measure from the position itself;
    /// - per row, the secant of its most poleward latitude;
    /// - the sine² of half the near-shore distance's angle, and that distance in rows.
    ///
    /// The doubles are kept as their bit patterns, so the block is one buffer of words and
    /// every read is bounds-checked in a debug build.
    private let words: UnsafeMutableBufferPointer<UInt64>
    static let edgeCellsOffset = 2 * rows * wordsPerRow
    static let landCellsOffset = 3 * rows * wordsPerRow
    static let secantsOffset = 4 * rows * wordsPerRow
    static let reachOffset = secantsOffset + rows
    static let blockWords = reachOffset + 2

    /// Builds the grid from `index`'s tree for its near-shore distance.
    public init(_ index: CountryIndex) {
        words = UnsafeMutableBufferPointer(start: zeroedWords(Self.blockWords), count: Self.blockWords)
        var marks = LandMarks(index)
        if let stored = index.coastMarks {
            // The land index stores its marks: copying them spares reading every vertex.
            marks.mayHoldLand.update(from: stored.baseAddress!, count: LandMarks.words)
            marks.holdsLand.update(from: stored.baseAddress! + LandMarks.words, count: LandMarks.words)
        } else {
            marks.markTree()
        }
        let scratch = RowScratch()
        defer { scratch.deallocate() }
        Self.dilate(marks.mayHoldLand, byKm: index.nearShoreKm, into: words, word: 0, scratch)
        Self.dilateWithin(marks.holdsLand, km: Self.certainKm, into: words, word: 1, scratch)
        // Column-major: a word's rows lie side by side, so the rows within reach of a position
        // share a cache line or two.
        for row in 0..<Self.rows {
            for w in 0..<Self.wordsPerRow {
                words[Self.edgeCellsOffset + w * Self.rows + row] = marks.mayHoldLand[row * Self.wordsPerRow + w]
                words[Self.landCellsOffset + w * Self.rows + row] = marks.holdsLand[row * Self.wordsPerRow + w]
            }
        }
        marks.deallocate()
        for row in 0..<Self.rows {
            let south = Double(row) / Self.perDegree - 90
            let secant = 1 / max(0, cos(max(abs(south), abs(south + 1 / Self.perDegree)) * Self.radians))
            words[Self.secantsOffset + row] = secant.bitPattern
        }
        let reachKm = index.nearShoreKm * (1 + 1e-9) + 1e-6
        let sinHalf = sin(reachKm / (2 * GreatCircle.meanEarthRadiusKm))
        words[Self.reachOffset] = (sinHalf * sinHalf).bitPattern
        words[Self.reachOffset + 1] = (reachKm / GreatCircle.meanEarthRadiusKm / Self.radians * Self.perDegree).bitPattern
        #if DEBUG
        if let problem = problem(nearShoreKm: index.nearShoreKm) { preconditionFailure("\(problem)") }
        #endif
    }

    deinit { free(words.baseAddress) }

    /// False only when no land lies within the near-shore distance of `p`, off the land.
    @inline(__always)
    public func mayBeNearShore(_ p: Coordinate) -> Bool { Self.mayBeNearShore(p, in: block) }

    /// True only when land lies within ``certainKm`` (22.1 km) of `p`.
    @inline(__always)
    public func certainlyNearLand(_ p: Coordinate) -> Bool { Self.certainlyNearLand(p, in: block) }

    /// The grid's block (``blockWords`` words), for ``CoastGridBuild`` to hand out once it is
    /// complete.
    var block: UnsafeBufferPointer<UInt64> { UnsafeBufferPointer(words) }

    /// The double kept at `offset` of a block (a secant, the reach).
    @inline(__always)
    private static func double(_ words: UnsafeBufferPointer<UInt64>, _ offset: Int) -> Double {
        Double(bitPattern: words[offset])
    }

    /// The cell's bit, and where the cell may be near the shore but is not certainly near
    /// land, the position's own reach: ``nearShoreReaches(_:in:)``.
    @inline(__always)
    static func mayBeNearShore(_ p: Coordinate, in words: UnsafeBufferPointer<UInt64>) -> Bool {
        guard let (offset, shift) = locate(p) else { return true }
        guard words[offset] &>> shift & 1 != 0 else { return false }
        if words[offset &+ 1] &>> shift & 1 != 0 { return true }
        return nearShoreReaches(p, in: words)
    }

    /// Whether a cell that the coast's edges cross lies within the near-shore distance of `p`
    /// itself rather than of any point of its cell (which leaves a band a cell wide where a
    /// search finds nothing).
    ///
    /// Off the land, the nearest land is a point of an edge, in a cell the edges cross. By the
    /// haversine formula, a point within `d` of `p` whose row is `g` of latitude away is at
    /// most Δλ of longitude away, with sin²(Δλ/2) ≤ (sin²(d/2R) − sin²(g/2)) / (cos φ₁ cos φ₂),
    /// the cosines no smaller than those of each row's most poleward latitude (the table holds
    /// their reciprocals, so that a row costs no division). Each row in
    /// reach is read over the columns of that Δλ either side of `p`: sin x ≥ x − x³/6 bounds
    /// the gap's sine from below, and asin s ≤ s + s³ (s ≤ 1/2) the longitude from above.
    private static func nearShoreReaches(_ p: Coordinate, in words: UnsafeBufferPointer<UInt64>) -> Bool {
        guard abs(p.latitude) < polarLatitude else { return true }
        let sinHalfSquared = double(words, reachOffset), reachRows = double(words, reachOffset + 1)
        let x = (p.longitude + 180) * perDegree, y = (p.latitude + 90) * perDegree
        let row = Int(y)
        let first = max(0, Int(y - reachRows - 1e-6)), last = min(rows - 1, Int(y + reachRows + 1e-6))
        let secantHere = double(words, secantsOffset &+ row)
        @inline(__always) func reaches(_ r: Int) -> Bool {
            // Degrees of latitude from `p` to the row, 0 within it.
            let gap = max(0, max(Double(r) - y, y - Double(r + 1)) / perDegree)
            let h = gap * radians / 2
            let sine = h - h * h * h / 6
            let s2 = (sinHalfSquared - sine * sine) * secantHere * double(words, secantsOffset &+ r)
            if s2 < 0 { return false }
            if s2 >= 0.25 { return true }
            let s = s2.squareRoot()
            let width = 2 * (s + s * s * s) / radians * perDegree * (1 + 1e-9) + 1e-6
            return anyCell(words, edgeCellsOffset &+ r, from: Int((x - width).rounded(.down)), through: Int((x + width).rounded(.down)))
        }
        // The position's own row first, then outwards: land near it is found at once, and
        // only a position with none in reach reads every row.
        if reaches(row) { return true }
        var dy = 1
        while row - dy >= first || row + dy <= last {
            if row - dy >= first && reaches(row - dy) { return true }
            if row + dy <= last && reaches(row + dy) { return true }
            dy += 1
        }
        return false
    }

    /// Whether any bit of columns `from...through` of the edge cells' row at `row` (the
    /// offset of its first word: a row's words lie ``rows`` apart) is set, wrapped around the
    /// world (both within a row's width of it).
    @inline(__always)
    private static func anyCell(_ words: UnsafeBufferPointer<UInt64>, _ row: Int, from: Int, through: Int) -> Bool {
        if through - from >= columns - 1 { return true }
        let a = from < 0 ? from + columns : from, b = through >= columns ? through - columns : through
        if a > b { return anyCell(words, row, a, columns - 1) || anyCell(words, row, 0, b) }
        return anyCell(words, row, a, b)
    }

    @inline(__always)
    private static func anyCell(_ words: UnsafeBufferPointer<UInt64>, _ row: Int, _ a: Int, _ b: Int) -> Bool {
        var w = a >> 6
        while w <= b >> 6 {
            var word = words[row &+ w &* rows]
            if w == a >> 6 { word &= ~0 &<< UInt64(a & 63) }
            if w == b >> 6 { word &= ~0 &>> UInt64(63 - b & 63) }
            if word != 0 { return true }
            w += 1
        }
        return false
    }

    /// The cell's bit, and where the cell may be near the shore but is not certainly near
    /// land, the position's own reach: ``landCellWithin(_:in:)``.
    @inline(__always)
    static func certainlyNearLand(_ p: Coordinate, in words: UnsafeBufferPointer<UInt64>) -> Bool {
        guard let (offset, shift) = locate(p) else { return false }
        if words[offset &+ 1] &>> shift & 1 != 0 { return true }
        guard words[offset] &>> shift & 1 != 0 else { return false }
        return landCellWithin(p, in: words)
    }

    /// The greatest distance from a cell's centre to a point of it: a point of the cell lies
    /// at most 1/32° of latitude and of longitude from the centre, so by the haversine
    /// formula (both cosines at most 1) at most 2R asin(√2 sin(1/64°)), 4.914 km.
    static let halfDiagonalKm = 2 * GreatCircle.meanEarthRadiusKm * asin(2.0.squareRoot() * sin(radians / 64))
    /// How near the position a land cell's centre must be: every point of the cell, and so
    /// its land, then lies within ``certainKm`` (1 m to spare for rounding).
    static let landCentreKm = certainKm - halfDiagonalKm - 0.001

    /// Whether a cell that certainly holds land has its centre within ``landCentreKm`` of `p`
    /// on the great circle, so that land lies within ``certainKm`` of `p`. Row by row, nearest
    /// first: the centres of a row at latitude φ within that distance are those within Δλ of
    /// `p`'s longitude, with hav Δλ = (hav(d/R) − hav(φ − φₚ)) / (cos φₚ cos φ), narrowed by a
    /// part in 10⁹ so that rounding never takes in a cell beyond it.
    private static func landCellWithin(_ p: Coordinate, in words: UnsafeBufferPointer<UInt64>) -> Bool {
        guard abs(p.latitude) < polarLatitude else { return false }
        let x = (p.longitude + 180) * perDegree, y = (p.latitude + 90) * perDegree
        let row = Int(y)
        let φ = p.latitude * radians, cosφ = cos(φ)
        @inline(__always) func reaches(_ r: Int) -> Bool {
            guard r >= 0 && r < rows else { return false }
            let centre = ((Double(r) + 0.5) / perDegree - 90) * radians
            let h = sin((centre - φ) / 2)
            let rest = landCentreHaversine - h * h
            guard rest > 0 else { return false }
            let s = (rest / (cosφ * cos(centre))).squareRoot()
            guard s < 1 else { return false }
            let span = 2 * asin(s) / radians * perDegree * (1 - 1e-9)
            // Columns whose centre (c + 0.5) lies within `span` of x.
            let from = Int((x - span - 0.5).rounded(.up)), through = Int((x + span - 0.5).rounded(.down))
            // (A span round the whole row would read no cell: certain only of what it reads.)
            guard from <= through && through - from < columns - 1 else { return false }
            return anyCell(words, landCellsOffset &+ r, from: from, through: through)
        }
        if reaches(row) { return true }
        for dy in 1...landCentreRows {
            if reaches(row - dy) || reaches(row + dy) { return true }
        }
        return false
    }

    /// sin² of half ``landCentreKm``'s angle, and the rows it can span (one more for the
    /// position's place in its row).
    static let landCentreHaversine = {
        let s = sin(landCentreKm / (2 * GreatCircle.meanEarthRadiusKm)); return s * s
    }()
    static let landCentreRows = Int((landCentreKm / GreatCircle.meanEarthRadiusKm / radians * perDegree).rounded(.up)) + 1

    /// Where what answers for `p` lies, for a batch to ask the caches for early: the words of
    /// its cell's bits, and the edge cells' word of its column in its row
    /// (``nearShoreReaches(_:in:)`` reads the rows around it, beside it in memory). Addresses
    /// to prefetch, never read through.
    @inline(__always)
    static func addresses(of p: Coordinate, in words: UnsafeBufferPointer<UInt64>) -> (bits: UnsafeRawPointer, edgeCells: UnsafeRawPointer)?
    {
        guard let base = words.baseAddress else { return nil }
        return cell(p).map {
            (
                UnsafeRawPointer(base + offset(row: $0.row, column: $0.column)),
                UnsafeRawPointer(base + edgeCellsOffset + ($0.column >> 6) * rows + $0.row)
            )
        }
    }

    @inline(__always)
    private static func bit(_ p: Coordinate, word: Int, in words: UnsafeBufferPointer<UInt64>) -> Bool? {
        guard let (offset, shift) = locate(p) else { return nil }
        return words[offset &+ word] &>> shift & 1 != 0
    }

    /// Where `p`'s cell is: the offset of its pair of words and its bit; `nil` off the grid
    /// (NaN, or a latitude or longitude out of range).
    @inline(__always)
    private static func locate(_ p: Coordinate) -> (offset: Int, shift: UInt64)? {
        cell(p).map { (offset(row: $0.row, column: $0.column), UInt64($0.column & 63)) }
    }

    /// The row and column of `p`'s cell; `nil` off the grid (NaN, or a latitude or longitude
    /// out of range).
    @inline(__always)
    private static func cell(_ p: Coordinate) -> (row: Int, column: Int)? {
        let x = (p.longitude + 180) * Double(cellsPerDegree), y = (p.latitude + 90) * Double(cellsPerDegree)
        // Both comparisons are false for NaN, and the casts below are then in range.
        guard x >= 0 && x < Double(columns) && y >= 0 && y < Double(rows) else { return nil }
        return (Int(y), Int(x))
    }

    /// The offset of the pair of words that holds a cell's bits.
    @inline(__always)
    private static func offset(row: Int, column: Int) -> Int { 2 &* (row &* wordsPerRow &+ column &>> 6) }

    static let perDegree = Double(cellsPerDegree)
    static let radians = Double.pi / 180
}
