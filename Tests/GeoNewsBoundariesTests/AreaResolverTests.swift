import GeoNewsBenchmarking
import GeoNewsGeodesy
import GeoNewsTimeZones
import XCTest

@testable import GeoNewsBoundaries

/// The hard places through the real resolver (the area index), time zones and their
/// offsets, and the distance to the country's edge.
final class AreaResolverTests: XCTestCase {
    var resolver: CountryResolver!

    override func setUpWithError() throws {
        resolver = try TestData.resolver()
    }

    private func resolve(_ lat: Double, _ lon: Double) -> Resolution {
        resolver.resolve(Coordinate(latitude: lat, longitude: lon))
    }

    /// "ISO3 Zone" as the area tests spell it, "-" for no country.
    private func answer(_ lat: Double, _ lon: Double) -> String {
        let r = resolve(lat, lon)
        return (r.country?.id ?? "-") + " " + (r.timeZone ?? "?")
    }

    private func assertAnswer(_ lat: Double, _ lon: Double, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(answer(lat, lon), expected, "\(lat), \(lon)", file: file, line: line)
    }

    func testCitiesThatWereAtSeaAreInsideTheirCountry() {
        assertAnswer(55.6761, 12.5683, "DNK Europe/Copenhagen")  // Copenhagen City Hall
        assertAnswer(25.7617, -80.1918, "USA America/New_York")  // Miami
        assertAnswer(45.4408, 12.3155, "ITA Europe/Rome")  // Venice
        assertAnswer(40.7128, -74.0060, "USA America/New_York")
        assertAnswer(64.7337, 177.5089, "RUS Asia/Anadyr")
        XCTAssertEqual(resolve(45.4408, 12.3155).suggestion.reason, .inside)
        XCTAssertNil(resolve(45.4408, 12.3155).nearest)
    }

    func testEnclavesExclavesAndMicrostates() {
        assertAnswer(51.4380, 4.9300, "BEL Europe/Brussels")  // Baarle-Hertog, in the Netherlands
        assertAnswer(51.4393, 4.9314, "NLD Europe/Amsterdam")  // Baarle-Nassau, 150 m away
        assertAnswer(47.6966, 8.6903, "DEU Europe/Busingen")  // Büsingen, inside Switzerland
        assertAnswer(45.9686, 8.9706, "ITA Europe/Rome")  // Campione d'Italia
        assertAnswer(42.4631, 1.9659, "ESP Europe/Madrid")  // Llívia, inside France
        assertAnswer(48.9857, -123.0690, "USA America/Los_Angeles")  // Point Roberts
        assertAnswer(49.3455, -95.0650, "USA America/Chicago")  // the Northwest Angle
        assertAnswer(54.7104, 20.4522, "RUS Europe/Kaliningrad")
        assertAnswer(43.9424, 12.4578, "SMR Europe/San_Marino")
        assertAnswer(41.9022, 12.4539, "VAT Europe/Vatican")
        assertAnswer(43.7384, 7.4246, "MCO Europe/Monaco")
        // Beausoleil, a street from Monaco: France (Natural Earth's oversized Monaco said Monaco).
        assertAnswer(43.7436, 7.4227, "FRA Europe/Paris")
    }

    func testTerritorialSeaOffMarseilleIsFranceAndBeyondItIsNoCountry() {
        let near = resolve(43.12, 5.37)  // about 10 km off
        XCTAssertEqual(near.country?.id, "FRA")
        XCTAssertEqual(near.timeZone, "Europe/Paris")
        XCTAssertEqual(near.suggestion.reason, .inside)
        let far = resolve(42.85, 5.37)  // about 40 km off
        XCTAssertNil(far.country)
        XCTAssertEqual(far.timeZone, "Etc/GMT")
        XCTAssertNil(far.borderDistanceKm)
        XCTAssertEqual(far.nearest?.country.id, "FRA")
        XCTAssertGreaterThan(far.nearest?.distanceKm ?? 0, 25)
    }

