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
        XCTAssertEqual(value, .object(["a": .array([.number(1), .number(2.5), .string("x"), .bool(true), .null]),
                                       "b": .object(["c": .string("d")])]))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        XCTAssertEqual(String(decoding: try encoder.encode(value), as: UTF8.self), text)
    }
}
