import GeoNewsGeodesy
import XCTest

@testable import GeoNewsBoundaries

/// The border table only lets the border-distance search skip cells: every distance must be
/// the one the search finds without it, bit for bit.
final class AreaBorderTableTests: XCTestCase {
    private static let table = Once<AreaBorderTable>()

    private func table(_ areas: AreaIndex) -> AreaBorderTable {
        Self.table.value { AreaBorderTable(areas) }
    }

    func testTheTableKnowsWholeCountryCellsFromBorderCells() throws {
        let resolver = try TestData.resolver()
        let areas = resolver.areas, table = table(areas)
        func rootEntry(_ lat: Double, _ lon: Double) -> Int16 {
            table.root[(Int(lat.rounded(.down)) + 90) * CountryIndexFormat.rootColumns + Int(lon.rounded(.down)) + 180]
        }
        let russia = try XCTUnwrap(resolver.catalogue.countries.firstIndex { $0.id == "RUS" })
        let brazil = try XCTUnwrap(resolver.catalogue.countries.firstIndex { $0.id == "BRA" })
        // Inner Siberia and the Amazon, far from any border (central Brazil is crossed by time-zone lines).
        XCTAssertEqual(rootEntry(62.5, 100.5), Int16(russia))
        XCTAssertEqual(rootEntry(-10.5, -55.5), Int16(brazil))
        // Cells a border or a coast crosses, and the open ocean, belong to no one country.
        XCTAssertEqual(rootEntry(50.5, 4.5), -1)  // Belgium and France
        XCTAssertEqual(rootEntry(43.5, 5.5), -1)  // Marseille's coast
        XCTAssertEqual(rootEntry(-30.5, -140.5), -1)  // the South Pacific
        // The nodes below a whole-country root cell are not filled; some below border cells are.
        XCTAssertTrue(table.nodes.contains(Int16(russia)))
    }

    func testDistancesWithTheTableAreTheSearchsOwn() throws {
        let resolver = try TestData.resolver()
        let areas = resolver.areas, table = table(areas)
        var points = [
            Coordinate(latitude: 48.8566, longitude: 2.3522),  // Paris, 172 km
            Coordinate(latitude: 62.5, longitude: 100.5),  // inner Siberia
            Coordinate(latitude: -82, longitude: 45),  // the Antarctic plateau
            Coordinate(latitude: 38.5, longitude: -101.3),  // Kansas, by a time-zone line
            Coordinate(latitude: 64.7337, longitude: 177.5089),  // Anadyr, by the antimeridian
            Coordinate(latitude: 51.4380, longitude: 4.9300),  // Baarle-Hertog, an enclave
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        while points.count < 300 {
            points.append(Coordinate(latitude: next() * 180 - 90, longitude: next() * 360 - 180))
        }
        var measured = 0
        for p in points {
            guard let country = areas.region(at: p).flatMap(areas.country(ofRegion:)) else { continue }
            let plain = areas.borderDistanceKm(at: p, country: country)
            let fast = areas.borderDistanceKm(at: p, country: country, table: table)
            XCTAssertEqual(fast.bitPattern, plain.bitPattern, "\(p): \(fast) km with the table, \(plain) km without")
            measured += 1
        }
        XCTAssertGreaterThan(measured, 80, "too few of the points are in a country to compare")
    }

    func testAServerResolverAndABatchResolverCarryTheTable() throws {
        let single = try CountryResolver.load(from: TestData.directory)
        XCTAssertNil(single.borderTableBuild, "one lookup is cheaper without building the table")
        let server = try CountryResolver.load(from: TestData.directory, options: .server)
        XCTAssertNotNil(try XCTUnwrap(server.borderTableBuild).waitForTable())
        XCTAssertNotNil(server.borderTable)
        let batch = try CountryResolver.load(from: TestData.directory, options: .batchWithBorderDistance)
        XCTAssertNotNil(try XCTUnwrap(batch.borderTableBuild).waitForTable())
        XCTAssertNotNil(batch.borderTable)
        let paris = Coordinate(latitude: 48.8566, longitude: 2.3522)
        XCTAssertEqual(server.resolve(paris).borderDistanceKm, single.resolve(paris).borderDistanceKm)
        XCTAssertEqual(try XCTUnwrap(server.resolve(paris).borderDistanceKm), 172.2, accuracy: 0.1)
    }
}