    func testTimeZonesAndTheirOffsets() throws {
        let rules = try ZoneRulesFile(directory: TestData.directory)
        let zones = try TimeZoneCatalogue.load(from: TestData.directory)
        func offset(_ lat: Double, _ lon: Double, at instant: Int64) throws -> Int {
            let id = try XCTUnwrap(resolve(lat, lon).timeZone)
            return try rules.rules(ofZone: try XCTUnwrap(zones.index(of: id))).offset(at: instant)
        }
        let january: Int64 = 1_768_478_400, july: Int64 = 1_783_944_000  // 2026-01-15, 2026-07-13 12:00 UTC
        XCTAssertEqual(resolve(22.5726, 88.3639).timeZone, "Asia/Kolkata")
        XCTAssertEqual(try offset(22.5726, 88.3639, at: january), 5 * 3600 + 1800)
        XCTAssertEqual(resolve(27.7172, 85.3240).timeZone, "Asia/Kathmandu")
        XCTAssertEqual(try offset(27.7172, 85.3240, at: january), 5 * 3600 + 2700)
        XCTAssertEqual(resolve(-43.9535, -176.5597).timeZone, "Pacific/Chatham")  // Waitangi
        XCTAssertEqual(try offset(-43.9535, -176.5597, at: july), 12 * 3600 + 2700)
        XCTAssertEqual(try offset(-43.9535, -176.5597, at: january), 13 * 3600 + 2700)
        XCTAssertEqual(resolve(-31.5553, 159.0821).timeZone, "Australia/Lord_Howe")
        XCTAssertEqual(try offset(-31.5553, 159.0821, at: july), 10 * 3600 + 1800)
        XCTAssertEqual(try offset(-31.5553, 159.0821, at: january), 11 * 3600)
        // The open Pacific: no country, the nautical zone of its longitude.
        let pacific = resolve(0, -140)
        XCTAssertNil(pacific.country)
        XCTAssertEqual(pacific.timeZone, "Etc/GMT+9")
        XCTAssertEqual(try offset(0, -140, at: january), -9 * 3600)
    }

    func testBothSidesOfTheAntimeridianAndThePoles() {
        assertAnswer(65, 179.9, "RUS Asia/Anadyr")
        assertAnswer(65, -179.9, "RUS Asia/Anadyr")
        assertAnswer(-16.5, 179.9, "FJI Pacific/Fiji")
        assertAnswer(-16.8, -179.95, "FJI Pacific/Fiji")
        XCTAssertEqual(answer(66, 180), answer(66, -180))
        // Open ocean either side of 180°: Etc/GMT-12 west of it, Etc/GMT+12 east.
        assertAnswer(-30, 179.9, "- Etc/GMT-12")
        assertAnswer(-30, -179.9, "- Etc/GMT+12")
        // The ocean zones meet at the North Pole: each longitude keeps its nautical zone there.
        assertAnswer(90, 0, "- Etc/GMT")
        assertAnswer(90, 123, "- Etc/GMT-8")
        XCTAssertNil(resolve(90, 0).borderDistanceKm)
        XCTAssertEqual(resolve(-90, 0).country?.id, "ATA")
        XCTAssertEqual(resolve(-90, 0).timeZone, resolve(-90, 100).timeZone, "every longitude is the same pole")
    }

    func testBorderDistanceShrinksTowardTheFortyNinthParallel() throws {
        // North Dakota, south of the Canadian border along 49° N: 111.2 km a degree of latitude.
        var last = Double.infinity
        for (lat, expected) in [(48.0, 111.2), (48.5, 55.6), (48.9, 11.1), (48.99, 1.1)] {
            let r = resolve(lat, -100)
            XCTAssertEqual(r.country?.id, "USA")
            let d = try XCTUnwrap(r.borderDistanceKm)
            XCTAssertEqual(d, expected, accuracy: 0.3 + expected * 0.005, "\(lat)")
            XCTAssertLessThan(d, last)
            last = d
        }
        // The same from the Canadian side.
        XCTAssertEqual(try XCTUnwrap(resolve(49.5, -100).borderDistanceKm), 55.6, accuracy: 0.6)
    }

