import XCTest

@testable import GeoNewsTraces

final class JSONInputTests: XCTestCase {
    func testNDJSONKeepsEveryKeyVerbatimAndAppendsTheResolvedOnes() throws {
        let input = """
            {"id":7,"lat":5,"lon":15,"meta":{"speed":[1,2]},"note":"a \\"b\\""}
            {"latitude":"5.5","longitude":"5.5"}

            {"lat":5,"lng":-200}
            {"lat":5,"lon":
            [1,2]
            {"lon":5}
            {"lat":null,"lon":5}

            """
        let (text, summary) = try resolveBatch(input, name: "fixes.ndjson")
        let rows = lines(text)
        XCTAssertEqual(rows.count, 7, "the blank line is not a record; every other line is")
        XCTAssertEqual(summary.recordsRead, 7)
        XCTAssertEqual(summary.recordsResolved, 2)
        XCTAssertEqual(
            rows[0],
            #"{"id":7,"lat":5,"lon":15,"meta":{"speed":[1,2]},"note":"a \"b\"","country_iso2":"BB","suggested_iso2":"BB","suggestion_reason":"inside","distance_km":0.000,"time_zone":null,"error":null}"#
        )
        XCTAssertEqual(
            rows[1],
            #"{"latitude":"5.5","longitude":"5.5","country_iso2":"AA","suggested_iso2":"AA","suggestion_reason":"inside","distance_km":0.000,"time_zone":null,"error":null}"#
        )
        XCTAssertTrue(rows[2].contains(#""error":"line 4: longitude -200.0 is outside -180…180""#), rows[2])
        XCTAssertTrue(rows[3].hasPrefix(#"{"record":"{\"lat\":5,\"lon\":","#), rows[3])
        XCTAssertTrue(rows[3].contains("line 5: truncated JSON"), rows[3])
        XCTAssertTrue(rows[4].contains("line 6: not a JSON object"), rows[4])
        XCTAssertTrue(rows[5].contains("line 7: no latitude key (lat, latitude)"), rows[5])
        XCTAssertTrue(rows[6].contains("line 8: latitude is null"), rows[6])
        for row in rows {
            XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(row.utf8)), row)
        }
    }

    func testNDJSONToCSVKeepsTheOriginalObject() throws {
        let (text, _) = try resolveBatch(#"{"lat":5,"lon":15,"trace_id":"v1","x":"a,b"}"# + "\n", name: "a.jsonl") {
            $0.outputFormat = .csv
        }
        XCTAssertEqual(
            lines(text),
            [
                "lat,lon,time,trace_id,record,country_iso2,suggested_iso2,suggestion_reason,distance_km,time_zone,error",
                #"5,15,,v1,"{""lat"":5,""lon"":15,""trace_id"":""v1"",""x"":""a,b""}",BB,BB,inside,0.000,,"#,
            ])
    }

    let collection = """
        {"type":"FeatureCollection","name":"x","features":[
          {"type":"Feature","id":"road","geometry":{"type":"LineString","coordinates":[[5,5],[15,5],[15,-5],[500,1]]},
           "properties":{"kind":"road","coordTimes":["2024-05-01T10:00:00Z","2024-05-01T10:10:00Z","2024-05-01T10:20:00Z","2024-05-01T10:30:00Z"]}},
          {"type":"Feature","geometry":{"type":"Point","coordinates":[15.5,5.5,120]},"properties":{"name":"p, \\"q\\""}},
          {"type":"Feature","geometry":{"type":"Polygon","coordinates":[]},"properties":null},
          {"type":"Feature","geometry":null,"properties":{}}
        ]}
        """

    func testGeoJSONLineStringVerticesAreEachResolvedAsArrays() throws {
        let (text, summary) = try resolveBatch(collection, name: "a.geojson")
        XCTAssertEqual(summary.recordsRead, 7, "4 vertices + 1 point + 2 unusable features")
        XCTAssertEqual(summary.recordsInError, 3)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let features = try XCTUnwrap(json["features"] as? [[String: Any]])
        XCTAssertEqual(features.count, 4)
        XCTAssertEqual(features[0]["id"] as? String, "road")
        let road = try XCTUnwrap(features[0]["properties"] as? [String: Any])
        XCTAssertEqual(road["kind"] as? String, "road")
        XCTAssertEqual((road["vertex_country_iso2"] as? [Any])?.map { "\($0)" }, ["AA", "BB", "CC", "\(NSNull())"])
        let errors = try XCTUnwrap(road["vertex_error"] as? [Any])
        XCTAssertTrue(errors[0] is NSNull)
        XCTAssertTrue("\(errors[3])".contains("feature 1: vertex 4: longitude 500.0 is outside"), "\(errors[3])")
        let point = try XCTUnwrap(features[1]["properties"] as? [String: Any])
        XCTAssertEqual(point["country_iso2"] as? String, "BB")
        XCTAssertEqual(point["name"] as? String, "p, \"q\"")
        XCTAssertTrue("\((features[2]["properties"] as? [String: Any])?["error"] ?? "")".contains("geometry type Polygon"))
        XCTAssertTrue("\((features[3]["properties"] as? [String: Any])?["error"] ?? "")".contains("line 6: feature 4: no geometry"))
        let trace = try XCTUnwrap(summary.traces.first { $0.traceID == "road" })
        XCTAssertEqual(trace.segments.map(\.country), ["AA", "BB", "CC"])
        XCTAssertEqual(trace.crossings.first?.time, "2024-05-01T10:05:00Z")
    }

    func testGeoJSONToCSVWritesARowPerVertex() throws {
        let (text, summary) = try resolveBatch(collection, name: "a.geojson") { $0.outputFormat = .csv }
        let rows = lines(text)
        XCTAssertEqual(rows.count, 1 + summary.recordsRead)
        XCTAssertEqual(
            rows[0],
            "feature,vertex,lat,lon,time,trace_id,properties,country_iso2,suggested_iso2,suggestion_reason,distance_km,time_zone,error")
        XCTAssertTrue(rows[2].hasPrefix("1,2,5,15,2024-05-01T10:10:00Z,road,"), rows[2])
        XCTAssertTrue(rows[2].hasSuffix(",BB,BB,inside,0.000,,"), rows[2])
        XCTAssertTrue(rows[5].hasPrefix("2,1,5.5,15.5,,feature 2,"), rows[5])
    }

    func testEmptyFeatureCollectionGivesAnEmptyOne() throws {
        let (text, summary) = try resolveBatch(#"{"type":"FeatureCollection","features":[]}"#, name: "e.geojson")
        XCTAssertEqual(summary.recordsRead, 0)
        let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        XCTAssertEqual((json?["features"] as? [Any])?.count, 0)
    }
}
