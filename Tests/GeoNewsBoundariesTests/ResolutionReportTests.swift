import Foundation
import GeoNewsBoundaries
import GeoNewsGeodesy
import GeoNewsJSON
import XCTest

final class ResolutionReportTests: XCTestCase {
    func testParisIsTheDocumentedObjectByteForByte() throws {
        let r = try TestData.resolver().resolve(Coordinate(latitude: 48.8566, longitude: 2.3522))
        // 2026-07-01T12:00:00Z: Paris keeps summer time (UTC+02:00) then.
        let july = Date(timeIntervalSince1970: 1_782_907_200)
        XCTAssertEqual(
            try ResolutionReport(r, language: nil, at: july).jsonString(),
            """
            {"borderDistanceKm":172.223,\
            "country":{"continent":"Europe","id":"FRA","iso2":"FR","iso3":"FRA","name":"France","sovereign":"France"},\
            "nearest":null,"position":{"lat":48.8566,"lon":2.3522},\
            "suggestion":{"distanceKm":0,"explanation":"the position is inside it","iso2":"FR","name":"France","reason":"inside"},\
            "timeZone":"Europe/Paris","utcOffset":"+02:00","utcOffsetSeconds":7200}
            """)
    }

    func testTheRegionIsWrittenAsTheEncoderWritesIt() throws {
        let index = try RegionIndex.load(from: TestData.directory)
        let july = Date(timeIntervalSince1970: 1_782_907_200)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Lyon (a finer unit, Rhône), Houston (none), off Marseille (the nearest), the open sea (null).
        for (lat, lon, language) in [(45.764, 4.8357, "it"), (29.76, -95.37, nil), (43.2, 5.3, "de"), (0, -30, nil)]
            as [(Double, Double, String?)]
        {
            let r = try TestData.resolver().resolve(Coordinate(latitude: lat, longitude: lon))
            let report = ResolutionReport(r, language: language, at: july).withRegion(index.region(for: r), language: language)
            XCTAssertEqual(try report.jsonString(), String(decoding: try encoder.encode(report), as: UTF8.self), "\(lat), \(lon)")
        }
        let lyon = try TestData.resolver().resolve(Coordinate(latitude: 45.764, longitude: 4.8357))
        let text = try ResolutionReport(lyon, language: "it", at: july).withRegion(index.region(for: lyon), language: "it").jsonString()
        XCTAssertTrue(
            text.contains(
                #""region":{"geonamesAdmin1":"FR.84","inside":true,"iso3166_2":"FR-ARA","name":"Alvernia-Rodano-Alpi","subregion":{"iso3166_2":"FR-69","name":"Rhône"}}"#
            ), text)
        let sea = try TestData.resolver().resolve(Coordinate(latitude: 0, longitude: -30))
        XCTAssertTrue(try ResolutionReport(sea, language: nil).withRegion(nil, language: nil).jsonString().contains(#""region":null,"#))
        XCTAssertFalse(try ResolutionReport(sea, language: nil).jsonString().contains("region"), "left out unless asked")
    }

    func testAtSeaCountryIsNullAndNearestIsSetInTheLanguageAsked() throws {
        let r = try TestData.resolver().resolve(Coordinate(latitude: 0, longitude: -30))
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: ResolutionReport(r, language: "fr").jsonData()) as? [String: Any])
        XCTAssertTrue(json["country"] is NSNull)
        let nearest = try XCTUnwrap(json["nearest"] as? [String: Any])
        XCTAssertEqual(nearest["iso2"] as? String, "BR")
        XCTAssertEqual(nearest["name"] as? String, "Brésil")
        let suggestion = try XCTUnwrap(json["suggestion"] as? [String: Any])
        XCTAssertEqual(suggestion["reason"] as? String, "nearest-marker")
        XCTAssertEqual(suggestion["explanation"] as? String, r.explanation(language: "fr"))
        XCTAssertTrue(r.explanation(language: "fr").hasPrefix("the position is at sea; its marker is the nearest, "))
        XCTAssertNil(json["headlines"], "left out unless set")
    }

    func testHeadlinesAreEmbeddedUnchanged() throws {
        let r = try TestData.resolver().resolve(Coordinate(latitude: 49.6116, longitude: 6.1319))
        let headlines = JSONValue.object(["provider": .null, "articles": .array([]), "error": .string("offline")])
        let text = try ResolutionReport(r, language: nil, headlines: headlines).jsonString()
        XCTAssertTrue(text.contains(#""headlines":{"articles":[],"error":"offline","provider":null}"#), text)
        XCTAssertTrue(text.contains(#""explanation":"Luxembourg has no news coverage; its marker is the nearest, 161 km away""#), text)
    }

    func testKilometresReadAsPeopleWriteThem() {
        XCTAssertEqual(DistanceText.kilometres(3.44), "3.4 km")
        XCTAssertEqual(DistanceText.kilometres(1234.5), "1,235 km")
        XCTAssertEqual(DistanceText.kilometres(12_345_678), "12,345,678 km")
        XCTAssertEqual(DistanceText.position(Coordinate(latitude: -33.9, longitude: -0.1)), "33.9000° S, 0.1000° W")
    }

    func testCountryEntriesCarryTheirMarker() throws {
        let japan = try XCTUnwrap(TestData.resolver().catalogue.search("jap", newsOnly: false).first)
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: CountryReport.jsonData([japan], language: "fr")) as? [[String: Any]])
        XCTAssertEqual(rows.first?["iso2"] as? String, "JP")
        XCTAssertEqual(rows.first?["name"] as? String, "Japon")
        XCTAssertEqual(rows.first?["news"] as? Bool, true)
        XCTAssertNotNil((rows.first?["marker"] as? [String: Any])?["lat"] as? Double)
    }
}
