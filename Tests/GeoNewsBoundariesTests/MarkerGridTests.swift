import GeoNewsGeodesy
import XCTest

@testable import GeoNewsBoundaries

/// The marker grid settles only what the search through every marker would answer, and its
/// finer cells settle most of the root cells near a tie.
final class MarkerGridTests: XCTestCase {
    func testTheGridAnswersAsTheFullSearchAndSettlesMostTies() throws {
        let exact = try TestData.resolver()  // no grid: every marker searched
        XCTAssertNil(exact.markerGrid)
        let batch = CountryResolver(
            catalogue: exact.catalogue, index: exact.index, areas: exact.areas, zoneIDs: exact.zoneIDs, options: .batch)
        let grid = try XCTUnwrap(batch.markerGrid).waitForTable()
        let storage = UnsafeRawBufferPointer(grid.storage)
        var state: UInt64 = 0x0BAD_5EED_1234_5678
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var positions: [Coordinate] = []
        for _ in 0..<150_000 { positions.append(Coordinate(latitude: asin(2 * next() - 1) * 180 / .pi, longitude: 360 * next() - 180)) }
        // The edges of the grid, and a line straight across the boundary between two markers'
        // areas (Ireland's and the United Kingdom's) through 1/8° cells.
        for lat in stride(from: -90.0, through: 90, by: 0.5) {
            for lon in [-180.0, -179.9999, 0, 179.9999, 180] { positions.append(Coordinate(latitude: lat, longitude: lon)) }
        }
        for k in 0..<4_000 { positions.append(Coordinate(latitude: 53.9, longitude: -9 + Double(k) * 0.002)) }
        var inTies = 0, settledInTies = 0, settled = 0
        for p in positions {
            let c = try XCTUnwrap(MarkerGrid.cells(of: p))
            let tie = storage.load(fromByteOffset: c.root, as: Int8.self) < 0
            let marker = MarkerGrid.marker(at: p, in: storage)
            if tie { inTies += 1 }
            guard marker >= 0 else { continue }
            settled += 1
            if tie { settledInTies += 1 }
            // The grid's marker is the full search's: compare the suggestions both give.
            XCTAssertEqual(batch.nearestMarker(p).country, exact.nearestMarker(p).country, "\(p)")
            XCTAssertEqual(batch.nearestMarker(p).distanceKm, exact.nearestMarker(p).distanceKm, "\(p)")
        }
        XCTAssertGreaterThan(settled, positions.count * 95 / 100)
        XCTAssertGreaterThan(inTies, 5_000)
        XCTAssertGreaterThan(settledInTies, inTies * 8 / 10, "the finer cells settle \(settledInTies) of \(inTies)")
        // Not a number: no cell, no marker.
        XCTAssertNil(MarkerGrid.cells(of: Coordinate(latitude: .nan, longitude: 0)))
        XCTAssertEqual(MarkerGrid.marker(at: Coordinate(latitude: 0, longitude: .infinity), in: storage), -1)
    }
}
