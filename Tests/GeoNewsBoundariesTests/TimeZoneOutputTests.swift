import Foundation
import GeoNewsData
import GeoNewsGeodesy
import GeoNewsTimeZones
import XCTest

@testable import GeoNewsBoundaries

/// The time zone, UTC offset, local time and border distance in the JSON report (the human
/// summary is the command line's: GeoNewsCLITests' LocationSummaryTests). The resolutions are built here with a zone and a distance, as the resolver
/// will give them once the country-area index is in; the end-to-end answers for real
/// positions (Kolkata, Kathmandu, the Chatham Islands, a mid-Pacific point) follow with it in
/// `CountryResolverTests`. Offsets come from Data/zoneinfo.bin (tzdata 2026e).
final class TimeZoneOutputTests: XCTestCase {
    private static let rules = try? TimeZoneRules.load(from: TestData.directory)

    private func rules() throws -> TimeZoneRules {
        try XCTUnwrap(Self.rules, "Data/ must hold timezones.json and zoneinfo.bin")
    }

    private func date(_ iso: String) throws -> Date {
        try XCTUnwrap(ISO8601DateFormatter().date(from: iso), iso)
    }

    /// `resolver`'s answer for `position` with `zone` and `borderKm` added.
    private func resolution(_ lat: Double, _ lon: Double, zone: String?, borderKm: Double?) throws -> Resolution {
        let r = try TestData.resolver().resolve(Coordinate(latitude: lat, longitude: lon))
        return Resolution(
            position: r.position, country: r.country, nearest: r.nearest, suggestion: r.suggestion,
            timeZone: zone, borderDistanceKm: borderKm)
    }

    private func json(_ r: Resolution, at iso: String) throws -> [String: Any] {
        let report = ResolutionReport(r, language: nil, zoneRules: try rules(), at: try date(iso))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: report.jsonData()) as? [String: Any])
    }

    func testKathmanduIsFiveFortyFiveAheadWithTheBorderDistanceToTheMetre() throws {
        let r = try resolution(27.7172, 85.3240, zone: "Asia/Kathmandu", borderKm: 31.41592)
        let json = try json(r, at: "2026-11-23T10:00:00Z")
        XCTAssertEqual(json["timeZone"] as? String, "Asia/Kathmandu")
        XCTAssertEqual(json["utcOffset"] as? String, "+05:45")
        XCTAssertEqual(json["utcOffsetSeconds"] as? Int, 20_700)
        XCTAssertEqual(json["borderDistanceKm"] as? Double, 31.416)
        XCTAssertEqual((json["country"] as? [String: Any])?["iso2"] as? String, "NP")
    }

    func testChathamIslandsOffsetDependsOnTheDate() throws {
        let r = try resolution(-43.95, -176.56, zone: "Pacific/Chatham", borderKm: 5)
        XCTAssertEqual(try json(r, at: "2026-07-15T12:00:00Z")["utcOffset"] as? String, "+12:45")
        XCTAssertEqual(try json(r, at: "2027-01-15T12:00:00Z")["utcOffset"] as? String, "+13:45")
        XCTAssertEqual(try json(r, at: "2027-01-15T12:00:00Z")["utcOffsetSeconds"] as? Int, 49_500)
    }

    func testMidPacificIsOnAnEtcZoneWithNoBorderDistance() throws {
        let r = try resolution(0, -150, zone: "Etc/GMT+10", borderKm: nil)
        let json = try json(r, at: "2026-11-23T10:00:00Z")
        XCTAssertEqual(json["timeZone"] as? String, "Etc/GMT+10")
        XCTAssertEqual(json["utcOffset"] as? String, "-10:00")
        XCTAssertEqual(json["utcOffsetSeconds"] as? Int, -36_000)
        XCTAssertTrue(json["borderDistanceKm"] is NSNull)
        XCTAssertTrue(json["country"] is NSNull)
    }

    func testUnknownValuesAreNullNeverLeftOut() throws {
        let json = try json(try resolution(48.8566, 2.3522, zone: nil, borderKm: nil), at: "2026-11-23T10:00:00Z")
        for key in ["timeZone", "utcOffset", "utcOffsetSeconds", "borderDistanceKm"] {
            XCTAssertTrue(json[key] is NSNull, key)
        }
        let unknownZone = try self.json(
            try resolution(48.8566, 2.3522, zone: "Mars/Olympus_Mons", borderKm: nil), at: "2026-11-23T10:00:00Z")
        XCTAssertEqual(unknownZone["timeZone"] as? String, "Mars/Olympus_Mons")
        XCTAssertTrue(unknownZone["utcOffset"] is NSNull, "no rules for the zone: no offset")
    }

    func testOffsetsReadAsISO8601() {
        XCTAssertEqual(UTCOffset(seconds: 19_800).description, "+05:30")
        XCTAssertEqual(UTCOffset(seconds: 0).description, "+00:00")
        XCTAssertEqual(UTCOffset(seconds: -9000).description, "-02:30")
        XCTAssertEqual(UTCOffset(seconds: -1521).description, "-00:25:21", "Irish mean time, before 1916")
        XCTAssertEqual(UTCOffset(seconds: -36_000).clockTime(at: 3600), "15:00", "the day before the epoch")
    }
}

/// The quick read of the zone ids that a cold start uses gives exactly the catalogue's.
final class TimeZoneRulesLoadTests: XCTestCase {
    func testTheQuickReadOfZoneIdsAgreesWithTheFullDecoding() throws {
        let catalogue = try TimeZoneCatalogue.load(from: TestData.directory)
        let quick = TimeZoneRules.zoneIDs(try MappedFile(path: TestData.directory.file(TimeZoneCatalogue.fileName)))
        XCTAssertEqual(quick, catalogue.zones.map(\.id))
        XCTAssertEqual(quick?.count, 444)
    }

    func testAnUnexpectedLayoutIsLeftToTheFullDecoding() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("geonews-zones-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(#"{"zones": [{"id": "Europe/Paris\u0021"}]}"#.utf8).write(to: url)
        XCTAssertNil(TimeZoneRules.zoneIDs(try MappedFile(path: url.path)), "an escape is not an IANA character")
        try Data(#"{"zones":[{"id":"Europe/Paris"}]}"#.utf8).write(to: url)
        XCTAssertNil(TimeZoneRules.zoneIDs(try MappedFile(path: url.path)), "other spacing: not our writer's layout")
    }

    func testRulesLoadFromTheDataDirectoryAndKnowEveryZone() throws {
        let rules = try TimeZoneRules.load(from: TestData.directory)
        let catalogue = try TimeZoneCatalogue.load(from: TestData.directory)
        for zone in catalogue.zones {
            XCTAssertNotNil(rules.offset(ofZone: zone.id, at: 1_800_000_000), zone.id)
        }
        XCTAssertNil(rules.offset(ofZone: "Europe/Atlantis", at: 1_800_000_000))
    }
}
