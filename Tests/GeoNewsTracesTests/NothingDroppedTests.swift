import Foundation
import XCTest

@testable import GeoNewsTraces

/// Every element of the input is a row, and places are not taken for journeys.
final class NothingDroppedTests: XCTestCase {
    func testAFeatureThatIsNotAnObjectIsAnErrorRowWithItsOwnNumber() throws {
        let input = """
            {"type":"FeatureCollection","features":[1, {"type":"Feature","geometry":{"type":"Point","coordinates":[5,5]}},
             "x", null, [1,2], true, {"type":"Feature","geometry":{"type":"Point","coordinates":[15,5]}}, -2.5e3]}
            """
        let (text, summary) = try resolveBatch(input, name: "f.geojson") { $0.outputFormat = .csv }
        let rows = Array(lines(text)[1...])
        XCTAssertEqual(rows.count, 8, text)
        XCTAssertEqual(summary.recordsRead, 8)
        XCTAssertEqual(summary.recordsResolved, 2)
        XCTAssertEqual(rows.map { String($0.prefix(while: { $0 != "," })) }, ["1", "2", "3", "4", "5", "6", "7", "8"])
        XCTAssertTrue(rows[0].hasSuffix("line 1: feature 1: not a JSON object: 1"), rows[0])
        XCTAssertTrue(rows[1].contains(",AA,AA,inside,"), rows[1])
        XCTAssertTrue(rows[2].contains(#"line 2: feature 3: not a JSON object: ""x"""#), rows[2])
        XCTAssertTrue(rows[3].hasSuffix("feature 4: not a JSON object: null"), rows[3])
        XCTAssertTrue(rows[4].contains("feature 5: not a JSON object: [1,2]"), rows[4])
        XCTAssertTrue(rows[5].hasSuffix("feature 6: not a JSON object: true"), rows[5])
        XCTAssertTrue(rows[6].contains(",BB,BB,inside,"), rows[6])
        XCTAssertTrue(rows[7].hasSuffix("feature 8: not a JSON object: -2.5e3"), rows[7])
    }

    /// A LineString or MultiPoint with no positions is one error row, not none: a feature
    /// in is a row out (found by the geojson fuzz target: feature 7 followed feature 5).
    func testALineWithNoPositionsIsAnErrorRowWithItsOwnNumber() throws {
        let input = """
            {"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[5,5]}},
             {"type":"Feature","geometry":{"type":"LineString","coordinates":[]}},
             {"type":"Feature","geometry":{"type":"MultiPoint","coordinates":[]}},
             {"type":"Feature","geometry":{"type":"Point","coordinates":[15,5]}}]}
            """
        for format in [RecordFormat.csv, .geojson] {
            let (text, summary) = try resolveBatch(input, name: "f.geojson") { $0.outputFormat = format }
            XCTAssertEqual(summary.recordsRead, 4, text)
            XCTAssertEqual(summary.recordsResolved, 2, text)
            XCTAssertTrue(text.contains("feature 2: the LineString has no positions"), text)
            XCTAssertTrue(text.contains("feature 3: the MultiPoint has no positions"), text)
        }
    }

    /// A feature whose properties are not JSON (`{"time":"…"{}`: a brace where a comma
    /// belongs) is an error row, never a row that copies the broken text, and its
    /// unbalanced brace swallows what follows into the same record (found by the geojson
    /// fuzz target: the copied text broke NDJSON rows across lines).
    func testAFeatureWhosePropertiesAreNotJSONIsAnErrorRowAndEveryRowStaysOneLine() throws {
        let input = """
            {"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[5,5]},"properties":{"time":"x"{}},
             {"type":"Feature","geometry":{"type":"Point","coordinates":[15,5]},"properties":{"a":1 2}}]}
            """
        let (text, summary) = try resolveBatch(input, name: "f.geojson") { $0.outputFormat = .ndjson }
        let rows = lines(text)
        XCTAssertEqual(rows.count, summary.recordsRead, text)
        XCTAssertEqual(summary.recordsResolved, 0, text)
        for row in rows {
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(row.utf8)) as? [String: Any], row)
            XCTAssertTrue((object["error"] as? String ?? "").contains("line 1: feature 1: "), row)
        }
    }

