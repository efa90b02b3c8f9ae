import XCTest

@testable import GeoNewsGeodesy

/// `Coordinate(parsingPair:)`: the `LAT,LON` text of `geonews distance`.
final class CoordinatePairParsingTests: XCTestCase {
    func testNegativeAndSpacedPairsParse() throws {
        XCTAssertEqual(try Coordinate(parsingPair: "-33.9,18.4"), Coordinate(latitude: -33.9, longitude: 18.4))
        XCTAssertEqual(try Coordinate(parsingPair: " 51.5 , -0.1 "), Coordinate(latitude: 51.5, longitude: -0.1))
        XCTAssertEqual(try Coordinate(parsingPair: "-90,180"), Coordinate(latitude: -90, longitude: 180))
    }

    func testEveryMessageQuotesTheText() {
        let cases = [
            ("abc", "'abc' is not LAT,LON"),
            ("1,2,3", "'1,2,3' is not LAT,LON"),
            ("91,0", "'91,0': latitude 91 is outside -90…90"),
            ("0,-181", "'0,-181': longitude -181 is outside -180…180"),
            ("x,1", "'x,1': latitude 'x' is not a number"),
            ("1e400,0", "'1e400,0': latitude 1e400 is not a finite number"),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try Coordinate(parsingPair: text)) { XCTAssertEqual("\($0)", message, text) }
        }
    }

    func testNegativeNumbersAreToldFromOptions() {
        for word in ["-33.9,18.4", "-.5,1", "-0"] { XCTAssertTrue(Coordinate.looksLikeNegativeNumber(word), word) }
        for word in ["--json", "-h", "-", "--", "33.9,18.4"] { XCTAssertFalse(Coordinate.looksLikeNegativeNumber(word), word) }
    }
}
