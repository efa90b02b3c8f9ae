import Foundation
import GeoNewsData
import XCTest

@testable import GeoNewsBoundaries

/// Every failure branch of the cell tree's layout check and of both indexes' `verify()`, each
/// on a hand-made index damaged in one place: a damaged file is an error naming the fault,
/// never a read outside the file.
final class CellTreeLayoutTests: XCTestCase {
    private func write(_ bytes: [UInt8]) -> String {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("cells-\(UUID().uuidString).bin").path
        XCTAssertTrue(FileManager.default.createFile(atPath: out, contents: Data(bytes)))
        addTeardownBlock { try? FileManager.default.removeItem(atPath: out) }
        return out
    }

    private func countryIndex(_ index: HandMadeCellIndex) throws -> CountryIndex {
        try CountryIndex(path: write(index.countryIndexBytes()), catalogueIDs: HandMadeCellIndex.countryIDs)
    }

    private func areaIndex(_ index: HandMadeCellIndex) throws -> AreaIndex {
        try AreaIndex(path: write(index.areaIndexBytes()), catalogueIDs: HandMadeCellIndex.countryIDs, zoneIDs: HandMadeCellIndex.zoneIDs)
    }

    private func assertCorrupt(_ reason: String, line: UInt = #line, _ body: () throws -> Void) {
        XCTAssertThrowsError(try body(), line: line) { error in
            guard case DataError.corrupt(_, let actual) = error else { return XCTFail("\(error)", line: line) }
            XCTAssertEqual(actual, reason, line: line)
        }
    }

    /// Both files, damaged by `edit`, fail `verify()` (or their load) with `country` and `area`.
    private func assertBothCorrupt(
        country: String, area: String, atLoad: Bool = false, line: UInt = #line, _ edit: (inout HandMadeCellIndex) -> Void
    ) {
        var index = HandMadeCellIndex()
        edit(&index)
        assertCorrupt(country, line: line) {
            let loaded = try countryIndex(index)
            if !atLoad { try loaded.verify() }
        }
        assertCorrupt(area, line: line) {
            let loaded = try areaIndex(index)
            if !atLoad { try loaded.verify() }
        }
    }

    func testTheHandMadeIndexesPassAndAnswerThroughTheirNode() throws {
        let countries = try countryIndex(HandMadeCellIndex())
        let areas = try areaIndex(HandMadeCellIndex())
        try countries.verify()
        try areas.verify()
        // Root cell (0, 0) is whole; root cell (1, 0) is a node of four children.
        let expected: [(lon: Double, lat: Double, answer: Int32)] = [
            (-179.5, -89.5, 1), (-178.75, -89.75, -1), (-178.25, -89.75, 0), (-178.75, -89.25, -1), (-178.25, -89.25, -1),
            (0, 0, -1),
        ]
        for (lon, lat, answer) in expected {
            XCTAssertEqual(countries.lookup(longitude: lon, latitude: lat), answer, "\(lon), \(lat)")
            XCTAssertEqual(areas.lookup(longitude: lon, latitude: lat), answer, "\(lon), \(lat)")
        }
    }

    func testAFlippedByteFailsTheChecksum() {
        assertBothCorrupt(country: "checksum mismatch", area: "checksum mismatch") { index in
            index.damage = { $0[$0.count - 40] ^= 0x01 }
        }
    }

    func testAChecksumOverAnUnpaddedBodyFails() {
        assertBothCorrupt(country: "checksum mismatch", area: "checksum mismatch") { index in
            index.damage = { $0.append(0) }
        }
    }

    func testAWholeCellOutsideTheCatalogueOrTheRegions() {
        assertBothCorrupt(country: "a cell names country 2", area: "a cell names region 2") { index in
            index.root[7] = CellSlot(.country, payload: 2).raw
        }
    }

    func testAWholeChildCellOutsideTheCatalogueOrTheRegions() {
        assertBothCorrupt(country: "a cell names country 9", area: "a cell names region 9") { index in
            index.nodes[1] = CellSlot(.country, payload: 9).raw
        }
    }

