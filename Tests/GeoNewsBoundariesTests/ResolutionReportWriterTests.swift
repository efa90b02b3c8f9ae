import Foundation
import GeoNewsBoundaries
import GeoNewsGeodesy
import GeoNewsJSON
import GeoNewsTimeZones
import XCTest

/// The hand-written resolution JSON against `JSONEncoder` (with the report's `Encodable`
/// conformance, which stays for library users) over every country's marker, open-sea and
/// polar positions, ten languages, zones with odd offsets and embedded headlines.
final class ResolutionReportWriterTests: XCTestCase {
    private func encoderBytes(_ report: ResolutionReport) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(report), as: UTF8.self)
    }

    func testEveryMarkerAndSeaPositionIsJSONEncodersBytes() throws {
        let resolver = try TestData.resolver()
        var positions = resolver.catalogue.countries.map(\.marker)
        for lat in stride(from: -90.0, through: 90, by: 15) {
            for lon in stride(from: -180.0, through: 180, by: 20) { positions.append(Coordinate(latitude: lat, longitude: lon)) }
        }
        positions.append(Coordinate(latitude: 1e-7, longitude: -0.000_012_5))
        var compared = 0, withoutISO2 = 0, atSea = 0
        for (i, position) in positions.enumerated() {
            let language = [nil, "fr", "zht", "ar", "ja", "ru", "de", "xx", "es", "ko"][i % 10]
            let r = resolver.resolve(position)
            let report = ResolutionReport(r, language: language)
            XCTAssertEqual(try report.jsonString(), try encoderBytes(report), "\(position) in \(language ?? "en")")
            compared += 1
            if r.country != nil && r.country?.iso2 == nil { withoutISO2 += 1 }
            if r.country == nil { atSea += 1 }
        }
        XCTAssertGreaterThan(compared, 400)
        XCTAssertGreaterThan(withoutISO2, 0, "some markers belong to features ISO does not code")
        XCTAssertGreaterThan(atSea, 50)
    }

    func testZonesOffsetsBorderDistancesAndHeadlinesAreJSONEncodersBytes() throws {
        let rules = try XCTUnwrap(try? TimeZoneRules.load(from: TestData.directory), "Data/ must hold the zone rules")
        let base = try TestData.resolver().resolve(Coordinate(latitude: 27.7172, longitude: 85.3240))
        let headlines = JSONValue.object([
            "provider": .string("google-news"), "cached": .bool(false), "Zeta": .null, "aB": .number(-0.0),
            "articles": .array([
                .object([
                    "title": .string("Quote \" slash / tab\t é 日本"), "url": .string("https://x.test/a?b=c"),
                    "score": .number(1e-5), "big": .number(1e16), "whole": .number(1e15), "rank": .number(12.5),
                ])
            ]),
        ])
        for (zone, km) in [("Asia/Kathmandu", 31.41592), ("Pacific/Chatham", 0.0004), ("America/St_Johns", 1234.5678), ("Etc/GMT+12", 0)] {
            let r = Resolution(
                position: base.position, country: base.country, nearest: base.nearest, suggestion: base.suggestion,
                timeZone: zone, borderDistanceKm: km)
            for h in [nil, headlines] {
                let report = ResolutionReport(
                    r, language: "fr", headlines: h, zoneRules: rules, at: Date(timeIntervalSince1970: 1_795_000_000))
                XCTAssertNotNil(report.utcOffsetSeconds, zone)
                XCTAssertEqual(try report.jsonString(), try encoderBytes(report), zone)
            }
        }
    }

    func testAnInfiniteHeadlineNumberIsAnErrorAsWithJSONEncoder() throws {
        let r = try TestData.resolver().resolve(Coordinate(latitude: 48.8566, longitude: 2.3522))
        let report = ResolutionReport(r, language: nil, headlines: .object(["score": .number(.infinity)]))
        XCTAssertThrowsError(try report.jsonData()) { XCTAssertTrue($0 is EncodingError, "\($0)") }
        XCTAssertThrowsError(try encoderBytes(report))
    }
}
