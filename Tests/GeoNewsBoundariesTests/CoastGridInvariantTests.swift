import Foundation
import GeoNewsData
import XCTest

@testable import GeoNewsBoundaries

/// Each rule of ``CoastGrid/problem(in:nearShoreKm:)`` broken on purpose in a copy of the
/// resolver's grid (OpenStreetMap's land), and the stored coast marks of a land index
/// (``CountryIndex/coastMarksProblem()``) changed under a good checksum.
final class CoastGridInvariantTests: XCTestCase {
    private static let grid: (block: [UInt64], nearShoreKm: Double) = {
        let index = try! TestData.resolver().index
        return (CoastGrid(index).blockCopy, index.nearShoreKm)
    }()

    /// The rule that the grid's block breaks once `change` has changed a copy of it.
    private func brokenRule(_ change: (inout [UInt64]) -> Void) -> CoastGridRule? {
        var block = Self.grid.block
        change(&block)
        return block.withUnsafeBufferPointer { CoastGrid.problem(in: $0, nearShoreKm: Self.grid.nearShoreKm)?.rule }
    }

    /// The pair of words of row `row`, columns `64 w ..< 64 (w + 1)`, and its edge cells' and
    /// land cells' words.
    private func words(row: Int, w: Int) -> (near: Int, certain: Int, edges: Int, land: Int) {
        let pair = 2 * (row * CoastGrid.wordsPerRow + w)
        return (pair, pair + 1, CoastGrid.edgeCellsOffset + w * CoastGrid.rows + row, CoastGrid.landCellsOffset + w * CoastGrid.rows + row)
    }

    /// Row and word of the mid-Pacific at 0°, 150° W: no land within the near-shore distance.
    private let openSea = (row: 90 * CoastGrid.cellsPerDegree, w: 30 * CoastGrid.cellsPerDegree / 64)

    func testTheGridsOfBothIndexesKeepEveryRule() throws {
        XCTAssertEqual(Self.grid.block.count, CoastGrid.blockWordCount)
        XCTAssertNil(brokenRule { _ in })
        let w = words(row: openSea.row, w: openSea.w)
        XCTAssertEqual(Self.grid.block[w.near], 0, "the open sea is far from every shore")
        // The land index's grid is built from the marks it stores, which are its tree's;
        // Natural Earth's index stores none, and its grid is built from its tree.
        let land = try TestData.resolver().index
        XCTAssertNotNil(land.coastMarks)
        XCTAssertNil(land.coastMarksProblem())
        let naturalEarth = try TestData.naturalEarthIndex()
        XCTAssertNil(naturalEarth.coastMarks)
        XCTAssertNil(CoastGrid(naturalEarth).problem(nearShoreKm: naturalEarth.nearShoreKm))
    }

    func testACoastCellFarFromTheShoreBreaksEdgeCellNearShore() {
        XCTAssertEqual(brokenRule { $0[words(row: openSea.row, w: openSea.w).edges] |= 1 << 5 }, .edgeCellNearShore)
    }

    func testACertainCellFarFromTheShoreBreaksCertainNearShore() {
        XCTAssertEqual(brokenRule { $0[words(row: openSea.row, w: openSea.w).certain] |= 1 << 9 }, .certainNearShore)
    }

    func testALandCellFarFromTheShoreBreaksLandCellCertain() {
        XCTAssertEqual(brokenRule { $0[words(row: openSea.row, w: openSea.w).land] |= 1 << 3 }, .landCellCertain)
    }

    func testAWrongSecantBreaksTheSecantRule() {
        XCTAssertEqual(
            brokenRule { block in
                let at = CoastGrid.secantsOffset + 2000
                block[at] = (Double(bitPattern: block[at]) * 0.99).bitPattern
            }, .secant)
    }

    func testAnotherDistanceBreaksTheReach() {
        XCTAssertEqual(
            brokenRule { block in
                let at = CoastGrid.reachOffset + 1
                block[at] = (Double(bitPattern: block[at]) + 1).bitPattern
            }, .reach)
        var block = Self.grid.block
        let problem = block.withUnsafeMutableBufferPointer { CoastGrid.problem(in: UnsafeBufferPointer($0), nearShoreKm: 30) }
        XCTAssertEqual(problem?.rule, .reach, "a grid checked against another near-shore distance")
    }

    /// A land index whose stored marks lose a cell of land, with its checksum written again:
    /// the marks no longer agree with its tree, and `verify()` names the rule.
    func testStoredMarksThatDisagreeWithTheTreeAreRefused() throws {
        let built = try LandIndexPackTests.tinyLand()
        var bytes = built.bytes
        let marks = Int(bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: CountryIndexFormat.coastMarksOffset, as: UInt64.self) })
        XCTAssertGreaterThan(marks, 0, "the land index stores its marks")
        // The second half of the marks: the cells that hold land. Clear the first set bit.
        let holds = marks + 8 * CoastGrid.landMarkWords / 2
        let word = try XCTUnwrap(
            stride(from: holds, to: holds + 8 * CoastGrid.landMarkWords / 2, by: 8).first { at in
                bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: UInt64.self) } != 0
            })
        bytes.withUnsafeMutableBytes { raw in
            let value = raw.loadUnaligned(fromByteOffset: word, as: UInt64.self)
            raw.storeBytes(of: value & (value - 1), toByteOffset: word, as: UInt64.self)
            let sum = CountryIndexFormat.checksum(UnsafeRawBufferPointer(rebasing: raw[CountryIndexFormat.headerSize...]))
            raw.storeBytes(of: sum.littleEndian, toByteOffset: 32, as: UInt64.self)
        }
        let path = IndexBytes<UInt64>(bytes: bytes, leaves: 0).file(self)
        let index = try CountryIndex(path: path, catalogueIDs: built.ids)
        XCTAssertEqual(index.coastMarksProblem()?.rule, .storedMarks)
        XCTAssertThrowsError(try index.verify()) { error in
            XCTAssertTrue("\(error)".contains("stored marks"), "\(error)")
            XCTAssertTrue("\(error)".contains("holds land"), "\(error)")
        }
    }
}
