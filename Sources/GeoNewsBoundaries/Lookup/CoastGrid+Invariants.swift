import GeoNewsGeodesy

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The rules a ``CoastGrid`` keeps, checked over its whole block by
/// ``CoastGrid/problem(in:nearShoreKm:)``: after every build in a debug build, and by
/// `CoastGridInvariantTests`, which breaks each one on purpose. The grid only ever spares a
/// search whose answer it knows, so a grid that broke one of these would answer wrong without a
/// sign; the marks a land index stores for it are checked against its tree by
/// ``CountryIndex/coastMarksProblem()`` (in ``CountryIndex/verify()``).
package enum CoastGridRule: String, InvariantRule {
    package static let subject = "coast grid"
    /// Every cell a coast's edge crosses may be near the shore: the near-shore cells are the
    /// edge cells widened by the near-shore distance.
    case edgeCellNearShore = "edge cell near the shore"
    /// Every cell certainly within 22.1 km of land may be near the shore (within 25 km).
    case certainNearShore = "certain cell near the shore"
    /// Every cell that holds land is certainly within 22.1 km of land (its own).
    case landCellCertain = "land cell certain"
    /// Each row's secant is the reciprocal of the cosine of its most poleward latitude.
    case secant = "secant"
    /// The reach is the near-shore distance's: sin² of half its angle, and the rows it spans.
    case reach = "reach"
    /// The marks a land index stores are the ones its tree gives.
    case storedMarks = "stored marks"
}

/// The first broken rule of a coast grid, where, and how.
package typealias CoastGridProblem = InvariantProblem<CoastGridRule>

extension CoastGrid {
    /// The number of 64-bit words in a grid's block.
    package static var blockWordCount: Int { blockWords }

    /// A copy of this grid's block, for a test to damage and check.
    package var blockCopy: [UInt64] { Array(block) }

    /// The first rule this grid breaks for an index of this near-shore distance, or `nil`.
    package func problem(nearShoreKm: Double) -> CoastGridProblem? { Self.problem(in: block, nearShoreKm: nearShoreKm) }

    /// The first rule the grid block `words` (``blockWordCount`` words) breaks, or `nil`.
    package static func problem(in words: UnsafeBufferPointer<UInt64>, nearShoreKm: Double) -> CoastGridProblem? {
        guard words.count == blockWords else {
            return CoastGridProblem(rule: .reach, detail: "\(words.count) words, not \(blockWords)")
        }
        /// The south-west corner of the first cell set in `bits` of word `w` of `row`.
        func cell(_ row: Int, _ w: Int, _ bits: UInt64) -> String {
            let column = w * 64 + bits.trailingZeroBitCount
            return "the cell at \(Double(row) / perDegree - 90)°, \(Double(column) / perDegree - 180)°"
        }
        for row in 0..<rows {
            for w in 0..<wordsPerRow {
                let near = words[2 * (row * wordsPerRow + w)], certain = words[2 * (row * wordsPerRow + w) + 1]
                let edges = words[edgeCellsOffset + w * rows + row], land = words[landCellsOffset + w * rows + row]
                if edges & ~near != 0 {
                    return CoastGridProblem(
                        rule: .edgeCellNearShore, detail: "\(cell(row, w, edges & ~near)) is crossed by a coast but not near the shore")
                }
                if certain & ~near != 0 {
                    return CoastGridProblem(
                        rule: .certainNearShore, detail: "\(cell(row, w, certain & ~near)) is certainly near land but not near the shore")
                }
                if land & ~certain != 0 {
                    return CoastGridProblem(
                        rule: .landCellCertain, detail: "\(cell(row, w, land & ~certain)) holds land but is not certainly near it")
                }
            }
        }
        let secants = words[secantsOffset...].lazy.map(Double.init(bitPattern:))
        for row in 0..<rows {
            let south = Double(row) / perDegree - 90
            let expected = 1 / max(0, cos(max(abs(south), abs(south + 1 / perDegree)) * radians))
            guard secants[secantsOffset + row] == expected else {
                return CoastGridProblem(
                    rule: .secant, detail: "row \(row) (from \(south)°) holds \(secants[secantsOffset + row]), not \(expected)")
            }
        }
        let reachKm = nearShoreKm * (1 + 1e-9) + 1e-6
        let sinHalf = sin(reachKm / (2 * GreatCircle.meanEarthRadiusKm))
        let rowsReached = reachKm / GreatCircle.meanEarthRadiusKm / radians * perDegree
        let reached = (sinHalfSquared: Double(bitPattern: words[reachOffset]), rows: Double(bitPattern: words[reachOffset + 1]))
        guard reached.sinHalfSquared == sinHalf * sinHalf, reached.rows == rowsReached else {
            return CoastGridProblem(
                rule: .reach,
                detail: "sin² \(reached.sinHalfSquared) and \(reached.rows) rows, not \(sinHalf * sinHalf) and "
                    + "\(rowsReached) for \(nearShoreKm) km")
        }
        return nil
    }
}

extension CountryIndex {
    /// Whether the coast marks this index stores (a land index's) are the ones its tree gives
    /// (``CoastGrid/landMarks(of:)``): the first cell where they differ, or `nil`. It reads
    /// every vertex, so it runs in ``verify()``, not at load.
    package func coastMarksProblem() -> CoastGridProblem? {
        guard let stored = coastMarks else { return nil }
        let marks = CoastGrid.landMarks(of: self)
        guard stored.count == marks.count else {
            return CoastGridProblem(rule: .storedMarks, detail: "\(stored.count) words stored, \(marks.count) expected")
        }
        for k in 0..<marks.count where stored[k] != marks[k] {
            let half = marks.count / 2, w = k % half
            let row = w / CoastGrid.wordsPerRow, column = (w % CoastGrid.wordsPerRow) * 64 + (stored[k] ^ marks[k]).trailingZeroBitCount
            let which = k < half ? "may hold land" : "holds land"
            return CoastGridProblem(
                rule: .storedMarks,
                detail:
                    "the stored mark of whether it \(which) differs from the tree's at the cell at "
                    + "\(Double(row) / Double(CoastGrid.cellsPerDegree) - 90)°, \(Double(column) / Double(CoastGrid.cellsPerDegree) - 180)°"
            )
        }
        return nil
    }
}
