import Foundation
import GeoNewsData
import XCTest

@testable import GeoNewsBoundaries

/// Each rule of ``CountryIndex/leafProblem()``, broken on purpose in the tiny land index of
/// `LandIndexPackTests` (compact leaves), and kept by the committed Natural Earth index.
final class CountryIndexInvariantTests: XCTestCase {
    /// The tiny land's bytes, and where its first leaf's words are: the leaf (group count,
    /// corner x, corner y), its first group's two header words, its vertices, its ring table
    /// (a word per ring: first vertex, and one past the last in the high 16 bits).
    private struct Tiny {
        var file: IndexBytes<UInt32>
        let ids: [String]
        var vertexCount: Int { Int(word(4)) }
        var firstVertex: Int { 5 }
        var table: Int { 5 + vertexCount }
        /// The first ring's first vertex and one past its last.
        var firstRing: (first: Int, end: Int) { (Int(word(table) & 0xFFFF), Int(word(table) >> 16)) }
        mutating func setFirstRing(_ first: Int, _ end: Int) { set(table, UInt32(first) | UInt32(end) << 16) }

        init() throws {
            let built = try LandIndexPackTests.tinyLand()
            let leaves = Int(built.bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 48 + 16, as: UInt64.self) })
            file = IndexBytes(bytes: built.bytes, leaves: leaves)
            ids = built.ids
        }

        func word(_ i: Int) -> UInt32 { file.word(i) }
        mutating func set(_ i: Int, _ value: UInt32) { file.set(i, value) }
        func index(_ test: XCTestCase) throws -> CountryIndex { try CountryIndex(path: file.file(test), catalogueIDs: ids) }
    }

    private func assertBreaks(_ rule: LeafRule, _ change: (inout Tiny) -> Void, line: UInt = #line) throws {
        var tiny = try Tiny()
        XCTAssertNil(try tiny.index(self).leafProblem(), "the intact index", line: line)
        change(&tiny)
        let problem = try tiny.index(self).leafProblem()
        XCTAssertEqual(problem?.rule, rule, "\(problem.map { "\($0)" } ?? "no problem")", line: line)
    }

    func testTheIntactIndexesKeepEveryRule() throws {
        let tiny = try Tiny()
        XCTAssertEqual(tiny.word(0), 1, "one group in the first leaf")
        XCTAssertGreaterThanOrEqual(tiny.vertexCount, 4)
        XCTAssertNil(try tiny.index(self).leafProblem())
        // Natural Earth's: version 2, doubles.
        let naturalEarth = try CountryIndex(path: TestData.directory.file("country-index.bin"), catalogueIDs: tiny.ids)
        XCTAssertFalse(naturalEarth.compactLeaves)
        XCTAssertNil(naturalEarth.leafProblem())
    }

    func testAGroupRunningPastTheLeavesBreaksLeafBounds() throws {
        try assertBreaks(.leafBounds) { $0.set(4, 1 << 30) }
    }

    func testAGroupOfNoCountryBreaksGroupCountry() throws {
        try assertBreaks(.groupOwner) { $0.set(3, $0.word(3) | 0xFFFF) }
    }

    func testARingOfOneVertexBreaksTheRingTable() throws {
        try assertBreaks(.ringTable) { tiny in tiny.setFirstRing(tiny.firstRing.first, tiny.firstRing.first + 1) }
    }

    func testARingThatDoesNotEndOnItsFirstVertexBreaksClosedRing() throws {
        try assertBreaks(.closedRing) { tiny in
            let last = tiny.firstVertex + tiny.firstRing.end - 1
            tiny.set(last, tiny.word(last) ^ 1)
        }
    }

    func testAVertexOutsideTheRingsThatIsNoReturnBreaksReturns() throws {
        try assertBreaks(.returns) { tiny in
            // The ring closes one vertex earlier (on a copy of its first), and the vertex left
            // outside it is a vertex of the ring instead of the first.
            let (first, end) = tiny.firstRing
            tiny.set(tiny.firstVertex + end - 2, tiny.word(tiny.firstVertex))
            tiny.setFirstRing(first, end - 1)
            tiny.set(tiny.firstVertex + end - 1, tiny.word(tiny.firstVertex + 1))
        }
    }

    func testACornerOffTheLatticeBreaksTheCornerRule() throws {
        try assertBreaks(.leafCell) { $0.set(1, $0.word(1) + 1) }
    }

    func testACornerAwayFromTheSlotsCellBreaksTheCornerRule() throws {
        try assertBreaks(.leafCell) { $0.set(2, $0.word(2) + (1 << 16)) }
    }

    func testAVertexPastHalfADegreeBreaksVertexInCell() throws {
        try assertBreaks(.vertexInCell) { tiny in
            let middle = tiny.firstVertex + 1
            tiny.set(middle, tiny.word(middle) | 0xFFFF)
        }
    }

    /// `verify()` runs the rules after the checksum: a leaf broken by a writer that wrote a
    /// good checksum over it is refused with the rule named.
    func testVerifyNamesTheBrokenRuleBehindAGoodChecksum() throws {
        var tiny = try Tiny()
        tiny.set(3, tiny.word(3) | 0xFFFF)
        let sum = tiny.file.bytes.withUnsafeBytes {
            CountryIndexFormat.checksum(UnsafeRawBufferPointer(rebasing: $0[CountryIndexFormat.headerSize...]))
        }
        tiny.file.bytes.withUnsafeMutableBytes { $0.storeBytes(of: sum.littleEndian, toByteOffset: 32, as: UInt64.self) }
        XCTAssertThrowsError(try tiny.index(self).verify()) { error in
            XCTAssertTrue("\(error)".contains("group owner"), "\(error)")
        }
    }
}
