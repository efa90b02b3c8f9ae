import GeoNewsGeodesy
import XCTest

final class CoordinateParsingTests: XCTestCase {
    func testPlainDecimalsWithSignsAndExponentsAreTaken() throws {
        XCTAssertEqual(
            try Coordinate(parsingLatitude: "-33.9249", longitude: "18.4241"), Coordinate(latitude: -33.9249, longitude: 18.4241))
        XCTAssertEqual(try Coordinate(parsingLatitude: "+9e1", longitude: " -1.8E2"), Coordinate(latitude: 90, longitude: -180))
    }

    func testEveryMessageEchoesTheTextAsTyped() {
        let cases: [(String, String, String)] = [
            ("1e400", "0", "latitude 1e400 is not a finite number"),
            ("0", "-1e999", "longitude -1e999 is not a finite number"),
            ("nan", "0", "latitude nan is not a finite number"),
            ("0", "-Infinity", "longitude -Infinity is not a finite number"),
            ("91.20", "0", "latitude 91.20 is outside -90…90"),
            ("0", "-181", "longitude -181 is outside -180…180"),
            ("abc", "0", "latitude 'abc' is not a number"),
            ("0x10", "0", "latitude '0x10' is not a number"),
            ("", "0", "latitude '' is not a number"),
        ]
        for (lat, lon, message) in cases {
            XCTAssertThrowsError(try Coordinate(parsingLatitude: lat, longitude: lon), "\(lat),\(lon)") {
                XCTAssertEqual("\($0)", message)
            }
        }
    }

    func testOneLeadingSpaceIsTakenAndNonASCIIDigitsAreNot() throws {
        XCTAssertEqual(try Coordinate.parseDegrees(" 12.5", field: "latitude"), 12.5)
        for text in ["  12.5", "12.5 ", "\u{663}", "\u{FF11}\u{FF12}", "1\u{301}2", " \u{301}12", "12\u{0}", "\t12", "1_000"] {
            XCTAssertThrowsError(try Coordinate.parseDegrees(text, field: "latitude"), text) {
                XCTAssertEqual($0 as? CoordinateInputError, .notANumber(field: "latitude", text: text))
            }
        }
    }
}
