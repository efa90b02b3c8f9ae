import GeoNewsBoundaries
import GeoNewsBoundaryBuilding
import GeoNewsGeodesy
import GeoNewsTimeZones
import XCTest

/// Country and zone at the hard places, answered by GEOS over the country areas that
/// the split cuts from the zones (the oracle the new index will be checked against).
final class CountryAreaTests: XCTestCase {
    private static let locator = Once<ExactAreaLocator>()
    private static let catalogue = try? Catalogue.load(from: TestData.directory)
    private static let zones = try? TimeZoneCatalogue.load(from: TestData.directory)

    private func locate(_ latitude: Double, _ longitude: Double) throws -> [String] {
        let locator = try Self.locator.value { try ExactAreaLocator(areas: try AreaTestData.split().areas) }
        let catalogue = try XCTUnwrap(Self.catalogue), zones = try XCTUnwrap(Self.zones)
        return try locator.answers(at: Coordinate(latitude: latitude, longitude: longitude)).map {
            ($0.country.map { catalogue.countries[$0].id } ?? "-") + " " + zones.zones[$0.zone].id
        }
    }

    private func assertArea(
        _ latitude: Double, _ longitude: Double, _ expected: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        XCTAssertEqual(try locate(latitude, longitude), [expected], "\(latitude), \(longitude)", file: file, line: line)
    }

    func testCitiesThatAreAtSeaTodayAreInsideTheirCountry() throws {
        try assertArea(55.6761, 12.5683, "DNK Europe/Copenhagen")  // Copenhagen City Hall
        try assertArea(25.7617, -80.1918, "USA America/New_York")  // Miami
        try assertArea(45.4408, 12.3155, "ITA Europe/Rome")  // Venice
        try assertArea(40.7128, -74.0060, "USA America/New_York")
    }

    func testEnclavesAndMicrostates() throws {
        try assertArea(47.6966, 8.6903, "DEU Europe/Busingen")
        try assertArea(45.9686, 8.9706, "ITA Europe/Rome")  // Campione d'Italia
        try assertArea(41.9022, 12.4539, "VAT Europe/Vatican")
        try assertArea(43.9424, 12.4578, "SMR Europe/San_Marino")
        try assertArea(43.7384, 7.4246, "MCO Europe/Monaco")
        try assertArea(42.4631, 1.9659, "ESP Europe/Madrid")  // Llívia
        try assertArea(43.7436, 7.4227, "FRA Europe/Paris")  // Beausoleil: Monaco today, by Natural Earth's oversized polygon
    }

    func testTerritorialWatersOffMarseille() throws {
        try assertArea(43.12, 5.37, "FRA Europe/Paris")  // about 10 km off
        try assertArea(42.85, 5.37, "- Etc/GMT")  // about 40 km off
    }

    func testCountriesInsideAnotherCountrysZone() throws {
        try assertArea(42.6629, 21.1655, "KOS Europe/Belgrade")  // Pristina
        try assertArea(44.8125, 20.4612, "SRB Europe/Belgrade")  // Belgrade
        try assertArea(21.0285, 105.8542, "VNM Asia/Bangkok")  // Hanoi
        try assertArea(13.7563, 100.5018, "THA Asia/Bangkok")  // Bangkok
        try assertArea(31.9038, 35.2034, "PSE Asia/Hebron")  // Ramallah
        try assertArea(32.0853, 34.7818, "ISR Asia/Jerusalem")  // Tel Aviv
    }

    func testEnclavesAndExclavesAcrossBorders() throws {
        // Baarle: a Belgian enclave and, 150 m away, Dutch land around it (both Dutch today).
        try assertArea(51.4380, 4.9300, "BEL Europe/Brussels")
        try assertArea(51.4393, 4.9314, "NLD Europe/Amsterdam")
        try assertArea(48.9857, -123.0690, "USA America/Los_Angeles")  // Point Roberts
        try assertArea(49.3455, -95.0650, "USA America/Chicago")  // the Northwest Angle
        try assertArea(54.7104, 20.4522, "RUS Europe/Kaliningrad")
        try assertArea(64.7337, 177.5089, "RUS Asia/Anadyr")
    }

    func testBothSidesOfTheAntimeridianAndThePoles() throws {
        try assertArea(65, 179.9, "RUS Asia/Anadyr")
        try assertArea(65, -179.9, "RUS Asia/Anadyr")
        try assertArea(-16.5, 179.9, "FJI Pacific/Fiji")
        try assertArea(-16.8, -179.95, "FJI Pacific/Fiji")
        try assertArea(89.99, 0, "- Etc/GMT")
        try assertArea(-89.99, 0, "ATA Antarctica/McMurdo")
    }
}
