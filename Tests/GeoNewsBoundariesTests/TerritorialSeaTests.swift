import GeoNewsGeodesy
import XCTest

@testable import GeoNewsBoundaries

/// `country` at sea holds within 12 nautical miles (22.224 km) of land, wherever the time
/// zones reach, and small islands have their country whether Natural Earth or only
/// OpenStreetMap draws them.
final class TerritorialSeaTests: XCTestCase {
    var resolver: CountryResolver!

    override func setUpWithError() throws {
        resolver = try TestData.resolver()
    }

    private func resolve(_ lat: Double, _ lon: Double) -> Resolution {
        resolver.resolve(Coordinate(latitude: lat, longitude: lon))
    }

    private func assertAtSea(
        _ lat: Double, _ lon: Double, zone: String, nearest: String, fartherThanKm: Double,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let r = resolve(lat, lon)
        XCTAssertNil(r.country, "\(lat), \(lon)", file: file, line: line)
        XCTAssertNil(r.borderDistanceKm, file: file, line: line)
        XCTAssertEqual(r.timeZone, zone, "the time zone still reaches here", file: file, line: line)
        XCTAssertEqual(r.nearest?.country.id, nearest, file: file, line: line)
        XCTAssertGreaterThan(r.nearest?.distanceKm ?? 0, fartherThanKm, file: file, line: line)
        XCTAssertNil(resolver.containingCountry(r.position), file: file, line: line)
    }

    func testZonesThatReachFarOutToSeaGiveNoCountryThere() {
        // America/Lima draws Peru's 200-mile claim. Pacific/Easter drew a box of ocean around
        // Easter Island until timezone-boundary-builder 2026e, which leaves it to Etc/GMT+7.
        assertAtSea(-12.0, -80.1, zone: "America/Lima", nearest: "PER", fartherThanKm: 250)
        assertAtSea(-28.42, -111.63, zone: "Etc/GMT+7", nearest: "CHL", fartherThanKm: 200)
        // Just past the limit off Lima, and off Marseille.
        assertAtSea(-12.1, -77.55, zone: "America/Lima", nearest: "PER", fartherThanKm: CountryResolver.territorialSeaKm)
        assertAtSea(42.85, 5.37, zone: "Etc/GMT", nearest: "FRA", fartherThanKm: 25)
    }

    func testTheOpenOceansHaveNoCountry() {
        assertAtSea(0, -140, zone: "Etc/GMT+9", nearest: "PYF", fartherThanKm: 500)  // mid-Pacific
        assertAtSea(30, -40, zone: "Etc/GMT+3", nearest: "PRT", fartherThanKm: 500)  // mid-Atlantic
    }

    func testWithinTwelveMilesOfTheCoastTheCountryHolds() throws {
        for (lat, lon, id) in [(-12.1, -77.3, "PER"), (43.12, 5.37, "FRA"), (-27.2, -109.55, "CHL")] {
            let r = resolve(lat, lon)
            XCTAssertEqual(r.country?.id, id, "\(lat), \(lon)")
            XCTAssertNil(r.nearest)
            let border = try XCTUnwrap(r.borderDistanceKm)
            XCTAssertGreaterThan(border, 0)
            XCTAssertLessThan(border, CountryResolver.territorialSeaKm, "the limit of the waters is the nearest edge")
        }
    }

    func testLakesFarFromTheirShoresAreTheirCountrys() {
        // Natural Earth's land takes in lakes, so no 12-mile limit applies in them.
        for (lat, lon, id) in [(47.7, -87.5, "USA"), (42.3, -81.5, "CAN"), (-1.0, 33.0, "UGA"), (53.5, 108.0, "RUS")] {
            XCTAssertEqual(resolve(lat, lon).country?.id, id, "\(lat), \(lon)")
        }
    }

    func testAntarcticIceShelvesThatNaturalEarthLeavesOutAreAntarctica() {
        // The Ross and Filchner-Ronne ice shelves, far from Natural Earth's grounding line.
        for (lat, lon) in [(-80.0, -175.0), (-79.25, -41.51)] {
            let r = resolve(lat, lon)
            XCTAssertEqual(r.country?.id, "ATA", "\(lat), \(lon)")
            XCTAssertNil(r.nearest)
        }
    }

    func testTheAntimeridianNearFiji() {
        // Taveuni straddles 180°: its waters on both sides are Fiji's, and the same meridian
        // written as 180 and -180 answers the same.
        XCTAssertEqual(resolve(-16.75, 179.99).country?.id, "FJI")
        XCTAssertEqual(resolve(-16.9, -179.93).country?.id, "FJI")
        XCTAssertEqual(resolve(-16.2, 180).country?.id, resolve(-16.2, -180).country?.id)
        XCTAssertNil(resolve(-15.2, 180).country, "north of Vanua Levu, beyond the limit")
    }

    func testIslandsNaturalEarthDrawsInTheOpenOceanHaveTheirCountry() {
        for (lat, lon, id) in [(5.884, -162.078, "UMI"), (0.194, -176.477, "UMI"), (10.30, -109.22, "CLP")] {
            let r = resolve(lat, lon)
            XCTAssertEqual(r.country?.id, id, "\(lat), \(lon)")
            XCTAssertTrue(r.timeZone?.hasPrefix("Etc/GMT") ?? false, "the zones leave them to the open ocean")
        }
    }

    func testAnIslandNaturalEarthLacksTakesTheCountryOfTheLandNearestNotItsZones() {
        // Bạch Long Vĩ, Hai Phong: in Asia/Bangkok, whose zone.tab country is Thailand.
        let r = resolve(20.13148, 107.73078)
        XCTAssertEqual(r.country?.id, "VNM")
        XCTAssertEqual(r.timeZone, "Asia/Bangkok")
        XCTAssertNil(r.nearest)
    }
}
