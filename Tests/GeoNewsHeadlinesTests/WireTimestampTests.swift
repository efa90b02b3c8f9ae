import XCTest

@testable import GeoNewsHeadlines

final class WireTimestampTests: XCTestCase {
    func testRFC2822WithWeekdayAndGMT() {
        XCTAssertEqual(WireTimestamp.rfc2822("Wed, 01 May 2024 09:30:00 GMT")?.timeIntervalSince1970, 1_714_555_800)
    }

    func testRFC2822NumericOffsetIsConvertedToUTC() {
        XCTAssertEqual(WireTimestamp.rfc2822("Wed, 01 May 2024 11:30:00 +0200"), WireTimestamp.rfc2822("Wed, 01 May 2024 09:30:00 GMT"))
        XCTAssertEqual(WireTimestamp.rfc2822("Tue, 30 Apr 2024 23:30:00 -0400"), WireTimestamp.rfc2822("Wed, 01 May 2024 03:30:00 UT"))
    }

    func testRFC2822WithoutWeekdayOrSecondsAndNamedZone() {
        XCTAssertEqual(WireTimestamp.rfc2822("1 May 2024 05:30 EDT"), WireTimestamp.rfc2822("Wed, 01 May 2024 09:30:00 GMT"))
    }

    func testRFC2822RejectsGarbage() {
        XCTAssertNil(WireTimestamp.rfc2822("yesterday"))
        XCTAssertNil(WireTimestamp.rfc2822("Wed, 01 Foo 2024 09:30:00 GMT"))
        XCTAssertNil(WireTimestamp.rfc2822("Wed, 01 May 2024 25:30:00 GMT"))
        XCTAssertNil(WireTimestamp.rfc2822("Wed, 01 May 2024 09:30:00 +02"))
    }

    func testISO8601WithFractionAndOffsets() {
        XCTAssertEqual(WireTimestamp.iso8601("2024-05-01T09:30:00Z")?.timeIntervalSince1970, 1_714_555_800)
        XCTAssertEqual(WireTimestamp.iso8601("2024-05-01T09:30:00.25Z")?.timeIntervalSince1970, 1_714_555_800.25)
        XCTAssertEqual(WireTimestamp.iso8601("2024-05-01T11:30:00+02:00")?.timeIntervalSince1970, 1_714_555_800)
        XCTAssertEqual(WireTimestamp.iso8601("2024-05-01T09:30:00+0000")?.timeIntervalSince1970, 1_714_555_800)
        XCTAssertNil(WireTimestamp.iso8601("2024-05-01"))
        XCTAssertNil(WireTimestamp.iso8601("2024-13-01T09:30:00Z"))
    }

    func testISO8601StringRoundTripsAcrossLeapDayAndEpoch() {
        for text in ["2024-02-29T23:59:59Z", "1970-01-01T00:00:00Z", "1969-12-31T23:00:00Z", "2100-03-01T00:00:00Z"] {
            XCTAssertEqual(WireTimestamp.iso8601String(WireTimestamp.iso8601(text)!), text)
        }
    }
}
