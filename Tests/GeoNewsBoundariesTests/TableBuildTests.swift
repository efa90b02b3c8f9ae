import GeoNewsGeodesy
import XCTest

@testable import GeoNewsBoundaries

/// A resolver builds no table at start: each starts at the first position that would use it,
/// and the answers are the same before and after it is built.
final class TableBuildTests: XCTestCase {
    func testAServersTablesStartAtTheirFirstUseAndChangeNoAnswer() throws {
        let plain = try TestData.resolver()
        let server = CountryResolver(
            catalogue: plain.catalogue, index: plain.index, areas: plain.areas, zoneIDs: plain.zoneIDs, options: .server)
        let markerGrid = try XCTUnwrap(server.markerGrid)
        let borderTable = try XCTUnwrap(server.borderTableBuild)
        XCTAssertFalse(markerGrid.hasStarted, "the marker grid waits for its first use")
        XCTAssertFalse(borderTable.hasStarted, "the border table waits for its first use")
        XCTAssertNil(server.borderTable)

        // Inside France: the marker grid is not needed; the border distance is measured.
        let paris = Coordinate(latitude: 48.8566, longitude: 2.3522)
        let first = server.resolve(paris)
        XCTAssertEqual(first.country?.iso2, "FR")
        XCTAssertTrue(borderTable.hasStarted, "measuring a border distance started the table")
        XCTAssertFalse(markerGrid.hasStarted, "a position in a news country needs no marker search")
        let table = borderTable.waitForTable()
        XCTAssertIdentical(server.borderTable, table)
        XCTAssertEqual(server.resolve(paris).borderDistanceKm, first.borderDistanceKm, "the same distance with the table")
        XCTAssertEqual(first.borderDistanceKm, plain.resolve(paris).borderDistanceKm)

        // Mid-Atlantic: no country, the nearest news marker is searched.
        let atSea = Coordinate(latitude: 30, longitude: -40)
        let before = server.resolve(atSea)
        XCTAssertNil(before.country)
        XCTAssertTrue(markerGrid.hasStarted, "a position at sea started the marker grid")
        _ = markerGrid.waitForTable()
        let after = server.resolve(atSea)
        XCTAssertEqual(after.suggestion.country.iso2, before.suggestion.country.iso2)
        XCTAssertEqual(after.suggestion.distanceKm, before.suggestion.distanceKm)
        XCTAssertEqual(after.suggestion.country.iso2, plain.resolve(atSea).suggestion.country.iso2)
    }

    func testTheWaitReturnsOnlyOnceTheTableIsPublished() {
        // The build keeps the table, then asks for its storage (slowly here), then publishes it.
        let build = TableBuild(
            { HeldBytes(count: 64) },
            storage: { table in
                usleep(200_000)
                return table.bytes
            })
        XCTAssertNil(build.builtTable, "the first look starts the build and finds no table yet")
        let table = build.waitForTable()
        XCTAssertIdentical(build.builtTable, table, "what the wait returned is what lookups see")
        XCTAssertEqual(build.finished?.count, 64)
    }

    func testABatchOfPositionsOnLandNeverBuildsTheMarkerGrid() throws {
        let plain = try TestData.resolver()
        let batch = CountryResolver(
            catalogue: plain.catalogue, index: plain.index, areas: plain.areas, zoneIDs: plain.zoneIDs, options: .batch)
        let positions = [(48.8566, 2.3522), (52.52, 13.405), (35.6762, 139.6503), (-33.8688, 151.2093)]
        let answers = positions.map { batch.resolve(Coordinate(latitude: $0.0, longitude: $0.1)).country?.iso2 }
        XCTAssertEqual(answers, ["FR", "DE", "JP", "AU"])
        XCTAssertFalse(try XCTUnwrap(batch.markerGrid).hasStarted, "every position is in a news country")
        XCTAssertNil(batch.borderTableBuild, "a batch without border distances has no border table")
    }
}

/// A table of `count` bytes of its own, for ``TableBuild``'s tests.
private final class HeldBytes: @unchecked Sendable {
    // Sendable: the bytes are written once, at init, and only read after.
    let bytes: UnsafeRawBufferPointer

    init(count: Int) {
        let b = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 8)
        b.initializeMemory(as: UInt8.self, repeating: 7)
        bytes = UnsafeRawBufferPointer(b)
    }

    deinit { bytes.deallocate() }
}
