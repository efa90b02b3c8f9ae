import Foundation
import GeoNewsData
import XCTest

@testable import GeoNewsBoundaries

/// Each rule of ``AreaIndex/leafProblem()``, broken on purpose in a small valid area index:
/// `AreaIndexPackTests`' hand-made one with its odd leaf made a plain square and the leaf of a
/// half-degree cell no longer named by a whole degree's slot.
final class AreaIndexInvariantTests: XCTestCase {
    private struct Small {
        static let countries = ["AA", "BB"], zones = ["Zone/One"]
        var file: IndexBytes<UInt16>
        let rootAt: Int

        init() {
            var bytes = AreaIndexPackTests.handMadeIndex()
            rootAt = Int(bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 48, as: UInt64.self) })
            // The header of an index of two countries and one zone, with the finest cell; root
            // cell 1 named the depth-1 leaf at word 0: sea instead.
            bytes.withUnsafeMutableBytes { [rootAt] b in
                b.storeBytes(of: UInt32(2).littleEndian, toByteOffset: 12, as: UInt32.self)
                b.storeBytes(of: CountryIndexFormat.catalogueHash(Self.countries).littleEndian, toByteOffset: 16, as: UInt64.self)
                b.storeBytes(of: AreaIndexFormat.zoneHash(Self.zones).littleEndian, toByteOffset: 24, as: UInt64.self)
                b.storeBytes(of: UInt32(CountryIndexFormat.finestDepth).littleEndian, toByteOffset: 44, as: UInt32.self)
                b.storeBytes(of: UInt32(0), toByteOffset: rootAt + 4, as: UInt32.self)
            }
            file = IndexBytes(bytes: bytes, leaves: Int(bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 64, as: UInt64.self) }))
            // The leaf at word 43 (depth 2): region 1, one ring, a closed square.
            for (i, w) in [1 | 2 << 12, 1, 1, 4, 1, 2, 100, 2, 100, 100, 1, 2, 0, 4].enumerated() { set(43 + i, UInt16(w)) }
        }

        mutating func set(_ i: Int, _ value: UInt16) { file.set(i, value) }
        func index(_ test: XCTestCase) throws -> AreaIndex {
            try AreaIndex(path: file.file(test), catalogueIDs: Self.countries, zoneIDs: Self.zones)
        }
    }

    private func assertBreaks(_ rule: LeafRule, _ change: (inout Small) -> Void, line: UInt = #line) throws {
        var small = Small()
        XCTAssertNil(try small.index(self).leafProblem(), "the intact index", line: line)
        change(&small)
        let problem = try small.index(self).leafProblem()
        XCTAssertEqual(problem?.rule, rule, "\(problem.map { "\($0)" } ?? "no problem")", line: line)
    }

    func testTheSmallIndexAndTheBuiltOneKeepEveryRule() throws {
        XCTAssertNil(try Small().index(self).leafProblem())
        XCTAssertNil(try TestData.resolver().areas.leafProblem())
    }

    func testALeafOfADeeperCellNamedByACoarserOneBreaksTheLeafCell() throws {
        try assertBreaks(.leafCell) { small in
            let leafSlot = CellSlot(.leaf, payload: 0).raw
            small.file.bytes.withUnsafeMutableBytes { $0.storeBytes(of: leafSlot, toByteOffset: small.rootAt + 4, as: UInt32.self) }
        }
    }

    func testAGroupRunningPastTheLeavesBreaksLeafBounds() throws {
        try assertBreaks(.leafBounds) { $0.set(3, 60000) }  // the first group's vertex count
    }

    func testAGroupOfNoRegionBreaksGroupOwner() throws {
        try assertBreaks(.groupOwner) { $0.set(1, 7) }
    }

    func testARingOfOneVertexBreaksTheRingTable() throws {
        try assertBreaks(.ringTable) { $0.set(15, 1) }  // region 0's ring ends after its first vertex
    }

    func testARingThatDoesNotEndOnItsFirstVertexBreaksClosedRing() throws {
        try assertBreaks(.closedRing) { $0.set(13, 1) }  // region 0's closing vertex's y
    }

    func testAVertexOutsideTheRingsThatIsNoReturnBreaksReturns() throws {
        try assertBreaks(.returns) { $0.set(29, 9000) }  // region 1's return between its rings
    }

    func testAVertexPastItsCellBreaksVertexInCell() throws {
        try assertBreaks(.vertexInCell) { small in
            small.set(49, 20000)  // the square's second vertex's x
        }
    }
}