    func testANodeWhoseChildrenRunPastTheNodeSection() {
        // Four children from slot 1 end one past the four slots.
        assertBothCorrupt(country: "a node lies outside the node section", area: "a node lies outside the node section") { index in
            index.root[7] = CellSlot(nodeOf: 1, childBase: 1).raw
        }
    }

    func testANodeWhoseFanOutRunsPastTheNodeSection() {
        // 4 × 4 children need sixteen slots; there are four.
        assertBothCorrupt(country: "a node lies outside the node section", area: "a node lies outside the node section") { index in
            index.root[1] = CellSlot(nodeOf: 2, childBase: 0).raw
        }
    }

    func testANodeInsideANodeThatPointsOutside() {
        assertBothCorrupt(country: "a node lies outside the node section", area: "a node lies outside the node section") { index in
            index.nodes[0] = CellSlot(nodeOf: 1, childBase: 100).raw
        }
    }

    func testALeafOutsideTheLeafSection() {
        assertBothCorrupt(country: "a leaf lies outside the leaf section", area: "a leaf lies outside the leaf section") { index in
            index.root[7] = CellSlot(.leaf, payload: 4).raw
        }
    }

    func testALeafChildOutsideTheLeafSection() {
        assertBothCorrupt(country: "a leaf lies outside the leaf section", area: "a leaf lies outside the leaf section") { index in
            index.nodes[3] = CellSlot(.leaf, payload: 1 << 20).raw
        }
    }

    func testARegionNamingNoCountry() throws {
        var index = HandMadeCellIndex()
        index.regions[2] = 5
        assertCorrupt("region 1 names country 5") { try areaIndex(index).verify() }
        index.regions[2] = AreaIndexFormat.noCountry
        XCTAssertNoThrow(try areaIndex(index).verify())
    }

    func testARootGridOfAnotherSizeIsCaughtAtLoad() {
        assertBothCorrupt(country: "section sizes disagree", area: "section sizes disagree", atLoad: true) { index in
            index.root.removeLast()
        }
    }

    func testARegionSectionOfAnotherSizeIsCaughtAtLoad() {
        var index = HandMadeCellIndex()
        index.regionCount = 3
        assertCorrupt("section sizes disagree") { _ = try areaIndex(index) }
    }

    func testASectionBeyondTheFileIsCaughtAtLoad() {
        assertBothCorrupt(country: "section 2 lies outside the file", area: "section 2 lies outside the file", atLoad: true) { index in
            index.damage = { $0[48 + 16 + 5] = 0x7F }
        }
    }

    /// The loads refuse a root grid of another size before `verify()` runs; the layout check
    /// refuses it on its own too, so no caller can walk past the grid.
    func testTheLayoutCheckRefusesARootGridOfAnotherSize() {
        let root: [UInt32] = [0, 0, 0, 0]
        let reason = root.withUnsafeBufferPointer { r in
            CellTreeWalk.layoutProblem(
                root: r, nodes: UnsafeBufferPointer(start: nil, count: 0), leafWords: 0, payloadCount: 1, payloadName: "country")
        }
        XCTAssertEqual(reason, "the root grid has 4 cells")
    }

    func testTheSlotReadsItsFields() {
        let node = CellSlot(nodeOf: 3, childBase: 12345)
        XCTAssertEqual(node.kind, .node)
        XCTAssertEqual(node.fanOutBits, 3)
        XCTAssertEqual(node.childBase, 12345)
        XCTAssertEqual(node.raw, 2 << 30 | 2 << 28 | 12345)
        XCTAssertEqual(CellSlot(.leaf, payload: 77).payload, 77)
        XCTAssertEqual(CellSlot(.leaf, payload: 77).kind, .leaf)
        XCTAssertEqual(CellSlot(.country, payload: 5).kind, .country)
        XCTAssertTrue(CellSlot(.sea, payload: 1).mayBeNearShore)
        XCTAssertFalse(CellSlot(.sea, payload: 0).mayBeNearShore)
        XCTAssertTrue(CellSlot(.country, payload: 0).mayBeNearShore)
    }
}
