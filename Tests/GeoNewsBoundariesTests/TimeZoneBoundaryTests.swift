import Foundation
import GeoNewsBoundaries
import GeoNewsTimeZones
import XCTest

/// The decoded timezone-boundary-builder polygons (`Scripts/build_timezones.py`, run by
/// `Scripts/test` before the tests) at the places the issue names: each position is looked up
/// in every polygon, so these check the geometry the new index will be built from.
final class TimeZoneBoundaryTests: XCTestCase {
    private static let geometryFolder = TestData.packageRoot.appendingPathComponent(".build-data").path

    /// The catalogue, the geometry and each polygon's shell box, loaded once.
    private final class Zones: @unchecked Sendable {
        let catalogue: TimeZoneCatalogue
        let geometry: TimeZoneBoundaryFile
        /// (zone, polygon, west, south, east, north) in micro-degrees.
        let boxes: [(zone: Int, polygon: Int, box: (Int32, Int32, Int32, Int32))]

        init() throws {
            catalogue = try TimeZoneCatalogue.load(from: TestData.directory)
            geometry = try catalogue.boundaries(in: TimeZoneBoundaryTests.geometryFolder)
            var boxes: [(Int, Int, (Int32, Int32, Int32, Int32))] = []
            for zone in 0..<geometry.zoneCount {
                for polygon in geometry.polygons(ofZone: zone) {
                    let shell = geometry.vertices(ofRing: geometry.rings(ofPolygon: polygon).lowerBound)
                    var box = (Int32.max, Int32.max, Int32.min, Int32.min)
                    var i = 0
                    while i < shell.count {
                        box = (min(box.0, shell[i]), min(box.1, shell[i + 1]), max(box.2, shell[i]), max(box.3, shell[i + 1]))
                        i += 2
                    }
                    boxes.append((zone, polygon, box))
                }
            }
            self.boxes = boxes
        }

        /// Every zone whose polygons hold the position (degrees).
        func zones(latitude: Double, longitude: Double) -> [String] {
            let x = longitude * 1e6, y = latitude * 1e6
            return boxes.filter { e in
                Double(e.box.0) <= x && x <= Double(e.box.2) && Double(e.box.1) <= y && y <= Double(e.box.3)
                    && geometry.polygon(e.polygon, contains: longitude, latitude)
            }.map { catalogue.zones[$0.zone].id }
        }
    }

    private static let loaded = Once<Zones>()

    private func zones() throws -> Zones {
        let path = Self.geometryFolder + "/" + TimeZoneBoundaryFile.fileName
        guard FileManager.default.fileExists(atPath: path) else {
            throw XCTSkip("\(path) is not built: run python3 Scripts/build_timezones.py --ensure --fetch (Scripts/test does)")
        }
        return try Self.loaded.value { try Zones() }
    }

    private func assertZone(
        _ latitude: Double, _ longitude: Double, _ expected: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        XCTAssertEqual(
            try zones().zones(latitude: latitude, longitude: longitude), [expected],
            "\(latitude), \(longitude)", file: file, line: line)
    }

    func testCatalogueGivesEveryLandZoneItsZoneTabCountry() throws {
        let catalogue = try TimeZoneCatalogue.load(from: TestData.directory)
        XCTAssertEqual(catalogue.zones.count, 444)
        XCTAssertEqual(catalogue.geometry.vertices, 8_283_675)
        let ocean = catalogue.zones.filter(\.isOcean).map(\.id)
        XCTAssertTrue(ocean.allSatisfy { $0.hasPrefix("Etc/") }, "\(ocean)")
        XCTAssertTrue(ocean.contains("Etc/GMT+10"))
        let country = Dictionary(uniqueKeysWithValues: catalogue.zones.map { ($0.id, $0.country) })
        XCTAssertEqual(country["Europe/Busingen"], "DE")
        XCTAssertEqual(country["Europe/Vatican"], "VA")
        XCTAssertEqual(country["Asia/Kolkata"], "IN")
        XCTAssertEqual(country["Asia/Bangkok"], "TH")
    }

    func testTheGeometryFileMatchesItsCatalogue() throws {
        let z = try zones()
        XCTAssertEqual(z.geometry.zoneCount, 444)
        XCTAssertEqual(z.geometry.ringCount, 2153)
        let kolkata = try XCTUnwrap(z.catalogue.index(of: "Asia/Kolkata"))
        let vertices = z.geometry.polygons(ofZone: kolkata).flatMap { z.geometry.rings(ofPolygon: $0) }
            .reduce(0) { $0 + z.geometry.vertices(ofRing: $1).count / 2 }
        XCTAssertEqual(vertices, z.catalogue.zones[kolkata].vertices)
    }

    func testADamagedGeometryFileIsRefused() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("geonews-tz-\(getpid()).bin").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var bytes = Array("GNTZB001".utf8) + [UInt8](repeating: 0, count: 16)
        bytes[8] = 1  // one zone, but no tables behind it
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        XCTAssertThrowsError(try TimeZoneBoundaryFile(path: path)) { error in
            XCTAssertTrue("\(error)".contains("header describes"), "\(error)")
        }
    }

    func testCitiesTheIssueNamesLieInTheirOwnZoneNotAtSea() throws {
        try assertZone(55.6761, 12.5683, "Europe/Copenhagen")  // City Hall: "at sea" today
        try assertZone(25.7617, -80.1918, "America/New_York")  // Miami
        try assertZone(45.4408, 12.3155, "Europe/Rome")  // Venice
        try assertZone(40.7128, -74.0060, "America/New_York")  // New York
        try assertZone(64.7337, 177.5089, "Asia/Anadyr")  // Anadyr
    }

    func testEnclavesHaveZonesOfTheirOwn() throws {
        try assertZone(47.6966, 8.6903, "Europe/Busingen")  // Büsingen, Germany inside Switzerland
        try assertZone(45.9686, 8.9706, "Europe/Rome")  // Campione d'Italia, inside Switzerland
        try assertZone(41.9022, 12.4539, "Europe/Vatican")  // St Peter's Square
        try assertZone(43.9424, 12.4578, "Europe/San_Marino")
        try assertZone(43.7384, 7.4246, "Europe/Monaco")
        try assertZone(42.4631, 1.9659, "Europe/Madrid")  // Llívia, inside France
    }

    func testShipsOffMarseilleInTerritorialWatersAndBeyond() throws {
        try assertZone(43.12, 5.37, "Europe/Paris")  // about 10 km off the Calanques
        try assertZone(42.85, 5.37, "Etc/GMT")  // about 40 km off: the open sea
    }

    func testHalfAndQuarterHourZones() throws {
        try assertZone(22.5726, 88.3639, "Asia/Kolkata")
        try assertZone(27.7172, 85.3240, "Asia/Kathmandu")
        try assertZone(-43.95, -176.55, "Pacific/Chatham")
        try assertZone(-31.5553, 159.0821, "Australia/Lord_Howe")
    }

    func testMidPacificIsAnOceanZone() throws {
        try assertZone(0, -150, "Etc/GMT+10")
    }

    func testBothSidesOfTheAntimeridian() throws {
        try assertZone(65, 179.9, "Asia/Anadyr")
        try assertZone(65, -179.9, "Asia/Anadyr")
        try assertZone(-16.5, 179.9, "Pacific/Fiji")
        try assertZone(-16.8, -179.95, "Pacific/Fiji")
    }

    func testNearThePoles() throws {
        try assertZone(89.99, 0, "Etc/GMT")
        try assertZone(-89.99, 0, "Antarctica/McMurdo")
    }
}
