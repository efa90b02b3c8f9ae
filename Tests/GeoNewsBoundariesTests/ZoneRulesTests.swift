import Foundation
import GeoNewsBoundaries
import GeoNewsTimeZones
import XCTest

/// UTC offsets from `Data/zoneinfo.bin` (tzdata 2026e, the release the borders come from).
final class ZoneRulesTests: XCTestCase {
    private static let zones = try? TimeZoneCatalogue.load(from: TestData.directory)
    private static let file = try? ZoneRulesFile(directory: TestData.directory)

    private func offset(_ zone: String, _ iso: String, file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        let zones = try XCTUnwrap(Self.zones), rules = try XCTUnwrap(Self.file)
        let index = try XCTUnwrap(zones.index(of: zone), zone, file: file, line: line)
        let date = try XCTUnwrap(ISO8601DateFormatter().date(from: iso), iso, file: file, line: line)
        return try rules.rules(ofZone: index).offset(at: Int64(date.timeIntervalSince1970))
    }

    func testHalfAndQuarterHourOffsets() throws {
        XCTAssertEqual(try offset("Asia/Kolkata", "2026-01-15T12:00:00Z"), 5 * 3600 + 1800)
        XCTAssertEqual(try offset("Asia/Kathmandu", "2026-07-15T12:00:00Z"), 5 * 3600 + 2700)
    }

    func testChathamIslandsIsTwelveFortyFiveAndThirteenFortyFiveInSummer() throws {
        XCTAssertEqual(try offset("Pacific/Chatham", "2026-07-15T12:00:00Z"), 12 * 3600 + 2700)
        XCTAssertEqual(try offset("Pacific/Chatham", "2027-01-15T12:00:00Z"), 13 * 3600 + 2700)
    }

    func testLordHoweMovesItsClockByHalfAnHour() throws {
        XCTAssertEqual(try offset("Australia/Lord_Howe", "2026-07-15T12:00:00Z"), 10 * 3600 + 1800)
        XCTAssertEqual(try offset("Australia/Lord_Howe", "2027-01-15T12:00:00Z"), 11 * 3600)
    }

    func testOceanZonesCountHoursWestAsPositive() throws {
        XCTAssertEqual(try offset("Etc/GMT+10", "2026-07-15T12:00:00Z"), -10 * 3600)
        XCTAssertEqual(try offset("Etc/GMT-12", "2026-07-15T12:00:00Z"), 12 * 3600)
    }

    func testTheChangeToSummerTimeFallsOnItsSecond() throws {
        // Europe: last Sunday of March at 01:00 UTC.
        XCTAssertEqual(try offset("Europe/Paris", "2026-03-29T00:59:59Z"), 3600)
        XCTAssertEqual(try offset("Europe/Paris", "2026-03-29T01:00:00Z"), 7200)
        XCTAssertEqual(try offset("Europe/Paris", "2026-10-25T00:59:59Z"), 7200)
        XCTAssertEqual(try offset("Europe/Paris", "2026-10-25T01:00:00Z"), 3600)
        // Greenland changes at -1:00 local time (RFC 8536's negative rule times).
        XCTAssertEqual(try offset("America/Nuuk", "2026-07-15T12:00:00Z"), -3600)
        XCTAssertEqual(try offset("America/Nuuk", "2026-01-15T12:00:00Z"), -7200)
    }

    /// Every zone against the system's time-zone database at instants of 2024, where tzdata
    /// 2025b (Debian's) and 2026e agree: this exercises the footers' rules, which slim TZif
    /// files rely on after their last transition.
    func testEveryZoneAgreesWithTheSystemDatabaseIn2024() throws {
        let zones = try XCTUnwrap(Self.zones), rules = try XCTUnwrap(Self.file)
        let instants = ["2024-01-10T06:00:00Z", "2024-04-01T18:00:00Z", "2024-07-20T00:30:00Z", "2024-11-05T12:00:00Z"]
            .compactMap { ISO8601DateFormatter().date(from: $0) }
        var compared = 0
        var differ: [String] = []
        for (i, zone) in zones.zones.enumerated() {
            guard let system = TimeZone(identifier: zone.id) else { continue }
            let ours = try rules.rules(ofZone: i)
            for date in instants {
                compared += 1
                if ours.offset(at: Int64(date.timeIntervalSince1970)) != system.secondsFromGMT(for: date) {
                    differ.append("\(zone.id) \(date)")
                }
            }
        }
        XCTAssertGreaterThan(compared, 1700)
        XCTAssertEqual(differ, [])
    }
}
