import Foundation
import GeoNews
import XCTest

@testable import geonews

/// The human summary `geonews --lat … --lon …` prints without `--json`, at fixed moments so that
/// the offset and the local time are known (LocateCommandTests runs the binary for real
/// positions). The resolutions get their zone and border distance here. Offsets come from
/// Data/zoneinfo.bin.
final class LocationSummaryTests: XCTestCase {
    private static let directory = DataDirectory(path: CommandRunner.packageRoot.appendingPathComponent("Data").path)
    private static let resolver = Result { try CountryResolver.load(from: directory) }
    private static let rules = Result { try TimeZoneRules.load(from: directory) }

    private func date(_ iso: String) throws -> Date {
        try XCTUnwrap(ISO8601DateFormatter().date(from: iso), iso)
    }

    /// The resolver's answer for the position with `zone` and `borderKm` put in.
    private func resolution(_ lat: Double, _ lon: Double, zone: String?, borderKm: Double?) throws -> Resolution {
        let r = try Self.resolver.get().resolve(Coordinate(latitude: lat, longitude: lon))
        return Resolution(
            position: r.position, country: r.country, nearest: r.nearest, suggestion: r.suggestion,
            timeZone: zone, borderDistanceKm: borderKm)
    }

    func testTheHumanSummaryShowsZoneOffsetLocalTimeAndBorderDistance() throws {
        let r = try resolution(22.5726, 88.3639, zone: "Asia/Kolkata", borderKm: 3.44)
        let kolkata = NearestPlace(
            place: Place(
                name: "Kolkata", geonameID: 1_275_004, population: 4_631_392,
                coordinate: Coordinate(latitude: 22.56263, longitude: 88.36304),
                countryISO2: "IN", admin1: "28"),
            distanceKm: 1.16)
        let region = try RegionIndex.load(from: Self.directory).region(for: r)
        let text = LocationSummary(
            r, region: region, place: kolkata, language: nil, zoneRules: try Self.rules.get(), at: try date("2026-11-23T10:12:00Z")
        ).text
        XCTAssertEqual(
            text.split(separator: "\n").map(String.init),
            [
                "Position   22.5726° N, 88.3639° E",
                "Country    India (IN, IND)",
                "Region     West Bengal (IN-WB)",
                "Place      Kolkata, 1.2 km away (population 4,631,392)",
                "Border     3.4 km from the border",
                "Time zone  Asia/Kolkata (UTC+05:30), local time 15:42",
                "News       India (IN): the position is inside it",
            ])
    }

    func testTheLocalTimeCrossesMidnightAndTheDateLine() throws {
        let rules = try Self.rules.get()
        let chatham = try resolution(-43.95, -176.56, zone: "Pacific/Chatham", borderKm: nil)
        let text = LocationSummary(chatham, place: nil, language: nil, zoneRules: rules, at: try date("2027-01-15T11:00:00Z")).text
        XCTAssertTrue(text.contains("Time zone  Pacific/Chatham (UTC+13:45), local time 00:45"), text)
        XCTAssertFalse(text.contains("Border"), "no line without a distance")
        let far = try resolution(22.5726, 88.3639, zone: nil, borderKm: 312.4)
        XCTAssertTrue(
            LocationSummary(far, place: nil, language: nil).text.contains("\nBorder     312 km from the border\n"),
            "whole km from 10 km, as every distance reads")
        let ocean = try resolution(0, -150, zone: "Etc/GMT+10", borderKm: nil)
        let sea = LocationSummary(ocean, place: nil, language: nil, zoneRules: rules, at: try date("2026-11-23T05:30:00Z")).text
        XCTAssertTrue(sea.contains("Time zone  Etc/GMT+10 (UTC-10:00), local time 19:30"), sea)
        XCTAssertTrue(sea.contains("\nPlace      none within 50 km\n"), sea)
        XCTAssertTrue(
            LocationSummary(chatham, place: nil, language: nil).text.contains("\nPlace      none known in this country\n"),
            "inside a country with no place GeoNames knows")
    }

    func testWithoutAZoneTheSummaryHasNoTimeZoneLine() throws {
        let text = LocationSummary(try resolution(48.8566, 2.3522, zone: nil, borderKm: nil), place: nil, language: nil).text
        XCTAssertFalse(text.contains("Time zone"))
        XCTAssertFalse(text.contains("Border"))
    }
}
