import Foundation
import GeoNewsJSON
import XCTest

final class JSONStringTests: XCTestCase {
    func testQuotesBackslashesAndControlCharactersAreEscaped() {
        XCTAssertEqual(JSONString.quoted("a\"b\\c\nd\re\tf\u{1}g"), #""a\"b\\c\nd\re\tf\u0001g""#)
        XCTAssertEqual(JSONString.quoted("\u{1f}"), #""\u001f""#)
    }

    func testSlashesAndNonASCIITextAreKeptAsTheyAre() {
        XCTAssertEqual(JSONString.quoted("a/b 日本 é"), "\"a/b 日本 é\"")
        XCTAssertEqual(JSONString.quoted(""), "\"\"")
    }

    func testEveryStringRoundTripsThroughFoundationsDecoder() throws {
        var all = ""
        for v in 0..<0x80 { all.unicodeScalars.append(Unicode.Scalar(v)!) }
        for text in [all, "Zürich \u{7f} \u{2028} 🇫🇷", "\u{0}"] {
            let decoded = try JSONDecoder().decode(String.self, from: Data(JSONString.quoted(text).utf8))
            XCTAssertEqual(decoded, text)
        }
    }

    func testJSONValueKeepsEveryKindOfValue() throws {
        let text = #"{"a":[1,2.5,"x",true,null],"b":{"c":"d"}}"#
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        XCTAssertEqual(
            value,
            .object([
                "a": .array([.number(1), .number(2.5), .string("x"), .bool(true), .null]),
                "b": .object(["c": .string("d")]),
            ]))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        XCTAssertEqual(String(decoding: try encoder.encode(value), as: UTF8.self), text)
    }
}

final class JSONOutputTests: XCTestCase {
    func testNumbersAreWrittenAsJSONEncoderWritesThem() throws {
        let values: [Double] = [
            0, -0.0, 1, -3, 48.8566, 0.1 + 0.2, 1e-5, 1e-7, 0.0001, 12.5, 1e15, 2.5e15, 9_007_199_254_740_992,
            9_007_199_254_740_994, 1e16, 1.2345678901234568e20, .leastNonzeroMagnitude, .greatestFiniteMagnitude, -180, 179.999999,
        ]
        for value in values {
            var out = JSONOutput()
            try out.number(value)
            XCTAssertEqual(String(decoding: out.bytes, as: UTF8.self), String(decoding: try JSONEncoder().encode(value), as: UTF8.self))
        }
        var out = JSONOutput()
        XCTAssertThrowsError(try out.number(.nan))
        out.number(-3600)
        XCTAssertEqual(out.bytes, Array("-3600".utf8))
    }

    func testObjectMembersAreSortedByTheirUTF8Bytes() throws {
        let value = JSONValue.object([
            "aa": .number(1), "aB": .null, "a10": .string("x/y"), "a9": .bool(true), "_": .array([]),
            "Z": .object(["b": .bool(false), "a": .number(0.5)]), "é": .string("\""),
        ])
        var out = JSONOutput()
        try out.value(value)
        XCTAssertEqual(
            String(decoding: out.bytes, as: UTF8.self),
            #"{"Z":{"a":0.5,"b":false},"_":[],"a10":"x/y","a9":true,"aB":null,"aa":1,"é":"\""}"#)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        XCTAssertEqual(out.bytes, Array(try encoder.encode(value)))
    }
}