    /// Properties whose JSON holds line breaks between its tokens are copied on one line
    /// (found by the geojson fuzz target: 3 NDJSON rows out for 2 records read).
    func testPropertiesWithLineBreaksStayOnTheirRowsLine() throws {
        let input = """
            {"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[5,5]},
             "properties":{"a":[1,\r\n 2],\n "b":"x"}}]}
            """
        let (text, summary) = try resolveBatch(input, name: "f.geojson") { $0.outputFormat = .ndjson }
        let rows = lines(text).filter { !$0.isEmpty }
        XCTAssertEqual(summary.recordsRead, 1, text)
        XCTAssertEqual(rows.count, 1, text)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(rows[0].utf8)) as? [String: Any], rows[0])
        let properties = try XCTUnwrap(object["properties"] as? [String: Any], rows[0])
        XCTAssertEqual(properties["a"] as? [Int], [1, 2])
        XCTAssertEqual(properties["b"] as? String, "x")
    }

    func testANonObjectFeatureStaysAFeatureInGeoJSONOutput() throws {
        let (text, summary) = try resolveBatch(
            #"{"type":"FeatureCollection","features":[7,{"type":"Feature","geometry":{"type":"Point","coordinates":[5,5]}}]}"#,
            name: "f.geojson")
        XCTAssertEqual(summary.recordsRead, 2)
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let features = try XCTUnwrap(root["features"] as? [[String: Any]])
        XCTAssertEqual(features.count, 2)
        XCTAssertEqual(features[0]["type"] as? String, "Feature")
        XCTAssertTrue(features[0]["geometry"] is NSNull)
        XCTAssertEqual((features[0]["properties"] as? [String: Any])?["error"] as? String, "line 1: feature 1: not a JSON object: 7")
    }

    func testPlacesWithoutATimeOrTraceColumnMakeNoJourney() throws {
        let csv = "name,lat,lon\na,5,5\nb,5,15\nc,5,5\nd,-5,5\n"
        let (_, summary) = try resolveBatch(csv)
        XCTAssertEqual(summary.recordsResolved, 4)
        XCTAssertEqual(summary.countries, ["AA": 2, "BB": 1, "CC": 1])
        XCTAssertEqual(summary.traces.count, 0, "no segments or crossings between unrelated rows")
        XCTAssertFalse(summary.text().contains("crossing"))

        let ndjson = #"{"lat":5,"lon":5}"# + "\n" + #"{"lat":5,"lon":15}"# + "\n"
        XCTAssertEqual(try resolveBatch(ndjson, name: "p.ndjson").summary.traces.count, 0)

        let points =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":1,"geometry":{"type":"Point","coordinates":[5,5]}},{"type":"Feature","id":2,"geometry":{"type":"Point","coordinates":[15,5]}}]}"#
        let geo = try resolveBatch(points, name: "p.geojson").summary
        XCTAssertEqual(geo.countries, ["AA": 1, "BB": 1])
        XCTAssertEqual(geo.traces.count, 0)
    }

    func testATimeOrTraceColumnOrAnExplicitTraceColumnStillMakesJourneys() throws {
        let timed = "time,lat,lon\n1,5,5\n2,5,15\n"
        XCTAssertEqual(try resolveBatch(timed).summary.traces.first?.crossings.map(\.to), ["BB"])
        let named = "name,lat,lon\na,5,5\na,5,15\nb,5,15\n"
        let byName = try resolveBatch(named) { $0.traceColumn = .name("name") }.summary
        XCTAssertEqual(byName.traces.map(\.traceID), ["a", "b"])
        XCTAssertEqual(byName.traces[0].crossings.count, 1)
        let line = #"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[5,5],[15,5]]}}"#
        XCTAssertEqual(
            try resolveBatch(line, name: "l.geojson").summary.traces.first?.crossings.count, 1,
            "the vertices of a line are a trace")
        let ndjson = #"{"trace_id":"v","lat":5,"lon":5}"# + "\n" + #"{"trace_id":"v","lat":5,"lon":15}"# + "\n"
        XCTAssertEqual(try resolveBatch(ndjson, name: "p.ndjson").summary.traces.first?.crossings.count, 1)
    }
}