    func testBorderDistanceIgnoresTimeZoneLinesWithinACountry() throws {
        // Western Kansas lies a few kilometres from the Central–Mountain line, far from any border.
        let r = resolve(38.5, -101.3)
        XCTAssertEqual(r.country?.id, "USA")
        XCTAssertGreaterThan(try XCTUnwrap(r.borderDistanceKm), 500)
    }

    func testBorderDistanceCountsTheLimitOfTheTerritorialSea() throws {
        // 10 km off Marseille, the limit of France's waters (12 nautical miles, 22 km, from
        // the baseline) is some kilometres away.
        let d = try XCTUnwrap(resolve(43.12, 5.37).borderDistanceKm)
        XCTAssertGreaterThan(d, 2)
        XCTAssertLessThan(d, 25)
    }

    func testAResolverCanLeaveTheBorderDistanceOut() throws {
        let paris = Coordinate(latitude: 48.8566, longitude: 2.3522)
        // A batch resolver (a bounded sea search) leaves it out unless asked.
        let batch = try CountryResolver.load(from: TestData.directory, options: .batch)
        let r = batch.resolve(paris)
        XCTAssertEqual(r.country?.id, "FRA")
        XCTAssertEqual(r.timeZone, "Europe/Paris")
        XCTAssertNil(r.borderDistanceKm)
        let asked = try CountryResolver.load(from: TestData.directory, options: .batchWithBorderDistance)
        XCTAssertEqual(try XCTUnwrap(asked.resolve(paris).borderDistanceKm), try XCTUnwrap(resolve(48.8566, 2.3522).borderDistanceKm))
    }

    /// The zones alone (the regions' tree only, the C library's `time_zone` column by itself)
    /// are the zones of the whole batch resolution, row for row: uniform positions, the coasts,
    /// the antimeridian, the poles and a few places in between.
    func testTheZonesAloneAreTheBatchResolutionsZones() throws {
        let batch = try CountryResolver.load(from: TestData.directory, options: .batch)
        var rng = SplitMix64(seed: 31)
        var positions = (0..<20_000).map { _ in
            Coordinate(latitude: asin(2 * rng.uniform(0, 1) - 1) * 180 / .pi, longitude: rng.uniform(0, 1) * 360 - 180)
        }
        // 0.01° steps off Marseille's coast and across Fiji's antimeridian; the poles; the edges.
        positions += stride(from: 5.0, through: 5.6, by: 0.01).map { Coordinate(latitude: 43.2, longitude: $0) }
        positions += stride(from: 179.5, through: 180, by: 0.01).flatMap {
            [Coordinate(latitude: -16.8, longitude: $0), Coordinate(latitude: -16.8, longitude: -$0)]
        }
        positions += [-90, 90].flatMap { lat in [-180, -179.99, 0, 123, 180].map { Coordinate(latitude: lat, longitude: $0) } }
        var zones = [Int32](repeating: .min, count: positions.count)
        var answers = [IndexedResolution](
            repeating: IndexedResolution(position: positions[0], suggested: 0, reason: .inside, distanceKm: 0, zone: .min),
            count: positions.count)
        positions.withUnsafeBufferPointer { p in
            zones.withUnsafeMutableBufferPointer { batch.zonesIndexed(p, into: $0) }
            answers.withUnsafeMutableBufferPointer { batch.resolveIndexed(p, into: $0) }
        }
        var land = 0, ocean = 0
        for (k, p) in positions.enumerated() {
            XCTAssertEqual(zones[k], answers[k].zone, "\(p)")
            if answers[k].zoneID(in: batch.zoneIDs).hasPrefix("Etc/GMT") { ocean += 1 } else { land += 1 }
        }
        // Both kinds of zone met: a country's and the open ocean's nautical bands.
        XCTAssertGreaterThan(land, 5000)
        XCTAssertGreaterThan(ocean, 5000)
        let paris = [Coordinate(latitude: 48.8566, longitude: 2.3522)]
        var zone: [Int32] = [0]
        paris.withUnsafeBufferPointer { p in zone.withUnsafeMutableBufferPointer { batch.zonesIndexed(p, into: $0) } }
        XCTAssertEqual(batch.zoneIDs[Int(zone[0])], "Europe/Paris")
    }
}
