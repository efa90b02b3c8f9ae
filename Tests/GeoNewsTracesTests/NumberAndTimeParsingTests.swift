import GeoNewsBenchmarking
import GeoNewsBoundaries
import GeoNewsTimeZones
import XCTest

@testable import GeoNewsTraces

final class NumberAndTimeParsingTests: XCTestCase {
    private func parse(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer { DecimalParser.parse($0) }
    }

    func testDecimalsAgreeWithTheStandardLibraryToTheLastBit() {
        var generator = TestRandom.generator(for: "NumberAndTimeParsingTests.\(#function)")
        for _ in 0..<20_000 {
            let value = Double.random(in: -180...180, using: &generator)
            for digits in [0, 1, 4, 6, 9, 15, 17] {
                let text = String(format: "%.\(digits)f", value)
                XCTAssertEqual(parse(text), Double(text), text)
            }
        }
        for text in ["0", "-0.0", "+12.5", " 45.1 ", "1e2", "-1.5E-3", "123456789012345678901234.5", "0.000000000000000000000001"] {
            XCTAssertEqual(parse(text), Double(text.trimmingCharacters(in: " ")), text)
        }
    }

    /// The pair of the plain form, with one division for both, gives each number's own value;
    /// anything else is left to the general parse.
    func testAPlainPairIsParsedAsEachAlone() {
        var generator = TestRandom.generator(for: "NumberAndTimeParsingTests.\(#function)")
        func pair(_ a: String, _ b: String) -> (Double, Double)? {
            Array(a.utf8).withUnsafeBufferPointer { x in Array(b.utf8).withUnsafeBufferPointer { y in DecimalParser.parsePlainPair(x, y) } }
        }
        for _ in 0..<20_000 {
            let a = String(format: "%.\(Int.random(in: 0...9, using: &generator))f", Double.random(in: -90...90, using: &generator))
            let b = String(format: "%.\(Int.random(in: 0...12, using: &generator))f", Double.random(in: -180...180, using: &generator))
            let both = pair(a, b)
            XCTAssertEqual(both?.0, Double(a), a)
            XCTAssertEqual(both?.1, Double(b), b)
            XCTAssertEqual(both?.0.sign, Double(a)?.sign, a)
        }
        XCTAssertEqual(pair("-0.0", "0")?.0.sign, .minus)
        XCTAssertEqual(pair("1.", ".5").map { [$0.0, $0.1] }, [1, 0.5])
        XCTAssertEqual(pair("9007199254740992", "0.1").map { [$0.0, $0.1] }, [9_007_199_254_740_992, 0.1])
        for (a, b) in [
            ("+1", "2"), (" 1", "2"), ("1", "2 "), ("1e5", "2"), ("1", "-"), ("", "2"), ("1", "."), ("12345678901234567.8", "1"),
            ("9007199254740993", "1"), ("1", "nan"), ("1.2.3", "4"),
        ] {
            XCTAssertNil(pair(a, b), "\(a) \(b)")
        }
    }

    func testWordsAndFragmentsAreNotNumbers() {
        for text in ["", " ", "-", ".", "nan", "inf", "0x1p3", "1,5", "12a", "1.2.3", "--1"] {
            XCTAssertNil(parse(text), text)
        }
    }

    func testTimesInISO8601AndEpochSeconds() {
        XCTAssertEqual(FixTime.epochSeconds("2024-05-01T12:30:00Z"), 1_714_566_600)
        XCTAssertEqual(FixTime.epochSeconds("2024-05-01 14:30:00+02:00"), 1_714_566_600)
        XCTAssertEqual(FixTime.epochSeconds("2024-05-01T12:30:00.250Z"), 1_714_566_600.25)
        XCTAssertEqual(FixTime.epochSeconds("2024-05-01"), 1_714_521_600)
        XCTAssertEqual(FixTime.epochSeconds("1714566600"), 1_714_566_600)
        XCTAssertNil(FixTime.epochSeconds("yesterday"))
        XCTAssertNil(FixTime.epochSeconds("2024-13-01T00:00:00Z"))
        XCTAssertEqual(FixTime.iso8601(1_714_566_600.25), "2024-05-01T12:30:00.250Z")
        XCTAssertEqual(FixTime.iso8601(951_782_400), "2000-02-29T00:00:00Z")
    }

    func testLocalTimesCarryTheirOffsetAndCrossMidnightBothWays() {
        XCTAssertEqual(FixTime.iso8601(1_714_566_600.25, offset: UTCOffset(seconds: 20_700)), "2024-05-01T18:15:00.250+05:45")
        XCTAssertEqual(FixTime.iso8601(951_782_400, offset: UTCOffset(seconds: -36_000)), "2000-02-28T14:00:00-10:00")
        XCTAssertEqual(FixTime.iso8601(951_775_200, offset: UTCOffset(seconds: 49_500)), "2000-02-29T11:45:00+13:45")
    }
}
