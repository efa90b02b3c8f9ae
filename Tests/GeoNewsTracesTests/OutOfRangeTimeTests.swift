import XCTest

@testable import GeoNewsTraces

/// Fix times beyond the years 1…9999 count as no time: the summary's crossing times are
/// worked out in whole days and seconds, which such a time would overflow.
final class OutOfRangeTimeTests: XCTestCase {
    func testEpochSecondsBeyondTheYear9999AreNoTime() {
        XCTAssertEqual(FixTime.epochSeconds("1714566600"), 1_714_566_600)
        XCTAssertEqual(FixTime.epochSeconds("253402300799"), 253_402_300_799, "9999-12-31T23:59:59Z")
        for text in ["253402300800", "1e300", "-1e300", "1e400", "-62135596801", "0000-01-01T00:00:00Z"] {
            XCTAssertNil(FixTime.epochSeconds(text), text)
        }
        XCTAssertEqual(FixTime.iso8601(1e300), "1e+300")
        XCTAssertEqual(FixTime.iso8601(253_402_300_799), "9999-12-31T23:59:59Z")
    }

    func testATraceWithHugeTimesIsSummarisedWithoutCrossingTimes() throws {
        let input = "lat,lon,time,trace_id\n5,5,1e300,a\n5,15,2e300,a\n5,16,1e308,a\n"
        let (text, summary) = try resolveBatch(input)
        XCTAssertEqual(lines(text).count, 4)
        let trace = try XCTUnwrap(summary.traces.first)
        XCTAssertEqual(trace.segments.map(\.country), ["AA", "BB"])
        XCTAssertEqual(trace.crossings.count, 1)
        XCTAssertEqual(trace.crossings[0].time, "2e300", "no midpoint of two times that are none: the later fix's, as written")
        XCTAssertFalse(summary.text().isEmpty)
        XCTAssertFalse(summary.json().isEmpty)
    }
}
