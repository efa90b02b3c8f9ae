import Foundation
import XCTest

@testable import GeoNewsTraces

/// Records are copied into output rows verbatim, so a value outside JSON's grammar must make
/// its record an error row: every output line (and every GeoJSON output) must parse.
final class InvalidJSONValueTests: XCTestCase {
    /// Values RFC 8259 refuses, as the bytes that follow `"bad":`.
    static let invalidValues: [[UInt8]] =
        [
            "1-2-3", "-", "1.", "01", "-01", "1e", "1e+", "1.e5", "+1", ".5", "NaN", "-Infinity", "0x10", "1..2",
            #""\x41""#, #""\u12""#, #""\u12G4""#, #""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, #""\ud800x""#,
            "\"a\tb\"", "\"a\u{1}b\"", "[1,]", "{\"a\":01}", "[\"\\q\"]",
        ].map { Array($0.utf8) } + [
            [0x22, 0xFF, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xE2, 0x82, 0x22],
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],
        ]

    /// Values it accepts, which must stay exactly as written.
    static let validValues = [
        "0", "-0", "-0.5e+3", "12.25E-2", "1E5", #""\u00e9\n\/""#, #""\ud83d\ude00""#, "\"é😀\"", "[]", "{}",
        #"{"a":[1,{"b":null}],"c":true}"#,
    ]

    private func run(_ input: [UInt8], name: String, output: RecordFormat? = nil) throws -> String {
        var options = BatchResolveOptions()
        options.outputFormat = output
        let collected = CollectedBytes()
        _ = try BatchResolver(resolver: BoxResolver(), options: options)
            .run(inputs: [.bytes(input, name: name)], output: .memory(collected))
        return collected.text
    }

    private func record(_ value: [UInt8]) -> [UInt8] {
        Array(#"{"id":1,"lat":5,"lon":5,"bad":"#.utf8) + value + Array("}\n".utf8)
    }

    func testAnInvalidValueMakesAnErrorRowAndEveryLineParses() throws {
        for value in Self.invalidValues {
            let shown = String(decoding: value, as: UTF8.self)
            let text = try run(record(value), name: "a.ndjson")
            let rows = lines(text)
            XCTAssertEqual(rows.count, 1, shown)
            let row = try XCTUnwrap(
                try? JSONSerialization.jsonObject(with: Data(rows[0].utf8)) as? [String: Any],
                "\(shown) gave a line that is not JSON: \(rows[0])")
            XCTAssertTrue((row["error"] as? String)?.hasPrefix("line 1: invalid JSON") == true, "\(shown): \(rows[0])")
            XCTAssertNotNil(row["record"] as? String, "\(shown): the original line is kept as text")
            XCTAssertTrue(row["country_iso2"] is NSNull, shown)
        }
    }

    func testInvalidValuesAreErrorRowsInCSVAndGeoJSONOutputToo() throws {
        let input = Self.invalidValues.flatMap(record)
        let csv = try run(input, name: "a.ndjson", output: .csv)
        XCTAssertEqual(lines(csv).count, Self.invalidValues.count + 1, "a header and a row per record")
        let geojson = try run(input, name: "a.ndjson", output: .geojson)
        let collection = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(geojson.utf8)) as? [String: Any], geojson)
        let features = try XCTUnwrap(collection["features"] as? [[String: Any]])
        XCTAssertEqual(features.count, Self.invalidValues.count)
        for feature in features {
            XCTAssertNotNil((feature["properties"] as? [String: Any])?["error"] as? String)
        }
    }

    func testValidValuesAreCopiedVerbatimAndTheRecordResolves() throws {
        for value in Self.validValues {
            let rows = lines(try run(record(Array(value.utf8)), name: "a.ndjson"))
            XCTAssertEqual(rows.count, 1)
            XCTAssertTrue(rows[0].hasPrefix(#"{"id":1,"lat":5,"lon":5,"bad":\#(value),"country_iso2":"AA""#), rows[0])
            let row = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(rows[0].utf8)) as? [String: Any], rows[0])
            XCTAssertTrue(row["error"] is NSNull, "\(value): \(rows[0])")
        }
    }

    func testMessagesSayWhatIsWrong() throws {
        let expected = [
            "1-2-3": "unexpected '-' at byte 32", "1.": "the number at byte 31 is not of the form",
            #""\x41""#: "the escape at byte 32 is not one of", #""\ud800""#: "half of a UTF-16 surrogate pair",
        ]
        for (value, message) in expected {
            let row = try XCTUnwrap(
                try JSONSerialization.jsonObject(with: Data(lines(try run(record(Array(value.utf8)), name: "a.ndjson"))[0].utf8))
                    as? [String: Any])
            XCTAssertTrue((row["error"] as? String ?? "").contains(message), "\(value): \(row["error"] ?? "")")
        }
        let bytes = lines(try run(record([0x22, 0xFF, 0x22]), name: "a.ndjson"))[0]
        XCTAssertTrue(bytes.contains("bytes that are not UTF-8 at byte 32"), bytes)
        XCTAssertTrue(bytes.contains("\u{FFFD}"), "the record keeps the text, with U+FFFD for the bad byte: \(bytes)")
    }

    func testAnInvalidValueInAGeoJSONFeatureMakesItAnErrorFeature() throws {
        let input = """
            {"type":"FeatureCollection","features":[
              {"type":"Feature","geometry":{"type":"Point","coordinates":[5,5]},"properties":{"bad":1-2-3}},
              {"type":"Feature","geometry":{"type":"Point","coordinates":[5,5]},"properties":{"s":"\\ud800"}},
              {"type":"Feature","geometry":{"type":"LineString","coordinates":[[5,5],[15,01]]},"properties":{}},
              {"type":"Feature","geometry":{"type":"Point","coordinates":[5,5]},"properties":{"ok":-0.5e+3}}
            ]}
            """
        let text = try run(Array(input.utf8), name: "a.geojson")
        let collection = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
        let properties = try XCTUnwrap(collection["features"] as? [[String: Any]]).map { $0["properties"] as? [String: Any] ?? [:] }
        XCTAssertEqual(properties.count, 4)
        for p in properties.prefix(3) {
            XCTAssertTrue((p["error"] as? String)?.contains("invalid JSON") == true, "\(p)")
        }
        XCTAssertTrue(properties[3]["error"] is NSNull)
        XCTAssertEqual(properties[3]["country_iso2"] as? String, "AA")
    }
}
