import Foundation
import GeoNewsBenchmarking
import GeoNewsGeodesy
import GeoNewsTraces
import XCTest

@testable import GeoNewsPoints

final class PointFileTests: XCTestCase {
    private func read(_ text: String, name: String) throws -> PointFile {
        try PointFile.read(.bytes(Array(text.utf8), name: name))
    }

    func testCSVWithAHeaderTakesItsIdAndNameColumnsAndSkipsComments() throws {
        let points = try read(
            """
            id,name,Latitude,LON
            a,"Suva, Fiji",-18.14,178.44
            # not a point

            b,Apia,-13.83,-171.76\r
            c,,1.33,173
            """, name: "p.csv")
        XCTAssertEqual(
            points.coordinates,
            [
                Coordinate(latitude: -18.14, longitude: 178.44), Coordinate(latitude: -13.83, longitude: -171.76),
                Coordinate(latitude: 1.33, longitude: 173),
            ])
        XCTAssertEqual(points.ids, ["a", "b", "c"])
        XCTAssertEqual(points.names, ["Suva, Fiji", "Apia", ""])
    }

    func testCSVWithoutAHeaderIsLatitudeLongitudeNumberedFromZero() throws {
        let points = try read("-33.8,151.2\n51.5,-0.1\n", name: "-")
        XCTAssertEqual(points.coordinates, [Coordinate(latitude: -33.8, longitude: 151.2), Coordinate(latitude: 51.5, longitude: -0.1)])
        XCTAssertEqual(points.ids, ["0", "1"])
        XCTAssertEqual(points.names, [nil, nil])
    }

    func testABadPointNamesItsLine() {
        let cases: [(String, String)] = [
            ("lat,lon\n1,2\n95,0\n", "p.csv line 3: latitude 95 is outside -90…90"),
            ("lat,lon\n1,2\n\n1e400,0\n", "p.csv line 4: latitude 1e400 is not a finite number"),
            ("lat,lon\n1\n", "p.csv line 2: expected a latitude and a longitude, got '1'"),
            ("x,y\n1,2\n", "p.csv line 1: header has no lat and lon columns (found: x,y)"),
            ("lat,lon\n\"1,2\n", "p.csv line 2: broken quoting: a quoted field opened on this line is never closed"),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try read(text, name: "p.csv"), message) { XCTAssertEqual("\($0)", message) }
        }
    }

    func testGeoJSONPointsTakeTheFeatureIdThenThePropertiesId() throws {
        let points = try read(
            """
            {"type":"FeatureCollection","features":[
             {"type":"Feature","id":"x1","geometry":{"type":"Point","coordinates":[178.44,-18.14]},"properties":{"name":"Suva"}},
             {"type":"Feature","geometry":{"type":"Point","coordinates":[178.5,-18.2,12]},"properties":{"id":7}},
             {"type":"Feature","geometry":{"type":"Point","coordinates":[-171.76,-13.83]},"properties":null}]}
            """, name: "upload")
        XCTAssertEqual(points.coordinates.map(\.longitude), [178.44, 178.5, -171.76])
        XCTAssertEqual(points.ids, ["x1", "7", "2"])
        XCTAssertEqual(points.names, ["Suva", nil, nil])
    }

    func testGeoJSONThatIsNotAPointNamesItsFeature() {
        let line = #"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}"#
        XCTAssertThrowsError(
            try read(
                #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]}},"# + line
                    + "]}", name: "f.geojson")
        ) {
            XCTAssertEqual("\($0)", "f.geojson: feature 1 is not a Point with [longitude, latitude]")
        }
        XCTAssertThrowsError(try read(#"{"features":[{"geometry":{"type":"Point","coordinates":[0,95]}}]}"#, name: "f.json")) {
            XCTAssertEqual("\($0)", "f.json: feature 0: latitude 95.0 is outside -90…90")
        }
    }

    func testChunksAreReadAsOneStreamWhateverTheirBoundaries() throws {
        let text = Array("lat,lon,id\n-33.8,151.2,syd\n51.5,-0.1,lon\n".utf8)
        let whole = try PointFile.read(chunks: [text], name: "upload")
        for size in [1, 2, 7] {
            let chunks = stride(from: 0, to: text.count, by: size).map { Array(text[$0..<min($0 + size, text.count)]) }
            let points = try PointFile.read(chunks: chunks, name: "upload")
            XCTAssertEqual(points.coordinates, whole.coordinates)
            XCTAssertEqual(points.ids, ["syd", "lon"])
        }
        let geo = Array(
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[2.35,48.85]}}]}"#.utf8)
        let split = try PointFile.read(chunks: geo.map { [$0] }, name: "upload")
        XCTAssertEqual(split.coordinates, [Coordinate(latitude: 48.85, longitude: 2.35)])
        XCTAssertEqual(try PointFile.read(chunks: [[UInt8]](), name: "empty").coordinates, [])
    }

    func testPlainDecimalsReadFastAreTheFullParsersValues() throws {
        var random = TestRandom.generator(for: "PointFileTests.\(#function)")
        var texts = ["0", "-0", "12", "-12.5", "48.8566", "-179.999999999", "0.1", "90.000000000000001", "1234567890.1234567890123"]
        for _ in 0..<2000 {
            texts.append(String(format: "%.\(Int.random(in: 0...15, using: &random))f", Double.random(in: -180...180, using: &random)))
        }
        for text in texts {
            let fast = try XCTUnwrap(PointFileReader.plainDecimal(text), text)
            XCTAssertEqual(fast.bitPattern, try Coordinate.parseDegrees(text, field: "x").bitPattern, text)
        }
        // Anything else is left to the full parser and its messages.
        for text in ["", "-", ".", "5.", ".5", "1e3", "+5", " 5", "5 ", "1.2.3", "0x10", "nan", "inf", "4,5", "٣"] {
            XCTAssertNil(PointFileReader.plainDecimal(text), text)
        }
    }

    func testTextThatIsNotJSONIsNotAnEmptyGeoJSONCollection() throws {
        for text in ["hello, world", "lat,lon\n48.85,2.35\n", ""] {
            XCTAssertThrowsError(try PointFile.read(.bytes(Array(text.utf8), name: "upload"), format: .geoJSON), text) {
                XCTAssertTrue("\($0)".contains("not GeoJSON"), "\($0)")
            }
        }
        let empty = try PointFile.read(.bytes(Array(#"{"type":"FeatureCollection","features":[]}"#.utf8), name: "upload"), format: .geoJSON)
        XCTAssertEqual(empty.coordinates, [])
    }

    func testAMissingFileIsUnreadable() {
        XCTAssertThrowsError(try PointFile.read(.file("/nonexistent/points.csv"))) {
            XCTAssertEqual($0 as? PointFileError, .unreadable(name: "/nonexistent/points.csv", reason: "No such file or directory"))
        }
    }
}
